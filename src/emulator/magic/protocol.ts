/**
 * The emulated provider's own protocol between its `/send` iframe app and its
 * backend (both on the provider's origin). The client never sees it: the
 * client speaks only src/magic/wire to the iframe.
 *
 * The iframe app forwards each JSON-RPC request it receives from the host
 * page to `POST /v1/flow` and relays what the streamed answer says; the flow
 * (login, MFA, signing, …) runs in the backend. Answers a caller gives to a
 * running flow (`magic_intermediary_event` from the host, or input on one of
 * the iframe's own screens) go to `POST /v1/flow/:flowId/intermediary`.
 */
import type * as Rpc from '../../core/Rpc.js'

/** Body of `POST /v1/flow`. */
export type FlowRequest = {
  /** The encoded iframe params (`/send?params=`), naming the API key. */
  params: string
  request: Rpc.Request
  /** DPoP proof from the host (compact JWS), if any. */
  jwt?: string | undefined
  rt?: string | undefined
  deviceShare?: string | undefined
}

/**
 * One line of the `POST /v1/flow` answer: `application/x-ndjson`, one JSON
 * object per line, the last one always a `response`. The answer carries the
 * flow id in the `x-flow-id` header.
 */
export type FlowLine =
  /** A flow event for the host: relay as `MAGIC_HANDLE_EVENT`. */
  | { kind: 'event'; event: string; params: readonly unknown[] }
  /** Show or hide the iframe as an overlay (`MAGIC_SHOW/HIDE_OVERLAY`). */
  | { kind: 'overlay'; show: boolean }
  /** Render one of the iframe's own screens (only when `showUI`). */
  | { kind: 'screen'; screen: Screen; data: Record<string, unknown> }
  /** The final answer: relay as `MAGIC_HANDLE_RESPONSE`. */
  | {
      kind: 'response'
      response: Rpc.Response
      rt?: string | undefined
      deviceShare?: string | undefined
    }

/** Screens the iframe renders itself (seed 000 §2), by name. */
export type Screen =
  | 'email-otp'
  | 'sms-otp'
  | 'mfa-code'
  | 'recovery-code'
  | 'device-approval'
  | 'magic-link-sent'
  | 'update-email'
  | 'enable-mfa'
  | 'disable-mfa'
  | 'recovery-factor'
  | 'recover-account'
  | 'wallet'
  | 'address'
  | 'balances'
  | 'send-tokens'
  | 'onramp'
  | 'nfts'
  | 'nft-checkout'
  | 'reveal-key'
  | 'settings'
  | 'user-info'
  | 'close'

/** Body of `POST /v1/flow/:flowId/intermediary`. */
export type IntermediaryRequest = { eventType: string; args?: unknown }
