import { recoverMessageAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import * as Mailbox from '../../dev/mailbox.js'
import { createRegistry } from '../../registry/index.js'
import { clientIdOf, decodeDidToken } from './didToken.js'
import { defaultApiKey } from './protocol.js'
import { createMagicService } from './service.js'
import { call, createDevice, eventsOf, loginByEmail, open } from './testkit.js'

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

  test('error: a page on another origin cannot run flows, even with a CORS-simple body', async () => {
    const { app } = setup()
    const body = JSON.stringify({
      params: 'x',
      request: { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
    })
    for (const path of ['/v1/flow', '/v1/flow/any/intermediary']) {
      const response = await app.request(`http://127.0.0.1:4401${path}`, {
        method: 'POST',
        headers: {
          origin: 'https://evil.example',
          'content-type': 'text/plain',
        },
        body,
      })
      expect(response.status).toBe(403)
      expect(await response.json()).toEqual({
        error: "Only the provider's own iframe app may run flows.",
      })
    }
    const own = await app.request('http://127.0.0.1:4401/v1/flow', {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:4401' },
      body,
    })
    expect(own.status).toBe(200)
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
      // The user's signature of the default attachment, 'none'.
      add: await registry.signMessage(user.id, 'none'),
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

  test("behavior: a session is its app's: another API key's client holding the same rt, proof key and device share is not logged in, and its logout ends nothing", async () => {
    const other = 'pk_live_OTHERAPP0000000000'
    const mailbox = Mailbox.create()
    const app = createMagicService({
      mailbox,
      registry: createRegistry(),
      chain: { rpcUrl: 'http://127.0.0.1:1', chainId: 31337 },
      apiKeys: [defaultApiKey, other],
    })
    const device = await createDevice()
    await loginByEmail(app, mailbox, 'app@example.com', device)
    const asOther = { device, apiKey: other }
    expect((await call(app, 'magic_is_logged_in', [], asOther)).result).toBe(
      false,
    )
    expect((await call(app, 'eth_accounts', [], asOther)).result).toEqual([])
    expect((await call(app, 'magic_get_info', [], asOther)).error).toEqual({
      code: -10011,
      message: 'The user is not logged in.',
    })
    expect((await call(app, 'magic_auth_logout', [], asOther)).result).toBe(
      true,
    )
    expect((await call(app, 'magic_is_logged_in', [], { device })).result).toBe(
      true,
    )
  })
})

describe('POST /v1/flow input', () => {
  const params = btoa(JSON.stringify({ API_KEY: defaultApiKey }))

  /** Posts `body` as is and returns the answer's lines. */
  async function post(body: string) {
    const { app } = setup()
    const response = await app.request('/v1/flow', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/x-ndjson')
    return (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown)
  }

  const refused = (id: unknown, message: string, code = -32600): unknown[] => [
    {
      kind: 'response',
      response: { jsonrpc: '2.0', id, error: { code, message } },
    },
  ]

  test('error: a body that is not JSON is -32700', async () => {
    expect(await post('{"request":')).toEqual(
      refused(null, 'The body is not JSON.', -32700),
    )
  })

  test('error: a body that is not an object, or carries no request object, is -32600', async () => {
    for (const body of ['null', '[]', '7', '"x"', '{}', '{"request":[1]}'])
      expect(await post(body)).toEqual(
        refused(null, 'The body needs a JSON-RPC request.'),
      )
  })

  test('error: an id that is not a string, a number or null is -32600 with id null', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`
    for (const id of [deep, '{"a":1}', 'true', '[1]'])
      expect(
        await post(
          `{"params":"${params}","request":{"jsonrpc":"2.0","id":${id},"method":"magic_is_logged_in","params":[]}}`,
        ),
      ).toEqual(
        refused(null, 'The request id must be a string, a number or null.'),
      )
    expect(
      await post(
        `{"params":"${params}","request":{"jsonrpc":"2.0","method":"magic_is_logged_in"}}`,
      ),
    ).toEqual(
      refused(null, 'The request id must be a string, a number or null.'),
    )
  })

  test('behavior: string, number and null ids are answered with the same id', async () => {
    for (const id of ['"req-1"', '4.5', 'null'])
      expect(
        await post(
          `{"params":"${params}","request":{"jsonrpc":"2.0","id":${id},"method":"magic_is_logged_in"}}`,
        ),
      ).toEqual([
        {
          kind: 'response',
          response: { jsonrpc: '2.0', id: JSON.parse(id), result: false },
        },
      ])
  })

  test('error: a method that is not a string, or params that are not an array, is -32600 with the id', async () => {
    expect(
      await post(
        `{"params":"${params}","request":{"jsonrpc":"2.0","id":3,"method":["magic_is_logged_in"]}}`,
      ),
    ).toEqual(refused(3, 'The request method must be a string.'))
    expect(
      await post(
        `{"params":"${params}","request":{"jsonrpc":"2.0","id":3,"method":"magic_is_logged_in","params":{"a":1}}}`,
      ),
    ).toEqual(refused(3, 'The request params must be an array.'))
  })

  test('error: jwt, rt or deviceShare that is not a string is -32600; the iframe params must be a string', async () => {
    for (const field of ['jwt', 'rt', 'deviceShare'])
      expect(
        await post(
          `{"params":"${params}","request":{"jsonrpc":"2.0","id":"x","method":"magic_is_logged_in"},"${field}":{"a":[1]}}`,
        ),
      ).toEqual(refused('x', `${field} must be a string.`))
    expect(
      await post(
        `{"params":{"API_KEY":"${defaultApiKey}"},"request":{"jsonrpc":"2.0","id":"x","method":"magic_is_logged_in"}}`,
      ),
    ).toEqual(refused('x', 'Invalid API key.'))
  })
})

describe('POST /v1/flow/:flowId/intermediary input', () => {
  test('error: bodies that are not JSON, not an object or carry no string eventType are 400', async () => {
    const { app } = setup()
    const answers: [string, number, unknown][] = []
    for (const body of ['{', 'null', '[]', '"cancel"', '{"eventType":1}']) {
      const response = await app.request('/v1/flow/nope/intermediary', {
        method: 'POST',
        body,
      })
      answers.push([body, response.status, await response.json()])
    }
    const needs = { error: 'The body needs a string eventType.' }
    expect(answers).toEqual([
      ['{', 400, { error: 'The body is not JSON.' }],
      ['null', 400, needs],
      ['[]', 400, needs],
      ['"cancel"', 400, needs],
      ['{"eventType":1}', 400, needs],
    ])
  })

  test('error: an answer over 64 KiB is 413 before it is parsed', async () => {
    const { app } = setup()
    const flow = await open(app, 'magic_auth_login_with_email_otp', [
      { email: 'ada@example.com', showUI: false },
    ])
    await flow.event('email-otp-sent')
    const body = JSON.stringify({
      eventType: 'verify-email-otp',
      args: 'x'.repeat(64 * 1024),
    })
    const answered = await app.request(`/v1/flow/${flow.flowId}/intermediary`, {
      method: 'POST',
      body,
    })
    expect(answered.status).toBe(413)
    expect(await answered.json()).toEqual({
      error: 'An answer is at most 65536 bytes.',
    })
    expect(await flow.answer('cancel')).toBe(200)
    expect((await flow.done()).response.error).toEqual({
      code: -10014,
      message: 'User canceled the request.',
    })
  })
})
