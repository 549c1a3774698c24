import * as OTPAuth from 'otpauth'
import { describe, expect, test } from 'vitest'
import {
  codeOf,
  createDevice,
  createTestService,
  eventsOf,
  loginByEmail,
  open,
} from './testkit.js'

const setup = createTestService

const names = (lines: Parameters<typeof eventsOf>[0]) =>
  eventsOf(lines).map(([name]) => name)

function totp(secret: string, now: Date) {
  return new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
  }).generate({ timestamp: now.getTime() })
}
/** Logs in and enables MFA; returns the TOTP secret and recovery codes. */
async function withMfa(
  env: ReturnType<typeof setup>,
  email: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const device = await createDevice({ now: env.now })
  await loginByEmail(env.app, env.mailbox, email, device)
  const flow = await open(
    env.app,
    'magic_auth_enable_mfa_flow',
    [{ showUI: false }],
    { device },
  )
  const [{ key, QRCode }] = (await flow.event('mfa-secret-generated')) as [
    { key: string; QRCode: string },
  ]
  expect(QRCode).toBe(
    `otpauth://totp/Emulated%20Wallet:${encodeURIComponent(email)}?issuer=Emulated%20Wallet&secret=${key}&algorithm=SHA1&digits=6&period=30`,
  )
  await flow.answer(
    'verify-mfa-code',
    '000000' === totp(key, env.now()) ? '111111' : '000000',
  )
  await flow.event('invalid-mfa-otp')
  await flow.answer('verify-mfa-code', totp(key, env.now()))
  const [{ recoveryCodes }] = (await flow.event('mfa-recovery-codes')) as [
    { recoveryCodes: string[] },
  ]
  expect(recoveryCodes).toHaveLength(8)
  expect((await flow.done()).response.result).toBe(true)
  return { secret: key, recoveryCodes }
}
describe('second factors at login', () => {
  test('behavior: with MFA on, a TOTP code completes the login (invalid-mfa-otp first)', async () => {
    const env = setup()
    const { secret } = await withMfa(env, 'ada@example.com')
    const flow = await open(env.app, 'magic_auth_login_with_email_otp', [
      { email: 'ada@example.com', showUI: false },
    ])
    await flow.event('email-otp-sent')
    await flow.answer(
      'verify-email-otp',
      codeOf(env.mailbox, 'ada@example.com'),
    )
    await flow.event('mfa-sent-handle')
    const code = totp(secret, env.now())
    await flow.answer(
      'verify-mfa-code',
      code === '000000' ? '111111' : '000000',
    )
    await flow.event('invalid-mfa-otp')
    env.advance(30_000)
    await flow.answer('verify-mfa-code', code)
    expect(typeof (await flow.done()).response.result).toBe('string')
  })

  test('behavior: with MFA on, lost-device takes a single-use recovery code', async () => {
    const env = setup()
    const { recoveryCodes } = await withMfa(env, 'ada@example.com')
    const login = async (recoveryCode: string) => {
      const flow = await open(env.app, 'magic_auth_login_with_email_otp', [
        { email: 'ada@example.com', showUI: false },
      ])
      await flow.event('email-otp-sent')
      await flow.answer(
        'verify-email-otp',
        codeOf(env.mailbox, 'ada@example.com'),
      )
      await flow.event('mfa-sent-handle')
      await flow.answer('lost-device')
      await flow.event('recovery-code-sent-handle')
      await flow.answer('verify-recovery-code', recoveryCode)
      return flow
    }
    const first = await login(recoveryCodes[0]!)
    await first.event('recovery-code-success')
    expect(typeof (await first.done()).response.result).toBe('string')
    const reused = await login(recoveryCodes[0]!)
    await reused.event('invalid-recovery-code')
    await reused.answer('cancel')
    expect((await reused.done()).response.error?.code).toBe(-10014)
  })

  test('error: POST /dev/users/device-approval with anything but { email, required } is 400 JSON', async () => {
    const env = setup()
    for (const body of [
      'null',
      '[]',
      '5',
      'not json',
      '{"email":"ada@example.com"}',
      '{"email":"ada@example.com","required":"yes"}',
      '{"email":"not an email","required":true}',
      '{"email":["ada@example.com"],"required":true}',
    ]) {
      const answer = await env.app.request('/dev/users/device-approval', {
        method: 'POST',
        body,
      })
      expect([body, answer.status, await answer.json()]).toEqual([
        body,
        400,
        { error: 'Expected { email: string, required: boolean }.' },
      ])
    }
    expect(env.registry.find({ email: 'ada@example.com' })).toBeUndefined()
  })

  test('behavior: device approval mails a link; opening it emits device-approved; an expired one device-verification-link-expired', async () => {
    const env = setup()
    const approval = await env.app.request('/dev/users/device-approval', {
      method: 'POST',
      body: JSON.stringify({ email: 'ada@example.com', required: true }),
    })
    expect(await approval.json()).toEqual({
      email: 'ada@example.com',
      required: true,
    })
    const device = await createDevice({ now: env.now })
    const flow = await open(
      env.app,
      'magic_auth_login_with_email_otp',
      [{ email: 'ada@example.com', showUI: false, deviceCheckUI: false }],
      { device },
    )
    await flow.event('email-otp-sent')
    await flow.answer(
      'verify-email-otp',
      codeOf(env.mailbox, 'ada@example.com'),
    )
    await flow.event('device-needs-approval')
    await flow.event('device-verification-email-sent')
    const firstLink = env.mailbox.list({ to: 'ada@example.com' })[0]!
    expect(firstLink.kind).toBe('device-approval')
    env.advance(15 * 60 * 1000)
    const expired = await env.app.request(firstLink.link!)
    expect(expired.status).toBe(410)
    await flow.event('device-verification-link-expired')
    await flow.answer('device-retry')
    await flow.event('device-verification-email-sent')
    const secondLink = env.mailbox.list({ to: 'ada@example.com' })[0]!
    const opened = await env.app.request(secondLink.link!)
    expect(opened.status).toBe(200)
    expect(await opened.text()).toContain('This device is approved.')
    await flow.event('device-approved')
    expect(typeof (await flow.done()).response.result).toBe('string')

    // The approved device logs in without a new approval.
    const again = await open(
      env.app,
      'magic_auth_login_with_email_otp',
      [{ email: 'ada@example.com', showUI: false }],
      { device },
    )
    await again.event('email-otp-sent')
    await again.answer(
      'verify-email-otp',
      codeOf(env.mailbox, 'ada@example.com'),
    )
    await again.done()
    expect(names(again.lines)).toEqual([
      'email-otp-sent',
      'Auth/id-token-created',
    ])
  })
})
