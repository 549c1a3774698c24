/**
 * The iframe's account screens: email update, enabling and disabling MFA,
 * the phone recovery factor and account recovery. Each renders `data`
 * defensively and answers with the event types protocol.ts allows for it.
 */
import {
  cancel,
  codeErrors,
  mfaForm,
  type Render,
  recoveryForm,
} from './auth.js'
import {
  actions,
  button,
  card,
  errorLine,
  inputForm,
  list,
  paragraph,
  value,
} from './dom.js'

const updateEmailErrors: Record<string, string> = {
  ...codeErrors,
  invalid: 'That is not valid. Check it and try again.',
  'already-exists': 'That email is already used by another account.',
  'not-deliverable': 'Mail cannot be delivered to that email.',
}

/** `update-email`: the new address, then the code sent to it. */
export const updateEmail: Render<'update-email'> = (data, ctx) => {
  const onCancel = cancel(ctx, 'UpdateEmail/new-email-verification-cancel')
  if (data.step === 'verify')
    return card(
      'Verify your new email',
      [
        paragraph(`Enter the code sent to ${data.email ?? 'your new email'}.`),
        errorLine(updateEmailErrors[data.error ?? ''], 'update-email-error'),
        inputForm({
          label: 'Code',
          testid: 'update-email-otp-input',
          submitLabel: 'Verify',
          code: true,
          onSubmit: (code) =>
            ctx.answer('UpdateEmail/new-email-verify-otp', code),
        }),
        actions([
          button(
            'Use another email',
            'update-email-edit',
            cancel(ctx, 'edit-email'),
          ),
        ]),
      ],
      onCancel,
    )
  return card(
    'Update your email',
    [
      errorLine(updateEmailErrors[data.error ?? ''], 'update-email-error'),
      inputForm({
        label: 'New email',
        testid: 'update-email-input',
        type: 'email',
        submitLabel: 'Send code',
        onSubmit: (email) =>
          ctx.answer('UpdateEmail/retry-with-new-email', email),
      }),
    ],
    onCancel,
  )
}

/** `enable-mfa`: the secret to add, then the recovery codes. */
export const enableMfa: Render<'enable-mfa'> = (data, ctx) => {
  if (data.step === 'recovery-codes')
    return card(
      'Save your recovery codes',
      [
        paragraph('Each code works once if you lose your authenticator.'),
        list(data.recoveryCodes ?? [], 'mfa-recovery-codes'),
        actions([button('Done', 'mfa-done', cancel(ctx, 'close'), 'primary')]),
      ],
      cancel(ctx, 'close'),
    )
  return card(
    'Set up two-factor authentication',
    [
      paragraph(
        'Add this account to your authenticator app, then enter its code.',
      ),
      value('Secret', data.secret ?? '', 'mfa-secret'),
      value('otpauth URI', data.uri ?? '', 'mfa-uri'),
      ...mfaForm(ctx, data.error),
    ],
    cancel(ctx, 'cancel-mfa-setup'),
  )
}

/** `disable-mfa`: a TOTP code, or a recovery code after `lost-device`. */
export const disableMfa: Render<'disable-mfa'> = (data, ctx) => {
  const onCancel = cancel(ctx, 'cancel-mfa-disable')
  if (data.step === 'recovery-code')
    return card(
      'Disable two-factor authentication',
      recoveryForm(ctx, data.error),
      onCancel,
    )
  return card(
    'Disable two-factor authentication',
    [
      ...mfaForm(ctx, data.error),
      actions([
        button('I lost my device', 'lost-device', cancel(ctx, 'lost-device')),
      ]),
    ],
    onCancel,
  )
}

const phoneErrors: Record<string, string> = {
  malformed: 'That phone number is not valid.',
  'already-exists': 'That phone number is already a recovery factor.',
  invalid: codeErrors.invalid ?? '',
}

/** `recovery-factor`: a phone number, then the SMS code sent to it. */
export const recoveryFactor: Render<'recovery-factor'> = (data, ctx) => {
  if (data.step === 'otp')
    return card(
      'Verify your phone',
      [
        paragraph(
          `Enter the code sent to ${data.phoneNumber ?? 'your phone'}.`,
        ),
        errorLine(phoneErrors[data.error ?? ''], 'recovery-factor-error'),
        inputForm({
          label: 'Code',
          testid: 'sms-otp-input',
          submitLabel: 'Verify',
          code: true,
          onSubmit: (code) => ctx.answer('send-otp-code', code),
        }),
      ],
      cancel(ctx),
    )
  return card(
    'Add a recovery phone',
    [
      errorLine(phoneErrors[data.error ?? ''], 'recovery-factor-error'),
      inputForm({
        label: 'Phone number',
        testid: 'phone-number-input',
        type: 'tel',
        placeholder: '+15550100000',
        submitLabel: 'Send code',
        onSubmit: (phone) => ctx.answer('send-new-phone-number', phone),
      }),
    ],
    cancel(ctx),
  )
}

/** `recover-account`: the SMS code, then possibly a new email. */
export const recoverAccount: Render<'recover-account'> = (data, ctx) => {
  if (data.step === 'new-email')
    return card(
      'Choose a new email',
      [
        paragraph('Your account needs a new email address.'),
        inputForm({
          label: 'New email',
          testid: 'new-email-input',
          type: 'email',
          submitLabel: 'Continue',
          onSubmit: (email) => ctx.answer('update-email', email),
        }),
      ],
      cancel(ctx),
    )
  return card(
    'Recover your account',
    [
      paragraph(
        `Enter the code sent to ${data.phoneNumber ?? 'your recovery phone'}.`,
      ),
      errorLine(codeErrors[data.error ?? ''], 'recover-account-error'),
      inputForm({
        label: 'Code',
        testid: 'sms-otp-input',
        submitLabel: 'Verify',
        code: true,
        onSubmit: (code) => ctx.answer('verify-otp-code', code),
      }),
      actions([
        button(
          'Send a new code',
          'resend-sms-otp',
          cancel(ctx, 'resend-sms-otp'),
        ),
      ]),
    ],
    cancel(ctx),
  )
}
