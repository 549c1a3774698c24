/**
 * How the game wallet's emulated services (platform API, relayer, key
 * custody) check the token a request carries: a JWT signed by the emulated
 * identity provider (RS256, its JWKS), issued by it, unexpired, for the
 * expected audience (`platform_api` for access tokens, the client id for id
 * tokens). As the real platform does, a request without a valid token gets
 * 401 and never reaches the route.
 *
 * @packageDocumentation
 */
import * as jose from 'jose'
import { defaultAudience, paths } from '../../passport/wire/identity.js'
import { tokenCheckTime } from '../clock.js'

/** How many verified tokens a verifier remembers: 1000. */
export const verifiedTokens = 1000

/** What a valid token says. */
export type Bearer = {
  /** The player's id (the registry user id of the identity provider's users). */
  sub: string
  /** Every claim of the token. */
  claims: jose.JWTPayload
  /** The token itself. */
  token: string
}

/** Why a token was refused, in the words of RFC 6750's `error_description`. */
export type Refusal = { ok: false; description: string }

/** Checks bearer tokens issued by one identity provider. */
export type Verifier = (
  authorization: string | null | undefined,
  options?: { audience?: string | undefined },
) => Promise<({ ok: true } & Bearer) | Refusal>

/**
 * Creates a verifier of the identity provider at `issuer` (its origin).
 * Keys are fetched from its JWKS on first use and cached by jose (a key it
 * does not know triggers one refetch, so key rotation works).
 *
 * A token whose signature was verified is remembered (the latest
 * {@link verifiedTokens}, by token and audience): a client sends the same
 * token with every request, three to the relayer for each transaction,
 * and its signature cannot change, while checking it again costs a
 * signature verification each time. Its lifetime is checked on every
 * request all the same, as jose checks it (`exp` passed, `nbf` not yet
 * reached), against the services' clock of that moment.
 *
 * A token's claims are on the wall clock (the identity provider stamps
 * them, and the browser reads them); it lives its lifetime on the services'
 * clock: once the services' time has moved, a token issued before the move
 * is checked that much later.
 *
 * @param options.issuer - The identity provider's origin.
 * @param options.audience - The audience tokens must carry by default. @default 'platform_api'
 * @param options.advancedSince - How far the services' clock has moved
 *   since a wall-clock time in ms (see clock.ts). @default never moved
 */
export function createVerifier(options: {
  issuer: string
  audience?: string | undefined
  advancedSince?: ((at: number) => number) | undefined
}): Verifier {
  const {
    issuer,
    audience: defaultAud = defaultAudience,
    advancedSince = () => 0,
  } = options
  const keys = jose.createRemoteJWKSet(new URL(paths.jwks, issuer), {
    timeoutDuration: 5_000,
  })
  const verified = new Map<string, Bearer>()
  return async (authorization, { audience = defaultAud } = {}) => {
    const match = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(authorization ?? '')
    if (!match) return { ok: false, description: 'A bearer token is required.' }
    const token = match[1]!
    const key = `${audience} ${token}`
    const known = verified.get(key)
    if (known) {
      const now = Math.floor(
        tokenCheckTime(known.claims.iat, advancedSince).getTime() / 1000,
      )
      const { exp, nbf } = known.claims
      if ((exp !== undefined && exp <= now) || (nbf !== undefined && nbf > now))
        return { ok: false, description: 'The token is invalid or expired.' }
      return { ok: true, ...known }
    }
    try {
      const { payload } = await jose.jwtVerify(token, keys, {
        issuer,
        audience,
        algorithms: ['RS256'],
        currentDate: tokenCheckTime(jose.decodeJwt(token).iat, advancedSince),
      })
      if (typeof payload.sub !== 'string' || payload.sub === '')
        return { ok: false, description: 'The token names no subject.' }
      const bearer: Bearer = { sub: payload.sub, claims: payload, token }
      if (verified.size >= verifiedTokens)
        verified.delete(verified.keys().next().value as string)
      verified.set(key, bearer)
      return { ok: true, ...bearer }
    } catch {
      // One sentence whatever failed: the cause is for the provider's logs,
      // not for whoever sent the token.
      return { ok: false, description: 'The token is invalid or expired.' }
    }
  }
}
