/**
 * DPoP proofs (RFC 9449) in the form the published SDK makes them: an ES256
 * compact JWS with header `{ typ: 'dpop+jwt', alg: 'ES256', jwk }` and
 * claims `{ iat, jti }`, signed with a WebCrypto P-256 device key.
 */

/** A device key that signs proofs. */
export type DpopKey = {
  /** The public JWK that goes in each proof's header. */
  readonly jwk: JsonWebKey
  /** A fresh proof (new `iat` and `jti`). */
  proof(): Promise<string>
}

/** Creates a device key pair (non-extractable private key). */
export async function createDpopKey(): Promise<DpopKey> {
  const { privateKey, publicKey } = await crypto.subtle.generateKey(
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign', 'verify'],
  )
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', publicKey)
  const jwk = { kty, crv, x, y } as JsonWebKey
  return {
    jwk,
    async proof() {
      const header = { typ: 'dpop+jwt', alg: 'ES256', jwk }
      const claims = {
        iat: Math.floor(Date.now() / 1000),
        jti: crypto.randomUUID(),
      }
      const input = `${base64url(json(header))}.${base64url(json(claims))}`
      const signature = await crypto.subtle.sign(
        { name: 'ECDSA', hash: 'SHA-256' },
        privateKey,
        new TextEncoder().encode(input),
      )
      return `${input}.${base64url(new Uint8Array(signature))}`
    },
  }
}

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value))
}

function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
