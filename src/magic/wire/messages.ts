/**
 * The iframe protocol between the host page (the client) and the provider's
 * `/send` iframe: message types, envelopes and the encoded parameters. Shared
 * by the client and the emulated provider; nothing else is.
 */
import * as Base64 from './base64.js'

/** Messages the iframe posts to the host page. */
export const incoming = {
  response: 'MAGIC_HANDLE_RESPONSE',
  overlayReady: 'MAGIC_OVERLAY_READY',
  showOverlay: 'MAGIC_SHOW_OVERLAY',
  hideOverlay: 'MAGIC_HIDE_OVERLAY',
  event: 'MAGIC_HANDLE_EVENT',
  boxSendReceipt: 'MAGIC_MG_BOX_SEND_RECEIPT',
  productAnnouncement: 'MAGIC_SEND_PRODUCT_ANNOUNCEMENT',
  pong: 'MAGIC_PONG',
  popupResponse: 'MAGIC_POPUP_RESPONSE',
  popupOauthVerifyResponse: 'MAGIC_POPUP_OAUTH_VERIFY_RESPONSE',
  thirdPartyWalletRequest: 'MAGIC_THIRD_PARTY_WALLET_REQUEST',
  openMobileUrl: 'MAGIC_OPEN_MOBILE_URL',
} as const

/** Messages the host page posts to the iframe. */
export const outgoing = {
  request: 'MAGIC_HANDLE_REQUEST',
  thirdPartyWalletResponse: 'MAGIC_THIRD_PARTY_WALLET_RESPONSE',
  thirdPartyWalletEvent: 'MAGIC_THIRD_PARTY_WALLET_EVENT',
  ping: 'MAGIC_PING',
} as const

export type IncomingType = (typeof incoming)[keyof typeof incoming]
export type OutgoingType = (typeof outgoing)[keyof typeof outgoing]

/**
 * The wire `msgType`: the type, a dash, and the raw (not URL-encoded) encoded
 * parameters, so one iframe per distinct parameters answers only its client.
 */
export function messageType<type extends IncomingType | OutgoingType>(
  type: type,
  encodedParams: string,
): `${type}-${string}` {
  return `${type}-${encodedParams}`
}

/** Splits a wire `msgType` into its type and encoded parameters. */
export function parseMessageType(
  msgType: string,
): { type: string; encodedParams: string } | undefined {
  const dash = msgType.indexOf('-')
  if (dash <= 0) return undefined
  return {
    type: msgType.slice(0, dash),
    encodedParams: msgType.slice(dash + 1),
  }
}

/** The `network` option: a name, or a custom node. */
export type Network =
  | string
  | { rpcUrl: string; chainId?: number | undefined; chainType?: string }

/**
 * The parameters encoded in the iframe's `src` (`/send?params=`), keys in
 * the published SDK's order; undefined values are dropped by JSON.
 */
export type Params = {
  API_KEY: string
  DOMAIN_ORIGIN: string
  ETH_NETWORK?: Network | undefined
  host: string
  sdk: string
  version: string
  ext?: Record<string, unknown> | undefined
  locale: string
  authConfig?: { skipDIDToken: boolean } | undefined
  /** The app's bundle id: sent by the published React Native SDKs only. */
  bundleId?: string | undefined
  meta?: unknown
}

/** Standard base64 (not base64url) of the UTF-8 JSON of `params`. */
export function encodeParams(params: Params): string {
  const ordered: Params = {
    API_KEY: params.API_KEY,
    DOMAIN_ORIGIN: params.DOMAIN_ORIGIN,
    ETH_NETWORK: params.ETH_NETWORK,
    host: params.host,
    sdk: params.sdk,
    version: params.version,
    ext: params.ext,
    locale: params.locale,
    authConfig: params.authConfig,
    bundleId: params.bundleId,
    meta: params.meta,
  }
  return Base64.fromBytes(new TextEncoder().encode(JSON.stringify(ordered)))
}

/** Reverses {@link encodeParams}; throws on anything that is not such JSON. */
export function decodeParams(encoded: string): Params {
  const value: unknown = JSON.parse(
    new TextDecoder().decode(Base64.toBytes(encoded)),
  )
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as Params).API_KEY !== 'string'
  )
    throw new TypeError('The iframe parameters carry no API_KEY.')
  return value as Params
}

/**
 * A JSON-RPC 2.0 request as the host sends it (the JSON-RPC 2.0
 * specification; the published SDK always sends numeric ids).
 */
export type RpcRequest = {
  jsonrpc: '2.0'
  id: number
  method: string
  params: unknown
}

/** The `error` member of a JSON-RPC 2.0 response. */
export type RpcErrorObject = {
  code: number
  message: string
  data?: unknown
}

/** A JSON-RPC 2.0 response: `result` on success, `error` on failure. */
export type RpcResponse = {
  jsonrpc: '2.0'
  id: number | string | null
  result?: unknown
  error?: RpcErrorObject | null | undefined
}

/** Host → iframe: a JSON-RPC request (or batch) with the session material. */
export type RequestEnvelope = {
  msgType: string
  payload: RpcRequest | readonly RpcRequest[]
  /** A fresh DPoP proof (compact JWS). */
  jwt?: string | undefined
  /** The refresh token; sent only with a `jwt`. */
  rt?: string | undefined
  /** The decrypted device share, base64. */
  deviceShare?: string | undefined
}

/** Iframe → host: the answer to a request. */
export type ResponseEnvelope = {
  msgType: string
  response: Partial<RpcResponse>
  rt?: string | undefined
  deviceShare?: string | undefined
}

/** Iframe → host: an event of a request's flow (`email-otp-sent`, …). */
export type EventEnvelope = {
  msgType: string
  response: {
    id: number | string
    result: { event: string; params: readonly unknown[] }
  }
}

/** Host → iframe: `magic_intermediary_event` params (the caller's answer). */
export type IntermediaryEvent = {
  payloadId: number | string
  eventType: string
  args?: unknown
}
