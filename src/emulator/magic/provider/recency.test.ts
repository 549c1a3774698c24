import * as OTPAuth from 'otpauth'
import { describe, expect, test } from 'vitest'
import {
  codeOf,
  createDevice,
  createTestService,
  type Device,
  eventsOf,
  loginByEmail,
  open,
  wrongCode,
} from './testkit.js'

const names = (lines: Parameters<typeof eventsOf>[0]) =>
  eventsOf(lines).map(([name]) => name)

const totp = (secret: string, now: Date) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: now.getTime(),
  })

/** A service with ada@example.com logged in and MFA enabled. */
async function setupWithMfa() {
  const env = createTestService()
  const device = await createDevice({ now: env.now })
  await loginByEmail(env.app, env.mailbox, 'ada@example.com', device)
  const enable = await open(
    env.app,
    'magic_auth_enable_mfa_flow',
    [{ showUI: false }],
    { device },
  )
  const [{ key }] = (await enable.event('mfa-secret-generated')) as [
    { key: string },
  ]
  await enable.answer('verify-mfa-code', totp(key, env.now()))
  const [{ recoveryCodes }] = (await enable.event('mfa-recovery-codes')) as [
    { recoveryCodes: string[] },
  ]
  await enable.done()
  const userId = env.registry.find({ email: 'ada@example.com' })?.id
  return { ...env, device, userId, secret: key, recoveryCodes }
}

/** Opens a headless update email and passes the recency email code. */
async function passEmailCode(
  env: Awaited<ReturnType<typeof setupWithMfa>>,
  device: Device,
  showUI = false,
) {
  const flow = await open(
    env.app,
    'magic_auth_update_email',
    [{ email: 'ada2@example.com', showUI }],
    { device },
  )
  await flow.event('Recency/auth-factor-verification-email-sent')
  await flow.answer(
    'Recency/auth-factor-verify-email-otp',
    codeOf(env.mailbox, 'ada@example.com'),
  )
  await flow.event('Recency/auth-factor-verified')
  return flow
}

describe('magic_auth_update_email with MFA on', () => {
  test('behavior: after the email code, Recency/verify-mfa-code takes the TOTP code (invalid-mfa-otp first)', async () => {
    const env = await setupWithMfa()
    const flow = await passEmailCode(env, env.device)
    await flow.event('mfa-sent-handle')
    const code = totp(env.secret, env.now())
    await flow.answer('Recency/verify-mfa-code', wrongCode(code))
    await flow.event('invalid-mfa-otp')
    await flow.answer('Recency/verify-mfa-code', code)
    await flow.event('UpdateEmail/new-email-needs-verification')
    await flow.answer(
      'UpdateEmail/new-email-verify-otp',
      codeOf(env.mailbox, 'ada2@example.com'),
    )
    expect((await flow.done()).response.result).toBe(true)
    expect(names(flow.lines)).toEqual([
      'Recency/auth-factor-needs-verification',
      'Recency/auth-factor-verification-email-sent',
      'Recency/auth-factor-verified',
      'mfa-sent-handle',
      'invalid-mfa-otp',
      'UpdateEmail/new-email-verification-email-sent',
      'UpdateEmail/new-email-needs-verification',
      'UpdateEmail/email-updated',
    ])
    expect(env.registry.find({ email: 'ada2@example.com' })?.id).toBe(
      env.userId,
    )
    expect(env.registry.find({ email: 'ada@example.com' })).toBe(undefined)
  })

  test('behavior: plain verify-mfa-code takes a recovery code once; the same code again is invalid-mfa-otp', async () => {
    const env = await setupWithMfa()
    const recoveryCode = env.recoveryCodes[2] as string
    const first = await passEmailCode(env, env.device)
    await first.event('mfa-sent-handle')
    await first.answer('verify-mfa-code', recoveryCode)
    await first.event('recovery-code-success')
    await first.event('UpdateEmail/new-email-needs-verification')
    await first.answer('UpdateEmail/new-email-verification-cancel')
    expect((await first.done()).response.error).toEqual({
      code: -10004,
      message: 'The email was not updated: the user cancelled.',
    })

    const again = await passEmailCode(env, env.device)
    await again.event('mfa-sent-handle')
    await again.answer('Recency/verify-mfa-code', recoveryCode)
    await again.event('invalid-mfa-otp')
    await again.answer('Recency/auth-factor-verification-cancel')
    expect((await again.done()).response.error).toEqual({
      code: -10004,
      message: 'The email was not updated: the user cancelled.',
    })
    expect(names(again.lines).slice(-2)).toEqual([
      'mfa-sent-handle',
      'invalid-mfa-otp',
    ])
  })

  test('behavior: with the provider UI, the MFA screen follows the email code', async () => {
    const env = await setupWithMfa()
    const flow = await passEmailCode(env, env.device, true)
    expect(await flow.next()).toEqual({
      kind: 'event',
      event: 'mfa-sent-handle',
      params: [],
    })
    expect(await flow.next()).toEqual({
      kind: 'screen',
      screen: 'mfa-code',
      data: {},
    })
    await flow.answer('Recency/verify-mfa-code', '12345')
    await flow.event('invalid-mfa-otp')
    expect(await flow.next()).toEqual({
      kind: 'screen',
      screen: 'mfa-code',
      data: { error: 'invalid' },
    })
    await flow.answer('cancel')
    expect((await flow.done()).response.error?.code).toBe(-10004)
  })
})
