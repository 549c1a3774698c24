/**
 * Event names of the iframe protocol (seed 000 §4). `received` events come
 * from the iframe on a request's PromiEvent; `emit` events are the caller's
 * answers, sent back as `magic_intermediary_event` (headless flows only).
 */

export const emailOtp = {
  received: [
    'email-otp-sent',
    'invalid-email-otp',
    'invalid-mfa-otp',
    'expired-email-otp',
    'mfa-sent-handle',
    'recovery-code-sent-handle',
    'invalid-recovery-code',
    'recovery-code-success',
    'login-throttled',
    'max-attempts-reached',
  ],
  emit: [
    'verify-email-otp',
    'verify-mfa-code',
    'lost-device',
    'verify-recovery-code',
    'cancel',
    'selected-mfa-type',
  ],
} as const

export const device = {
  received: [
    'device-needs-approval',
    'device-approved',
    'device-verification-link-expired',
    'device-verification-email-sent',
  ],
  emit: ['device-retry'],
} as const

export const sms = {
  received: [
    'sms-otp-sent',
    'invalid-sms-otp',
    'expired-sms-otp',
    'mfa-sent-handle',
    'invalid-mfa-otp',
    'login-throttled',
    'recovery-code-sent-handle',
    'invalid-recovery-code',
    'recovery-code-success',
  ],
  emit: [
    'verify-sms-otp',
    'verify-mfa-code',
    'lost-device',
    'verify-recovery-code',
    'cancel',
    'retry',
  ],
} as const

export const magicLink = {
  received: ['email-sent', 'email-not-deliverable'],
  emit: ['retry'],
} as const

export const updateEmail = {
  received: [
    'Recency/auth-factor-needs-verification',
    'Recency/auth-factor-verified',
    'Recency/auth-factor-invalid-email-otp',
    'Recency/auth-factor-verification-email-expired',
    'Recency/auth-factor-verification-email-sent',
    'Recency/auth-factor-verification-email-not-deliverable',
    'UpdateEmail/new-email-needs-verification',
    'UpdateEmail/email-updated',
    'UpdateEmail/new-email-invalid-email-otp',
    'UpdateEmail/new-email-verification-email-expired',
    'UpdateEmail/new-email-verification-email-sent',
    'UpdateEmail/new-email-verification-email-not-deliverable',
    'UpdateEmail/new-email-invalid',
    'UpdateEmail/new-email-already-exists',
  ],
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

export const enableMfa = {
  received: ['mfa-secret-generated', 'invalid-mfa-otp', 'mfa-recovery-codes'],
  emit: ['verify-mfa-code', 'cancel-mfa-setup'],
} as const

export const disableMfa = {
  received: ['mfa-code-requested', 'invalid-mfa-otp', 'invalid-recovery-code'],
  emit: ['verify-mfa-code', 'lost-device', 'cancel-mfa-disable'],
} as const

export const recoveryFactor = {
  received: [
    'enter-new-phone-number',
    'enter-otp-code',
    'recovery-factor-already-exists',
    'malformed-phone-number',
    'invalid-otp-code',
    'recovery-factor-updated',
    'recovery-factor-deleted',
  ],
  emit: [
    'send-new-phone-number',
    'send-otp-code',
    'cancel',
    'start-edit-phone-number',
  ],
} as const

export const recoverAccount = {
  received: [
    'sms-otp-sent',
    'login-throttled',
    'invalid-sms-otp',
    'sms-verified',
    'account-recovered',
    'update-email-required',
  ],
  emit: ['cancel', 'resend-sms-otp', 'verify-otp-code', 'update-email'],
} as const

export const nftCheckout = {
  received: ['nft-checkout-initiated'],
  emit: ['nft-checkout-success', 'nft-checkout-failure', 'disconnect'],
} as const

export const idTokenCreated = 'Auth/id-token-created'
/** Re-emitted by the client as `closed-by-user`. */
export const closedByUserOnReceived = 'closed-by-user-on-received'
export const closedByUser = 'closed-by-user'
