import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type Browser,
  createBrowser,
  pkce,
  redirectUri,
  signIn,
  startIdentity,
  tokenRequest,
} from './testkit.js'

const scope = 'openid profile email offline_access transact'
let identity: Awaited<ReturnType<typeof startIdentity>>

beforeAll(async () => {
  identity = await startIdentity()
})
afterAll(() => identity.stop())

/** The authorization request the SDK makes, as a URL. */
function authorizeUrl(params: Record<string, string | undefined>): string {
  const url = new URL('/authorize', identity.issuer)
  const all = {
    response_type: 'code',
    client_id: identity.clientId,
    redirect_uri: redirectUri,
    scope,
    state: 'state-1',
    nonce: 'nonce-1',
    code_challenge_method: 'S256',
    audience: 'platform_api',
    ...params,
  }
  for (const [name, value] of Object.entries(all))
    if (value !== undefined) url.searchParams.set(name, value)
  return url.href
}

/** Authorizes through the sign-in page; the redirect back to the dApp. */
async function authorize(browser: Browser, email: string, challenge: string) {
  const start = await browser.get(authorizeUrl({ code_challenge: challenge }))
  expect(start.status).toBe(303)
  const resume = await signIn(
    browser,
    start.headers.get('location') ?? '',
    identity.mailbox,
    email,
  )
  const back = await browser.get(resume)
  expect(back.status).toBe(303)
  return new URL(back.headers.get('location') ?? '')
}

async function login(email: string) {
  const browser = createBrowser(identity.issuer)
  const { verifier, challenge } = pkce()
  const callback = await authorize(browser, email, challenge)
  const tokens = await tokenRequest(identity.issuer, {
    grant_type: 'authorization_code',
    client_id: identity.clientId,
    code: callback.searchParams.get('code') ?? '',
    code_verifier: verifier,
    redirect_uri: redirectUri,
  })
  expect(tokens.status).toBe(200)
  return { browser, callback, tokens: tokens.body }
}

describe('authorization code + PKCE', () => {
  test('behavior: the sign-in page redirects back with a code, whose tokens verify against the JWKS', async () => {
    const { callback, tokens } = await login('ada@example.com')
    expect(callback.origin + callback.pathname).toBe(redirectUri)
    expect(callback.searchParams.get('state')).toBe('state-1')
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      expires_in: 86400,
      // Every scope granted, as the real provider lists them.
      scope: 'openid profile email offline_access transact',
    })
    const user = identity.registry.find({ email: 'ada@example.com' })
    const jwks = createRemoteJWKSet(
      new URL('/.well-known/jwks.json', identity.issuer),
    )
    const { payload, protectedHeader } = await jwtVerify(
      String(tokens.id_token),
      jwks,
      { issuer: identity.issuer, audience: identity.clientId },
    )
    expect(protectedHeader.alg).toBe('RS256')
    expect(payload).toMatchObject({
      sub: user?.id,
      nonce: 'nonce-1',
      email: 'ada@example.com',
      email_verified: true,
      nickname: 'ada',
    })
    expect(payload.passport).toBe(undefined)
    const access = await jwtVerify(String(tokens.access_token), jwks, {
      issuer: identity.issuer,
      audience: 'platform_api',
      typ: 'at+jwt',
    })
    expect(access.payload).toMatchObject({
      sub: user?.id,
      client_id: identity.clientId,
      scope: 'transact',
    })
  })

  test('behavior: a refresh issues an id token with the registrations made since, and a new refresh token', async () => {
    const { tokens } = await login('bob@example.com')
    // oidc-client-ts (the published SDK's) sends back the scope the token
    // response listed.
    expect(tokens.scope).toBe(scope)
    const user = identity.registry.find({ email: 'bob@example.com' })
    identity.registry.setPassport(user?.id ?? '', {
      zkevmEthAddress: '0x1111111111111111111111111111111111111111',
      zkevmUserAdminAddress: '0x2222222222222222222222222222222222222222',
    })
    const refreshed = await tokenRequest(identity.issuer, {
      grant_type: 'refresh_token',
      client_id: identity.clientId,
      refresh_token: String(tokens.refresh_token),
      scope: String(tokens.scope),
    })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.scope).toBe(scope)
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token)
    expect(decodeJwt(String(refreshed.body.id_token))).toMatchObject({
      sub: user?.id,
      passport: {
        zkevm_eth_address: '0x1111111111111111111111111111111111111111',
        zkevm_user_admin_address: '0x2222222222222222222222222222222222222222',
      },
    })
    const userinfo = await fetch(`${identity.issuer}/userinfo`, {
      headers: { authorization: `Bearer ${refreshed.body.access_token}` },
    })
    expect(await userinfo.json()).toEqual({
      sub: user?.id,
      email: 'bob@example.com',
      email_verified: true,
      nickname: 'bob',
      passport: {
        zkevm_eth_address: '0x1111111111111111111111111111111111111111',
        zkevm_user_admin_address: '0x2222222222222222222222222222222222222222',
      },
    })
    // The rotated refresh token is used up.
    const reused = await tokenRequest(identity.issuer, {
      grant_type: 'refresh_token',
      client_id: identity.clientId,
      refresh_token: String(tokens.refresh_token),
    })
    expect(reused).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    })
  })

  test('behavior: revoking the refresh token ends the refresh and the userinfo access', async () => {
    const { tokens } = await login('cy@example.com')
    const revoked = await fetch(`${identity.issuer}/oauth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: identity.clientId,
        token: String(tokens.refresh_token),
        token_type_hint: 'refresh_token',
      }),
    })
    expect(revoked.status).toBe(200)
    // oidc-client-ts (the published SDK's) refuses a revocation answer whose
    // Content-Type is not JSON, even an empty one.
    expect(revoked.headers.get('content-type')).toBe(
      'application/json; charset=utf-8',
    )
    expect(await revoked.text()).toBe('')
    const refreshed = await tokenRequest(identity.issuer, {
      grant_type: 'refresh_token',
      client_id: identity.clientId,
      refresh_token: String(tokens.refresh_token),
    })
    expect(refreshed).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    })
    const userinfo = await fetch(`${identity.issuer}/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    expect(userinfo.status).toBe(401)
    expect(await userinfo.json()).toEqual({
      error: 'invalid_token',
      error_description: 'access token expired or revoked',
    })
  })

  test('error: an authorization request without a code challenge is sent back with invalid_request', async () => {
    const response = await fetch(
      authorizeUrl({ code_challenge_method: undefined }),
      { redirect: 'manual' },
    )
    const location = new URL(response.headers.get('location') ?? '')
    expect(location.origin + location.pathname).toBe(redirectUri)
    expect(location.searchParams.get('error')).toBe('invalid_request')
    expect(location.searchParams.get('error_description')).toBe(
      'Authorization Server policy requires PKCE to be used for this request',
    )
  })

  test('error: a wrong code verifier is refused with invalid_grant', async () => {
    const browser = createBrowser(identity.issuer)
    const callback = await authorize(
      browser,
      'dee@example.com',
      pkce().challenge,
    )
    const tokens = await tokenRequest(identity.issuer, {
      grant_type: 'authorization_code',
      client_id: identity.clientId,
      code: callback.searchParams.get('code') ?? '',
      code_verifier: pkce().verifier,
      redirect_uri: redirectUri,
    })
    expect(tokens).toMatchObject({
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description: 'grant request is invalid',
      },
    })
  })

  test('error: a redirect URI off loopback is refused on an error page', async () => {
    const response = await fetch(
      authorizeUrl({
        redirect_uri: 'https://evil.example/callback',
        code_challenge: pkce().challenge,
      }),
      { redirect: 'manual' },
    )
    expect(response.status).toBe(400)
    const page = await response.text()
    expect(page).toContain('data-testid="error-code">invalid_redirect_uri<')
  })
})
