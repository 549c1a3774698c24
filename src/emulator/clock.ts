/**
 * The services' clock: one time every emulated service reads when it decides
 * whether something has expired (login codes, links, sessions, stored
 * grants, DPoP proofs' window, the times it records). A test moves it
 * forward (time travel) to see what a day or a week later does, without
 * waiting; it never goes back, as the services' stores assume.
 *
 * What leaves the emulator is stamped with the wall clock instead: the
 * devices and the dApps' backends that read a token's `iat`/`exp` are not
 * moved with it. Each token still lives its lifetime on the services'
 * clock: {@link Clock.advancedSince} says how far the clock moved after a
 * token was issued, which a service adds to the wall clock when it checks
 * that token.
 *
 * @packageDocumentation
 */
import { BaseError } from '../core/Errors.js'

/** The services' shared clock. */
export type Clock = {
  /** The services' time: the wall clock plus {@link Clock.offsetMs}. */
  now(): Date
  /**
   * Moves the clock forward by `ms`.
   *
   * @returns The new time.
   * @throws {InvalidAdvanceError} If `ms` is not a finite number from 0,
   *   or would take the clock beyond {@link maxOffsetMs} ahead.
   */
  advance(ms: number): Date
  /** How far ahead of the wall clock the services' time is, in ms. */
  readonly offsetMs: number
  /**
   * How far the clock has moved since the wall-clock time `at` (ms since
   * the epoch): what a token issued at `at` has aged beyond the wall clock.
   * 0 for a time after the last move. Tokens give their `iat` in whole
   * seconds, so the services pass the end of that second: a move within
   * it counts as after the token (a token issued right after a move must
   * not age by it).
   */
  advancedSince(at: number): number
}

/**
 * The furthest the clock may move ahead: about 100 years (36,500 days). It
 * keeps every date the services compute (a time plus a lifetime) within
 * what `Date` and the chain's timestamps hold.
 */
export const maxOffsetMs = 36_500 * 24 * 60 * 60 * 1000

/**
 * The most moves remembered for {@link Clock.advancedSince}: 10,000, far
 * more than a test run makes. Past it the oldest is forgotten, and a token
 * issued before the moves still remembered ages by those only.
 */
export const maxMoves = 10_000

/**
 * Creates a clock at the wall clock's time (offset 0).
 *
 * @example
 * ```ts
 * const clock = Clock.create()
 * clock.advance(24 * 60 * 60 * 1000) // a day later for every service
 * clock.offsetMs // 86400000
 * ```
 *
 * @param options.wall - The wall clock, ms since the epoch. @default Date.now
 */
export function create(options: create.Options = {}): Clock {
  const { wall = Date.now } = options
  let offset = 0
  /** Each move: the wall time it was made at and the offset after it. */
  const moves: { at: number; offset: number }[] = []
  /** The offset of every move folded away. */
  let folded = 0
  return {
    now: () => new Date(wall() + offset),
    advance(ms) {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
        throw new InvalidAdvanceError(
          `The clock moves forward only, by a finite number of ms from 0, not ${String(ms)}.`,
        )
      if (offset + ms > maxOffsetMs)
        throw new InvalidAdvanceError(
          `The clock may be at most ${maxOffsetMs / 86_400_000} days ahead; it is ${Math.floor(offset / 86_400_000)} days ahead now.`,
        )
      if (ms > 0) {
        offset += ms
        moves.push({ at: wall(), offset })
        if (moves.length > maxMoves) folded = moves.shift()?.offset ?? folded
      }
      return new Date(wall() + offset)
    },
    get offsetMs() {
      return offset
    },
    advancedSince(at) {
      // The offset in force at `at`: the last move made by then.
      let then = folded
      for (const move of moves) {
        if (move.at > at) break
        then = move.offset
      }
      return offset - then
    },
  }
}

export declare namespace create {
  type Options = {
    /** The wall clock, ms since the epoch. @default Date.now */
    wall?: (() => number) | undefined
  }
}

/**
 * The time to check a token issued at `iat` (seconds since the epoch, as
 * JWTs say it) against, so that it lives its lifetime on the services'
 * clock: the wall clock plus how far the services' clock has moved since
 * the token was issued. `iat` is in whole seconds, so a move within that
 * second counts as after the token: a token issued right after a move
 * must not age by it.
 *
 * @example
 * ```ts
 * await jose.jwtVerify(token, keys, {
 *   currentDate: tokenCheckTime(jose.decodeJwt(token).iat, clock.advancedSince),
 * })
 * ```
 *
 * @param iat - The token's `iat`; a token without one ages by no move.
 * @param advancedSince - {@link Clock.advancedSince}.
 */
export function tokenCheckTime(
  iat: unknown,
  advancedSince: (at: number) => number,
): Date {
  const wall = Date.now()
  const issuedAt =
    typeof iat === 'number' && Number.isFinite(iat) ? iat * 1000 + 999 : wall
  return new Date(wall + advancedSince(issuedAt))
}

/** Thrown when the clock is asked to move back or too far. */
export class InvalidAdvanceError extends BaseError<undefined> {
  override readonly name = 'Clock.InvalidAdvanceError'
}
