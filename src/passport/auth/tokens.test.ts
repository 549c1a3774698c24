import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  claimsOf,
  startIdentity,
  type TestIdentity,
  type Tokens,
  tokensFor,
} from '../../emulator/passport/identity/testkit.js'
import { PassportError } from '../errors.js'
import { createVerifier } from './tokens.js'

let identity: TestIdentity
/** A player signed in at the identity provider. */
let tokens: Tokens
beforeAll(async () => {
  identity = await startIdentity()
  tokens = await tokensFor(identity, 'tokens-player@example.com')
})
afterAll(() => identity.stop())

function verifier() {
  return createVerifier({
    issuer: identity.issuer,
    clientId: identity.clientId,
    jwksUri: identity.jwksUri,
  })
}

/**
 * The player's id token with `changes` to its claims, signed by the issuer
 * (or by a key outside its JWKS).
 */
function idToken(
  changes: Record<string, unknown> = {},
  key: 'own' | 'stranger' = 'own',
) {
  return identity.sign(claimsOf(tokens.idToken, changes), { key })
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error('accepted')
    },
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(PassportError)
  expect((error as PassportError).type).toBe('AUTHENTICATION_ERROR')
  return (error as PassportError).message
}

describe('createVerifier', () => {
  test('default: a valid token returns its claims; JWKS read from jwks_uri', async () => {
    const before = identity.requests.length
    const own = verifier()
    expect(await own.verify(tokens.idToken)).toEqual(decodeJwt(tokens.idToken))
    const claims = await own.verify(await idToken({ nonce: 'n-1' }), {
      nonce: 'n-1',
    })
    expect(claims).toMatchObject({
      iss: identity.issuer,
      aud: identity.clientId,
      sub: tokens.sub,
      nonce: 'n-1',
    })
    expect(
      identity.requests.slice(before).map((r) => [r.method, r.path]),
    ).toEqual([['GET', '/.well-known/jwks.json']])
  })

  test('behavior: a throttled JWKS (429) is read again through the fetch helper after Retry-After', async () => {
    const before = identity.requests.length
    identity.answer(
      { path: '/.well-known/jwks.json' },
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { message: 'slow down' },
      },
    )
    expect(await verifier().verify(tokens.idToken)).toEqual(
      decodeJwt(tokens.idToken),
    )
    expect(
      identity.requests
        .slice(before)
        .map((r) => [r.method, r.path, r.status, r.scripted]),
    ).toEqual([
      ['GET', '/.well-known/jwks.json', 429, true],
      ['GET', '/.well-known/jwks.json', 200, false],
    ])
  })

  test('error: a bad signature is refused', async () => {
    expect(
      await refusal(verifier().verify(await idToken({}, 'stranger'))),
    ).toBe('Invalid ID token: signature verification failed')
  })

  test('error: a tampered payload is refused', async () => {
    const [header, , signature] = tokens.idToken.split('.')
    const payload = Buffer.from(
      JSON.stringify({
        iss: identity.issuer,
        sub: 'attacker',
        aud: identity.clientId,
        iat: 1,
        exp: 9_999_999_999,
      }),
    ).toString('base64url')
    expect(
      await refusal(verifier().verify(`${header}.${payload}.${signature}`)),
    ).toBe('Invalid ID token: signature verification failed')
  })

  test('error: a wrong audience is refused', async () => {
    expect(
      await refusal(
        verifier().verify(await idToken({ aud: 'another-client' })),
      ),
    ).toBe('Invalid ID token: unexpected "aud" claim value')
  })

  test('error: a wrong issuer is refused', async () => {
    expect(
      await refusal(
        verifier().verify(await idToken({ iss: 'https://evil.example/' })),
      ),
    ).toBe('Invalid ID token: unexpected "iss" claim value')
  })

  test('error: a wrong or missing nonce is refused when one was sent', async () => {
    expect(
      await refusal(
        verifier().verify(await idToken({ nonce: 'other' }), { nonce: 'n-1' }),
      ),
    ).toBe('Invalid ID token: unexpected "nonce" claim value')
    expect(
      await refusal(verifier().verify(tokens.idToken, { nonce: 'n-1' })),
    ).toBe('Invalid ID token: unexpected "nonce" claim value')
  })

  test('error: an expired token is refused', async () => {
    const past = Math.floor(Date.now() / 1000) - 10
    expect(
      await refusal(
        verifier().verify(await idToken({ exp: past, iat: past - 60 })),
      ),
    ).toBe('Invalid ID token: token expired')
  })

  test('error: a token without exp is refused', async () => {
    expect(
      await refusal(verifier().verify(await idToken({ exp: undefined }))),
    ).toBe('Invalid ID token: missing required "exp" claim')
  })
})
