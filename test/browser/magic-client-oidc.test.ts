import * as jose from 'jose'
import { afterEach, describe, expect, inject, test } from 'vitest'
import type { Magic } from '../../src/magic/index.js'
import { OpenIdExtension } from '../../src/magic/index.js'
import { createMagic } from './magicLogin.js'

/**
 * The OIDC extension of our client: a provider registered through the
 * emulator's dev route (the emulated identity provider the global setup
 * starts, whose JWKS is on a loopback port), a JWT signed with its key by
 * jose in the browser, and `magic.openid.loginWithOIDC`.
 */
describe('OpenIdExtension: loginWithOIDC', () => {
  const emulator = inject('magicEmulator')
  const { endpoint } = emulator
  const { issuer, jwksUri, privateJwk, kid } = inject('oidcIssuer')
  const audience = 'embedded-wallets-tests'
  let current: Magic | undefined

  afterEach(() => {
    current?.destroy()
    current = undefined
  })

  /** Registers a fresh provider id for the test issuer's key. */
  async function provider() {
    const privateKey = (await jose.importJWK(privateJwk, 'RS256')) as CryptoKey
    const providerId = `idp-${crypto.randomUUID()}`
    const response = await fetch(`${endpoint}/dev/oidc-providers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ providerId, issuer, jwksUri, audience }),
    })
    expect(response.status).toBe(200)
    const sign = (claims: jose.JWTPayload, key: CryptoKey = privateKey) =>
      new jose.SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(key)
    return { providerId, sign }
  }

  function client() {
    const magic = createMagic(emulator, {
      extensions: [new OpenIdExtension()],
    })
    current = magic
    return magic
  }

  test('a JWT of a registered provider logs in; getInfo and isLoggedIn follow', async () => {
    const { providerId, sign } = await provider()
    const magic = client()
    const email = `oidc-${crypto.randomUUID()}@example.com`
    const jwt = await sign({ sub: crypto.randomUUID(), aud: audience, email })
    const didToken = await magic.openid.loginWithOIDC({ jwt, providerId })
    const [, claim] = JSON.parse(atob(didToken as string)) as string[]
    const info = await magic.user.getInfo()
    expect(info.email).toBe(email)
    expect(JSON.parse(claim as string).iss).toBe(info.issuer)
    expect(info.issuer).toBe(`did:ethr:${info.publicAddress}`)
    expect(await magic.user.isLoggedIn()).toBe(true)
  })

  test('a JWT with a wrong audience or another key is refused with -10011', async () => {
    const { providerId, sign } = await provider()
    const magic = client()
    const wrongAudience = await sign({ sub: 'user-1', aud: 'another-app' })
    await expect(
      magic.openid.loginWithOIDC({ jwt: wrongAudience, providerId }),
    ).rejects.toMatchObject({
      code: -10011,
      message:
        'Magic RPC Error: [-10011] The OIDC token was refused: unexpected "aud" claim value',
    })
    const other = await jose.generateKeyPair('RS256')
    const forged = await sign(
      { sub: 'user-1', aud: audience },
      other.privateKey,
    )
    await expect(
      magic.openid.loginWithOIDC({ jwt: forged, providerId }),
    ).rejects.toMatchObject({
      code: -10011,
      message:
        'Magic RPC Error: [-10011] The OIDC token was refused: signature verification failed',
    })
    expect(await magic.user.isLoggedIn()).toBe(false)
  })
})
