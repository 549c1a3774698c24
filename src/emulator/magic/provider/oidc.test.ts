import { Hono } from 'hono'
import * as jose from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Mailbox from '../../dev/mailbox.js'
import { findFreePort } from '../../net.js'
import { createRegistry } from '../../registry/index.js'
import { type Running, startServer } from '../../server.js'
import { decodeDidToken } from './didToken.js'
import { createMagicService } from './service.js'
import { call, createDevice } from './testkit.js'

let idp: Running
let keys: Awaited<ReturnType<typeof jose.generateKeyPair>>
const issuer = 'https://idp.example'

beforeAll(async () => {
  keys = await jose.generateKeyPair('RS256')
  const jwk = {
    ...(await jose.exportJWK(keys.publicKey)),
    kid: 'k1',
    alg: 'RS256',
  }
  const app = new Hono()
  app.get('/jwks.json', (c) => c.json({ keys: [jwk] }))
  idp = await startServer({ fetch: app.fetch, port: await findFreePort() })
})

afterAll(() => idp?.stop())

function sign(
  claims: jose.JWTPayload,
  key: CryptoKey = keys.privateKey as CryptoKey,
) {
  return new jose.SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(issuer)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key)
}

function setup() {
  const registry = createRegistry()
  const app = createMagicService({
    mailbox: Mailbox.create(),
    registry,
    chain: { rpcUrl: 'http://127.0.0.1:1', chainId: 31337 },
    oidcProviders: {
      'idp-1': {
        issuer,
        jwksUri: `${idp.url}/jwks.json`,
        audience: 'my-app',
      },
    },
  })
  return { app, registry }
}

describe('magic_auth_login_with_oidc', () => {
  test('behavior: a token verified against the JWKS logs in the issuer+subject user', async () => {
    const { app, registry } = setup()
    const device = await createDevice()
    const jwt = await sign({ sub: 'user-42', aud: 'my-app', email: 'a@b.co' })
    const response = await call(
      app,
      'magic_auth_login_with_oidc',
      [{ jwt, providerId: 'idp-1' }],
      { device },
    )
    const user = registry.find({ oidc: { issuer, subject: 'user-42' } })!
    expect(decodeDidToken(response.result as string).parsed.sub).toBe(user.id)
    expect(user.email).toBe('a@b.co')
    const again = await call(app, 'magic_auth_login_with_oidc', [
      {
        jwt: await sign({ sub: 'user-42', aud: 'my-app' }),
        providerId: 'idp-1',
      },
    ])
    expect(decodeDidToken(again.result as string).parsed.sub).toBe(user.id)
  })

  test('error: a wrong audience is refused with -10011', async () => {
    const { app } = setup()
    const jwt = await sign({ sub: 'user-42', aud: 'other-app' })
    expect(
      (
        await call(app, 'magic_auth_login_with_oidc', [
          { jwt, providerId: 'idp-1' },
        ])
      ).error,
    ).toEqual({
      code: -10011,
      message: 'The OIDC token was refused: unexpected "aud" claim value',
    })
  })

  test('error: a token signed by another key is refused with -10011', async () => {
    const { app } = setup()
    const other = await jose.generateKeyPair('RS256')
    const jwt = await sign(
      { sub: 'user-42', aud: 'my-app' },
      other.privateKey as CryptoKey,
    )
    expect(
      (
        await call(app, 'magic_auth_login_with_oidc', [
          { jwt, providerId: 'idp-1' },
        ])
      ).error,
    ).toEqual({
      code: -10011,
      message: 'The OIDC token was refused: signature verification failed',
    })
  })

  test('behavior: a provider registered through the dev route is accepted', async () => {
    const { app } = setup()
    const registered = await app.request('/dev/oidc-providers', {
      method: 'POST',
      body: JSON.stringify({
        providerId: 'idp-2',
        issuer,
        jwksUri: `${idp.url}/jwks.json`,
      }),
    })
    expect(registered.status).toBe(200)
    const jwt = await sign({ sub: 'user-7' })
    expect(
      typeof (
        await call(app, 'magic_auth_login_with_oidc', [
          { jwt, providerId: 'idp-2' },
        ])
      ).result,
    ).toBe('string')
    expect(
      (
        await call(app, 'magic_auth_login_with_oidc', [
          { jwt, providerId: 'nope' },
        ])
      ).error,
    ).toEqual({ code: -32602, message: 'Unknown OIDC provider nope.' })
  })
})
