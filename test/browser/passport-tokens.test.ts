import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import {
  completeInPopup,
  createPassport,
  emulator,
  freshEmail,
  popupAt,
  recordFetches,
  spyPopups,
  userKey,
} from './passportLogin.js'

/*
 * The id token of a popup login is verified before anything is stored: a
 * broken signature, another audience and another nonce are each refused.
 * The first two are produced by answering the page's fetch of the token
 * endpoint (and of the JWKS) with altered bodies; the third by changing the
 * nonce of the real authorization request, so the provider itself signs a
 * token for another nonce.
 */

const opened: Window[] = []
beforeEach(() => localStorage.clear())
afterEach(() => {
  vi.restoreAllMocks()
  for (const window of opened.splice(0)) window.close()
})

const tokenUrl = `${emulator.authenticationDomain}/oauth/token`
const jwksUrl = `${emulator.authenticationDomain}/.well-known/jwks.json`

/** The response with its JSON body changed by `edit`. */
async function editJson(
  response: Response,
  edit: (body: Record<string, string>) => Promise<void> | void,
): Promise<Response> {
  const body = (await response.json()) as Record<string, string>
  await edit(body)
  return new Response(JSON.stringify(body), {
    status: response.status,
    headers: response.headers,
  })
}

/** A popup login (a fresh user) that must fail; resolves the error. */
async function failingLogin(options: {
  rewrite?: (url: string) => string
}): Promise<unknown> {
  const calls = spyPopups(options)
  const pending = createPassport().login()
  const popup = await popupAt(calls)
  if (popup.window) opened.push(popup.window)
  await completeInPopup(popup, freshEmail('tokens'))
  return pending.catch((error: unknown) => error)
}

describe('Passport.login: id-token checks', () => {
  test('error: a token with a broken signature is refused', async () => {
    recordFetches((url, response) =>
      url === tokenUrl
        ? editJson(response, (body) => {
            const [header, payload, signature = ''] = (
              body.id_token ?? ''
            ).split('.')
            const flipped = signature.startsWith('A') ? 'B' : 'A'
            body.id_token = `${header}.${payload}.${flipped}${signature.slice(1)}`
          })
        : response,
    )
    const error = await failingLogin({})
    expect(error).toMatchObject({
      name: 'PassportError',
      type: 'AUTHENTICATION_ERROR',
      message: 'Invalid ID token: signature verification failed',
    })
    expect(localStorage.getItem(userKey)).toBeNull()
  })

  test('error: a validly signed token for another audience is refused', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', {
      extractable: true,
    })
    const jwk = { ...(await exportJWK(publicKey)), kid: 'test', alg: 'RS256' }
    recordFetches(async (url, response) => {
      if (url === jwksUrl)
        return new Response(JSON.stringify({ keys: [jwk] }), {
          headers: { 'content-type': 'application/json' },
        })
      if (url !== tokenUrl) return response
      return editJson(response, async (body) => {
        const claims = decodeJwt(body.id_token ?? '')
        body.id_token = await new SignJWT({ ...claims, aud: 'another-client' })
          .setProtectedHeader({ alg: 'RS256', kid: 'test' })
          .sign(privateKey)
      })
    })
    const error = await failingLogin({})
    expect(error).toMatchObject({
      type: 'AUTHENTICATION_ERROR',
      message: 'Invalid ID token: unexpected "aud" claim value',
    })
    expect(localStorage.getItem(userKey)).toBeNull()
  })

  test('error: a token for another nonce is refused', async () => {
    const seen = recordFetches()
    const error = await failingLogin({
      rewrite: (url) => {
        const request = new URL(url)
        request.searchParams.set('nonce', 'another-nonce')
        return request.href
      },
    })
    expect(error).toMatchObject({
      type: 'AUTHENTICATION_ERROR',
      message: 'Invalid ID token: unexpected "nonce" claim value',
    })
    expect(seen.filter((request) => request.url === tokenUrl)).toHaveLength(1)
    expect(localStorage.getItem(userKey)).toBeNull()
  })
})
