/**
 * The OIDC client the oidc tests build over the fake identity provider,
 * with the published defaults (scope, audience) and a logout page.
 */
import { create } from '../oidc.js'
import { clientId, type Idp, redirectUri } from './idp.js'

/** A client of `idp`; `overrides` replace any option. */
export function createTestClient(
  idp: Idp,
  overrides: Partial<Parameters<typeof create>[0]> = {},
) {
  return create({
    authenticationDomain: 'https://auth.immutable.com',
    clientId,
    redirectUri,
    scope: 'openid profile email offline_access transact',
    audience: 'platform_api',
    logoutRedirectUri: 'https://game.example/logged-out',
    fetch: idp.fetch,
    ...overrides,
  })
}
