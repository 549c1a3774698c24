/**
 * DPoP proof verification (magic.md §4): a compact JWS with header
 * `{ typ: 'dpop+jwt', alg: 'ES256', jwk }` (an EC P-256 public key) and
 * claims `{ iat, jti }`, signed by the device key.
 */
import * as jose from 'jose'
import { failures } from './errors.js'

/** How far `iat` may be from now, in seconds. */
export const maxSkew = 300

/** Verifies proofs and remembers seen `jti`s until they expire. */
export type Verifier = {
  /**
   * Verifies a proof.
   *
   * @returns The RFC 7638 thumbprint (`jkt`) of the proof's key.
   * @throws {RpcFailure} -10019 with the reason, on any failure.
   */
  verify(proof: string): Promise<string>
}

/**
 * Creates a DPoP verifier with its own replay cache.
 *
 * @param options.now - The clock. @default () => new Date()
 */
export function createVerifier(
  options: { now?: (() => Date) | undefined } = {},
): Verifier {
  const { now = () => new Date() } = options
  const seen = new Map<string, number>()

  return {
    async verify(proof) {
      const nowSeconds = Math.floor(now().getTime() / 1000)
      for (const [jti, expires] of seen)
        if (expires < nowSeconds) seen.delete(jti)

      let header: jose.ProtectedHeaderParameters
      try {
        header = jose.decodeProtectedHeader(proof)
      } catch {
        throw failures.dpop('not a compact JWS.')
      }
      if (header.typ !== 'dpop+jwt')
        throw failures.dpop('the header typ is not dpop+jwt.')
      if (header.alg !== 'ES256')
        throw failures.dpop('the header alg is not ES256.')
      const jwk = header.jwk
      if (
        jwk?.kty !== 'EC' ||
        jwk.crv !== 'P-256' ||
        typeof jwk.x !== 'string' ||
        typeof jwk.y !== 'string' ||
        'd' in jwk
      )
        throw failures.dpop('the header jwk is not an EC P-256 public key.')

      let payload: jose.JWTPayload
      try {
        const key = await jose.importJWK(
          { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
          'ES256',
        )
        ;({ payload } = await jose.compactVerify(proof, key).then((result) => ({
          payload: JSON.parse(
            new TextDecoder().decode(result.payload),
          ) as jose.JWTPayload,
        })))
      } catch {
        throw failures.dpop('the signature does not verify.')
      }
      const { iat, jti } = payload
      if (typeof iat !== 'number' || Math.abs(iat - nowSeconds) > maxSkew)
        throw failures.dpop('iat is missing or more than 5 minutes off.')
      if (typeof jti !== 'string' || jti === '')
        throw failures.dpop('jti is missing.')
      if (seen.has(jti)) throw failures.dpop('jti was already used.')
      seen.set(jti, iat + maxSkew)
      return jose.calculateJwkThumbprint(
        { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
        'sha256',
      )
    },
  }
}
