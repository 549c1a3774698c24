/**
 * The user claims of the game wallet's id tokens (and of its UserInfo
 * answers): the OpenID Connect standard ones the SDK reads, and `passport`,
 * which carries the addresses of the player's wallets. The client reads
 * these (`auth/user.ts`) and the emulated provider issues them. A leaf: it
 * imports nothing.
 */

/** The name of the claim holding the wallet addresses. */
export const passportClaim = 'passport'

/**
 * The `passport` claim. Each address is present only once that wallet is
 * registered: the zkEVM pair (the smart-contract wallet and the key that
 * administers it) together, the three StarkEx fields together.
 */
export type PassportClaim = {
  /** The zkEVM smart-contract wallet. */
  zkevm_eth_address?: string | undefined
  /** The key that administers the zkEVM wallet. */
  zkevm_user_admin_address?: string | undefined
  /** The StarkEx (Immutable X) Ethereum address. */
  imx_eth_address?: string | undefined
  /** The StarkEx (Immutable X) Stark key. */
  imx_stark_address?: string | undefined
  /** The key that administers the StarkEx account. */
  imx_user_admin_address?: string | undefined
}

/** The user claims, each present when its scope was granted. */
export type UserClaims = {
  /** The player's id at the provider. */
  sub: string
  /** With scope `email`. */
  email?: string | undefined
  /** With scope `email`. */
  email_verified?: boolean | undefined
  /** With scope `profile`. */
  nickname?: string | undefined
  /** Not an OpenID Connect claim; present for some players. */
  username?: string | undefined
  [passportClaim]?: PassportClaim | undefined
}
