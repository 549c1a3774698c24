import type * as jose from 'jose'
import type { TestProject } from 'vitest/node'
import { startIdentity } from '../../../src/emulator/passport/identity/testkit.js'

/** An OpenID issuer: where its JWKS is served and the key it signs with. */
export type OidcIssuerContext = {
  /** The issuer (`iss` of its tokens). */
  issuer: string
  /** The loopback URL of its JWKS. */
  jwksUri: string
  /** The private key (RS256) that signs the tests' id tokens. */
  privateJwk: jose.JWK
  /** The key's id, in the JWKS and in each token's header. */
  kid: string
}

declare module 'vitest' {
  interface ProvidedContext {
    /** An OpenID issuer for the iframe wallet's OIDC login. */
    oidcIssuer: OidcIssuerContext
  }
}

/**
 * Starts the emulated identity provider (the one test double of an OpenID
 * provider, through its testkit) and provides `oidcIssuer`: the emulated
 * iframe-wallet provider fetches a registered provider's JWKS only from an
 * https or loopback http URL, and the browser signs the tests' tokens with
 * the issuer's key.
 */
export default async function setup(
  project: TestProject,
): Promise<() => Promise<void>> {
  const identity = await startIdentity()
  project.provide('oidcIssuer', {
    issuer: identity.issuer,
    jwksUri: identity.jwksUri,
    privateJwk: identity.signingKey,
    kid: String(identity.signingKey.kid),
  })
  return () => identity.stop()
}
