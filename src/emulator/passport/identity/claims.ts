/**
 * The claims the emulated identity provider issues about a registry user:
 * `sub` (the registry id), `email`, `email_verified`, `nickname` and the
 * game wallet's `passport` section, read from the registry at issue time.
 */
import type { PassportRegistration, User } from '../../registry/index.js'

/** The `passport` claim: only the registrations that exist. */
export type PassportClaim = {
  zkevm_eth_address?: string
  zkevm_user_admin_address?: string
  imx_eth_address?: string
  imx_stark_address?: string
  imx_user_admin_address?: string
}

/** The user claims in id tokens and userinfo responses. */
export type UserClaims = {
  sub: string
  email?: string
  email_verified?: boolean
  nickname?: string
  passport?: PassportClaim
}

/** Which claims each scope releases (oidc-provider's `claims` setting). */
export const claimsByScope = {
  openid: ['sub', 'passport'],
  email: ['email', 'email_verified'],
  profile: ['nickname'],
}

/**
 * Maps a user's registrations to the `passport` claim, leaving out the
 * absent ones.
 *
 * @returns `undefined` when the user has no registration at all.
 */
export function passportClaim(
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
 * The claims of `user` that `scopes` release. The nickname is the email's
 * local part, as the real identity provider derives it.
 *
 * @example
 * ```ts
 * userClaims(user, new Set(['openid', 'email', 'profile']))
 * // { sub: 'Xy…', email: 'ada@example.com', email_verified: true, nickname: 'ada' }
 * ```
 */
export function userClaims(
  user: User,
  scopes: ReadonlySet<string>,
): UserClaims {
  const claims: UserClaims = { sub: user.id }
  if (scopes.has('email') && user.email !== undefined) {
    claims.email = user.email
    claims.email_verified = true
  }
  if (scopes.has('profile') && user.email !== undefined)
    claims.nickname = user.email.slice(0, user.email.indexOf('@'))
  const passport = passportClaim(user.passport)
  if (passport) claims.passport = passport
  return claims
}
