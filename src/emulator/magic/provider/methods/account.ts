/**
 * Account methods: update email (recency check, then the new address),
 * settings pages, the phone recovery factor, and account recovery by SMS.
 */
import { rpcCodes } from '../../../../magic/wire/codes.js'
import { methods } from '../../../../magic/wire/methods.js'
import { isEmailAddress, normalizeContact } from '../../../contact.js'
import type { User } from '../../../registry/index.js'
import type { Context, Handler } from '../context.js'
import { failures, isUserCancel, RpcFailure } from '../errors.js'
import { isDeliverable } from '../mail.js'
import { login, requireUser } from '../session.js'
import { secondFactor } from './factors.js'
import { mfaHandlers } from './mfa.js'
import { infoOf } from './user.js'

const phonePattern = /^\+[1-9][0-9]{6,14}$/

function sendCode(ctx: Context, kind: string, to: string, key: string) {
  const code = ctx.deps.codes.issue(key)
  if (code === undefined) {
    ctx.emit('login-throttled')
    throw failures.throttled()
  }
  ctx.deps.mailbox.deliver({ to, kind, code })
}

/**
 * Recency check: a code to the current email (`Recency/*` events), then,
 * with MFA on, the login's MFA step ({@link secondFactor}) answered by
 * `Recency/verify-mfa-code` or `verify-mfa-code` with the TOTP code or a
 * recovery code. `Recency/auth-factor-verified` ("primary auth factor
 * verified") follows the email code, as `sms-verified` precedes SMS MFA.
 */
async function recency(ctx: Context, user: User) {
  const email = user.email
  if (email === undefined) return
  const key = `recency:${email}`
  ctx.emit('Recency/auth-factor-needs-verification')
  if (!isDeliverable(email)) {
    ctx.emit('Recency/auth-factor-verification-email-not-deliverable')
    throw failures.inactiveRecipient()
  }
  const send = () => {
    sendCode(ctx, 'email-otp', email, key)
    ctx.emit('Recency/auth-factor-verification-email-sent')
  }
  send()
  ctx.screen('email-otp', { email })
  for (;;) {
    const answer = await ctx.waitFor([
      'Recency/auth-factor-verify-email-otp',
      'Recency/auth-factor-retry',
      'Recency/auth-factor-verification-cancel',
      'verify-email-otp',
      'cancel',
    ])
    const type = answer.eventType
    if (type === 'Recency/auth-factor-verification-cancel' || type === 'cancel')
      throw failures.cancelled()
    if (type === 'Recency/auth-factor-retry') {
      send()
      continue
    }
    const result = ctx.deps.codes.check(key, answer.args)
    if (result === 'ok') break
    if (result === 'max-attempts') {
      ctx.emit('max-attempts-reached')
      throw failures.maxAttempts()
    }
    ctx.emit(
      result === 'invalid'
        ? 'Recency/auth-factor-invalid-email-otp'
        : 'Recency/auth-factor-verification-email-expired',
    )
    ctx.screen('email-otp', { email, error: result })
  }
  ctx.emit('Recency/auth-factor-verified')
  await secondFactor(ctx, user, {
    verify: ['Recency/verify-mfa-code', 'verify-mfa-code'],
    cancel: ['Recency/auth-factor-verification-cancel', 'cancel'],
    recoveryCodeAsCode: true,
  })
}

/** Asks for (or checks) the new address, verifies it, updates it. */
async function newEmail(ctx: Context, user: User, first: unknown) {
  let candidate = first
  const retry = async (
    error?: 'invalid' | 'already-exists' | 'not-deliverable',
  ) => {
    ctx.screen('update-email', {
      step: 'new-email',
      ...(error ? { error } : {}),
    })
    const answer = await ctx.waitFor([
      'UpdateEmail/retry-with-new-email',
      'UpdateEmail/new-email-verification-cancel',
      'update-email',
      'cancel',
    ])
    if (answer.eventType.endsWith('cancel')) throw failures.cancelled()
    return answer.args
  }
  if (candidate === undefined) candidate = await retry()
  for (;;) {
    const email =
      typeof candidate === 'string' ? normalizeContact(candidate) : ''
    if (!isEmailAddress(email)) {
      ctx.emit('UpdateEmail/new-email-invalid')
      candidate = await retry('invalid')
      continue
    }
    if (ctx.deps.registry.find({ email })) {
      ctx.emit('UpdateEmail/new-email-already-exists')
      candidate = await retry('already-exists')
      continue
    }
    if (!isDeliverable(email)) {
      ctx.emit('UpdateEmail/new-email-verification-email-not-deliverable')
      candidate = await retry('not-deliverable')
      continue
    }
    const key = `update-email:${email}`
    sendCode(ctx, 'email-otp', email, key)
    ctx.emit('UpdateEmail/new-email-verification-email-sent')
    ctx.emit('UpdateEmail/new-email-needs-verification')
    ctx.screen('update-email', { step: 'verify', email })
    for (;;) {
      const answer = await ctx.waitFor([
        'UpdateEmail/new-email-verify-otp',
        'UpdateEmail/retry-with-new-email',
        'UpdateEmail/new-email-verification-cancel',
        'edit-email',
      ])
      if (answer.eventType === 'UpdateEmail/new-email-verification-cancel')
        throw failures.cancelled()
      // The iframe's "use another email": the address came from the app,
      // so the request ends for the app to ask again (-10005).
      if (answer.eventType === 'edit-email')
        throw new RpcFailure(
          rpcCodes.UserRequestEditEmail,
          'The user wants to change the new email address.',
        )
      if (answer.eventType === 'UpdateEmail/retry-with-new-email') {
        candidate = answer.args
        break
      }
      const result = ctx.deps.codes.check(key, answer.args)
      if (result === 'ok') {
        ctx.deps.registry.setEmail(user.id, email)
        ctx.emit('UpdateEmail/email-updated')
        return
      }
      if (result === 'max-attempts') {
        ctx.emit('max-attempts-reached')
        throw failures.maxAttempts()
      }
      ctx.emit(
        result === 'invalid'
          ? 'UpdateEmail/new-email-invalid-email-otp'
          : 'UpdateEmail/new-email-verification-email-expired',
      )
      ctx.screen('update-email', { step: 'verify', email, error: result })
    }
  }
}

/**
 * `magic_auth_update_email` ({ email, showUI }): resolves `true`. The user's
 * cancel at any step is -10004 (the update failed), as the hosted provider
 * answers this method, rather than the -10014 of other flows.
 */
const updateEmail: Handler = async (ctx) => {
  const user = requireUser(ctx)
  try {
    await recency(ctx, user)
    await newEmail(ctx, user, ctx.options.email)
  } catch (error) {
    if (!isUserCancel(error)) throw error
    throw new RpcFailure(
      rpcCodes.UpdateEmailFailed,
      'The email was not updated: the user cancelled.',
    )
  }
  return true
}

/**
 * The phone recovery factor: `enter-new-phone-number` → `send-new-phone-
 * number` (E.164; else `malformed-phone-number`; taken →
 * `recovery-factor-already-exists`) → SMS code, `enter-otp-code` →
 * `send-otp-code` (else `invalid-otp-code`) → `recovery-factor-updated`.
 */
async function recoveryFactor(ctx: Context, user: User) {
  for (;;) {
    ctx.emit('enter-new-phone-number')
    ctx.screen('recovery-factor', { step: 'phone' })
    const answer = await ctx.waitFor([
      'send-new-phone-number',
      'start-edit-phone-number',
      'cancel',
    ])
    if (answer.eventType === 'cancel') throw failures.cancelled()
    if (answer.eventType === 'start-edit-phone-number') continue
    const phone =
      typeof answer.args === 'string' ? normalizeContact(answer.args) : ''
    if (!phonePattern.test(phone)) {
      ctx.emit('malformed-phone-number')
      continue
    }
    if (
      user.recoveryPhone === phone ||
      ctx.deps.registry.find({ phoneNumber: phone })
    ) {
      ctx.emit('recovery-factor-already-exists')
      continue
    }
    const key = `recovery-factor:${phone}`
    sendCode(ctx, 'sms-otp', phone, key)
    ctx.emit('enter-otp-code')
    ctx.screen('recovery-factor', { step: 'otp', phoneNumber: phone })
    for (;;) {
      const code = await ctx.waitFor(['send-otp-code', 'cancel'])
      if (code.eventType === 'cancel') throw failures.cancelled()
      const result = ctx.deps.codes.check(key, code.args)
      if (result === 'ok') {
        user.recoveryPhone = phone
        ctx.emit('recovery-factor-updated')
        return
      }
      if (result === 'max-attempts') throw failures.maxAttempts()
      ctx.emit('invalid-otp-code')
      ctx.screen('recovery-factor', {
        step: 'otp',
        phoneNumber: phone,
        error: 'invalid',
      })
    }
  }
}

/**
 * `magic_auth_settings` ({ page?, showUI }): runs the page's flow
 * (`update-email`, `mfa` = enable or disable, `recovery`), or shows the
 * settings menu. Resolves to the user's info.
 */
const settings: Handler = async (ctx) => {
  const user = requireUser(ctx)
  let page = ctx.options.page
  if (page === undefined && ctx.showUI) {
    ctx.screen('settings', {
      email: user.email,
      phoneNumber: user.recoveryPhone,
      isMfaEnabled: user.mfaSecret !== undefined,
    })
    const answer = await ctx.waitFor(['open-page', 'close'])
    page = answer.eventType === 'close' ? undefined : answer.args
  }
  if (page === 'update-email') {
    await recency(ctx, user)
    await newEmail(ctx, user, undefined)
  } else if (page === 'mfa') {
    const method =
      user.mfaSecret === undefined ? methods.enableMfa : methods.disableMfa
    await mfaHandlers[method]?.(ctx)
  } else if (page === 'recovery') await recoveryFactor(ctx, user)
  else if (page !== undefined)
    throw failures.invalidParams(
      "magic_auth_settings: page must be 'update-email', 'mfa' or 'recovery'.",
    )
  return infoOf(user)
}

/**
 * `magic_auth_recover_account` ({ email, showUI }): an SMS code to the
 * account's recovery phone (`sms-otp-sent`, `verify-otp-code`,
 * `invalid-sms-otp`, `resend-sms-otp`), then `sms-verified`, a session,
 * `account-recovered`, and `update-email-required`: the caller sends
 * `update-email` with the new address (verified like update email) or
 * `cancel` to keep the old one. Resolves `true`.
 */
const recoverAccount: Handler = async (ctx) => {
  const { email } = ctx.options
  if (typeof email !== 'string')
    throw failures.invalidParams('magic_auth_recover_account: expected email.')
  const user = ctx.deps.registry.find({ email })
  const phone = user?.recoveryPhone
  if (!user || phone === undefined)
    throw new RpcFailure(-10011, 'This account has no recovery phone number.')
  const key = `recover:${phone}`
  const send = () => {
    sendCode(ctx, 'sms-otp', phone, key)
    ctx.emit('sms-otp-sent')
  }
  send()
  ctx.screen('recover-account', { step: 'otp', phoneNumber: phone })
  for (;;) {
    const answer = await ctx.waitFor([
      'verify-otp-code',
      'resend-sms-otp',
      'cancel',
    ])
    if (answer.eventType === 'cancel') throw failures.cancelled()
    if (answer.eventType === 'resend-sms-otp') {
      send()
      continue
    }
    const result = ctx.deps.codes.check(key, answer.args)
    if (result === 'ok') break
    if (result === 'max-attempts') throw failures.maxAttempts()
    ctx.emit('invalid-sms-otp')
    ctx.screen('recover-account', {
      step: 'otp',
      phoneNumber: phone,
      error: 'invalid',
    })
  }
  ctx.emit('sms-verified')
  await login(ctx, user)
  ctx.emit('account-recovered')
  ctx.emit('update-email-required')
  ctx.screen('recover-account', { step: 'new-email' })
  const answer = await ctx.waitFor(['update-email', 'cancel'])
  if (answer.eventType === 'update-email')
    await newEmail(ctx, user, answer.args)
  return true
}

/** Account methods by name. */
export const accountHandlers: Record<string, Handler> = {
  [methods.updateEmail]: updateEmail,
  [methods.settings]: settings,
  [methods.recoverAccount]: recoverAccount,
}
