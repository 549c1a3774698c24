import * as OTPAuth from 'otpauth'
import { recoverMessageAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import * as Mailbox from '../../dev/mailbox.js'
import { createRegistry } from '../../registry/index.js'
import { decodeDidToken } from './didToken.js'
import { createMagicService } from './service.js'
import {
  call,
  createDevice,
  type Device,
  eventsOf,
  loginByEmail,
  open,
} from './testkit.js'

async function setup(email = 'ada@example.com') {
  const clock = { now: new Date('2026-01-01T00:00:00Z') }
  const now = () => clock.now
  const mailbox = Mailbox.create({ now })
  const registry = createRegistry({ now })
  const app = createMagicService({
    mailbox,
    registry,
    chain: { rpcUrl: 'http://127.0.0.1:1', chainId: 31337 },
    now,
  })
  const device = await createDevice({ now })
  await loginByEmail(app, mailbox, email, device)
  const user = registry.find({ email })!
  return { app, mailbox, registry, now, device, user, clock }
}

const codeOf = (mailbox: Mailbox.Store, to: string) =>
  mailbox.list({ to })[0]?.code

const names = (lines: Parameters<typeof eventsOf>[0]) =>
  eventsOf(lines).map(([name]) => name)

const totp = (secret: string, now: Date) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: now.getTime(),
  })

async function addRecoveryPhone(
  env: Awaited<ReturnType<typeof setup>>,
  device: Device,
) {
  const flow = await open(
    env.app,
    'magic_auth_settings',
    [{ page: 'recovery', showUI: false }],
    { device },
  )
  await flow.event('enter-new-phone-number')
  await flow.answer('send-new-phone-number', '555')
  await flow.event('malformed-phone-number')
  await flow.answer('send-new-phone-number', '+1 555 010 0000')
  await flow.event('enter-otp-code')
  const code = codeOf(env.mailbox, '+15550100000')!
  await flow.answer('send-otp-code', code === '000000' ? '000001' : '000000')
  await flow.event('invalid-otp-code')
  await flow.answer('send-otp-code', code)
  await flow.event('recovery-factor-updated')
  return flow
}

describe('id tokens', () => {
  test('behavior: generate_id_token signs lifespan and attachment (add: the user signs it, none by default); the proof recovers to the user', async () => {
    const { app, device, user, now } = await setup()
    const token = (
      await call(
        app,
        'magic_auth_generate_id_token',
        [{ lifespan: 3600, attachment: 'hello' }],
        { device },
      )
    ).result as string
    const { claim, proof, parsed } = decodeDidToken(token)
    expect(
      await recoverMessageAddress({ message: claim, signature: proof }),
    ).toBe(user.address)
    expect(parsed.iat).toBe(now().getTime() / 1000)
    expect(parsed.ext).toBe(parsed.iat + 3600)
    // `add` is the user's personal_sign signature of the attachment.
    expect(
      await recoverMessageAddress({ message: 'hello', signature: parsed.add }),
    ).toBe(user.address)
    const plain = decodeDidToken(
      (await call(app, 'magic_auth_get_id_token', [], { device }))
        .result as string,
    ).parsed
    expect(plain.ext - plain.iat).toBe(900)
    expect(
      await recoverMessageAddress({ message: 'none', signature: plain.add }),
    ).toBe(user.address)
  })

  test('behavior: set_authorization_token answers true; without a jwt -32602', async () => {
    const { app, device } = await setup()
    expect(
      (
        await call(
          app,
          'magic_auth_set_authorization_token',
          [{ jwt: 'a.b.c' }],
          {
            device,
          },
        )
      ).result,
    ).toBe(true)
    expect(
      (await call(app, 'magic_auth_set_authorization_token', [{}], { device }))
        .error,
    ).toEqual({ code: -32602, message: 'Expected params [{ jwt: string }].' })
  })
})

describe('magic_auth_update_email', () => {
  test('behavior: recency code, then the new address verified and updated', async () => {
    const env = await setup()
    await env.registry.findOrCreate({ email: 'taken@example.com' })
    const flow = await open(
      env.app,
      'magic_auth_update_email',
      [{ email: 'taken@example.com', showUI: false }],
      { device: env.device },
    )
    await flow.event('Recency/auth-factor-verification-email-sent')
    const recency = codeOf(env.mailbox, 'ada@example.com')!
    await flow.answer(
      'Recency/auth-factor-verify-email-otp',
      recency === '000000' ? '000001' : '000000',
    )
    await flow.event('Recency/auth-factor-invalid-email-otp')
    await flow.answer('Recency/auth-factor-verify-email-otp', recency)
    await flow.event('Recency/auth-factor-verified')
    await flow.event('UpdateEmail/new-email-already-exists')
    await flow.answer('UpdateEmail/retry-with-new-email', 'not-an-email')
    await flow.event('UpdateEmail/new-email-invalid')
    await flow.answer('UpdateEmail/retry-with-new-email', 'Ada2@Example.com')
    await flow.event('UpdateEmail/new-email-needs-verification')
    await flow.answer(
      'UpdateEmail/new-email-verify-otp',
      codeOf(env.mailbox, 'ada2@example.com'),
    )
    await flow.event('UpdateEmail/email-updated')
    expect((await flow.done()).response.result).toBe(true)
    expect(names(flow.lines)).toEqual([
      'Recency/auth-factor-needs-verification',
      'Recency/auth-factor-verification-email-sent',
      'Recency/auth-factor-invalid-email-otp',
      'Recency/auth-factor-verified',
      'UpdateEmail/new-email-already-exists',
      'UpdateEmail/new-email-invalid',
      'UpdateEmail/new-email-verification-email-sent',
      'UpdateEmail/new-email-needs-verification',
      'UpdateEmail/email-updated',
    ])
    expect(
      (
        (await call(env.app, 'magic_get_info', [], { device: env.device }))
          .result as { email: string }
      ).email,
    ).toBe('ada2@example.com')
    expect(env.registry.find({ email: 'ada@example.com' })).toBe(undefined)
  })
})

describe('magic_auth_update_email ends', () => {
  test('error: a cancel at any step is -10004 (the update failed)', async () => {
    const env = await setup()
    const atRecency = await open(
      env.app,
      'magic_auth_update_email',
      [{ email: 'ada5@example.com', showUI: false }],
      { device: env.device },
    )
    await atRecency.event('Recency/auth-factor-verification-email-sent')
    await atRecency.answer('Recency/auth-factor-verification-cancel')
    const failed = {
      code: -10004,
      message: 'The email was not updated: the user cancelled.',
    }
    expect((await atRecency.done()).response.error).toEqual(failed)

    const atNewEmail = await open(
      env.app,
      'magic_auth_update_email',
      [{ email: 'ada6@example.com', showUI: false }],
      { device: env.device },
    )
    await atNewEmail.event('Recency/auth-factor-verification-email-sent')
    await atNewEmail.answer(
      'Recency/auth-factor-verify-email-otp',
      codeOf(env.mailbox, 'ada@example.com'),
    )
    await atNewEmail.event('UpdateEmail/new-email-needs-verification')
    await atNewEmail.answer('UpdateEmail/new-email-verification-cancel')
    expect((await atNewEmail.done()).response.error).toEqual(failed)
    expect(env.user.email).toBe('ada@example.com')
  })

  test('error: the iframe\'s "use another email" on the new address\'s code screen is -10005', async () => {
    const env = await setup()
    const flow = await open(
      env.app,
      'magic_auth_update_email',
      [{ email: 'ada7@example.com', showUI: true }],
      { device: env.device },
    )
    await flow.event('Recency/auth-factor-verification-email-sent')
    await flow.answer(
      'Recency/auth-factor-verify-email-otp',
      codeOf(env.mailbox, 'ada@example.com'),
    )
    const screen = await flow.until(
      (line) =>
        line.kind === 'screen' &&
        line.screen === 'update-email' &&
        line.data.step === 'verify',
    )
    expect(screen).toMatchObject({ data: { email: 'ada7@example.com' } })
    await flow.answer('edit-email')
    expect((await flow.done()).response.error).toEqual({
      code: -10005,
      message: 'The user wants to change the new email address.',
    })
    expect(env.user.email).toBe('ada@example.com')
  })
})

describe('magic_auth_update_email to an address mail cannot reach', () => {
  test('behavior: a new address under .invalid emits new-email-verification-email-not-deliverable and asks for another', async () => {
    const env = await setup()
    const flow = await open(
      env.app,
      'magic_auth_update_email',
      [{ email: 'ada@gone.invalid', showUI: false }],
      { device: env.device },
    )
    await flow.event('Recency/auth-factor-verification-email-sent')
    await flow.answer(
      'Recency/auth-factor-verify-email-otp',
      codeOf(env.mailbox, 'ada@example.com'),
    )
    await flow.event('UpdateEmail/new-email-verification-email-not-deliverable')
    expect(env.mailbox.list({ to: 'ada@gone.invalid' })).toEqual([])
    await flow.answer('UpdateEmail/retry-with-new-email', 'ada3@example.com')
    await flow.event('UpdateEmail/new-email-needs-verification')
    await flow.answer(
      'UpdateEmail/new-email-verify-otp',
      codeOf(env.mailbox, 'ada3@example.com'),
    )
    expect((await flow.done()).response.result).toBe(true)
  })

  test('error: when the current address cannot be reached, the recency check emits auth-factor-verification-email-not-deliverable and ends with -10010', async () => {
    const env = await setup()
    env.registry.setEmail(env.user.id, 'ada@was.invalid')
    const flow = await open(
      env.app,
      'magic_auth_update_email',
      [{ email: 'ada4@example.com', showUI: false }],
      { device: env.device },
    )
    expect((await flow.done()).response.error).toEqual({
      code: -10010,
      message: 'Mail cannot be delivered to this email address.',
    })
    expect(names(flow.lines)).toEqual([
      'Recency/auth-factor-needs-verification',
      'Recency/auth-factor-verification-email-not-deliverable',
    ])
  })
})

describe('MFA', () => {
  test('behavior: enable with a real TOTP code, then disable with a recovery code after an invalid TOTP', async () => {
    const env = await setup()
    const enable = await open(
      env.app,
      'magic_auth_enable_mfa_flow',
      [{ showUI: false }],
      { device: env.device },
    )
    const [{ key }] = (await enable.event('mfa-secret-generated')) as [
      { key: string },
    ]
    // A code from the previous 30 s step is accepted (±1 step).
    await enable.answer(
      'verify-mfa-code',
      totp(key, new Date(env.now().getTime() - 30_000)),
    )
    const [{ recoveryCodes }] = (await enable.event('mfa-recovery-codes')) as [
      { recoveryCodes: string[] },
    ]
    await enable.done()
    expect(env.user.recoveryCodeHashes).toHaveLength(8)
    expect(env.user.recoveryCodeHashes).not.toContain(recoveryCodes[0])
    expect(
      (
        (await call(env.app, 'magic_get_info', [], { device: env.device }))
          .result as { isMfaEnabled: boolean }
      ).isMfaEnabled,
    ).toBe(true)

    const disable = await open(
      env.app,
      'magic_auth_disable_mfa_flow',
      [{ showUI: false }],
      { device: env.device },
    )
    await disable.event('mfa-code-requested')
    await disable.answer(
      'verify-mfa-code',
      totp(key, new Date(env.now().getTime() + 120_000)),
    )
    await disable.event('invalid-mfa-otp')
    await disable.answer('lost-device', 'WRONGCODE1')
    await disable.event('invalid-recovery-code')
    await disable.answer('lost-device', recoveryCodes[3])
    expect((await disable.done()).response.result).toBe(true)
    expect(env.user.mfaSecret).toBe(undefined)
  })
})

/**
 * Adds a recovery phone to the signed-in device's account, then recovers
 * the account on that device by SMS: the flow, waiting for a new email.
 */
async function recoverSignedIn(env: Awaited<ReturnType<typeof setup>>) {
  const phone = await addRecoveryPhone(env, env.device)
  await phone.done()
  const flow = await open(
    env.app,
    'magic_auth_recover_account',
    [{ email: 'ada@example.com', showUI: false }],
    { device: env.device },
  )
  await flow.event('sms-otp-sent')
  await flow.answer('verify-otp-code', codeOf(env.mailbox, '+15550100000'))
  await flow.event('update-email-required')
  return flow
}

/** The email `magic_get_info` answers for `device`'s session, if any. */
async function emailOf(
  env: Awaited<ReturnType<typeof setup>>,
  device: Awaited<ReturnType<typeof setup>>['device'],
): Promise<string | undefined> {
  const { result } = await call(env.app, 'magic_get_info', [], { device })
  return (result as { email?: string } | undefined)?.email
}

describe('recovery factor and account recovery', () => {
  test('behavior: settings adds a phone factor; the same number again is recovery-factor-already-exists', async () => {
    const env = await setup()
    const flow = await addRecoveryPhone(env, env.device)
    expect(
      ((await flow.done()).response.result as { recoveryFactors: unknown })
        .recoveryFactors,
    ).toEqual([{ type: 'phone_number', value: '+15550100000' }])
    const again = await open(
      env.app,
      'magic_auth_settings',
      [{ page: 'recovery', showUI: false }],
      { device: env.device },
    )
    await again.event('enter-new-phone-number')
    await again.answer('send-new-phone-number', '+15550100000')
    await again.event('recovery-factor-already-exists')
    await again.answer('cancel')
    expect((await again.done()).response.error?.code).toBe(-10014)
  })

  test('behavior: recover_account by SMS logs in and updates the email', async () => {
    const env = await setup()
    await (await addRecoveryPhone(env, env.device)).done()
    const device = await createDevice({ now: env.now })
    const flow = await open(
      env.app,
      'magic_auth_recover_account',
      [{ email: 'ada@example.com', showUI: false }],
      { device },
    )
    await flow.event('sms-otp-sent')
    const code = codeOf(env.mailbox, '+15550100000')!
    await flow.answer(
      'verify-otp-code',
      code === '000000' ? '000001' : '000000',
    )
    await flow.event('invalid-sms-otp')
    await flow.answer('verify-otp-code', code)
    await flow.event('account-recovered')
    await flow.event('update-email-required')
    await flow.answer('update-email', 'new@example.com')
    await flow.event('UpdateEmail/new-email-needs-verification')
    await flow.answer(
      'UpdateEmail/new-email-verify-otp',
      codeOf(env.mailbox, 'new@example.com'),
    )
    const final = await flow.done()
    expect(final.response.result).toBe(true)
    expect(final.rt).toBe(device.rt)
    expect(
      (
        (await call(env.app, 'magic_get_info', [], { device })).result as {
          email: string
        }
      ).email,
    ).toBe('new@example.com')
  })

  test('behavior: recovering on a device already signed in rotates its session; the old one answers during the flow and 30 s after, then ends', async () => {
    const env = await setup()
    const before = env.device.rt
    const flow = await recoverSignedIn(env)
    // The page checks its account while the flow waits for the new email.
    expect(await emailOf(env, env.device)).toBe('ada@example.com')
    await flow.answer('cancel')
    const final = await flow.done()
    expect(final.response.result).toBe(true)
    expect(final.rt).not.toBe(before)
    expect(await emailOf(env, env.device)).toBe('ada@example.com')
    // A request the page sent with the old token before it had the new one.
    const old = { ...env.device, rt: before }
    expect(await emailOf(env, old)).toBe('ada@example.com')
    env.clock.now = new Date(env.now().getTime() + 30_000)
    expect(await emailOf(env, old)).toBe(undefined)
    expect(await emailOf(env, env.device)).toBe('ada@example.com')
  })

  test('behavior: a login as someone else on the device replaces its session: the old one answers until 30 s after the flow', async () => {
    const env = await setup()
    const old = { ...env.device }
    const flow = await open(
      env.app,
      'magic_auth_login_with_email_otp',
      [{ email: 'bea@example.com', showUI: false }],
      { device: env.device },
    )
    await flow.event('email-otp-sent')
    expect(await emailOf(env, old)).toBe('ada@example.com')
    await flow.answer(
      'verify-email-otp',
      env.mailbox.list({ to: 'bea@example.com' })[0]?.code,
    )
    const final = await flow.done()
    expect(typeof final.response.result).toBe('string')
    expect(final.rt).not.toBe(old.rt)
    expect(await emailOf(env, env.device)).toBe('bea@example.com')
    expect(await emailOf(env, old)).toBe('ada@example.com')
    env.clock.now = new Date(env.now().getTime() + 30_000)
    expect(await emailOf(env, old)).toBe(undefined)
    expect(await emailOf(env, env.device)).toBe('bea@example.com')
  })

  test('behavior: a recovery that fails after its login leaves the device the session it had', async () => {
    const env = await setup()
    const flow = await recoverSignedIn(env)
    // The new address is given, then its verification is cancelled.
    await flow.answer('update-email', 'new@example.com')
    await flow.event('UpdateEmail/new-email-needs-verification')
    await flow.answer('UpdateEmail/new-email-verification-cancel')
    const final = await flow.done()
    expect(final.response.error).toBeDefined()
    expect(final.rt).toBe(undefined)
    expect(
      (
        (await call(env.app, 'magic_get_info', [], { device: env.device }))
          .result as { email: string }
      ).email,
    ).toBe('ada@example.com')
  })

  test('error: recover_account without a recovery phone is -10011', async () => {
    const env = await setup()
    expect(
      (
        await call(env.app, 'magic_auth_recover_account', [
          { email: 'ada@example.com', showUI: false },
        ])
      ).error,
    ).toEqual({
      code: -10011,
      message: 'This account has no recovery phone number.',
    })
  })
})
