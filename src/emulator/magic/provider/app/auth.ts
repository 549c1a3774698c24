/**
 * The iframe's login screens: email and SMS codes, MFA and recovery codes,
 * device approval, magic link and the in-iframe login. Each
 * renders `data` defensively (fields may be missing) and answers through
 * `ctx.answer` with the event types protocol.ts allows for it.
 */
import type { ScreenData, Screens } from '../protocol.js'
import {
  actions,
  button,
  card,
  errorLine,
  inputForm,
  paragraph,
  waiting,
} from './dom.js'

/** What a screen can do: answer its flow. */
export type ScreenContext = {
  answer(eventType: string, args?: unknown): void
}

/** Renders one screen's element from its (untrusted) data. */
export type Render<screen extends keyof Screens = keyof Screens> = (
  data: Partial<ScreenData<screen>>,
  ctx: ScreenContext,
) => HTMLElement

/** Messages for a code screen's `error`. */
export const codeErrors: Record<string, string> = {
  invalid: 'That code is not right. Try again.',
  expired: 'That code has expired. Ask for a new one.',
}

/** A handler that answers `eventType` (default `cancel`) with no args. */
export function cancel(ctx: ScreenContext, eventType = 'cancel') {
  return () => ctx.answer(eventType)
}

/** `email-otp`: the code sent by email. */
export const emailOtp: Render<'email-otp'> = (data, ctx) =>
  card(
    'Check your email',
    [
      paragraph(`Enter the 6-digit code sent to ${data.email ?? 'you'}.`),
      errorLine(codeErrors[data.error ?? ''], 'email-otp-error'),
      inputForm({
        label: 'Code',
        testid: 'email-otp-input',
        submitLabel: 'Log in',
        code: true,
        onSubmit: (code) => ctx.answer('verify-email-otp', code),
      }),
    ],
    cancel(ctx),
  )

/** `sms-otp`: the code sent by SMS. */
export const smsOtp: Render<'sms-otp'> = (data, ctx) =>
  card(
    'Check your phone',
    [
      paragraph(`Enter the 6-digit code sent to ${data.phoneNumber ?? 'you'}.`),
      errorLine(codeErrors[data.error ?? ''], 'sms-otp-error'),
      inputForm({
        label: 'Code',
        testid: 'sms-otp-input',
        submitLabel: 'Continue',
        code: true,
        onSubmit: (code) => ctx.answer('verify-sms-otp', code),
      }),
      actions([
        button('Send a new code', 'sms-otp-retry', cancel(ctx, 'retry')),
      ]),
    ],
    cancel(ctx),
  )

/** The authenticator-code form (answers `verify-mfa-code`). */
export function mfaForm(ctx: ScreenContext, error: string | undefined) {
  return [
    paragraph('Enter the 6-digit code from your authenticator app.'),
    errorLine(codeErrors[error ?? ''], 'mfa-code-error'),
    inputForm({
      label: 'Authenticator code',
      testid: 'mfa-code-input',
      submitLabel: 'Verify',
      code: true,
      onSubmit: (code) => ctx.answer('verify-mfa-code', code),
    }),
  ]
}

/** The recovery-code form (answers `verify-recovery-code`). */
export function recoveryForm(ctx: ScreenContext, error: string | undefined) {
  return [
    paragraph('Enter one of the recovery codes you saved.'),
    errorLine(codeErrors[error ?? ''], 'recovery-code-error'),
    inputForm({
      label: 'Recovery code',
      testid: 'recovery-code-input',
      submitLabel: 'Verify',
      onSubmit: (code) => ctx.answer('verify-recovery-code', code),
    }),
  ]
}

/** `mfa-code`: the authenticator app's code at login. */
export const mfaCode: Render<'mfa-code'> = (data, ctx) =>
  card(
    'Two-factor authentication',
    [
      ...mfaForm(ctx, data.error),
      actions([
        button('I lost my device', 'lost-device', cancel(ctx, 'lost-device')),
      ]),
    ],
    cancel(ctx),
  )

/** `recovery-code`: an MFA recovery code ("lost device"). */
export const recoveryCode: Render<'recovery-code'> = (data, ctx) =>
  card('Use a recovery code', recoveryForm(ctx, data.error), cancel(ctx))

/** `device-approval`: waiting for the link in the mailbox. */
export const deviceApproval: Render<'device-approval'> = (data, ctx) =>
  card(
    'Approve this device',
    [
      paragraph(
        data.expired
          ? 'The approval link has expired. Send a new one.'
          : `We sent an approval link to ${data.email ?? 'your email'}. Open it to continue.`,
        'device-approval-message',
      ),
      data.expired ? undefined : waiting(),
      actions([
        button('Send a new link', 'device-retry', cancel(ctx, 'device-retry')),
      ]),
    ],
    cancel(ctx),
  )

/** `magic-link-sent`: waiting for the magic link to be opened. */
export const magicLinkSent: Render<'magic-link-sent'> = (data, ctx) =>
  card(
    'Check your email',
    [
      paragraph(
        `We sent a login link to ${data.email ?? 'your email'}. Open it to log in.`,
        'magic-link-sent',
      ),
      waiting(),
      actions([
        button('Send a new link', 'magic-link-retry', cancel(ctx, 'retry')),
      ]),
    ],
    cancel(ctx),
  )

/**
 * `login`: the email to log in with (the code screen follows), and the
 * app's external wallet when it enabled one.
 */
export const login: Render<'login'> = (data, ctx) => {
  const external = Array.isArray(data.wallets) && data.wallets.length > 0
  if (external && data.connecting)
    return card(
      'Connect your wallet',
      [paragraph('Continue in your wallet.', 'login-connecting'), waiting()],
      cancel(ctx),
    )
  return card(
    'Log in',
    [
      errorLine(
        data.error === 'invalid' ? 'That email is not valid.' : undefined,
        'login-error',
      ),
      inputForm({
        label: 'Email',
        testid: 'login-email-input',
        type: 'email',
        submitLabel: 'Continue',
        onSubmit: (email) => ctx.answer('submit-email', email),
      }),
      external
        ? actions([
            button(
              'Connect a wallet',
              'login-connect-wallet',
              cancel(ctx, 'connect-wallet'),
            ),
          ])
        : undefined,
    ],
    cancel(ctx),
  )
}
