import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { authorize, sentHeaders } from '../../../test/unit/setup/identity.js'
import {
  claimsOf,
  redirectUri,
  startIdentity,
  type TestIdentity,
  type Tokens,
  tokensFor,
} from '../../emulator/passport/identity/testkit.js'
import { formOf, jsonOf } from '../../emulator/testkit.js'
import { PassportError } from '../errors.js'
import { create, isLoopbackHttp, type Options, staticMetadata } from './oidc.js'

let identity: TestIdentity
beforeAll(async () => {
  identity = await startIdentity()
})
afterAll(() => identity.stop())
beforeEach(() => identity.clear())

/**
 * A client of the emulated identity provider with the published defaults
 * (scope, audience) and a logout page; `overrides` replace any option.
 */
const client = (overrides: Partial<Options> = {}) =>
  create({
    authenticationDomain: identity.issuer,
    clientId: identity.clientId,
    redirectUri,
    scope: 'openid profile email offline_access transact',
    audience: 'platform_api',
    logoutRedirectUri: 'https://game.example/logged-out',
    ...overrides,
  })

/** oauth4webapi names itself outside browsers. */
const userAgent = expect.stringMatching(/^oauth4webapi\/v3\.\d+\.\d+$/)

const formHeaders = {
  accept: 'application/json',
  'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
  'user-agent': userAgent,
}

/** A player signed in at the provider, for token answers to start from. */
async function player(): Promise<Tokens> {
  return tokensFor(identity, `oidc-${crypto.randomUUID()}@example.com`)
}

describe('authorizationServer', () => {
  test('default: discovers once from /.well-known/openid-configuration', async () => {
    const oidc = client()
    const as = await oidc.authorizationServer()
    await oidc.authorizationServer()
    expect(as.token_endpoint).toBe(`${identity.issuer}/oauth/token`)
    expect(
      identity.requests.map((r) => [r.method, r.path, r.headers.accept]),
    ).toEqual([
      ['GET', '/.well-known/openid-configuration', 'application/json'],
    ])
  })

  test('error: a discovery document naming another issuer is refused', async () => {
    const document = (await (
      await fetch(`${identity.issuer}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>
    identity.answer(
      { path: '/.well-known/openid-configuration' },
      { status: 200, body: { ...document, issuer: 'https://evil.example/' } },
    )
    const error = await client()
      .authorizationServer()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(oauth.OperationProcessingError)
    expect((error as oauth.OperationProcessingError).code).toBe(
      oauth.JSON_ATTRIBUTE_COMPARISON,
    )
  })

  test('behavior: plain HTTP is allowed for loopback issuers only', async () => {
    expect(isLoopbackHttp(new URL('http://127.0.0.1:4402'))).toBe(true)
    expect(isLoopbackHttp(new URL('http://localhost:4402'))).toBe(true)
    expect(isLoopbackHttp(new URL('http://[::1]:4402'))).toBe(true)
    expect(isLoopbackHttp(new URL('http://auth.example'))).toBe(false)
    expect(isLoopbackHttp(new URL('https://127.0.0.1'))).toBe(false)

    // The emulated provider is plain HTTP on 127.0.0.1.
    expect((await client().authorizationServer()).issuer).toBe(identity.issuer)

    // Another host over plain HTTP is refused before any request.
    const attempts: string[] = []
    const error = await client({
      authenticationDomain: 'http://auth.example',
      fetch: async (input) => {
        attempts.push(String(input))
        throw new TypeError('fetch failed')
      },
    })
      .authorizationServer()
      .catch((e: unknown) => e)
    expect((error as { code?: string }).code).toBe(oauth.HTTP_REQUEST_FORBIDDEN)
    expect(attempts).toEqual([])
  })

  test('behavior: static metadata uses the published fixed paths', async () => {
    expect(staticMetadata('https://auth.immutable.com')).toEqual({
      issuer: 'https://auth.immutable.com/',
      authorization_endpoint: 'https://auth.immutable.com/authorize',
      token_endpoint: 'https://auth.immutable.com/oauth/token',
      userinfo_endpoint: 'https://auth.immutable.com/userinfo',
      revocation_endpoint: 'https://auth.immutable.com/oauth/revoke',
      device_authorization_endpoint:
        'https://auth.immutable.com/oauth/device/code',
      jwks_uri: 'https://auth.immutable.com/.well-known/jwks.json',
    })
    const fixed = await client({ metadata: 'static' }).authorizationServer()
    expect(identity.requests).toEqual([])
    // The provider serves every endpoint at the fixed path.
    const { issuer: _, ...discovered } = await client().authorizationServer()
    const { issuer: __, ...endpoints } = fixed
    expect(discovered).toMatchObject(endpoints)
  })
})

describe('authorizationUrl', () => {
  test('default: PKCE S256, state, nonce, scope, audience', async () => {
    const { url, state, codeVerifier, nonce } =
      await client().authorizationUrl()
    expect(url.origin + url.pathname).toBe(`${identity.issuer}/authorize`)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: identity.clientId,
      redirect_uri: redirectUri,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    })
    for (const value of [state, codeVerifier, nonce])
      expect(Buffer.from(value, 'base64url')).toHaveLength(32)
  })

  test('behavior: extra query params and another redirect URI', async () => {
    const { url } = await client({
      extraQueryParams: { rid: 'r-1' },
    }).authorizationUrl({
      redirectUri: 'https://game.example/popup',
      extraQueryParams: { direct: 'google' },
    })
    expect(url.searchParams.get('redirect_uri')).toBe(
      'https://game.example/popup',
    )
    expect(url.searchParams.get('rid')).toBe('r-1')
    expect(url.searchParams.get('direct')).toBe('google')
  })
})

describe('exchangeCode', () => {
  test('default: form POST to the token endpoint, id token verified', async () => {
    const oidc = client()
    const request = await oidc.authorizationUrl()
    const callback = await authorize(
      identity,
      request.url.href,
      'exchange@example.com',
    )
    const code = callback.searchParams.get('code') ?? ''
    const tokens = await oidc.exchangeCode({
      code,
      state: callback.searchParams.get('state') ?? undefined,
      iss: callback.searchParams.get('iss') ?? undefined,
      codeVerifier: request.codeVerifier,
      nonce: request.nonce,
    })
    const [exchange] = identity.to('/oauth/token')
    const answered = jsonOf(exchange?.response) as Record<string, string>
    expect(tokens).toMatchObject({
      access_token: answered.access_token,
      id_token: answered.id_token,
      token_type: 'bearer',
    })
    expect(exchange?.method).toBe('POST')
    expect(sentHeaders(exchange!)).toEqual(formHeaders)
    expect(formOf(exchange!)).toEqual({
      client_id: identity.clientId,
      grant_type: 'authorization_code',
      code,
      code_verifier: request.codeVerifier,
      redirect_uri: redirectUri,
    })
    expect(identity.to('/.well-known/jwks.json')).toHaveLength(1)
  })

  test('behavior: a throttled exchange (429) is sent again through the fetch helper after Retry-After; the code is redeemed once', async () => {
    const oidc = client()
    const request = await oidc.authorizationUrl()
    const callback = await authorize(
      identity,
      request.url.href,
      'throttled-exchange@example.com',
    )
    identity.answer(
      { path: '/oauth/token' },
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { error: 'too_many_requests' },
      },
    )
    const tokens = await oidc.exchangeCode({
      code: callback.searchParams.get('code') ?? '',
      state: callback.searchParams.get('state') ?? undefined,
      iss: callback.searchParams.get('iss') ?? undefined,
      codeVerifier: request.codeVerifier,
      nonce: request.nonce,
    })
    const exchanges = identity.to('/oauth/token')
    expect(exchanges.map((r) => [r.status, r.scripted])).toEqual([
      [429, true],
      [200, false],
    ])
    expect(exchanges[1]?.body).toBe(exchanges[0]?.body)
    expect(tokens.access_token).toBe(
      (jsonOf(exchanges[1]?.response) as { access_token: string }).access_token,
    )
  })

  const refusals = [
    [
      'a bad signature',
      {},
      'stranger',
      'Invalid ID token: signature verification failed',
    ],
    [
      'a wrong audience',
      { aud: 'another-client' },
      'own',
      'Invalid ID token: unexpected "aud" claim value',
    ],
    [
      'a wrong issuer',
      { iss: 'https://evil.example/' },
      'own',
      'Invalid ID token: unexpected "iss" claim value',
    ],
    [
      'a wrong nonce',
      { nonce: 'other' },
      'own',
      'Invalid ID token: unexpected "nonce" claim value',
    ],
  ] as const
  for (const [name, claims, key, message] of refusals)
    test(`error: ${name} is refused`, async () => {
      const tokens = await player()
      const idToken = await identity.sign(
        claimsOf(tokens.idToken, { nonce: 'n-1', ...claims }),
        { key },
      )
      identity.answer(
        { path: '/oauth/token' },
        {
          status: 200,
          body: {
            access_token: tokens.accessToken,
            id_token: idToken,
            refresh_token: tokens.refreshToken,
            token_type: 'Bearer',
            expires_in: 86_400,
          },
        },
      )
      const error = await client()
        .exchangeCode({ code: 'c', codeVerifier: 'v', nonce: 'n-1' })
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(PassportError)
      expect(error).toMatchObject({ message, type: 'AUTHENTICATION_ERROR' })
    })

  test('error: an OAuth error body is thrown as ResponseBodyError', async () => {
    const error = await client()
      .exchangeCode({ code: 'c', codeVerifier: 'v' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(oauth.ResponseBodyError)
    expect(error).toMatchObject({
      error: 'invalid_grant',
      error_description: 'grant request is invalid',
      status: 400,
    })
  })
})

describe('refresh', () => {
  test('default: grant refresh_token', async () => {
    const { refreshToken } = await player()
    const since = identity.requests.length
    const tokens = await client().refresh(refreshToken)
    const [exchange] = identity
      .to('/oauth/token')
      .filter((r) => identity.requests.indexOf(r) >= since)
    expect(tokens.refresh_token).toBe(
      (jsonOf(exchange?.response) as { refresh_token: string }).refresh_token,
    )
    expect(tokens.refresh_token).toMatch(/\S/)
    expect(sentHeaders(exchange!)).toEqual(formHeaders)
    expect(formOf(exchange!)).toEqual({
      client_id: identity.clientId,
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    })
  })
})

describe('device', () => {
  test('default: device authorization with scope and audience', async () => {
    const response = await client().deviceAuthorization()
    const [exchange] = identity.to('/oauth/device/code')
    expect(response).toMatchObject(jsonOf(exchange?.response) as object)
    expect(response).toMatchObject({
      device_code: expect.any(String),
      user_code: expect.any(String),
      verification_uri: `${identity.issuer}/device`,
      verification_uri_complete: `${identity.issuer}/device?user_code=${response.user_code}`,
      interval: 5,
    })
    expect(sentHeaders(exchange!)).toEqual(formHeaders)
    expect(formOf(exchange!)).toEqual({
      client_id: identity.clientId,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
    })
  })

  test('default: device token poll', async () => {
    const oidc = client()
    const { device_code } = await oidc.deviceAuthorization()
    // Not approved yet: the provider answers authorization_pending.
    await expect(oidc.deviceToken(device_code)).rejects.toMatchObject({
      error: 'authorization_pending',
    })
    const [exchange] = identity.to('/oauth/token')
    expect(formOf(exchange!)).toEqual({
      client_id: identity.clientId,
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code,
    })
  })

  test('error: a device token response without id_token is refused', async () => {
    const tokens = await player()
    identity.answer(
      { path: '/oauth/token' },
      {
        status: 200,
        body: {
          access_token: tokens.accessToken,
          refresh_token: tokens.refreshToken,
          token_type: 'Bearer',
          expires_in: 86_400,
        },
      },
    )
    await expect(client().deviceToken('d')).rejects.toMatchObject({
      message: 'Invalid ID token: the token response has no id_token',
      type: 'AUTHENTICATION_ERROR',
    })
  })
})

describe('revoke and end session', () => {
  test('default: revokes the refresh token', async () => {
    const { refreshToken } = await player()
    const since = identity.requests.length
    await client().revoke(refreshToken)
    const [exchange] = identity.to('/oauth/revoke')
    expect(identity.requests.indexOf(exchange!)).toBeGreaterThanOrEqual(since)
    expect(exchange?.method).toBe('POST')
    expect(exchange?.status).toBe(200)
    expect(sentHeaders(exchange!)).toEqual({
      accept: '*/*',
      'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
      'user-agent': userAgent,
    })
    expect(formOf(exchange!)).toEqual({
      client_id: identity.clientId,
      token: refreshToken,
      token_type_hint: 'refresh_token',
    })
    // Revoked: the provider no longer refreshes with it.
    await expect(client().refresh(refreshToken)).rejects.toMatchObject({
      error: 'invalid_grant',
    })
  })

  test('error: a failed revocation throws', async () => {
    identity.answer(
      { path: '/oauth/revoke' },
      { status: 400, body: { error: 'invalid_request' } },
    )
    await expect(client().revoke('r')).rejects.toBeInstanceOf(
      oauth.ResponseBodyError,
    )
  })

  test('default: {auth}/v2/logout?client_id=&returnTo=', () => {
    expect(client().endSessionUrl()).toBe(
      `${identity.issuer}/v2/logout?client_id=${identity.clientId}&returnTo=https%3A%2F%2Fgame.example%2Flogged-out`,
    )
    expect(client({ logoutRedirectUri: undefined }).endSessionUrl()).toBe(
      `${identity.issuer}/v2/logout?client_id=${identity.clientId}`,
    )
    expect(
      client({ authenticationDomain: 'auth.immutable.com' }).endSessionUrl({
        returnTo: 'x',
      }),
    ).toBe(
      `https://auth.immutable.com/v2/logout?client_id=${identity.clientId}&returnTo=x`,
    )
  })
})
