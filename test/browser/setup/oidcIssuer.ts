import { Hono } from 'hono'
import * as jose from 'jose'
import type { TestProject } from 'vitest/node'
import { findFreePort } from '../../../src/emulator/net.js'
import { startServer } from '../../../src/emulator/server.js'

/** An OpenID issuer's signing key and where its JWKS is served. */
export type OidcIssuerContext = {
  /** The loopback URL of its JWKS (`{ keys: [public key] }`). */
  jwksUri: string
  /** The private key (ES256) that signs the tests' id tokens. */
  privateJwk: jose.JWK
  /** The key's id, in the JWKS and in each token's header. */
  kid: string
}

declare module 'vitest' {
  interface ProvidedContext {
    /** A test OpenID issuer for the iframe wallet's OIDC login. */
    oidcIssuer: OidcIssuerContext
  }
}

/**
 * Serves the JWKS of a fresh ES256 key on a loopback port and provides
 * `oidcIssuer`. The emulated provider fetches a registered provider's JWKS
 * only from an https or loopback http URL, so the browser tests' issuer
 * needs one; the browser signs its tokens with the private key.
 */
export default async function setup(
  project: TestProject,
): Promise<() => Promise<void>> {
  const kid = crypto.randomUUID()
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', {
    extractable: true,
  })
  const jwk = { ...(await jose.exportJWK(publicKey)), kid, alg: 'ES256' }
  const app = new Hono().get('/jwks.json', (c) => c.json({ keys: [jwk] }))
  const server = await startServer({
    fetch: app.fetch,
    port: await findFreePort(),
    name: 'oidc issuer',
  })
  project.provide('oidcIssuer', {
    jwksUri: `${server.url}/jwks.json`,
    privateJwk: await jose.exportJWK(privateKey),
    kid,
  })
  return () => server.stop()
}
