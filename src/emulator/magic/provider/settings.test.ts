import * as OTPAuth from 'otpauth'
import { describe, expect, test } from 'vitest'
import {
  codeOf,
  createDevice,
  createTestService,
  loginByEmail,
  open,
} from './testkit.js'

async function setup() {
  const env = createTestService()
  const device = await createDevice({ now: env.now })
  await loginByEmail(env.app, env.mailbox, 'ada@example.com', device)
  return { ...env, device }
}

describe('magic_auth_settings with the provider UI', () => {
  test('behavior: the menu opens the mfa page; enabling shows the secret then the recovery codes', async () => {
    const { app, device, now } = await setup()
    const flow = await open(app, 'magic_auth_settings', [{}], { device })
    expect(await flow.until((line) => line.kind === 'screen')).toEqual({
      kind: 'screen',
      screen: 'settings',
      data: { email: 'ada@example.com', isMfaEnabled: false },
    })
    await flow.answer('open-page', 'mfa')
    const secret = (await flow.until(
      (line) => line.kind === 'screen',
    )) as unknown as {
      data: { step: string; secret: string; uri: string }
    }
    expect(secret.data.step).toBe('secret')
    await flow.answer(
      'verify-mfa-code',
      new OTPAuth.TOTP({
        secret: OTPAuth.Secret.fromBase32(secret.data.secret),
      }).generate({ timestamp: now().getTime() }),
    )
    const codes = (await flow.until(
      (line) => line.kind === 'screen',
    )) as unknown as {
      data: { step: string; recoveryCodes: string[] }
    }
    expect(codes.data.step).toBe('recovery-codes')
    expect(codes.data.recoveryCodes).toHaveLength(8)
    await flow.answer('close')
    const { response } = await flow.done()
    expect((response.result as { isMfaEnabled: boolean }).isMfaEnabled).toBe(
      true,
    )
  })

  test('behavior: the update-email page asks the new address, then its code', async () => {
    const { app, device, mailbox } = await setup()
    const flow = await open(
      app,
      'magic_auth_settings',
      [{ page: 'update-email' }],
      { device },
    )
    expect(await flow.until((line) => line.kind === 'screen')).toEqual({
      kind: 'screen',
      screen: 'email-otp',
      data: { email: 'ada@example.com' },
    })
    await flow.answer('verify-email-otp', codeOf(mailbox, 'ada@example.com'))
    expect(await flow.until((line) => line.kind === 'screen')).toEqual({
      kind: 'screen',
      screen: 'update-email',
      data: { step: 'new-email' },
    })
    await flow.answer('UpdateEmail/retry-with-new-email', 'grace@example.com')
    expect(await flow.until((line) => line.kind === 'screen')).toEqual({
      kind: 'screen',
      screen: 'update-email',
      data: { step: 'verify', email: 'grace@example.com' },
    })
    await flow.answer(
      'UpdateEmail/new-email-verify-otp',
      codeOf(mailbox, 'grace@example.com'),
    )
    const { response } = await flow.done()
    expect((response.result as { email: string }).email).toBe(
      'grace@example.com',
    )
  })

  test('error: an unknown page is -32602', async () => {
    const { app, device } = await setup()
    const flow = await open(
      app,
      'magic_auth_settings',
      [{ page: 'nope', showUI: false }],
      { device },
    )
    expect((await flow.done()).response.error).toEqual({
      code: -32602,
      message:
        "magic_auth_settings: page must be 'update-email', 'mfa' or 'recovery'.",
    })
  })
})
