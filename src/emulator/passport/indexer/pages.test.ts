import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createCursors, paginate, sortable } from './pages.js'

const cursors = createCursors()
const route = 'ListThings'
const keyOf = (n: number) => sortable(n, 6)

describe('paginate', () => {
  test('behavior: walks forward page by page and back again, null cursors at both ends', () => {
    const items = [1, 2, 3, 4, 5]
    const first = paginate(items, keyOf, { route, size: 2, cursors })
    expect(first.result).toEqual([1, 2])
    expect(first.page.previous_cursor).toBe(null)
    const second = paginate(items, keyOf, {
      route,
      size: 2,
      cursors,
      cursor: cursors.decode(first.page.next_cursor!, route),
    })
    expect(second.result).toEqual([3, 4])
    const third = paginate(items, keyOf, {
      route,
      size: 2,
      cursors,
      cursor: cursors.decode(second.page.next_cursor!, route),
    })
    expect(third.result).toEqual([5])
    expect(third.page.next_cursor).toBe(null)
    const back = paginate(items, keyOf, {
      route,
      size: 2,
      cursors,
      cursor: cursors.decode(third.page.previous_cursor!, route),
    })
    expect(back.result).toEqual([3, 4])
    const start = paginate(items, keyOf, {
      route,
      size: 2,
      cursors,
      cursor: cursors.decode(back.page.previous_cursor!, route),
    })
    expect(start).toEqual(first)
  })

  test('behavior: a cursor past items that went away still leads back', () => {
    const first = paginate([1, 2, 3], keyOf, { route, size: 2, cursors })
    const after = paginate([1], keyOf, {
      route,
      size: 2,
      cursors,
      cursor: cursors.decode(first.page.next_cursor!, route),
    })
    expect(after.result).toEqual([])
    expect(after.page.next_cursor).toBe(null)
    const back = paginate([1], keyOf, {
      route,
      size: 2,
      cursors,
      cursor: cursors.decode(after.page.previous_cursor!, route),
    })
    expect(back.result).toEqual([1])
  })

  test('behavior: forward pages cover every item once, in order, whatever the size', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(1_000), { maxLength: 40 }),
        fc.integer({ min: 1, max: 7 }),
        (values, size) => {
          const items = [...values].sort((a, b) => a - b)
          const seen: number[] = []
          let cursor: string | null = null
          do {
            const page: ReturnType<typeof paginate<number>> = paginate(
              items,
              keyOf,
              {
                route,
                size,
                cursors,
                cursor:
                  cursor === null ? undefined : cursors.decode(cursor, route),
              },
            )
            seen.push(...page.result)
            cursor = page.page.next_cursor
          } while (cursor !== null)
          expect(seen).toEqual(items)
        },
      ),
    )
  })
})

describe('createCursors', () => {
  test("error: an edited, foreign, other route's or malformed cursor is not read", () => {
    const cursor = cursors.encode({ route, direction: 'next', key: 'a' })
    expect(cursors.decode(cursor, route)).toEqual({
      route,
      direction: 'next',
      key: 'a',
    })
    const [payload, tag] = cursor.split('.') as [string, string]
    const forged = Buffer.from(JSON.stringify([route, 'n', 'b'])).toString(
      'base64url',
    )
    for (const bad of [
      `${forged}.${tag}`,
      `${payload}.${'A'.repeat(22)}`,
      createCursors().encode({ route, direction: 'next', key: 'a' }),
      '',
      'abc',
      `${payload}.`,
      'x'.repeat(5_000),
    ])
      expect(cursors.decode(bad, route)).toBe(undefined)
    expect(cursors.decode(cursor, 'ListOther')).toBe(undefined)
  })
})
