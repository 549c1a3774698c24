import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Clock from './clock.js'
import { createCodes } from './codes.js'

/** A clock on a wall clock the test moves. */
function setup() {
  let wall = Date.UTC(2026, 0, 1)
  const clock = Clock.create({ wall: () => wall })
  return { clock, tick: (ms: number) => (wall += ms), wall: () => wall }
}

describe('Clock.create', () => {
  test('default: the wall clock, offset 0', () => {
    const { clock } = setup()
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect(clock.offsetMs).toBe(0)
  })

  test('behavior: advance moves now and offsetMs, and the wall clock goes on', () => {
    const { clock, tick } = setup()
    expect(clock.advance(86_400_000).toISOString()).toBe(
      '2026-01-02T00:00:00.000Z',
    )
    expect(clock.offsetMs).toBe(86_400_000)
    tick(1_000)
    expect(clock.now().toISOString()).toBe('2026-01-02T00:00:01.000Z')
    clock.advance(500)
    expect(clock.offsetMs).toBe(86_400_500)
  })

  test('behavior: advancedSince counts only the moves made after the time given', () => {
    const { clock, tick, wall } = setup()
    const before = wall()
    tick(10)
    clock.advance(60_000)
    tick(10)
    const between = wall()
    tick(10)
    clock.advance(1_000)
    expect(clock.advancedSince(before)).toBe(61_000)
    expect(clock.advancedSince(between)).toBe(1_000)
    expect(clock.advancedSince(wall() + 1)).toBe(0)
  })

  test('behavior: advance(0) changes nothing', () => {
    const { clock } = setup()
    clock.advance(0)
    expect(clock.offsetMs).toBe(0)
    expect(clock.advancedSince(0)).toBe(0)
  })

  test.each([
    -1,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '5' as unknown as number,
  ])('error: advance(%s) is refused and moves nothing', (ms) => {
    const { clock } = setup()
    expect(() => clock.advance(ms)).toThrowError(Clock.InvalidAdvanceError)
    expect(() => clock.advance(ms)).toThrowError(/moves forward only/)
    expect(clock.offsetMs).toBe(0)
  })

  test('error: beyond the furthest offset is refused', () => {
    const { clock } = setup()
    clock.advance(Clock.maxOffsetMs)
    expect(() => clock.advance(1)).toThrowError(
      'The clock may be at most 36500 days ahead; it is 36500 days ahead now.',
    )
    expect(clock.offsetMs).toBe(Clock.maxOffsetMs)
  })

  test('behavior: past the most moves remembered, the oldest is forgotten', () => {
    const { clock, tick } = setup()
    for (let i = 0; i < Clock.maxMoves + 1; i++) {
      tick(1)
      clock.advance(1)
    }
    expect(clock.offsetMs).toBe(Clock.maxMoves + 1)
    // A time before every move ages by the moves still remembered.
    expect(clock.advancedSince(0)).toBe(Clock.maxMoves)
  })

  test('behavior: a login code expires once the clock is advanced past its lifetime', () => {
    const { clock } = setup()
    const codes = createCodes({ now: clock.now })
    const code = codes.issue('email:ada@example.com')
    clock.advance(10 * 60 * 1000)
    expect(codes.check('email:ada@example.com', code)).toBe('expired')
  })
})

describe('Clock.tokenCheckTime', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  test('behavior: a token ages by the moves after its second, not by one within it', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1, 0, 0, 0, 500) })
    const clock = Clock.create()
    const before = Date.UTC(2026, 0, 1) / 1000 - 10
    const sameSecond = Date.UTC(2026, 0, 1) / 1000
    clock.advance(86_400_000)
    expect(
      Clock.tokenCheckTime(before, clock.advancedSince).toISOString(),
    ).toBe('2026-01-02T00:00:00.500Z')
    expect(
      Clock.tokenCheckTime(sameSecond, clock.advancedSince).toISOString(),
    ).toBe('2026-01-01T00:00:00.500Z')
    expect(
      Clock.tokenCheckTime(undefined, clock.advancedSince).toISOString(),
    ).toBe('2026-01-01T00:00:00.500Z')
  })
})
