import { recoverMessageAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import * as Mailbox from '../../dev/mailbox.js'
import { createRegistry } from '../../registry/index.js'
import { clientIdOf, decodeDidToken } from './didToken.js'
import { defaultApiKey } from './protocol.js'
import { createMagicService } from './service.js'
import { call, createDevice, eventsOf, open } from './testkit.js'

function setup() {
  const mailbox = Mailbox.create()
  const registry = createRegistry()
  const app = createMagicService({
    mailbox,
    registry,
    chain: { rpcUrl: 'http://127.0.0.1:1', chainId: 31337 },
  })
  return { app, mailbox, registry }
}

describe('createMagicService', () => {
  test('behavior: magic_is_logged_in answers false without a session', async () => {
    const { app } = setup()
    const flow = await open(app, 'magic_is_logged_in')
    expect(flow.flowId).toMatch(/^[0-9a-f-]{36}$/)
    expect(await flow.done()).toEqual({
      kind: 'response',
      response: { jsonrpc: '2.0', id: expect.any(Number), result: false },
    })
  })

  test('error: magic_get_info without a session is -10011', async () => {
    const { app } = setup()
    const response = await call(app, 'magic_get_info')
    expect(response.error).toEqual({
      code: -10011,
      message: 'The user is not logged in.',
    })
  })

  test('error: an unknown API key is answered with -32600 Invalid API key.', async () => {
    const { app } = setup()
    const response = await call(app, 'magic_is_logged_in', [], {
      apiKey: 'pk_live_NOPE',
    })
    expect(response.error).toEqual({
      code: -32600,
      message: 'Invalid API key.',
    })
  })

  test('error: an intermediary answer to an unknown flow is 404', async () => {
    const { app } = setup()
    const response = await app.request('/v1/flow/nope/intermediary', {
      method: 'POST',
      body: JSON.stringify({ eventType: 'cancel' }),
    })
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      error: 'No running flow has this id.',
    })
  })

  test('behavior: email OTP login resolves to a DID token of the user, then info and logout', async () => {
    const { app, mailbox, registry } = setup()
    const device = await createDevice()
    const flow = await open(
      app,
      'magic_auth_login_with_email_otp',
      [{ email: 'Ada@Example.com', showUI: false }],
      { device },
    )
    await flow.event('email-otp-sent')
    const [message] = mailbox.list({ to: 'ada@example.com' })
    expect(message).toMatchObject({ kind: 'email-otp' })
    expect(message?.code).toMatch(/^\d{6}$/)
    expect(await flow.answer('verify-email-otp', message?.code)).toBe(200)
    const { response, rt, deviceShare } = await flow.done()
    expect(rt).toEqual(device.rt)
    expect(deviceShare).toMatch(/^[A-Za-z0-9+/]{43}=$/)
    const user = registry.find({ email: 'ada@example.com' })!
    const token = decodeDidToken(response.result as string)
    expect(
      await recoverMessageAddress({
        message: token.claim,
        signature: token.proof,
      }),
    ).toBe(user.address)
    expect(token.parsed).toEqual({
      iat: expect.any(Number),
      ext: token.parsed.iat + 900,
      nbf: token.parsed.iat,
      iss: `did:ethr:${user.address}`,
      sub: user.id,
      aud: await clientIdOf(defaultApiKey),
      tid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    })
    expect(eventsOf(flow.lines).map(([name]) => name)).toEqual([
      'email-otp-sent',
      'Auth/id-token-created',
    ])

    expect((await call(app, 'magic_is_logged_in', [], { device })).result).toBe(
      true,
    )
    expect((await call(app, 'magic_get_info', [], { device })).result).toEqual({
      issuer: `did:ethr:${user.address}`,
      publicAddress: user.address,
      email: 'ada@example.com',
      phoneNumber: null,
      isMfaEnabled: false,
      recoveryFactors: [],
      walletType: 'magic',
      firstLoginAt: user.createdAt,
      wallets: { ethereum: { publicAddress: user.address } },
    })
    expect((await call(app, 'magic_auth_logout', [], { device })).result).toBe(
      true,
    )
    expect((await call(app, 'magic_is_logged_in', [], { device })).result).toBe(
      false,
    )
  })
})
