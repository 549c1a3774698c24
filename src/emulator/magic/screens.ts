/**
 * The screens of the emulated provider's iframe: their names, what each
 * shows and what it answers. Part of the wire between the emulator's
 * backend and its /send app (re-exported by protocol.ts).
 */
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
  /** Ask for the 6-digit code sent by SMS (login, recovery, phone factor). */
  'sms-otp': {
    data: { phoneNumber: string; error?: 'invalid' | 'expired' | undefined }
    answers: { 'verify-sms-otp': string; cancel: undefined }
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
  /** Tell the user to open the magic link sent to them. */
  'magic-link-sent': {
    data: { email: string }
    answers: { cancel: undefined }
  }
  /**
   * Update email. `step: 'new-email'`: ask for the new address
   * (`error: 'invalid' | 'already-exists'`); `step: 'verify'`: ask for the
   * code sent to `email` (the new address; `error: 'invalid' | 'expired'`).
   */
  'update-email': {
    data: {
      step: 'new-email' | 'verify'
      email?: string | undefined
      error?: 'invalid' | 'expired' | 'already-exists' | undefined
    }
    answers: {
      'UpdateEmail/retry-with-new-email': string
      'UpdateEmail/new-email-verify-otp': string
      'UpdateEmail/new-email-verification-cancel': undefined
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
   * `close` cancels (result `{ status: 'cancelled' }`).
   */
  'nft-checkout': {
    data: {
      action: 'purchase' | 'checkout' | 'transfer'
      contractAddress: string
      tokenId: string
      quantity: string
      recipient?: string | undefined
    }
    answers: { confirm: undefined; close: undefined }
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
    data: { error?: 'invalid' | undefined }
    answers: { 'submit-email': string; cancel: undefined }
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
