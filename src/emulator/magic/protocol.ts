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
import type { ScreenLine } from './screens.js'

export type {
  Screen,
  ScreenAnswer,
  ScreenData,
  ScreenLine,
  Screens,
} from './screens.js'

/*
 * Backend conventions (where the published protocol is silent):
 * - cancel / time-out of a flow → -10014 RequestCancelled
 *   ('User canceled the request.' / 'The request timed out waiting for an
 *   answer.'); a flow waits 10 minutes for each answer. Except: cancelling
 *   the login screens of `mc_login` / `eth_requestAccounts` → -10012 'User
 *   denied account access.' (the client then deletes its device shares).
 * - not logged in (user and signing methods) → -10011 'The user is not
 *   logged in.'; `eth_accounts` answers `[]` instead.
 * - signing with a device share that is not the session's → -10011;
 *   without one (another network's client) it signs and returns the share.
 * - DPoP failures → -10019 'Invalid DPoP proof: <reason>'.
 * - 5 wrong codes → `max-attempts-reached`, -10031; more than 5 codes (or
 *   magic links) per address in 10 minutes → `login-throttled`, -10035
 *   (magic link: -10002); codes live 10 minutes, links 15.
 * - test mode `test+fail@…` → -10011.
 * - event types starting with `@` are internal (link opened / expired) and
 *   refused by the intermediary route (400).
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
  | ScreenLine
  /** The final answer: relay as `MAGIC_HANDLE_RESPONSE`. */
  | {
      kind: 'response'
      response: Rpc.Response
      rt?: string | undefined
      deviceShare?: string | undefined
    }

/** Body of `POST /v1/flow/:flowId/intermediary`. */
export type IntermediaryRequest = { eventType: string; args?: unknown }

/**
 * Answer of `POST /v1/flow/:flowId/intermediary`: `200 { ok: true }` when
 * the running flow took it; `404 { error }` when the flow is unknown or
 * finished.
 */
export type IntermediaryResponse = { ok: true } | { error: string }

/** The publishable API key the emulator accepts by default. */
export const defaultApiKey = 'pk_live_EMULATOR0000000000'

/**
 * Error every request with an unknown API key gets (the iframe params'
 * `API_KEY` is not one of the service's keys).
 */
export const invalidApiKeyError = {
  code: -32600,
  message: 'Invalid API key.',
} as const
