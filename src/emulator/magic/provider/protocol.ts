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
/*
 * Backend conventions (where the published protocol is silent):
 * - cancel / time-out of a flow → -10014 RequestCancelled
 *   ('User canceled the request.' / 'The request timed out waiting for an
 *   answer.'); a flow waits 10 minutes for each answer. Except: cancelling
 *   the login screens of `mc_login` / `eth_requestAccounts` → -10012 'User
 *   denied account access.' (the client then deletes its device shares).
 * - not logged in (user and signing methods) → -10011 'The user is not
 *   logged in.'; `eth_accounts` answers `[]` instead.
 * - a session belongs to the API key (app) that opened it: the `rt` of
 *   another app reads as no session at all.
 * - signing with a device share that is not the session's → -10011;
 *   without one (another network's client) it signs and returns the share.
 * - DPoP failures → -10019 'Invalid DPoP proof: <reason>'.
 * - 5 wrong codes → `max-attempts-reached`, -10031; more than 5 codes (or
 *   magic links) per address in 10 minutes → `login-throttled`, -10035
 *   (magic link: -10002); codes live 10 minutes, links 15.
 * - test mode `test+fail@…` → -10011.
 * - a magic link on a device logged in already: its own user gets a new
 *   token at once, another user -10003; with a redirect URI, the waiting
 *   request ends -10015 once the link is opened (the login goes on at the
 *   redirect).
 * - `magic_auth_update_email`: a cancel is -10004; the iframe's "use
 *   another email" on the new address's code screen -10005.
 * - an address under `.invalid` cannot receive mail (mail.ts): the flow's
 *   `…not-deliverable` event where it has one, then -10010 unless the flow
 *   can ask for another address.
 * - event types starting with `@` are internal (link opened / expired) and
 *   refused by the intermediary route (400); an answer is at most 64 KiB
 *   (413), and a flow keeps at most the latest 16 answers it is not yet
 *   waiting for.
 * - a `POST /v1/flow` body that is not JSON → -32700; not a JSON-RPC 2.0
 *   request (an `id` other than a string, a number or null, a `method`
 *   that is not a string, `params` that are not an array) or with
 *   `jwt`/`rt`/`deviceShare` that are not strings → -32600.
 */
import type * as Rpc from '../../../core/Rpc.js'

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
export { defaultApiKey } from '../../constants.js'

/**
 * Error every request with an unknown API key gets (the iframe params'
 * `API_KEY` is not one of the service's keys).
 */
export const invalidApiKeyError = {
  code: -32600,
  message: 'Invalid API key.',
} as const

/**
 * The screens the iframe renders itself (the published provider shows its
 * own login, MFA and wallet screens inside the iframe), by name. Each
 * entry says what the screen shows (`data`) and what it answers.
 */
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
  | 'login'
  | 'user-info'
  | 'close'

/**
 * What each screen shows (`data` of its `screen` line) and the `eventType`s
 * the iframe UI may post back to `POST /v1/flow/:flowId/intermediary` while
 * it is shown (with `args` of the given type; `undefined` = no args).
 *
 * A screen line replaces the previous screen. The flow ends with its
 * `response` line; then the UI closes (the backend also sends
 * `overlay: false` before the response when it had shown the overlay).
 */
export type Screens = {
  /** Ask for the 6-digit code sent by email (login, update email). */
  'email-otp': {
    data: { email: string; error?: 'invalid' | 'expired' | undefined }
    answers: { 'verify-email-otp': string; cancel: undefined }
  }
  /**
   * Ask for the 6-digit code sent by SMS (login); `retry` sends a new
   * code.
   */
  'sms-otp': {
    data: { phoneNumber: string; error?: 'invalid' | 'expired' | undefined }
    answers: { 'verify-sms-otp': string; retry: undefined; cancel: undefined }
  }
  /** Ask for the current TOTP code of the user's authenticator app. */
  'mfa-code': {
    data: { error?: 'invalid' | undefined }
    answers: {
      'verify-mfa-code': string
      'lost-device': undefined
      cancel: undefined
    }
  }
  /** Ask for one of the MFA recovery codes ("lost device"). */
  'recovery-code': {
    data: { error?: 'invalid' | undefined }
    answers: { 'verify-recovery-code': string; cancel: undefined }
  }
  /** Tell the user to approve this device from the link in their mailbox. */
  'device-approval': {
    data: { email: string; expired?: boolean | undefined }
    answers: { 'device-retry': undefined; cancel: undefined }
  }
  /** Tell the user to open the magic link sent to them; `retry` resends it. */
  'magic-link-sent': {
    data: { email: string }
    answers: { retry: undefined; cancel: undefined }
  }
  /**
   * Update email. `step: 'new-email'`: ask for the new address
   * (`error: 'invalid' | 'already-exists' | 'not-deliverable'`);
   * `step: 'verify'`: ask for the code sent to `email` (the new address;
   * `error: 'invalid' | 'expired'`).
   */
  'update-email': {
    data: {
      step: 'new-email' | 'verify'
      email?: string | undefined
      error?:
        | 'invalid'
        | 'expired'
        | 'already-exists'
        | 'not-deliverable'
        | undefined
    }
    answers: {
      'UpdateEmail/retry-with-new-email': string
      'UpdateEmail/new-email-verify-otp': string
      'UpdateEmail/new-email-verification-cancel': undefined
      /** `step: 'verify'`: use another address (the request ends, -10005). */
      'edit-email': undefined
    }
  }
  /**
   * Enable MFA. `step: 'secret'`: show `uri` (otpauth://, as QR or text) and
   * `secret` and ask for a code (`error: 'invalid'`); `step: 'recovery-codes'`:
   * show `recoveryCodes` once, answer `close` to finish.
   */
  'enable-mfa': {
    data: {
      step: 'secret' | 'recovery-codes'
      uri?: string | undefined
      secret?: string | undefined
      recoveryCodes?: readonly string[] | undefined
      error?: 'invalid' | undefined
    }
    answers: {
      'verify-mfa-code': string
      'cancel-mfa-setup': undefined
      close: undefined
    }
  }
  /** Disable MFA: ask for a TOTP code or, after `lost-device`, a recovery code. */
  'disable-mfa': {
    data: {
      step: 'mfa-code' | 'recovery-code'
      error?: 'invalid' | undefined
    }
    answers: {
      'verify-mfa-code': string
      'verify-recovery-code': string
      'lost-device': undefined
      'cancel-mfa-disable': undefined
    }
  }
  /**
   * Phone recovery factor. `step: 'phone'`: ask for a phone number
   * (`error: 'malformed' | 'already-exists'`); `step: 'otp'`: ask for the
   * SMS code (`error: 'invalid'`).
   */
  'recovery-factor': {
    data: {
      step: 'phone' | 'otp'
      phoneNumber?: string | undefined
      error?: 'malformed' | 'already-exists' | 'invalid' | undefined
    }
    answers: {
      'send-new-phone-number': string
      'send-otp-code': string
      cancel: undefined
    }
  }
  /**
   * Account recovery. `step: 'otp'`: ask for the code sent to the recovery
   * phone (`error: 'invalid'`); `step: 'new-email'`: the account must get a
   * new email (answer `update-email` with it).
   */
  'recover-account': {
    data: {
      step: 'otp' | 'new-email'
      phoneNumber?: string | undefined
      error?: 'invalid' | undefined
    }
    answers: {
      'verify-otp-code': string
      'resend-sms-otp': undefined
      'update-email': string
      cancel: undefined
    }
  }
  /** Wallet home: address and ETH balance (in ETH, e.g. `'100'`). */
  wallet: {
    data: { address: string; balance: string; chainId: number }
    answers: { close: undefined }
  }
  /** The user's address, to copy or show as QR. */
  address: {
    data: { address: string }
    answers: { close: undefined }
  }
  /** Real balances read from the chain (in ETH / token units, e.g. `'1.5'`). */
  balances: {
    data: {
      address: string
      chainId: number
      balances: readonly {
        symbol: string
        balance: string
        decimals: number
        token?: string | undefined
      }[]
    }
    answers: { close: undefined }
  }
  /**
   * Send ETH: answer `send-tokens` with `{ to, amount }` (`amount` in ETH,
   * decimal string). On failure the screen is shown again with `error`; on
   * success with `hash`.
   */
  'send-tokens': {
    data: {
      address: string
      balance: string
      error?: string | undefined
      hash?: string | undefined
    }
    answers: {
      'send-tokens': { to: string; amount: string }
      close: undefined
    }
  }
  /** Fiat on-ramp: emulated, moves no money (`emulated: true`). */
  onramp: {
    data: { address: string; emulated: true }
    answers: { close: undefined }
  }
  /** The user's NFTs among the emulator's test tokens. */
  nfts: {
    data: {
      address: string
      nfts: readonly {
        contractAddress: string
        standard: 'ERC721' | 'ERC1155'
        tokenId: string
        quantity: string
      }[]
    }
    answers: { close: undefined }
  }
  /**
   * NFT purchase / checkout / transfer confirmation: `confirm` runs it,
   * `close` cancels (result `{ status: 'cancelled' }`). A checkout paid by
   * the host's external wallet names it (`wallet`) and offers `disconnect`
   * (the host is told, and the result is `cancelled`).
   */
  'nft-checkout': {
    data: {
      action: 'purchase' | 'checkout' | 'transfer'
      contractAddress: string
      tokenId: string
      quantity: string
      recipient?: string | undefined
      wallet?: string | undefined
    }
    answers: { confirm: undefined; close: undefined; disconnect: undefined }
  }
  /** Shows the user's private key (hex); `close` to finish. */
  'reveal-key': {
    data: { privateKey: string }
    answers: { close: undefined }
  }
  /** Settings menu: pick a page (then its own screen follows). */
  settings: {
    data: {
      email?: string | undefined
      phoneNumber?: string | undefined
      isMfaEnabled: boolean
    }
    answers: {
      'open-page': 'update-email' | 'mfa' | 'recovery'
      close: undefined
    }
  }
  /**
   * Login inside the iframe (`mc_login`, `eth_requestAccounts` logged out):
   * ask for an email, then the `email-otp` screen follows.
   */
  login: {
    data: {
      error?: 'invalid' | undefined
      /**
       * The external wallets offered beside the email (`web3modal`, when
       * the app enabled it): `connect-wallet` picks it.
       */
      wallets?: readonly 'web3modal'[] | undefined
      /** Waiting for the host to connect the wallet. */
      connecting?: boolean | undefined
    }
    answers: {
      'submit-email': string
      'connect-wallet': undefined
      cancel: undefined
    }
  }
  /** `mc_request_user_info`: ask consent to share the email. */
  'user-info': {
    data: { email: string }
    answers: { share: undefined; cancel: undefined }
  }
  /** Closes whatever screen is shown (no data, no answers). */
  close: {
    data: Record<string, never>
    answers: Record<string, never>
  }
}

/** A screen's `data`. */
export type ScreenData<screen extends Screen> = Screens[screen]['data']

/** The `eventType`s a screen accepts. */
export type ScreenAnswer<screen extends Screen> =
  keyof Screens[screen]['answers'] & string

/** A typed `screen` line. */
export type ScreenLine = {
  [screen in Screen]: {
    kind: 'screen'
    screen: screen
    data: ScreenData<screen>
  }
}[Screen]
