/**
 * Who holds a game-wallet player's signing key. The identity provider's
 * players are registry users keyed by email; the key that signs for a
 * player's smart-contract wallet belongs to another registry user, keyed by
 * the OIDC identity (the identity provider's issuer and the player's
 * `sub`). The key-custody API (the TEE) and the iframe wallet's OIDC login
 * (`magic_auth_login_with_oidc` with the player's id token) both look that
 * user up, so they see one key, as the published SDK's custody provider
 * does for an id token of a registered OIDC provider.
 *
 * @packageDocumentation
 */
import type { Identity, Registry, User } from '../registry/index.js'

export { passportOidcProviderId } from '../constants.js'

/**
 * The registry identity of a player's custody key.
 *
 * @param issuer - The identity provider's origin (its tokens' `iss`).
 * @param sub - The player's id (its tokens' `sub`).
 */
export function custodyIdentity(issuer: string, sub: string): Identity {
  return { oidc: { issuer, subject: sub } }
}

/** The custody user of a player, if the key was created already. */
export function findCustody(
  registry: Registry,
  issuer: string,
  sub: string,
): User | undefined {
  return registry.find(custodyIdentity(issuer, sub))
}
