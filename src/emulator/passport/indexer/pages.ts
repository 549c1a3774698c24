/**
 * Cursor pagination as the platform API pages its lists: `page_size` items
 * (1 to 200, 100 by default) and a `page` of opaque cursors, the previous
 * page's before the first item and the next page's after the last, null at
 * either end.
 *
 * A cursor names the route it was issued for, a direction and the sort
 * key of the item it starts from, and is signed with the indexer's key: a
 * cursor the indexer did not issue (edited, forged, another route's) is
 * refused, never trusted.
 *
 * @packageDocumentation
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Page } from './schema.js'

/** `PageSize`'s default. */
export const defaultPageSize = 100

/** `PageSize`'s maximum. */
export const maxPageSize = 200

/** The longest cursor accepted. */
export const maxCursorLength = 2_048

/** A decoded cursor: the route, the direction and the boundary key. */
export type Cursor = {
  route: string
  direction: 'next' | 'previous'
  key: string
}

/** Signs and reads cursors with one key. */
export type Cursors = {
  encode(cursor: Cursor): string
  /** The cursor, or `undefined` when it was not issued for `route`. */
  decode(value: string, route: string): Cursor | undefined
}

/**
 * Creates a signer of cursors, with a new random key unless one is given
 * (cursors outlive no emulator run: a fresh chain has other items).
 */
export function createCursors(key: Uint8Array = randomBytes(32)): Cursors {
  const tag = (payload: string) =>
    createHmac('sha256', key).update(payload).digest().subarray(0, 16)
  return {
    encode(cursor) {
      const payload = Buffer.from(
        JSON.stringify([
          cursor.route,
          cursor.direction === 'next' ? 'n' : 'p',
          cursor.key,
        ]),
      ).toString('base64url')
      return `${payload}.${tag(payload).toString('base64url')}`
    },
    decode(value, route) {
      if (value.length > maxCursorLength) return undefined
      const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/.exec(value)
      if (!match) return undefined
      const [, payload = '', signature = ''] = match
      const given = Buffer.from(signature, 'base64url')
      const expected = tag(payload)
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return undefined
      try {
        const parsed: unknown = JSON.parse(
          Buffer.from(payload, 'base64url').toString('utf8'),
        )
        if (
          !Array.isArray(parsed) ||
          parsed.length !== 3 ||
          parsed[0] !== route ||
          (parsed[1] !== 'n' && parsed[1] !== 'p') ||
          typeof parsed[2] !== 'string'
        )
          return undefined
        return {
          route,
          direction: parsed[1] === 'n' ? 'next' : 'previous',
          key: parsed[2],
        }
      } catch {
        return undefined
      }
    },
  }
}

/**
 * One page of `items` (sorted by `keyOf`, ascending, keys unique): from
 * the start, or after (`next`) or before (`previous`) the cursor's key.
 *
 * @example
 * ```ts
 * const first = paginate(items, (item) => item.id, { route: 'ListNFTs', size: 2, cursors })
 * const second = paginate(items, (item) => item.id, {
 *   route: 'ListNFTs', size: 2, cursors,
 *   cursor: cursors.decode(first.page.next_cursor!, 'ListNFTs'),
 * })
 * ```
 */
export function paginate<item>(
  items: readonly item[],
  keyOf: (item: item) => string,
  options: {
    route: string
    size: number
    cursor?: Cursor | undefined
    cursors: Cursors
  },
): { result: item[]; page: Page } {
  const { route, size, cursor, cursors } = options
  const length = items.length
  let start = 0
  let end = Math.min(length, size)
  if (cursor?.direction === 'next') {
    start = firstIndex(items, keyOf, (key) => key > cursor.key)
    end = Math.min(length, start + size)
  } else if (cursor?.direction === 'previous') {
    end = firstIndex(items, keyOf, (key) => key >= cursor.key)
    start = Math.max(0, end - size)
  }
  const result = items.slice(start, end)
  const previous =
    start > 0
      ? cursors.encode({
          route,
          direction: 'previous',
          // Everything before the page's first item (or before the end).
          key:
            start < length
              ? keyOf(items[start]!)
              : `${keyOf(items[length - 1]!)}\u0000`,
        })
      : null
  const next =
    end < length
      ? cursors.encode({
          route,
          direction: 'next',
          key: end > 0 ? keyOf(items[end - 1]!) : '',
        })
      : null
  return { result, page: { previous_cursor: previous, next_cursor: next } }
}

/** The first index whose key passes `test` (keys ascend), else the length. */
function firstIndex<item>(
  items: readonly item[],
  keyOf: (item: item) => string,
  test: (key: string) => boolean,
): number {
  let low = 0
  let high = items.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (test(keyOf(items[middle]!))) high = middle
    else low = middle + 1
  }
  return low
}

/** Sorts by a string key, ascending. */
export function byKey<item>(keyOf: (item: item) => string) {
  return (a: item, b: item) => {
    const x = keyOf(a)
    const y = keyOf(b)
    return x < y ? -1 : x > y ? 1 : 0
  }
}

/** A non-negative integer as a fixed-width string that sorts numerically. */
export function sortable(value: bigint | number, width = 78): string {
  return value.toString().padStart(width, '0')
}
