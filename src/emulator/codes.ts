/**
 * One-time codes (email, SMS, phone factor): 6 digits, one live code per
 * key, an expiry, an attempt limit and a send throttle.
 */
import { randomInt } from 'node:crypto'

/** Outcome of checking a code. */
export type Check = 'ok' | 'invalid' | 'expired' | 'max-attempts'

/** The code store. */
export type Codes = {
  /** Issues a new code for `key`; `undefined` when throttled. */
  issue(key: string): string | undefined
  /**
   * Counts one send for `key` without issuing a code (links).
   *
   * @returns `false` when throttled.
   */
  throttle(key: string): boolean
  /** Checks `code`; a matching code is used up. */
  check(key: string, code: unknown): Check
}

/** Code lifetime: 10 minutes. */
export const codeLifetime = 10 * 60 * 1000
/** Wrong codes allowed before the code is burnt: 5. */
export const maxAttempts = 5
/** Codes one key may be sent within {@link sendWindow}: 5. */
export const maxSends = 5
/** The throttle's sliding window: 10 minutes. */
export const sendWindow = 10 * 60 * 1000

/**
 * The most keys the store remembers, for live codes and for the throttle
 * each: 10,000. Any page can make a service send codes to addresses it
 * makes up, so what is kept per address is bounded: when full, what has
 * expired (codes past their lifetime, sends out of the throttle's window)
 * is dropped, then the least recently used key. A key is one address
 * signing in within ten minutes, which a developer or a test run counts in
 * dozens; 10,000 is about a megabyte.
 */
export const maxKeys = 10_000

/**
 * Creates a code store.
 *
 * @param options.now - The clock. @default () => new Date()
 */
export function createCodes(
  options: { now?: (() => Date) | undefined } = {},
): Codes {
  const { now = () => new Date() } = options
  /** Live codes, least recently issued first. */
  const live = new Map<
    string,
    { code: string; expiresAt: number; attempts: number }
  >()
  /** Send times within the window, least recently sent first. */
  const sends = new Map<string, number[]>()
  const throttle = (key: string) => {
    const at = now().getTime()
    const recent = (sends.get(key) ?? []).filter((t) => t > at - sendWindow)
    sends.delete(key)
    if (recent.length >= maxSends) {
      sends.set(key, recent)
      return false
    }
    makeRoom(sends, (times) => times.every((t) => t <= at - sendWindow))
    sends.set(key, [...recent, at])
    return true
  }
  return {
    throttle,
    issue(key) {
      if (!throttle(key)) return undefined
      const at = now().getTime()
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
      live.delete(key)
      makeRoom(live, (entry) => entry.expiresAt <= at)
      live.set(key, { code, expiresAt: at + codeLifetime, attempts: 0 })
      return code
    },
    check(key, code) {
      const entry = live.get(key)
      if (!entry) return 'expired'
      if (entry.expiresAt <= now().getTime()) {
        live.delete(key)
        return 'expired'
      }
      if (typeof code === 'string' && code.trim() === entry.code) {
        live.delete(key)
        return 'ok'
      }
      entry.attempts += 1
      if (entry.attempts >= maxAttempts) {
        live.delete(key)
        return 'max-attempts'
      }
      return 'invalid'
    },
  }
}

/**
 * Frees one place in a full map: drops the entries that have expired, then
 * the oldest (first inserted) until one place is free.
 */
function makeRoom<value>(
  map: Map<string, value>,
  expired: (value: value) => boolean,
) {
  if (map.size < maxKeys) return
  for (const [key, value] of map) if (expired(value)) map.delete(key)
  for (const key of map.keys()) {
    if (map.size < maxKeys) break
    map.delete(key)
  }
}
