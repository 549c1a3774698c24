/**
 * Where the identity provider is: the issuer URL from the authentication
 * domain, the loopback-HTTP exception for the local emulator, and the
 * published SDK's fixed endpoint paths (its alternative to discovery).
 */
import type * as oauth from 'oauth4webapi'
import { paths } from '../wire/identity.js'

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
export function endpoint(
  as: oauth.AuthorizationServer,
  name: 'authorization_endpoint',
): string {
  const value = as[name]
  if (!value) throw new Error(`The identity provider has no ${name}`)
  return value
}
