/**
 * The claims the emulated identity provider issues about a registry user:
 * `sub` (the registry id), `email`, `email_verified`, `nickname` and the
 * game wallet's `passport` claim, read from the registry at issue time. The
 * claim names and shapes are the game wallet's wire, which the client reads.
 */
import {
  type PassportClaim,
  passportClaim,
  type UserClaims,
} from '../../../passport/wire/claims.js'
import { scopes } from '../../../passport/wire/identity.js'
import type { PassportRegistration, User } from '../../registry/index.js'

/** Which claims each scope releases (oidc-provider's `claims` setting). */
export const claimsByScope = {
  [scopes.openid]: ['sub', passportClaim],
  [scopes.email]: ['email', 'email_verified'],
  [scopes.profile]: ['nickname'],
}

/**
 * Maps a user's registrations to the `passport` claim, leaving out the
 * absent ones.
 *
 * @returns `undefined` when the user has no registration at all.
 */
export function passportClaimOf(
  registration: PassportRegistration,
): PassportClaim | undefined {
  const claim: PassportClaim = {}
  const pairs = [
    ['zkevm_eth_address', registration.zkevmEthAddress],
    ['zkevm_user_admin_address', registration.zkevmUserAdminAddress],
    ['imx_eth_address', registration.imxEthAddress],
    ['imx_stark_address', registration.imxStarkAddress],
    ['imx_user_admin_address', registration.imxUserAdminAddress],
  ] as const
  for (const [name, value] of pairs)
    if (value !== undefined) claim[name] = value
  return Object.keys(claim).length === 0 ? undefined : claim
}

/**
 * The claims of `user` that `granted` scopes release. The nickname is the
 * email's local part, as the real identity provider derives it.
 *
 * @example
 * ```ts
 * userClaims(user, new Set(['openid', 'email', 'profile']))
 * // { sub: 'Xy…', email: 'ada@example.com', email_verified: true, nickname: 'ada' }
 * ```
 */
export function userClaims(
  user: User,
  granted: ReadonlySet<string>,
): UserClaims {
  const claims: UserClaims = { sub: user.id }
  if (granted.has(scopes.email) && user.email !== undefined) {
    claims.email = user.email
    claims.email_verified = true
  }
  if (granted.has(scopes.profile) && user.email !== undefined)
    claims.nickname = user.email.slice(0, user.email.indexOf('@'))
  const passport = passportClaimOf(user.passport)
  if (passport) claims[passportClaim] = passport
  return claims
}
