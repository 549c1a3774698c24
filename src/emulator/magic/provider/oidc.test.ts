import type * as jose from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Mailbox from '../../dev/mailbox.js'
import { findFreePort } from '../../net.js'
import {
  startIdentity,
  type TestIdentity,
} from '../../passport/identity/testkit.js'
import { createRegistry } from '../../registry/index.js'
import { decodeDidToken } from './didToken.js'
import {
  fetchJwks,
  JwksUnavailableError,
  jwksUnavailable,
  maxJwksBytes,
  maxOidcProviders,
} from './oidc.js'
import { createMagicService } from './service.js'
import { call, createDevice } from './testkit.js'

/**
 * The OpenID provider a dApp registers: the emulated identity provider, the
 * one test double of an identity provider, with JWKS routes scripted to fail
 * in every way a fetch can.
 */
let identity: TestIdentity
let issuer: string

beforeAll(async () => {
  identity = await startIdentity()
  issuer = identity.issuer
  const jwks = await (await fetch(identity.jwksUri)).json()
  identity.always({ path: '/status-500' }, { status: 500, body: jwks })
  identity.always(
    { path: '/not-json' },
    { status: 200, body: '<html>not a key set</html>' },
  )
  identity.always(
    { path: '/not-a-key-set' },
    { status: 200, body: { hello: 'world' } },
  )
  identity.always(
    { path: '/redirect' },
    { status: 302, headers: { location: '/.well-known/jwks.json' } },
  )
  identity.always(
    { path: '/too-large' },
    {
      status: 200,
      body: { ...jwks, padding: 'x'.repeat(maxJwksBytes) },
    },
  )
  identity.always({ path: '/hang' }, 'stall')
})

afterAll(() => identity?.stop())

/** A token of the issuer (or signed under its key id by a stranger's key). */
function sign(claims: jose.JWTPayload, key: 'own' | 'stranger' = 'own') {
  const now = Math.floor(Date.now() / 1000)
  return identity.sign(
    { iss: issuer, iat: now, exp: now + 300, ...claims },
    { key },
  )
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
        jwksUri: identity.jwksUri,
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

  test("behavior: the token's email is not taken from another user who holds it (a game-wallet player and their custody key)", async () => {
    const { app, registry } = setup()
    const player = await registry.findOrCreate({ email: 'p@b.co' })
    const jwt = await sign({ sub: player.id, aud: 'my-app', email: 'p@b.co' })
    const response = await call(app, 'magic_auth_login_with_oidc', [
      { jwt, providerId: 'idp-1' },
    ])
    const custody = registry.find({ oidc: { issuer, subject: player.id } })!
    expect(decodeDidToken(response.result as string).parsed.sub).toBe(
      custody.id,
    )
    expect(custody.id).not.toBe(player.id)
    expect(custody.email).toBe(undefined)
    expect(registry.find({ email: 'p@b.co' })?.id).toBe(player.id)
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
    const jwt = await sign({ sub: 'user-42', aud: 'my-app' }, 'stranger')
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
        jwksUri: identity.jwksUri,
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

/** Posts `body` (a value, or a raw string) to the dev route. */
async function register(
  app: ReturnType<typeof createMagicService>,
  body: unknown,
) {
  const response = await app.request('/dev/oidc-providers', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: response.status, body: await response.json() }
}

describe('POST /dev/oidc-providers', () => {
  test('behavior: registering an id again with the same settings is 200 and changes nothing', async () => {
    const { app } = setup()
    const provider = {
      providerId: 'idp-2',
      issuer,
      jwksUri: identity.jwksUri,
      audience: 'a',
    }
    expect(await register(app, provider)).toEqual({
      status: 200,
      body: provider,
    })
    expect(await register(app, provider)).toEqual({
      status: 200,
      body: provider,
    })
  })

  test('error: an id registered already (by the options or the route) with other settings is 409', async () => {
    const { app } = setup()
    const taken = {
      error:
        'This providerId is registered already, with another issuer, jwksUri or audience.',
    }
    // idp-1 comes from the service's options.
    for (const change of [
      { jwksUri: 'http://127.0.0.1:1/jwks.json' },
      { issuer: 'https://other.example' },
      { audience: undefined },
    ])
      expect(
        await register(app, {
          providerId: 'idp-1',
          issuer,
          jwksUri: identity.jwksUri,
          audience: 'my-app',
          ...change,
        }),
      ).toEqual({ status: 409, body: taken })
    // A token the original keys signed still logs in.
    const jwt = await sign({ sub: 'user-42', aud: 'my-app' })
    expect(
      typeof (
        await call(app, 'magic_auth_login_with_oidc', [
          { jwt, providerId: 'idp-1' },
        ])
      ).result,
    ).toBe('string')
  })

  test('error: a jwksUri that is neither https nor loopback http is 400', async () => {
    const { app } = setup()
    const refused = {
      status: 400,
      body: {
        error:
          'jwksUri must be an https: URL, or an http: URL on a loopback host.',
      },
    }
    for (const jwksUri of [
      'http://example.com/jwks.json',
      'http://192.168.1.10/jwks.json',
      'data:application/json,{"keys":[]}',
      'file:///etc/passwd',
      'https://user:pass@idp.example/jwks.json',
      'not a url',
    ])
      expect(await register(app, { providerId: 'p', issuer, jwksUri })).toEqual(
        refused,
      )
    for (const jwksUri of [
      'https://idp.example/.well-known/jwks.json',
      'http://localhost:9999/jwks.json',
      'http://[::1]:9999/jwks.json',
    ])
      expect(
        (await register(app, { providerId: jwksUri, issuer, jwksUri })).status,
      ).toBe(200)
  })

  test('error: a body that is not the expected object is 400 JSON', async () => {
    const { app } = setup()
    const expected = {
      status: 400,
      body: {
        error: 'Expected { providerId, issuer, jwksUri, audience? } (strings).',
      },
    }
    for (const body of [
      'null',
      '[]',
      '7',
      '"text"',
      'not json',
      { providerId: 1, issuer, jwksUri: identity.jwksUri },
      { providerId: 'p', issuer, jwksUri: identity.jwksUri, audience: 3 },
    ])
      expect(await register(app, body)).toEqual(expected)
    expect(
      await register(app, {
        providerId: 'p'.repeat(2049),
        issuer,
        jwksUri: identity.jwksUri,
      }),
    ).toEqual({
      status: 400,
      body: {
        error:
          'providerId, issuer, jwksUri and audience are at most 2048 characters.',
      },
    })
  })

  test('error: past 1,000 providers a new id is 409; known ids still answer', async () => {
    const { app } = setup()
    for (let index = 1; index < maxOidcProviders; index++)
      expect(
        (
          await register(app, {
            providerId: `p-${index}`,
            issuer,
            jwksUri: identity.jwksUri,
          })
        ).status,
      ).toBe(200)
    expect(maxOidcProviders).toBe(1_000)
    expect(
      await register(app, {
        providerId: 'one-more',
        issuer,
        jwksUri: identity.jwksUri,
      }),
    ).toEqual({
      status: 409,
      body: {
        error:
          'The emulator holds 1000 OIDC providers, its most; restart it to register others.',
      },
    })
    expect(
      (
        await register(app, {
          providerId: 'p-1',
          issuer,
          jwksUri: identity.jwksUri,
        })
      ).status,
    ).toBe(200)
  })
})

describe('JWKS fetch failures', () => {
  test('error: every failed fetch gives the same sentence, whatever the cause', async () => {
    const { app } = setup()
    const closed = await findFreePort()
    const jwt = await sign({ sub: 'user-1' })
    const errors: unknown[] = []
    for (const jwksUri of [
      `http://127.0.0.1:${closed}/jwks.json`,
      `${identity.issuer}/status-500`,
      `${identity.issuer}/not-json`,
      `${identity.issuer}/not-a-key-set`,
      `${identity.issuer}/redirect`,
      `${identity.issuer}/too-large`,
      `${identity.issuer}/missing`,
    ]) {
      const providerId = `p-${errors.length}`
      expect(
        (await register(app, { providerId, issuer, jwksUri })).status,
      ).toBe(200)
      errors.push(
        (await call(app, 'magic_auth_login_with_oidc', [{ jwt, providerId }]))
          .error,
      )
    }
    expect(jwksUnavailable).toBe(
      "The OIDC token was refused: the provider's keys could not be fetched.",
    )
    expect(errors).toEqual(
      Array(7).fill({ code: -10011, message: jwksUnavailable }),
    )
  })

  test('error: a JWKS that does not answer in time gives the same sentence', async () => {
    const failure = await fetchJwks(`${identity.issuer}/hang`, {
      method: 'GET',
      headers: new Headers(),
      redirect: 'manual',
      signal: AbortSignal.timeout(50),
    }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(JwksUnavailableError)
    expect((failure as Error).message).toBe(jwksUnavailable)
  })
})
