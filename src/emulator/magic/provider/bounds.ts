/**
 * Bounds on the service's in-memory state. Any web page the developer opens
 * can send the emulator requests, and many requests add an entry to some
 * map (a link, a credential, a session, a seen proof id); each map must stop
 * growing. Entries expire and are swept, and each map is capped: past the
 * cap the oldest entry goes. Each cap is far above what a developer or a
 * test suite uses, and small enough that a full map holds a few megabytes.
 *
 * JavaScript maps iterate in insertion order, so when every entry of a map
 * lives equally long the oldest entries expire first and a sweep can stop
 * at the first live one: each request pays for the entries it removes, not
 * for the whole map.
 *
 * @packageDocumentation
 */

/**
 * Mailbox links (magic links, device approvals) kept at once: 10,000. A
 * person opens a few per login; a link is about 200 bytes.
 */
export const maxLinks = 10_000

/**
 * Magic-link credentials kept at once: 10,000. One per opened magic link
 * with a redirect, used once within minutes.
 */
export const maxCredentials = 10_000

/**
 * Sessions kept at once: 10,000. One per logged-in device; past the cap
 * the oldest device is logged out.
 */
export const maxSessions = 10_000

/**
 * Authorization tokens (`magic_auth_set_authorization_token`) kept at once:
 * 1,000, one per session or device key. Nothing reads them back but the
 * session that set them, and each may be 16 KiB ({@link maxAuthorizationTokenLength}).
 */
export const maxAuthorizationTokens = 1_000

/** The longest authorization token accepted: 16 KiB, far above a JWT. */
export const maxAuthorizationTokenLength = 16 * 1024

/**
 * DPoP proof ids remembered against replay: 100,000. A proof is
 * remembered for its 5-minute window; a browser sends one per request.
 * When a flood of proofs fills the cache, the oldest ids are forgotten
 * first: their proofs are close to the end of their window anyway.
 */
export const maxSeenProofs = 100_000

/**
 * Removes entries from the oldest on while `stale` says so; stops at the
 * first entry that is not.
 *
 * @param map - A map whose entries expire in insertion order.
 * @param stale - Whether an entry has expired.
 */
export function sweep<key, value>(
  map: Map<key, value>,
  stale: (value: value) => boolean,
): void {
  for (const [key, value] of map) {
    if (!stale(value)) return
    map.delete(key)
  }
}

/**
 * Removes the oldest entries until `map` holds at most `max`.
 *
 * @param map - The map.
 * @param max - How many entries it may hold.
 */
export function cap<key, value>(map: Map<key, value>, max: number): void {
  for (const key of map.keys()) {
    if (map.size <= max) return
    map.delete(key)
  }
}
