/**
 * Steps shared by the login flows once the first factor is verified: the
 * second factor (TOTP or a recovery code) and new-device approval.
 */
import type { User } from '../../registry/index.js'
import type { Context } from '../context.js'
import { failures } from '../errors.js'
import { createLink, linkAnswers } from '../links.js'
import { consumeRecoveryCode, verifyTotp } from '../totp.js'

/** The device key of a request: its DPoP thumbprint. */
function deviceOf(ctx: Context): string {
  return ctx.jkt ?? 'no-device-key'
}

/**
 * Asks for the TOTP code (`mfa-sent-handle`) or, after `lost-device`, a
 * recovery code (`recovery-code-sent-handle`) when `user` has MFA on.
 */
export async function secondFactor(ctx: Context, user: User): Promise<void> {
  const secret = user.mfaSecret
  if (secret === undefined) return
  ctx.emit('mfa-sent-handle')
  ctx.screen('mfa-code', {})
  for (;;) {
    const answer = await ctx.waitFor([
      'verify-mfa-code',
      'lost-device',
      'cancel',
    ])
    if (answer.eventType === 'cancel') throw failures.cancelled()
    if (answer.eventType === 'verify-mfa-code') {
      if (verifyTotp(secret, answer.args, ctx.deps.now())) return
      ctx.emit('invalid-mfa-otp')
      ctx.screen('mfa-code', { error: 'invalid' })
      continue
    }
    ctx.emit('recovery-code-sent-handle')
    ctx.screen('recovery-code', {})
    for (;;) {
      const code = await ctx.waitFor(['verify-recovery-code', 'cancel'])
      if (code.eventType === 'cancel') throw failures.cancelled()
      if (consumeRecoveryCode(user.recoveryCodeHashes, code.args)) {
        ctx.emit('recovery-code-success')
        return
      }
      ctx.emit('invalid-recovery-code')
      ctx.screen('recovery-code', { error: 'invalid' })
    }
  }
}

/**
 * When `user` requires device approval and this device is new: mails an
 * approval link and waits until it is opened (`device-approved`),
 * re-sending it on `device-retry`.
 */
export async function deviceApproval(ctx: Context, user: User): Promise<void> {
  const device = deviceOf(ctx)
  const email = user.email
  if (!user.deviceApprovalRequired || user.approvedDevices.has(device)) return
  if (email === undefined) return
  const send = () => {
    const link = createLink(ctx.deps, {
      kind: 'device-approval',
      flowId: ctx.id,
      email,
      origin: ctx.origin,
    })
    ctx.deps.mailbox.deliver({ to: email, kind: 'device-approval', link })
    ctx.emit('device-verification-email-sent')
  }
  ctx.emit('device-needs-approval')
  send()
  ctx.screen('device-approval', { email })
  for (;;) {
    const answer = await ctx.waitFor([
      linkAnswers.opened,
      linkAnswers.expired,
      'device-retry',
      'cancel',
    ])
    if (answer.eventType === 'cancel') throw failures.cancelled()
    if (answer.eventType === linkAnswers.opened) {
      user.approvedDevices.add(device)
      ctx.emit('device-approved')
      return
    }
    if (answer.eventType === linkAnswers.expired) {
      ctx.emit('device-verification-link-expired')
      ctx.screen('device-approval', { email, expired: true })
      continue
    }
    send()
    ctx.screen('device-approval', { email })
  }
}
