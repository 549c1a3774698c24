/**
 * MFA: enable (real TOTP secret, code check, recovery codes) and disable
 * (TOTP or recovery code).
 */
import { methods } from '../../../../magic/wire/methods.js'
import type { Handler } from '../context.js'
import { failures, RpcFailure } from '../errors.js'
import { requireUser } from '../session.js'
import {
  consumeRecoveryCode,
  createRecoveryCodes,
  createSecret,
  uriOf,
  verifyTotp,
} from '../totp.js'

/**
 * `magic_auth_enable_mfa_flow`: emits `mfa-secret-generated` with
 * `{ QRCode: <otpauth:// URI>, key: <base32 secret> }`, waits for a valid
 * `verify-mfa-code` (±1 step; else `invalid-mfa-otp`), then emits
 * `mfa-recovery-codes` with `{ recoveryCodes }` (8 single-use codes, stored
 * hashed). Resolves `true`.
 */
const enableMfa: Handler = async (ctx) => {
  const user = requireUser(ctx)
  if (user.mfaSecret !== undefined)
    throw new RpcFailure(-32600, 'MFA is already enabled.')
  const secret = createSecret()
  const uri = uriOf(secret, user.email ?? user.phoneNumber ?? user.address)
  ctx.emit('mfa-secret-generated', { QRCode: uri, key: secret })
  ctx.screen('enable-mfa', { step: 'secret', uri, secret })
  for (;;) {
    const answer = await ctx.waitFor(['verify-mfa-code', 'cancel-mfa-setup'])
    if (answer.eventType === 'cancel-mfa-setup') throw failures.cancelled()
    if (verifyTotp(secret, answer.args, ctx.deps.wallNow())) break
    ctx.emit('invalid-mfa-otp')
    ctx.screen('enable-mfa', {
      step: 'secret',
      uri,
      secret,
      error: 'invalid',
    })
  }
  const { codes, hashes } = createRecoveryCodes()
  user.mfaSecret = secret
  user.recoveryCodeHashes = hashes
  ctx.emit('mfa-recovery-codes', { recoveryCodes: codes })
  if (ctx.showUI) {
    ctx.screen('enable-mfa', { step: 'recovery-codes', recoveryCodes: codes })
    await ctx.waitFor(['close'])
  }
  return true
}

/**
 * `magic_auth_disable_mfa_flow`: emits `mfa-code-requested`, then takes
 * `verify-mfa-code` (TOTP; else `invalid-mfa-otp`) or a recovery code, sent
 * as `lost-device` with the code (headless) or `verify-recovery-code` (the
 * iframe's screen; else `invalid-recovery-code`). Resolves `true`.
 */
const disableMfa: Handler = async (ctx) => {
  const user = requireUser(ctx)
  const secret = user.mfaSecret
  if (secret === undefined) throw new RpcFailure(-32600, 'MFA is not enabled.')
  ctx.emit('mfa-code-requested')
  ctx.screen('disable-mfa', { step: 'mfa-code' })
  for (;;) {
    const answer = await ctx.waitFor([
      'verify-mfa-code',
      'lost-device',
      'verify-recovery-code',
      'cancel-mfa-disable',
    ])
    if (answer.eventType === 'cancel-mfa-disable') throw failures.cancelled()
    if (answer.eventType === 'verify-mfa-code') {
      if (verifyTotp(secret, answer.args, ctx.deps.wallNow())) break
      ctx.emit('invalid-mfa-otp')
      ctx.screen('disable-mfa', { step: 'mfa-code', error: 'invalid' })
      continue
    }
    if (answer.eventType === 'lost-device' && answer.args === undefined) {
      ctx.screen('disable-mfa', { step: 'recovery-code' })
      continue
    }
    if (consumeRecoveryCode(user.recoveryCodeHashes, answer.args)) break
    ctx.emit('invalid-recovery-code')
    ctx.screen('disable-mfa', { step: 'recovery-code', error: 'invalid' })
  }
  user.mfaSecret = undefined
  user.recoveryCodeHashes = []
  return true
}

/** MFA methods by name. */
export const mfaHandlers: Record<string, Handler> = {
  [methods.enableMfa]: enableMfa,
  [methods.disableMfa]: disableMfa,
}
