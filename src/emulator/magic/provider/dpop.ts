/**
 * DPoP proof verification: the published SDK sends, with each request, a
 * compact JWS with header `{ typ: 'dpop+jwt', alg: 'ES256', jwk }` (an EC
 * P-256 public key) and claims `{ iat, jti }`, signed by the device key
 * (the proof of possession of RFC 9449, without its `htm`/`htu` claims).
 */
import * as jose from 'jose'
import { cap, maxSeenProofs, sweep } from './bounds.js'
import { failures } from './errors.js'

/** How far in the past `iat` may be, in seconds: 5 minutes. */
export const maxSkew = 300

/**
 * How far in the future `iat` may be, in seconds: 60, a small clock skew
 * between the device and the emulator. A proof dated further ahead would
 * stay valid (and replayable once forgotten) for longer than its window;
 * RFC 9449 asks servers to accept only a reasonable window around now.
 */
export const maxFutureSkew = 60

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
 * A proof's `iat` is the device's time. When a test moves the services'
 * clock, the browser's may stay behind (or be moved along, as Playwright's
 * `page.clock` does), so a proof is fresh within the window around either
 * clock; ids are remembered on the device's clock, which both windows
 * share.
 *
 * @param options.now - The services' clock. @default () => new Date()
 * @param options.deviceNow - The devices' clock, which time travel does
 *   not move. @default options.now
 */
export function createVerifier(
  options: {
    now?: (() => Date) | undefined
    deviceNow?: (() => Date) | undefined
  } = {},
): Verifier {
  const { now = () => new Date(), deviceNow = now } = options
  const seen = new Map<string, number>()

  return {
    async verify(proof) {
      const servicesSeconds = Math.floor(now().getTime() / 1000)
      const deviceSeconds = Math.floor(deviceNow().getTime() / 1000)
      // Ids are remembered until their proof's window ends. Proofs arrive
      // roughly in `iat` order, so the oldest entries end first.
      sweep(
        seen,
        (expires) => expires < Math.min(servicesSeconds, deviceSeconds),
      )

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

      let payload: unknown
      try {
        const key = await jose.importJWK(
          { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
          'ES256',
        )
        const result = await jose.compactVerify(proof, key)
        payload = JSON.parse(new TextDecoder().decode(result.payload))
      } catch {
        throw failures.dpop('the signature does not verify.')
      }
      const { iat, jti } = (
        typeof payload === 'object' && payload !== null ? payload : {}
      ) as jose.JWTPayload
      if (typeof iat !== 'number')
        throw failures.dpop('iat is missing or more than 5 minutes off.')
      // The clock the proof is read against: the device's, unless the
      // proof is dated on the services' (a browser moved with them).
      const nowSeconds =
        Math.abs(iat - servicesSeconds) < Math.abs(iat - deviceSeconds)
          ? servicesSeconds
          : deviceSeconds
      if (nowSeconds - iat > maxSkew)
        throw failures.dpop('iat is missing or more than 5 minutes off.')
      if (iat - nowSeconds > maxFutureSkew)
        throw failures.dpop('iat is more than 60 seconds in the future.')
      if (typeof jti !== 'string' || jti === '')
        throw failures.dpop('jti is missing.')
      if (seen.has(jti)) throw failures.dpop('jti was already used.')
      seen.set(jti, iat + maxSkew)
      cap(seen, maxSeenProofs)
      return jose.calculateJwkThumbprint(
        { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
        'sha256',
      )
    },
  }
}
