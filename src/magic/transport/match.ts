import * as Messages from '../wire/messages.js'

/**
 * How incoming `msgType`s are matched. Every type is matched by its full
 * string `<TYPE>-<encoded params>`, except `MAGIC_PONG` and
 * `MAGIC_THIRD_PARTY_WALLET_REQUEST`, which the published SDK matches by
 * substring (any suffix, or none).
 */

// Literal types, not `Messages.incoming.…`: reading one key would keep that
// whole table in a dApp's bundle.
const pong: Messages.IncomingType = 'MAGIC_PONG'
const bySubstring: readonly Messages.IncomingType[] = [
  pong,
  'MAGIC_THIRD_PARTY_WALLET_REQUEST',
]

/**
 * Whether an incoming `msgType` is a message of `type` for the iframe whose
 * parameters are `encodedParams`.
 *
 * @example
 * ```ts
 * Match.matches('MAGIC_HANDLE_RESPONSE-abc', 'MAGIC_HANDLE_RESPONSE', 'abc') // true
 * Match.matches('MAGIC_PONG', 'MAGIC_PONG', 'abc') // true
 * ```
 */
export function matches(
  msgType: string,
  type: Messages.IncomingType,
  encodedParams: string,
): boolean {
  if (bySubstring.includes(type)) return msgType.includes(type)
  return msgType === Messages.messageType(type, encodedParams)
}

/**
 * Whether an incoming message counts as activity for the heartbeat: every
 * message but pongs (which only record their time) and third-party-wallet
 * requests (which the published SDK hands over before its heartbeat reset).
 *
 * @example
 * ```ts
 * Match.isActivity('MAGIC_OVERLAY_READY-abc') // true
 * ```
 */
export function isActivity(msgType: string): boolean {
  return !bySubstring.some((type) => msgType.includes(type))
}

/**
 * Whether an incoming message is a pong (any suffix).
 *
 * @example
 * ```ts
 * Match.isPong('MAGIC_PONG-abc') // true
 * ```
 */
export function isPong(msgType: string): boolean {
  return msgType.includes(pong)
}
