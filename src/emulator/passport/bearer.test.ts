import { Hono } from 'hono'
import * as jose from 'jose'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { findFreePort } from '../net.js'
import { type Running, startServer } from '../server.js'
import { createVerifier } from './bearer.js'
import { startIdentity, tokensFor } from './identity/testkit.js'

/** A stand-in identity provider: its own keys and JWKS, tokens signed here. */
let issuerServer: Running
let issuer: string
let keys: Awaited<ReturnType<typeof jose.generateKeyPair>>
let identity: Awaited<ReturnType<typeof startIdentity>>

beforeAll(async () => {
  keys = await jose.generateKeyPair('RS256')
  const jwk = {
    ...(await jose.exportJWK(keys.publicKey)),
    kid: 'k1',
    alg: 'RS256',
    use: 'sig',
  }
  const app = new Hono()
  app.get('/.well-known/jwks.json', (c) => c.json({ keys: [jwk] }))
  const port = await findFreePort()
  issuerServer = await startServer({ fetch: app.fetch, port })
  issuer = issuerServer.url
  identity = await startIdentity()
})

afterAll(async () => {
  await issuerServer?.stop()
  await identity?.stop()
})

type Claims = jose.JWTPayload

/** A token of the stand-in provider, with defaults a verifier accepts. */
function sign(
  claims: Claims = {},
  options: {
    key?: CryptoKey | undefined
    kid?: string | undefined
    issuer?: string | undefined
    expires?: string | number | undefined
  } = {},
) {
  return new jose.SignJWT({ sub: 'player-1', aud: 'platform_api', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'k1' })
    .setIssuer(options.issuer ?? issuer)
    .setIssuedAt()
    .setExpirationTime(options.expires ?? '5m')
    .sign(options.key ?? (keys.privateKey as CryptoKey))
}

const refused = (description: string) => ({ ok: false, description })
const invalid = refused('The token is invalid or expired.')

describe('createVerifier', () => {
  test('default: a valid token gives its subject, claims and the token itself', async () => {
    const verify = createVerifier({ issuer })
    const token = await sign({ client_id: 'game' })
    const checked = await verify(`Bearer ${token}`)
    expect(checked).toMatchObject({
      ok: true,
      sub: 'player-1',
      token,
      claims: {
        sub: 'player-1',
        aud: 'platform_api',
        iss: issuer,
        client_id: 'game',
      },
    })
  })

  test('behavior: a token whose audience list holds the expected one passes', async () => {
    const verify = createVerifier({ issuer })
    const token = await sign({ aud: ['other', 'platform_api'] })
    expect((await verify(`Bearer ${token}`)).ok).toBe(true)
  })

  test('param: audience per call overrides the default', async () => {
    const verify = createVerifier({ issuer })
    const token = await sign({ aud: 'client-1' })
    expect(await verify(`Bearer ${token}`)).toEqual(invalid)
    expect((await verify(`Bearer ${token}`, { audience: 'client-1' })).ok).toBe(
      true,
    )
  })

  test('param: audience of the verifier sets the default', async () => {
    const verify = createVerifier({ issuer, audience: 'client-1' })
    expect((await verify(`Bearer ${await sign({ aud: 'client-1' })}`)).ok).toBe(
      true,
    )
    expect(await verify(`Bearer ${await sign()}`)).toEqual(invalid)
  })

  test("behavior: a token's signature is verified once; its lifetime is checked on every request, on the services' clock", async () => {
    let advanced = 0
    const verify = createVerifier({ issuer, advancedSince: () => advanced })
    const token = await sign({}, { expires: '5m' })
    const verifications = vi.spyOn(crypto.subtle, 'verify')
    try {
      expect((await verify(`Bearer ${token}`)).ok).toBe(true)
      expect(await verify(`Bearer ${token}`)).toMatchObject({
        ok: true,
        sub: 'player-1',
        token,
      })
      expect(verifications).toHaveBeenCalledTimes(1)
      advanced = 6 * 60_000
      expect(await verify(`Bearer ${token}`)).toEqual(invalid)
      expect(verifications).toHaveBeenCalledTimes(1)
    } finally {
      verifications.mockRestore()
    }
  })

  test('error: a token remembered for one audience is still refused for another', async () => {
    const verify = createVerifier({ issuer })
    const token = await sign()
    expect((await verify(`Bearer ${token}`)).ok).toBe(true)
    expect(await verify(`Bearer ${token}`, { audience: 'client-1' })).toEqual(
      invalid,
    )
  })

  test('error: a token for another audience is refused', async () => {
    const verify = createVerifier({ issuer })
    expect(await verify(`Bearer ${await sign({ aud: 'other' })}`)).toEqual(
      invalid,
    )
  })

  test('error: an expired token is refused', async () => {
    const verify = createVerifier({ issuer })
    const token = await sign(
      {},
      { expires: Math.floor(Date.now() / 1000) - 60 },
    )
    expect(await verify(`Bearer ${token}`)).toEqual(invalid)
  })

  test('error: a token of another issuer is refused, even signed with the right key', async () => {
    const verify = createVerifier({ issuer })
    const token = await sign({}, { issuer: 'http://127.0.0.1:1' })
    expect(await verify(`Bearer ${token}`)).toEqual(invalid)
  })

  test('error: a token signed with another key is refused, under a known or an unknown key id', async () => {
    const verify = createVerifier({ issuer })
    const other = await jose.generateKeyPair('RS256')
    for (const kid of ['k1', 'k2']) {
      const token = await sign({}, { key: other.privateKey as CryptoKey, kid })
      expect(await verify(`Bearer ${token}`)).toEqual(invalid)
    }
  })

  test('error: an HS256 token keyed with the public key is refused (algorithm confusion)', async () => {
    const verify = createVerifier({ issuer })
    const spki = await jose.exportSPKI(keys.publicKey)
    const token = await new jose.SignJWT({
      sub: 'player-1',
      aud: 'platform_api',
    })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer(issuer)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(spki))
    expect(await verify(`Bearer ${token}`)).toEqual(invalid)
  })

  test('error: a token without a subject is refused', async () => {
    const verify = createVerifier({ issuer })
    for (const claims of [{ sub: undefined }, { sub: '' }] as Claims[])
      expect(await verify(`Bearer ${await sign(claims)}`)).toEqual(
        refused('The token names no subject.'),
      )
  })

  test('error: a missing or malformed Authorization header is refused before any key is fetched', async () => {
    // An issuer nobody listens on: a fetch would fail differently.
    const verify = createVerifier({ issuer: 'http://127.0.0.1:1' })
    const token = await sign()
    for (const header of [
      undefined,
      null,
      '',
      token,
      `Basic ${token}`,
      `bearer ${token}`,
      `Bearer  ${token}`,
      `Bearer ${token} extra`,
      'Bearer a.b',
      'Bearer a.b.c.d',
      'Bearer a.b.c+',
    ])
      expect(await verify(header)).toEqual(
        refused('A bearer token is required.'),
      )
  })

  test('error: a token that is three segments but not a JWT is refused', async () => {
    const verify = createVerifier({ issuer })
    expect(await verify('Bearer aaa.bbb.ccc')).toEqual(invalid)
  })

  test('error: when the issuer cannot be reached, a token is refused', async () => {
    const verify = createVerifier({ issuer: 'http://127.0.0.1:1' })
    const token = await sign({}, { issuer: 'http://127.0.0.1:1' })
    expect(await verify(`Bearer ${token}`)).toEqual(invalid)
  })
})

describe('createVerifier against the emulated identity provider', () => {
  test("behavior: the provider's access token passes as platform_api, its id token for the client id only", async () => {
    const tokens = await tokensFor(identity, 'vera@example.com')
    const verify = createVerifier({ issuer: identity.issuer })
    const player = identity.registry.find({ email: 'vera@example.com' })
    expect(tokens.sub).toBe(player?.id)
    expect(await verify(`Bearer ${tokens.accessToken}`)).toMatchObject({
      ok: true,
      sub: tokens.sub,
    })
    expect(await verify(`Bearer ${tokens.idToken}`)).toEqual(invalid)
    expect(
      await verify(`Bearer ${tokens.idToken}`, { audience: identity.clientId }),
    ).toMatchObject({ ok: true, sub: tokens.sub })
    expect(
      await verify(`Bearer ${tokens.accessToken}`, {
        audience: identity.clientId,
      }),
    ).toEqual(invalid)
  })
})
