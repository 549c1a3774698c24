/**
 * ID-token verification with `jose` against the identity provider's JWKS:
 * signature, `iss`, `aud` (the client id), `exp` and, when one was sent,
 * `nonce`. Anything else is refused with an `AUTHENTICATION_ERROR`. The
 * JWKS is fetched lazily (and cached by jose), through the core fetch helper
 * over an injectable `fetch`.
 */
import {
  createRemoteJWKSet,
  customFetch,
  type FetchImplementation,
  jwtVerify,
} from 'jose'
import * as Http from '../../core/Http.js'
import { PassportError, PassportErrorType } from '../errors.js'
import type { IdTokenPayload } from './user.js'

/** Verifies id tokens of one issuer and client. */
export type Verifier = {
  /**
   * Verifies `idToken` and returns its claims.
   * @throws {PassportError} `AUTHENTICATION_ERROR` naming the failed check.
   */
  verify(
    idToken: string,
    options?: { nonce?: string | undefined } | undefined,
  ): Promise<IdTokenPayload>
}

/** Prefix of every verification failure's message. */
export const invalidIdToken = 'Invalid ID token'

/**
 * Creates an id-token verifier.
 *
 * @example
 * ```ts
 * const verifier = createVerifier({
 *   issuer: 'https://auth.immutable.com/',
 *   clientId: 'client',
 *   jwksUri: 'https://auth.immutable.com/.well-known/jwks.json',
 * })
 * const claims = await verifier.verify(idToken, { nonce })
 * ```
 */
export function createVerifier(options: createVerifier.Options): Verifier {
  const {
    issuer,
    clientId,
    jwksUri,
    fetch,
    now = Date.now,
    clockToleranceSeconds = 0,
    algorithms = ['RS256', 'ES256', 'PS256', 'EdDSA'],
  } = options
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined
  const keys = () => {
    // Through the core fetch helper (a 429 is sent again in its throttle
    // slots); jose's own time-out aborts it, and its refetch cool-down acts
    // on what the helper returns.
    jwks ??= createRemoteJWKSet(new URL(jwksUri), {
      [customFetch]: Http.fetcher(
        fetch ? { fetch } : {},
      ) satisfies FetchImplementation,
    })
    return jwks
  }

  return {
    async verify(idToken, verifyOptions = {}) {
      let payload: IdTokenPayload
      try {
        ;({ payload } = (await jwtVerify(idToken, keys(), {
          issuer,
          audience: clientId,
          algorithms,
          currentDate: new Date(now()),
          clockTolerance: clockToleranceSeconds,
          requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
        })) as unknown as { payload: IdTokenPayload })
      } catch (error) {
        throw refuse(reason(error), error)
      }
      const { nonce } = verifyOptions
      if (nonce !== undefined && payload.nonce !== nonce)
        throw refuse('unexpected "nonce" claim value')
      return payload
    },
  }
}

export declare namespace createVerifier {
  type Options = {
    /** The expected `iss`, exactly as the provider writes it. */
    issuer: string
    /** The expected `aud`: the OAuth client id. */
    clientId: string
    /** The provider's `jwks_uri`. */
    jwksUri: string | URL
    /** The fetch under the core fetch helper for the JWKS (tests answer it locally). */
    fetch?: typeof globalThis.fetch | undefined
    /** Clock in ms. @default Date.now */
    now?: (() => number) | undefined
    /** Allowed clock skew for `exp`/`nbf`/`iat`. @default 0 */
    clockToleranceSeconds?: number | undefined
    /** Accepted signature algorithms. @default RS256, ES256, PS256, EdDSA */
    algorithms?: string[] | undefined
  }
}

function refuse(detail: string, cause?: unknown) {
  return new PassportError(
    `${invalidIdToken}: ${detail}`,
    PassportErrorType.AUTHENTICATION_ERROR,
    cause === undefined ? undefined : { cause },
  )
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  switch ((error as { code?: string }).code) {
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'signature verification failed'
    case 'ERR_JWT_EXPIRED':
      return 'token expired'
    default:
      return error.message
  }
}
