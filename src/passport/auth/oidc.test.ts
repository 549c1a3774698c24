import * as oauth from 'oauth4webapi'
import { beforeEach, describe, expect, test } from 'vitest'
import { PassportError } from '../errors.js'
import {
  clientId,
  createIdp,
  type Idp,
  json,
  redirectUri,
} from './_test/idp.js'
import { create, isLoopbackHttp, type Options, staticMetadata } from './oidc.js'

let idp: Idp
beforeEach(async () => {
  idp = await createIdp()
})

/**
 * A client of the fake provider with the published defaults (scope,
 * audience) and a logout page; `overrides` replace any option.
 */
const client = (overrides: Partial<Options> = {}) =>
  create({
    authenticationDomain: 'https://auth.immutable.com',
    clientId,
    redirectUri,
    scope: 'openid profile email offline_access transact',
    audience: 'platform_api',
    logoutRedirectUri: 'https://game.example/logged-out',
    fetch: idp.fetch,
    ...overrides,
  })

/** oauth4webapi names itself outside browsers. */
const userAgent = expect.stringMatching(/^oauth4webapi\/v3\.\d+\.\d+$/)

const formHeaders = {
  accept: 'application/json',
  'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
  'user-agent': userAgent,
}

describe('authorizationServer', () => {
  test('default: discovers once from /.well-known/openid-configuration', async () => {
    const oidc = client()
    const as = await oidc.authorizationServer()
    await oidc.authorizationServer()
    expect(as.token_endpoint).toBe('https://auth.immutable.com/oauth/token')
    expect(
      idp.requests.map((r) => [r.method, r.url, r.headers.accept]),
    ).toEqual([
      [
        'GET',
        'https://auth.immutable.com/.well-known/openid-configuration',
        'application/json',
      ],
    ])
  })

  test('error: a discovery document naming another issuer is refused', async () => {
    const oidc = client({ authenticationDomain: 'https://login.example' })
    const other = await createIdp({
      base: 'https://login.example',
      issuer: 'https://evil.example/',
    })
    const error = await create({ ...oidc.options, fetch: other.fetch })
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

    const local = await createIdp({
      base: 'http://127.0.0.1:4402',
      issuer: 'http://127.0.0.1:4402',
    })
    const as = await create({
      ...client().options,
      authenticationDomain: 'http://127.0.0.1:4402',
      fetch: local.fetch,
    }).authorizationServer()
    expect(as.issuer).toBe('http://127.0.0.1:4402')

    const remote = await createIdp({
      base: 'http://auth.example',
      issuer: 'http://auth.example/',
    })
    const error = await create({
      ...client().options,
      authenticationDomain: 'http://auth.example',
      fetch: remote.fetch,
    })
      .authorizationServer()
      .catch((e: unknown) => e)
    expect((error as { code?: string }).code).toBe(oauth.HTTP_REQUEST_FORBIDDEN)
    expect(remote.requests).toEqual([])
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
    await client({ metadata: 'static' }).authorizationServer()
    expect(idp.requests).toEqual([])
  })
})

describe('authorizationUrl', () => {
  test('default: PKCE S256, state, nonce, scope, audience', async () => {
    const { url, state, codeVerifier, nonce } =
      await client().authorizationUrl()
    expect(url.origin + url.pathname).toBe(
      'https://auth.immutable.com/authorize',
    )
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: clientId,
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
    const body = await idp.tokenResponse({ idClaims: { nonce: 'n-1' } })
    idp.onToken(() => json(200, body))
    const tokens = await client().exchangeCode({
      code: 'code-1',
      state: 's-1',
      codeVerifier: 'v-1',
      nonce: 'n-1',
    })
    expect(tokens).toMatchObject({
      access_token: body.access_token,
      id_token: body.id_token,
      token_type: 'bearer',
    })
    const [request] = idp.to('/oauth/token')
    expect(request?.method).toBe('POST')
    expect(request?.headers).toEqual(formHeaders)
    expect(Object.fromEntries(request!.body!)).toEqual({
      client_id: clientId,
      grant_type: 'authorization_code',
      code: 'code-1',
      code_verifier: 'v-1',
      redirect_uri: redirectUri,
    })
    expect(idp.to('/.well-known/jwks.json')).toHaveLength(1)
  })

  const refusals = [
    [
      'a bad signature',
      {},
      'other',
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
  for (const [name, claims, sign, message] of refusals)
    test(`error: ${name} is refused`, async () => {
      const idToken = await idp.idToken({ nonce: 'n-1', ...claims }, { sign })
      idp.onToken(async () =>
        json(200, await idp.tokenResponse({ id_token: idToken })),
      )
      const error = await client()
        .exchangeCode({ code: 'c', codeVerifier: 'v', nonce: 'n-1' })
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(PassportError)
      expect(error).toMatchObject({ message, type: 'AUTHENTICATION_ERROR' })
    })

  test('error: an OAuth error body is thrown as ResponseBodyError', async () => {
    idp.onToken(() =>
      json(400, {
        error: 'invalid_grant',
        error_description: 'Invalid authorization code',
      }),
    )
    const error = await client()
      .exchangeCode({ code: 'c', codeVerifier: 'v' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(oauth.ResponseBodyError)
    expect(error).toMatchObject({ error: 'invalid_grant', status: 400 })
  })
})

describe('refresh', () => {
  test('default: grant refresh_token', async () => {
    const tokens = await client().refresh('refresh-1')
    expect(tokens.refresh_token).toBe('refresh-token-2')
    const [request] = idp.to('/oauth/token')
    expect(request?.headers).toEqual(formHeaders)
    expect(Object.fromEntries(request!.body!)).toEqual({
      client_id: clientId,
      grant_type: 'refresh_token',
      refresh_token: 'refresh-1',
    })
  })
})

describe('device', () => {
  test('default: device authorization with scope and audience', async () => {
    const response = await client().deviceAuthorization()
    expect(response).toMatchObject(idp.deviceResponse())
    const [request] = idp.to('/oauth/device/code')
    expect(request?.headers).toEqual(formHeaders)
    expect(Object.fromEntries(request!.body!)).toEqual({
      client_id: clientId,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
    })
  })

  test('default: device token poll', async () => {
    await client().deviceToken('device-code-1')
    const [request] = idp.to('/oauth/token')
    expect(Object.fromEntries(request!.body!)).toEqual({
      client_id: clientId,
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: 'device-code-1',
    })
  })

  test('error: a device token response without id_token is refused', async () => {
    idp.onToken(async () => {
      const { id_token: _, ...rest } = await idp.tokenResponse()
      return json(200, rest)
    })
    await expect(client().deviceToken('d')).rejects.toMatchObject({
      message: 'Invalid ID token: the token response has no id_token',
      type: 'AUTHENTICATION_ERROR',
    })
  })
})

describe('revoke and end session', () => {
  test('default: revokes the refresh token', async () => {
    await client().revoke('refresh-1')
    const [request] = idp.to('/oauth/revoke')
    expect(request?.method).toBe('POST')
    expect(request?.headers).toEqual({
      'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
      'user-agent': userAgent,
    })
    expect(Object.fromEntries(request!.body!)).toEqual({
      client_id: clientId,
      token: 'refresh-1',
      token_type_hint: 'refresh_token',
    })
  })

  test('error: a failed revocation throws', async () => {
    idp.onRevoke(() => json(400, { error: 'invalid_request' }))
    await expect(client().revoke('r')).rejects.toBeInstanceOf(
      oauth.ResponseBodyError,
    )
  })

  test('default: {auth}/v2/logout?client_id=&returnTo=', () => {
    expect(client().endSessionUrl()).toBe(
      `https://auth.immutable.com/v2/logout?client_id=${clientId}&returnTo=https%3A%2F%2Fgame.example%2Flogged-out`,
    )
    expect(client({ logoutRedirectUri: undefined }).endSessionUrl()).toBe(
      `https://auth.immutable.com/v2/logout?client_id=${clientId}`,
    )
    expect(
      client({ authenticationDomain: 'auth.immutable.com' }).endSessionUrl({
        returnTo: 'x',
      }),
    ).toBe(
      `https://auth.immutable.com/v2/logout?client_id=${clientId}&returnTo=x`,
    )
  })
})
