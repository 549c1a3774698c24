/**
 * The OIDC providers whose id tokens `magic_auth_login_with_oidc` accepts:
 * how one is registered, and how its keys (JWKS) are fetched.
 *
 * A registered provider decides which users its tokens log in (the user is
 * keyed by issuer and subject), so a provider id, once registered, keeps its
 * settings: registering it again with other keys would let anyone mint
 * tokens for an existing user. Its JWKS is fetched from an `https:` URL or a
 * loopback `http:` one, and a fetch that fails says the same sentence
 * whatever the cause, so a page cannot use the emulator to learn which
 * local ports answer.
 *
 * @packageDocumentation
 */
import * as jose from 'jose'
import { isLoopbackUrl } from '../../loopback.js'
import type { Deps, OidcProvider } from './context.js'

/**
 * Providers the service holds at most: 1,000. A developer registers one or
 * two, a test suite one per test. A full registry refuses new ids rather
 * than forgetting old ones: a forgotten id could be registered again with
 * other keys.
 */
export const maxOidcProviders = 1_000

/** The longest `providerId`, `issuer`, `jwksUri` or `audience`: 2,048. */
export const maxOidcFieldLength = 2048

/**
 * The largest JWKS read: 256 KiB. A key set holds a few keys of a few
 * hundred bytes each.
 */
export const maxJwksBytes = 256 * 1024

/** How long a JWKS fetch may take: 5 s. */
export const jwksTimeout = 5_000

/** The one sentence every failed JWKS fetch gives, whatever its cause. */
export const jwksUnavailable =
  "The OIDC token was refused: the provider's keys could not be fetched."

/** What registering a provider did. */
export type Registration =
  | { ok: true; provider: OidcProvider & { providerId: string } }
  | { ok: false; status: 400 | 409; error: string }

/**
 * Registers `providerId` (the `POST /dev/oidc-providers` body). An id that
 * exists is accepted again only with the same `issuer`, `jwksUri` and
 * `audience` (nothing changes); otherwise 409.
 *
 * @param deps - The service's state.
 * @param body - The parsed request body, any JSON value.
 */
export function registerOidcProvider(deps: Deps, body: unknown): Registration {
  const refuse = (status: 400 | 409, error: string): Registration => ({
    ok: false,
    status,
    error,
  })
  const { providerId, issuer, jwksUri, audience } = (
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? body
      : {}
  ) as Record<string, unknown>
  if (
    typeof providerId !== 'string' ||
    typeof issuer !== 'string' ||
    typeof jwksUri !== 'string' ||
    (audience !== undefined && typeof audience !== 'string')
  )
    return refuse(
      400,
      'Expected { providerId, issuer, jwksUri, audience? } (strings).',
    )
  if (
    [providerId, issuer, jwksUri, audience ?? ''].some(
      (field) => field.length > maxOidcFieldLength,
    )
  )
    return refuse(
      400,
      `providerId, issuer, jwksUri and audience are at most ${maxOidcFieldLength} characters.`,
    )
  if (!isJwksUri(jwksUri))
    return refuse(
      400,
      'jwksUri must be an https: URL, or an http: URL on a loopback host.',
    )
  const provider = { issuer, jwksUri, audience }
  const existing = deps.oidcProviders.get(providerId)
  if (existing) {
    if (
      existing.issuer === issuer &&
      existing.jwksUri === jwksUri &&
      existing.audience === audience
    )
      return { ok: true, provider: { providerId, ...provider } }
    return refuse(
      409,
      'This providerId is registered already, with another issuer, jwksUri or audience.',
    )
  }
  if (deps.oidcProviders.size >= maxOidcProviders)
    return refuse(
      409,
      `The emulator holds ${maxOidcProviders} OIDC providers, its most; restart it to register others.`,
    )
  deps.oidcProviders.set(providerId, provider)
  return { ok: true, provider: { providerId, ...provider } }
}

/**
 * Whether `value` may be a provider's `jwksUri`: an absolute `https:` URL
 * without credentials, or a loopback `http:` URL (the developer's own test
 * identity provider).
 */
export function isJwksUri(value: string): boolean {
  if (isLoopbackUrl(value)) return true
  const url = URL.parse(value)
  return (
    url !== null &&
    url.protocol === 'https:' &&
    url.username === '' &&
    url.password === ''
  )
}

/** Thrown when a provider's JWKS cannot be had, whatever the cause. */
export class JwksUnavailableError extends Error {
  override readonly name = 'JwksUnavailableError'
  constructor() {
    super(jwksUnavailable)
  }
}

/**
 * The key set of `provider` for `jose.jwtVerify`: fetched on first use,
 * kept 10 minutes, fetched again (at most every 30 s) when a token names a
 * key it lacks (jose's remote key set). One per `jwksUri` and service, so
 * the cache holds at most one entry per registered provider.
 *
 * @throws {JwksUnavailableError} (from the returned function) when the
 *   fetch fails, answers anything but 200, is larger than
 *   {@link maxJwksBytes}, or is not a JSON key set.
 */
export function keysOf(
  deps: Deps,
  provider: OidcProvider,
): jose.JWTVerifyGetKey {
  let keys = deps.jwks.get(provider.jwksUri)
  if (!keys) {
    keys = jose.createRemoteJWKSet(new URL(provider.jwksUri), {
      timeoutDuration: jwksTimeout,
      [jose.customFetch]: fetchJwks,
    })
    deps.jwks.set(provider.jwksUri, keys)
  }
  return keys
}

/**
 * Fetches a JWKS for jose, checking everything jose would and failing
 * with one error whatever went wrong: no redirect is followed, the answer
 * must be 200, at most {@link maxJwksBytes} and a JSON `{ keys: [...] }`.
 *
 * @throws {JwksUnavailableError} On any failure, the time-out of
 *   `init.signal` included.
 */
export async function fetchJwks(
  url: string,
  init: Parameters<
    NonNullable<jose.RemoteJWKSetOptions[typeof jose.customFetch]>
  >[1],
): Promise<Response> {
  try {
    const response = await fetch(url, { ...init, redirect: 'manual' })
    if (response.status !== 200 || !response.body)
      throw new JwksUnavailableError()
    const text = await readAtMost(response.body, maxJwksBytes)
    const json: unknown = JSON.parse(text)
    const keys = (json as { keys?: unknown } | null)?.keys
    if (
      !Array.isArray(keys) ||
      !keys.every((key) => typeof key === 'object' && key !== null)
    )
      throw new JwksUnavailableError()
    return new Response(text, {
      status: 200,
      headers: { 'content-type': 'application/json' },
    })
  } catch {
    throw new JwksUnavailableError()
  }
}

/** The stream as UTF-8 text; throws past `limit` bytes. */
async function readAtMost(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<string> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw new JwksUnavailableError()
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}
