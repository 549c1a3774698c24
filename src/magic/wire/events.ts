/**
 * Event names of the iframe protocol, as the published SDK's flow event
 * types name them. Each flow's `emit` events are the caller's answers, sent
 * back as `magic_intermediary_event` (headless flows only); its type (e.g.
 * {@link EmailOtp}) adds the events received from the iframe on a request's
 * PromiEvent, which are types only (nothing reads them at run time, so they
 * add nothing to a bundle).
 */

export const emailOtp = {
  emit: [
    'verify-email-otp',
    'verify-mfa-code',
    'lost-device',
    'verify-recovery-code',
    'cancel',
    'selected-mfa-type',
  ],
} as const
export type EmailOtp =
  | 'email-otp-sent'
  | 'invalid-email-otp'
  | 'invalid-mfa-otp'
  | 'expired-email-otp'
  | 'mfa-sent-handle'
  | 'recovery-code-sent-handle'
  | 'invalid-recovery-code'
  | 'recovery-code-success'
  | 'login-throttled'
  | 'max-attempts-reached'
  | (typeof emailOtp.emit)[number]

export const device = {
  emit: ['device-retry'],
} as const
export type Device =
  | 'device-needs-approval'
  | 'device-approved'
  | 'device-verification-link-expired'
  | 'device-verification-email-sent'
  | (typeof device.emit)[number]

export const sms = {
  emit: [
    'verify-sms-otp',
    'verify-mfa-code',
    'lost-device',
    'verify-recovery-code',
    'cancel',
    'retry',
  ],
} as const
export type Sms =
  | 'sms-otp-sent'
  | 'invalid-sms-otp'
  | 'expired-sms-otp'
  | 'mfa-sent-handle'
  | 'invalid-mfa-otp'
  | 'login-throttled'
  | 'recovery-code-sent-handle'
  | 'invalid-recovery-code'
  | 'recovery-code-success'
  | (typeof sms.emit)[number]

export const magicLink = {
  emit: ['retry'],
} as const
export type MagicLink =
  | 'email-sent'
  | 'email-not-deliverable'
  | (typeof magicLink.emit)[number]

export const updateEmail = {
  emit: [
    'Recency/auth-factor-retry',
    'Recency/auth-factor-verification-cancel',
    'Recency/auth-factor-verify-email-otp',
    'Recency/verify-mfa-code',
    'UpdateEmail/retry-with-new-email',
    'UpdateEmail/new-email-verification-cancel',
    'UpdateEmail/new-email-verify-otp',
  ],
} as const
export type UpdateEmail =
  | 'Recency/auth-factor-needs-verification'
  | 'Recency/auth-factor-verified'
  | 'Recency/auth-factor-invalid-email-otp'
  | 'Recency/auth-factor-verification-email-expired'
  | 'Recency/auth-factor-verification-email-sent'
  | 'Recency/auth-factor-verification-email-not-deliverable'
  | 'UpdateEmail/new-email-needs-verification'
  | 'UpdateEmail/email-updated'
  | 'UpdateEmail/new-email-invalid-email-otp'
  | 'UpdateEmail/new-email-verification-email-expired'
  | 'UpdateEmail/new-email-verification-email-sent'
  | 'UpdateEmail/new-email-verification-email-not-deliverable'
  | 'UpdateEmail/new-email-invalid'
  | 'UpdateEmail/new-email-already-exists'
  | (typeof updateEmail.emit)[number]

export const enableMfa = {
  emit: ['verify-mfa-code', 'cancel-mfa-setup'],
} as const
export type EnableMfa =
  | 'mfa-secret-generated'
  | 'invalid-mfa-otp'
  | 'mfa-recovery-codes'
  | (typeof enableMfa.emit)[number]

export const disableMfa = {
  emit: ['verify-mfa-code', 'lost-device', 'cancel-mfa-disable'],
} as const
export type DisableMfa =
  | 'mfa-code-requested'
  | 'invalid-mfa-otp'
  | 'invalid-recovery-code'
  | (typeof disableMfa.emit)[number]

export const recoveryFactor = {
  emit: [
    'send-new-phone-number',
    'send-otp-code',
    'cancel',
    'start-edit-phone-number',
  ],
} as const
export type RecoveryFactor =
  | 'enter-new-phone-number'
  | 'enter-otp-code'
  | 'recovery-factor-already-exists'
  | 'malformed-phone-number'
  | 'invalid-otp-code'
  | 'recovery-factor-updated'
  | 'recovery-factor-deleted'
  | (typeof recoveryFactor.emit)[number]

export const recoverAccount = {
  emit: ['cancel', 'resend-sms-otp', 'verify-otp-code', 'update-email'],
} as const
export type RecoverAccount =
  | 'sms-otp-sent'
  | 'login-throttled'
  | 'invalid-sms-otp'
  | 'sms-verified'
  | 'account-recovered'
  | 'update-email-required'
  | (typeof recoverAccount.emit)[number]

export const nftCheckout = {
  emit: ['nft-checkout-success', 'nft-checkout-failure', 'disconnect'],
} as const
export type NftCheckout =
  | 'nft-checkout-initiated'
  | (typeof nftCheckout.emit)[number]

/** The logins' token event (email, SMS, magic link…): the DID token. */
export const idTokenCreated = 'Auth/id-token-created'

/**
 * The UI login's (`mc_login`) token event, with `{ idToken }`: the name the
 * published SDK's `connectWithUI` listens for, not {@link idTokenCreated}.
 */
export const connectIdTokenCreated = 'id-token-created'

/**
 * The UI login's external-wallet exchange: when `enabledWallets.web3modal`
 * is on and the user picks the external wallet, the iframe emits
 * `selected`; the host connects its wallet and answers `connected` (the
 * address) or `rejected`.
 */
export const connectWallet = {
  selected: 'web3modal_selected',
  connected: 'wallet_connected',
  rejected: 'wallet_rejected',
} as const
/** Re-emitted by the client as `closed-by-user`. */
export const closedByUserOnReceived = 'closed-by-user-on-received'
export const closedByUser = 'closed-by-user'
