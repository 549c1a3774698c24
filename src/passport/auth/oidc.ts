/**
 * The OAuth 2.0 / OpenID Connect client of the game wallet, on oauth4webapi:
 * where the identity provider is (the issuer from the authentication domain,
 * its metadata by discovery or at the published fixed paths), the
 * authorization URL (PKCE S256, state, nonce), the code exchange, refresh,
 * device authorization and device-code polling, revocation and the
 * end-session URL. Token responses are checked by oauth4webapi, with id-token
 * claim failures reworded as `AUTHENTICATION_ERROR`s, and their id tokens
 * verified against the JWKS (`tokens.ts`). Plain HTTP is allowed for loopback
 * issuers only (the local emulator); everything else must be HTTPS.
 */
import * as oauth from 'oauth4webapi'
import * as Http from '../../core/Http.js'
import { PassportError, PassportErrorType } from '../errors.js'
import { logoutParams, paths, requestParams } from '../wire/identity.js'
import { createVerifier, invalidIdToken, type Verifier } from './tokens.js'
import type { TokenResponse } from './user.js'

/** What the client needs to know about the application. */
export type Options = {
  /** The identity provider, e.g. `https://auth.immutable.com` (a bare host gets `https://`). */
  authenticationDomain: string
  clientId: string
  redirectUri: string
  scope: string
  audience: string
  logoutRedirectUri?: string | undefined
  /** Extra authorization-request parameters. */
  extraQueryParams?: Record<string, string> | undefined
  /**
   * `'discover'` reads `/.well-known/openid-configuration`; `'static'` uses
   * the published SDK's fixed paths on the authentication domain.
   * @default 'discover'
   */
  metadata?: 'discover' | 'static' | undefined
  /** The fetch under the core fetch helper, for every request (tests answer it locally). */
  fetch?: typeof globalThis.fetch | undefined
  /** Clock in ms, for id-token checks. @default Date.now */
  now?: (() => number) | undefined
}

/** What {@link Client.authorizationUrl} returns; keep all but `url` for the callback. */
export type AuthorizationRequest = {
  url: URL
  state: string
  codeVerifier: string
  nonce: string
}

/** The device-authorization response (RFC 8628, section 3.2). */
export type DeviceAuthorization = oauth.DeviceAuthorizationResponse

/** The client returned by {@link create}. */
export type Client = {
  readonly options: Options
  /** The issuer identifier the discovery document must name. */
  readonly issuer: URL
  /** The authorization server metadata (discovered once; a failure is retried next call). */
  authorizationServer(): Promise<oauth.AuthorizationServer>
  /** The authorization URL with fresh PKCE verifier, state and nonce. */
  authorizationUrl(options?: {
    redirectUri?: string | undefined
    extraQueryParams?: Record<string, string> | undefined
  }): Promise<AuthorizationRequest>
  /** Exchanges an authorization code (grant `authorization_code`). */
  exchangeCode(options: {
    code: string
    state?: string | undefined
    iss?: string | undefined
    codeVerifier: string
    nonce?: string | undefined
    redirectUri?: string | undefined
  }): Promise<TokenResponse>
  /** Grant `refresh_token`. */
  refresh(refreshToken: string): Promise<TokenResponse>
  /** `POST` to the device-authorization endpoint with `scope` and `audience`. */
  deviceAuthorization(): Promise<DeviceAuthorization>
  /** One poll of the device-code grant; OAuth errors throw `oauth.ResponseBodyError`. */
  deviceToken(deviceCode: string): Promise<TokenResponse>
  /** Revokes a token (`token_type_hint` defaults to `refresh_token`). */
  revoke(token: string, tokenTypeHint?: string | undefined): Promise<void>
  /** `{auth}/v2/logout?client_id=&returnTo=` (`returnTo` when known). */
  endSessionUrl(options?: { returnTo?: string | undefined }): string
}

/**
 * Creates the client. Nothing is fetched until a method needs the server.
 *
 * @example
 * ```ts
 * const client = create({
 *   authenticationDomain: 'https://auth.immutable.com',
 *   clientId: 'client',
 *   redirectUri: 'https://game.example/callback',
 *   scope: defaultScope,
 *   audience: defaultAudience,
 * })
 * const { url, state, codeVerifier, nonce } = await client.authorizationUrl()
 * ```
 */
export function create(options: Options): Client {
  const base = withScheme(options.authenticationDomain)
  const issuer = new URL(base)
  const now = options.now ?? Date.now
  const client: oauth.Client = { client_id: options.clientId }
  const auth = oauth.None()
  const http: {
    [oauth.customFetch]?: (url: string, init: object) => Promise<Response>
    [oauth.allowInsecureRequests]?: boolean
  } = {}
  // Every request through the core fetch helper. A 429 is answered before
  // the server acts on the request (RFC 6585), so even a single-use code is
  // safe to send again; the session's refresh retry and the device flow's
  // slow_down act on what the helper returns.
  const { fetch } = options
  http[oauth.customFetch] = Http.fetcher(fetch ? { fetch } : {})
  if (isLoopbackHttp(issuer)) http[oauth.allowInsecureRequests] = true

  let server: Promise<oauth.AuthorizationServer> | undefined
  let verifier: Verifier | undefined

  async function authorizationServer() {
    if (options.metadata === 'static') return staticMetadata(base, issuer)
    server ??= oauth
      .discoveryRequest(issuer, http)
      .then((response) => oauth.processDiscoveryResponse(issuer, response))
    return server.catch((error) => {
      server = undefined
      throw error
    })
  }

  async function verify(response: TokenResponse, nonce?: string | undefined) {
    if (!response.id_token) return response
    const as = await authorizationServer()
    if (!as.jwks_uri) throw new Error('The identity provider has no jwks_uri')
    verifier ??= createVerifier({
      issuer: as.issuer,
      clientId: options.clientId,
      jwksUri: as.jwks_uri,
      fetch: options.fetch,
      now,
    })
    await verifier.verify(response.id_token, { nonce })
    return response
  }

  return {
    options,
    issuer,
    authorizationServer,

    async authorizationUrl(request = {}) {
      const as = await authorizationServer()
      const codeVerifier = oauth.generateRandomCodeVerifier()
      const state = oauth.generateRandomState()
      const nonce = oauth.generateRandomNonce()
      const url = new URL(endpoint(as, 'authorization_endpoint'))
      const params = {
        response_type: 'code',
        client_id: options.clientId,
        redirect_uri: request.redirectUri ?? options.redirectUri,
        scope: options.scope,
        [requestParams.audience]: options.audience,
        state,
        nonce,
        code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        ...options.extraQueryParams,
        ...request.extraQueryParams,
      }
      for (const [key, value] of Object.entries(params))
        url.searchParams.set(key, value)
      return { url, state, codeVerifier, nonce }
    },

    async exchangeCode(exchange) {
      const as = await authorizationServer()
      const parameters = new URLSearchParams({ code: exchange.code })
      if (exchange.state !== undefined) parameters.set('state', exchange.state)
      if (exchange.iss !== undefined) parameters.set('iss', exchange.iss)
      // A code pasted back by a game carries no `iss` (RFC 9207): only check
      // it when the caller has one.
      const callback = oauth.validateAuthResponse(
        exchange.iss === undefined
          ? { ...as, authorization_response_iss_parameter_supported: false }
          : as,
        client,
        parameters,
        exchange.state ?? oauth.expectNoState,
      )
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        auth,
        callback,
        exchange.redirectUri ?? options.redirectUri,
        exchange.codeVerifier,
        http,
      )
      const tokens = await processed(() =>
        oauth.processAuthorizationCodeResponse(as, client, response, {
          requireIdToken: true,
          ...(exchange.nonce ? { expectedNonce: exchange.nonce } : {}),
        }),
      )
      return verify(tokens, exchange.nonce)
    },

    async refresh(refreshToken) {
      const as = await authorizationServer()
      const response = await oauth.refreshTokenGrantRequest(
        as,
        client,
        auth,
        refreshToken,
        http,
      )
      return verify(
        await processed(() =>
          oauth.processRefreshTokenResponse(as, client, response),
        ),
      )
    },

    async deviceAuthorization() {
      const as = await authorizationServer()
      const response = await oauth.deviceAuthorizationRequest(
        as,
        client,
        auth,
        { scope: options.scope, [requestParams.audience]: options.audience },
        http,
      )
      return oauth.processDeviceAuthorizationResponse(as, client, response)
    },

    async deviceToken(deviceCode) {
      const as = await authorizationServer()
      const response = await oauth.deviceCodeGrantRequest(
        as,
        client,
        auth,
        deviceCode,
        http,
      )
      const tokens = await processed(() =>
        oauth.processDeviceCodeResponse(as, client, response),
      )
      if (!tokens.id_token)
        throw new PassportError(
          `${invalidIdToken}: the token response has no id_token`,
          PassportErrorType.AUTHENTICATION_ERROR,
        )
      return verify(tokens)
    },

    async revoke(token, tokenTypeHint = 'refresh_token') {
      const as = await authorizationServer()
      const response = await oauth.revocationRequest(as, client, auth, token, {
        ...http,
        additionalParameters: { token_type_hint: tokenTypeHint },
      })
      await oauth.processRevocationResponse(response)
    },

    endSessionUrl({ returnTo = options.logoutRedirectUri } = {}) {
      const url = new URL(paths.logout, base)
      url.searchParams.set(logoutParams.clientId, options.clientId)
      if (returnTo) url.searchParams.set(logoutParams.returnTo, returnTo)
      return url.href
    },
  }
}

/** The authentication domain with a scheme (`https://` when it has none). */
export function withScheme(domain: string): string {
  return /^https?:\/\//.test(domain) ? domain : `https://${domain}`
}

/** Whether `url` is plain HTTP on a loopback host (the local emulator). */
export function isLoopbackHttp(url: URL): boolean {
  return (
    url.protocol === 'http:' &&
    ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
  )
}

/** The published SDK's fixed endpoints on the authentication domain. */
export function staticMetadata(
  base: string,
  issuer: URL = new URL(base),
): oauth.AuthorizationServer {
  const at = (path: string) => new URL(path, base).href
  return {
    issuer: issuer.href,
    authorization_endpoint: at(paths.authorize),
    token_endpoint: at(paths.token),
    userinfo_endpoint: at(paths.userinfo),
    revocation_endpoint: at(paths.revocation),
    device_authorization_endpoint: at(paths.deviceAuthorization),
    jwks_uri: at(paths.jwks),
  }
}

/** A required endpoint of the metadata. */
function endpoint(
  as: oauth.AuthorizationServer,
  name: 'authorization_endpoint',
): string {
  const value = as[name]
  if (!value) throw new Error(`The identity provider has no ${name}`)
  return value
}

/**
 * Runs an oauth4webapi response check. OAuth error bodies
 * (`ResponseBodyError`) pass through for the caller to classify; id-token
 * claim failures become `AUTHENTICATION_ERROR`s worded like `tokens.ts`
 * words its own.
 */
async function processed(
  check: () => Promise<oauth.TokenEndpointResponse>,
): Promise<TokenResponse> {
  try {
    return (await check()) as TokenResponse
  } catch (error) {
    if (
      error instanceof oauth.OperationProcessingError &&
      (error.code === oauth.JWT_CLAIM_COMPARISON ||
        error.code === oauth.JWT_TIMESTAMP_CHECK)
    ) {
      const { claim } = (error.cause ?? {}) as { claim?: string }
      const detail =
        error.code === oauth.JWT_TIMESTAMP_CHECK && claim === 'exp'
          ? 'token expired'
          : `unexpected "${claim}" claim value`
      throw new PassportError(
        `${invalidIdToken}: ${detail}`,
        PassportErrorType.AUTHENTICATION_ERROR,
        { cause: error },
      )
    }
    throw error
  }
}
