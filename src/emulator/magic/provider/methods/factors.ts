/**
 * Steps shared by the login flows once the first factor is verified: the
 * second factor (TOTP or a recovery code) and new-device approval.
 */
import type { User } from '../../../registry/index.js'
import type { Context } from '../context.js'
import { failures } from '../errors.js'
import { createLink, linkAnswers } from '../links.js'
import { consumeRecoveryCode, verifyTotp } from '../totp.js'

/** The device key of a request: its DPoP thumbprint. */
function deviceOf(ctx: Context): string {
  return ctx.jkt ?? 'no-device-key'
}

/** Which answers {@link secondFactor} takes, beyond the login flows'. */
export type SecondFactorOptions = {
  /** Answer names carrying the TOTP code. @default ['verify-mfa-code'] */
  verify?: readonly string[] | undefined
  /** Answer names that cancel the flow. @default ['cancel'] */
  cancel?: readonly string[] | undefined
  /**
   * Whether a `verify` answer may also carry a recovery code (flows whose
   * published protocol has no `lost-device` step, such as the recency
   * check of update email). @default false
   */
  recoveryCodeAsCode?: boolean | undefined
}

/**
 * Asks for the TOTP code (`mfa-sent-handle`) or, after `lost-device`, a
 * recovery code (`recovery-code-sent-handle`) when `user` has MFA on. A
 * wrong TOTP code is `invalid-mfa-otp`, a wrong recovery code
 * `invalid-recovery-code`; a used recovery code is `recovery-code-success`.
 */
export async function secondFactor(
  ctx: Context,
  user: User,
  options: SecondFactorOptions = {},
): Promise<void> {
  const {
    verify = ['verify-mfa-code'],
    cancel = ['cancel'],
    recoveryCodeAsCode = false,
  } = options
  const secret = user.mfaSecret
  if (secret === undefined) return
  ctx.emit('mfa-sent-handle')
  ctx.screen('mfa-code', {})
  for (;;) {
    const answer = await ctx.waitFor([...verify, ...cancel, 'lost-device'])
    if (cancel.includes(answer.eventType)) throw failures.cancelled()
    if (verify.includes(answer.eventType)) {
      if (verifyTotp(secret, answer.args, ctx.deps.wallNow())) return
      if (
        recoveryCodeAsCode &&
        consumeRecoveryCode(user.recoveryCodeHashes, answer.args)
      ) {
        ctx.emit('recovery-code-success')
        return
      }
      ctx.emit('invalid-mfa-otp')
      ctx.screen('mfa-code', { error: 'invalid' })
      continue
    }
    ctx.emit('recovery-code-sent-handle')
    ctx.screen('recovery-code', {})
    for (;;) {
      const code = await ctx.waitFor(['verify-recovery-code', ...cancel])
      if (cancel.includes(code.eventType)) throw failures.cancelled()
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
