import { beforeAll, describe, expect, test } from 'vitest'
import { PassportError } from '../errors.js'
import { clientId, createIdp, type Idp } from './_test/idp.js'
import { createVerifier } from './tokens.js'

let idp: Idp
beforeAll(async () => {
  idp = await createIdp()
})

function verifier() {
  return createVerifier({
    issuer: 'https://auth.immutable.com/',
    clientId,
    jwksUri: 'https://auth.immutable.com/.well-known/jwks.json',
    fetch: idp.fetch,
  })
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
    const before = idp.requests.length
    const claims = await verifier().verify(
      await idp.idToken({ nonce: 'n-1' }),
      { nonce: 'n-1' },
    )
    expect(claims).toMatchObject({
      iss: 'https://auth.immutable.com/',
      aud: clientId,
      sub: 'email|user-1',
      nonce: 'n-1',
    })
    expect(idp.requests.slice(before).map((r) => [r.method, r.url])).toEqual([
      ['GET', 'https://auth.immutable.com/.well-known/jwks.json'],
    ])
  })

  test('error: a bad signature is refused', async () => {
    expect(
      await refusal(
        verifier().verify(await idp.idToken({}, { sign: 'other' })),
      ),
    ).toBe('Invalid ID token: signature verification failed')
  })

  test('error: a tampered payload is refused', async () => {
    const [header, , signature] = (await idp.idToken()).split('.')
    const payload = Buffer.from(
      JSON.stringify({
        iss: 'https://auth.immutable.com/',
        sub: 'attacker',
        aud: clientId,
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
        verifier().verify(await idp.idToken({ aud: 'another-client' })),
      ),
    ).toBe('Invalid ID token: unexpected "aud" claim value')
  })

  test('error: a wrong issuer is refused', async () => {
    expect(
      await refusal(
        verifier().verify(await idp.idToken({ iss: 'https://evil.example/' })),
      ),
    ).toBe('Invalid ID token: unexpected "iss" claim value')
  })

  test('error: a wrong or missing nonce is refused when one was sent', async () => {
    expect(
      await refusal(
        verifier().verify(await idp.idToken({ nonce: 'other' }), {
          nonce: 'n-1',
        }),
      ),
    ).toBe('Invalid ID token: unexpected "nonce" claim value')
    expect(
      await refusal(verifier().verify(await idp.idToken(), { nonce: 'n-1' })),
    ).toBe('Invalid ID token: unexpected "nonce" claim value')
  })

  test('error: an expired token is refused', async () => {
    const past = Math.floor(Date.now() / 1000) - 10
    expect(
      await refusal(
        verifier().verify(await idp.idToken({ exp: past, iat: past - 60 })),
      ),
    ).toBe('Invalid ID token: token expired')
  })

  test('error: a token without exp is refused', async () => {
    expect(
      await refusal(verifier().verify(await idp.idToken({ exp: undefined }))),
    ).toBe('Invalid ID token: missing required "exp" claim')
  })
})
