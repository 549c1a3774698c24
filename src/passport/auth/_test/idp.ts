/**
 * A local stand-in of the identity provider for unit tests: jose-generated
 * keys, signed tokens, and a `fetch` that answers discovery, JWKS, token,
 * device-authorization and revocation requests with RFC-shaped JSON and
 * records every request.
 */
import { exportJWK, generateKeyPair, SignJWT } from 'jose'

export const base = 'https://auth.immutable.com'
/** Auth0 writes its issuer with a trailing slash. */
export const issuer = 'https://auth.immutable.com/'
export const clientId = 'test-client-id'
export const redirectUri = 'https://game.example/callback'

/** One request the fake provider received. */
export type Recorded = {
  method: string
  url: string
  headers: Record<string, string>
  body: URLSearchParams | undefined
  /** `Date.now()` when it arrived (fake timers move it). */
  at: number
}

type Handler = (body: URLSearchParams) => Response | Promise<Response>

/** A JSON response as the provider sends it. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    },
  })
}

/** RSA keys are slow to make: one pair (and one stranger) per test file. */
let keys: Promise<[CryptoKeyPair, CryptoKeyPair]> | undefined

/** Creates the fake provider. */
export async function createIdp(
  options: { base?: string; issuer?: string } = {},
) {
  const root = options.base ?? base
  const iss = options.issuer ?? issuer
  keys ??= Promise.all([
    generateKeyPair('RS256', { extractable: true }),
    generateKeyPair('RS256'),
  ])
  const [{ privateKey, publicKey }, other] = await keys
  const jwk = {
    ...(await exportJWK(publicKey)),
    kid: 'key-1',
    alg: 'RS256',
    use: 'sig',
  }
  const metadata = {
    issuer: iss,
    authorization_endpoint: `${root}/authorize`,
    token_endpoint: `${root}/oauth/token`,
    device_authorization_endpoint: `${root}/oauth/device/code`,
    userinfo_endpoint: `${root}/userinfo`,
    jwks_uri: `${root}/.well-known/jwks.json`,
    revocation_endpoint: `${root}/oauth/revoke`,
    end_session_endpoint: `${root}/oidc/logout`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256', 'plain'],
    id_token_signing_alg_values_supported: ['HS256', 'RS256', 'PS256'],
    subject_types_supported: ['public'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
  }
  const requests: Recorded[] = []
  const handlers: Record<'token' | 'device' | 'revoke', Handler[]> = {
    token: [],
    device: [],
    revoke: [],
  }
  const fallback: Record<'token' | 'device' | 'revoke', Handler> = {
    token: async () => json(200, await tokenResponse()),
    device: () => json(200, deviceResponse()),
    revoke: () => new Response(null, { status: 200 }),
  }
  const route = (kind: keyof typeof handlers, body: URLSearchParams) =>
    (handlers[kind].shift() ?? fallback[kind])(body)

  const now = () => Math.floor(Date.now() / 1000)

  /** A signed id token; `sign: 'other'` signs with a key not in the JWKS. */
  async function idToken(
    claims: Record<string, unknown> = {},
    { sign = 'own' }: { sign?: 'own' | 'other' } = {},
  ) {
    return new SignJWT({
      iss: iss,
      sub: 'email|user-1',
      aud: clientId,
      iat: now(),
      exp: now() + 86_400,
      email: 'player@example.com',
      nickname: 'player',
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'key-1', typ: 'JWT' })
      .sign(sign === 'own' ? privateKey : other.privateKey)
  }

  /** A signed access token for the platform API. */
  async function accessToken(claims: Record<string, unknown> = {}) {
    return new SignJWT({
      iss: iss,
      sub: 'email|user-1',
      aud: ['platform_api', `${iss}userinfo`],
      iat: now(),
      exp: now() + 86_400,
      scope: 'openid profile email offline_access transact',
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'key-1', typ: 'at+jwt' })
      .sign(privateKey)
  }

  /** A token-endpoint success body (RFC 6749, section 5.1). */
  async function tokenResponse(
    overrides: {
      idClaims?: Record<string, unknown>
      accessClaims?: Record<string, unknown>
      [field: string]: unknown
    } = {},
  ) {
    const { idClaims, accessClaims, ...fields } = overrides
    return {
      access_token: await accessToken(accessClaims),
      id_token: await idToken(idClaims),
      refresh_token: 'refresh-token-2',
      scope: 'openid profile email offline_access transact',
      expires_in: 86_400,
      token_type: 'Bearer',
      ...fields,
    }
  }

  /** A device-authorization body (RFC 8628, section 3.2). */
  function deviceResponse() {
    return {
      device_code: 'device-code-1',
      user_code: 'ABCD-EFGH',
      verification_uri: `${root}/activate`,
      verification_uri_complete: `${root}/activate?user_code=ABCD-EFGH`,
      expires_in: 900,
      interval: 5,
    }
  }

  const fetch = async (
    input: string | URL | Request,
    init: RequestInit = {},
  ): Promise<Response> => {
    const url = typeof input === 'string' ? input : input.toString()
    const headers = Object.fromEntries(new Headers(init.headers).entries())
    const body =
      init.body instanceof URLSearchParams
        ? new URLSearchParams(init.body)
        : typeof init.body === 'string'
          ? new URLSearchParams(init.body)
          : undefined
    requests.push({
      method: init.method ?? 'GET',
      url,
      headers,
      body,
      at: Date.now(),
    })
    const path = url.startsWith(root) ? url.slice(root.length) : url
    switch (path) {
      case '/.well-known/openid-configuration':
        return json(200, metadata)
      case '/.well-known/jwks.json':
        return json(200, { keys: [jwk] })
      case '/oauth/token':
        return route('token', body ?? new URLSearchParams())
      case '/oauth/device/code':
        return route('device', body ?? new URLSearchParams())
      case '/oauth/revoke':
        return route('revoke', body ?? new URLSearchParams())
      default:
        return json(404, { error: 'not_found' })
    }
  }

  return {
    base: root,
    issuer: iss,
    metadata,
    requests,
    /** Queues answers of the token endpoint (then the default success). */
    onToken: (...answers: Handler[]) => handlers.token.push(...answers),
    onDevice: (...answers: Handler[]) => handlers.device.push(...answers),
    onRevoke: (...answers: Handler[]) => handlers.revoke.push(...answers),
    /** Requests to `path` on the provider. */
    to: (path: string) => requests.filter((r) => r.url === `${root}${path}`),
    fetch: fetch as typeof globalThis.fetch,
    idToken,
    accessToken,
    tokenResponse,
    deviceResponse,
  }
}

export type Idp = Awaited<ReturnType<typeof createIdp>>
