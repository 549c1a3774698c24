/**
 * The signed-in user: built from a token response, persisted in
 * the shape oidc-client-ts stores under `oidc.user:<authority>:<client_id>`
 * (so a session survives a switch from the published SDK), and mapped to the
 * published `User` domain model with its `imx` / `zkEvm` chain accounts read
 * from the id token's `passport` claim.
 */
import { decodeJwt } from 'jose'
import type * as Storage from '../../core/Storage.js'
import {
  type PassportClaim,
  passportClaim,
  type UserClaims,
} from '../wire/claims.js'
import { storageKey } from './sessionMarker.js'

/** The published `UserProfile`. */
export type UserProfile = {
  /** The passport id. */
  sub: string
  email?: string | undefined
  nickname?: string | undefined
  username?: string | undefined
}

/** The published `User` domain model. */
export type User = {
  expired?: boolean | undefined
  idToken?: string | undefined
  accessToken: string
  refreshToken?: string | undefined
  profile: UserProfile
  /** Present only when registered on StarkEx. */
  imx?:
    | { ethAddress: string; starkAddress: string; userAdminAddress: string }
    | undefined
  /** Present only when the zkEVM wallet exists (both claims set). */
  zkEvm?: { ethAddress: string; userAdminAddress: string } | undefined
}

/** A user registered on zkEVM. */
export type UserZkEvm = User & { zkEvm: NonNullable<User['zkEvm']> }
/** A user registered on StarkEx. */
export type UserImx = User & { imx: NonNullable<User['imx']> }

/** The id token's `passport` claim (the published name of its type). */
export type PassportMetadata = PassportClaim

/** The id-token claims the SDK reads. */
export type IdTokenPayload = UserClaims & {
  iss: string
  aud: string | string[]
  exp: number
  iat: number
  nonce?: string | undefined
  [claim: string]: unknown
}

/** A token-endpoint response (RFC 6749, section 5.1, plus the OIDC `id_token`). */
export type TokenResponse = {
  access_token: string
  token_type: string
  id_token?: string | undefined
  refresh_token?: string | undefined
  expires_in?: number | undefined
  scope?: string | undefined
}

/** The persisted user: the JSON oidc-client-ts `User.toStorageString` writes. */
export type StoredUser = {
  id_token?: string | undefined
  session_state: string | null
  access_token: string
  refresh_token?: string | undefined
  token_type: string
  scope?: string | undefined
  profile: { sub: string; [claim: string]: unknown }
  /** Seconds since the epoch. */
  expires_at?: number | undefined
}

/**
 * Minimum remaining life of valid tokens, in seconds: an hour, the margin of
 * the published SDK's credential check (`areValid`). A token that runs out
 * sooner is refreshed before use rather than sent.
 */
export const validityBufferSeconds = 3600

/** Claims oidc-client-ts drops from the stored profile by default. */
const protocolClaims = [
  'nbf',
  'jti',
  'auth_time',
  'nonce',
  'acr',
  'amr',
  'azp',
  'at_hash',
]

export { storageKey } from './sessionMarker.js'

/**
 * Builds the persisted user from a token response. A refresh response may
 * omit the id token or refresh token: those of `previous` are kept, as
 * oidc-client-ts does.
 *
 * @example
 * ```ts
 * const stored = fromTokenResponse(response, { now: Date.now() })
 * ```
 */
export function fromTokenResponse(
  response: TokenResponse,
  options: { now: number; previous?: StoredUser | null | undefined },
): StoredUser {
  const { now, previous } = options
  const idToken = response.id_token ?? previous?.id_token
  const refreshToken = response.refresh_token ?? previous?.refresh_token
  const claims = response.id_token ? decodeJwt(response.id_token) : undefined
  const profile = claims
    ? (Object.fromEntries(
        Object.entries(claims).filter(([key]) => !protocolClaims.includes(key)),
      ) as StoredUser['profile'])
    : (previous?.profile ?? { sub: '' })
  return {
    ...(idToken ? { id_token: idToken } : {}),
    session_state: null,
    access_token: response.access_token,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    token_type: response.token_type,
    ...(response.scope ? { scope: response.scope } : {}),
    profile,
    ...(response.expires_in !== undefined
      ? { expires_at: Math.floor(now / 1000) + response.expires_in }
      : {}),
  }
}

/**
 * Maps the persisted user to the published `User`: `expired` from
 * `expires_at`; `imx` only when the three StarkEx claims are set; `zkEvm`
 * only when both `zkevm_eth_address` and `zkevm_user_admin_address` are.
 */
export function toUser(stored: StoredUser, options: { now: number }): User {
  const passport = stored.id_token
    ? decodePayload(stored.id_token)?.[passportClaim]
    : undefined
  const { email, nickname, username } = stored.profile as UserProfile
  const user: User = {
    expired:
      stored.expires_at === undefined
        ? undefined
        : stored.expires_at <= Math.floor(options.now / 1000),
    idToken: stored.id_token,
    accessToken: stored.access_token,
    refreshToken: stored.refresh_token,
    profile: {
      sub: stored.profile.sub,
      email,
      nickname,
      ...(username ? { username } : {}),
    },
  }
  if (
    passport?.imx_eth_address &&
    passport.imx_stark_address &&
    passport.imx_user_admin_address
  )
    user.imx = {
      ethAddress: passport.imx_eth_address,
      starkAddress: passport.imx_stark_address,
      userAdminAddress: passport.imx_user_admin_address,
    }
  if (passport?.zkevm_eth_address && passport.zkevm_user_admin_address)
    user.zkEvm = {
      ethAddress: passport.zkevm_eth_address,
      userAdminAddress: passport.zkevm_user_admin_address,
    }
  return user
}

/** The payload of a JWT, or `undefined` when it cannot be decoded. */
export function decodePayload(jwt: string): IdTokenPayload | undefined {
  try {
    return decodeJwt(jwt) as IdTokenPayload
  } catch {
    return undefined
  }
}

/**
 * Whether a JWT expires more than `bufferSeconds` after `now` (ms). A token
 * without `exp`, or one that cannot be decoded, is not valid.
 */
export function isJwtValid(
  jwt: string | undefined,
  options: { now: number; bufferSeconds: number },
): boolean {
  const exp = jwt ? decodePayload(jwt)?.exp : undefined
  return (
    typeof exp === 'number' && exp > options.now / 1000 + options.bufferSeconds
  )
}

/**
 * Whether both the access token and the id token stay valid for more than
 * {@link validityBufferSeconds} (the published `areValid` of device
 * credentials).
 */
export function isTokenValid(
  tokens: { accessToken: string; idToken?: string | undefined },
  options: { now: number; bufferSeconds?: number | undefined },
): boolean {
  const check = {
    now: options.now,
    bufferSeconds: options.bufferSeconds ?? validityBufferSeconds,
  }
  return (
    isJwtValid(tokens.accessToken, check) && isJwtValid(tokens.idToken, check)
  )
}

/** Whether the user has a zkEVM wallet. */
export function isUserZkEvm(user: User): user is UserZkEvm {
  return !!user.zkEvm
}

/** Whether the user is registered on StarkEx. */
export function isUserImx(user: User): user is UserImx {
  return !!user.imx
}

/** Reads and writes the persisted user. */
export type UserStore = {
  /** The stored user, or `null` (also for unreadable JSON). */
  get(): Promise<StoredUser | null>
  set(user: StoredUser): Promise<void>
  remove(): Promise<void>
}

/**
 * The persisted user under {@link storageKey} in `storage`, written as the
 * JSON text oidc-client-ts writes (the store keeps strings as they are).
 *
 * @example
 * ```ts
 * const users = createUserStore({
 *   authority: 'https://auth.immutable.com',
 *   clientId: 'client',
 *   storage: Storage.memory(),
 * })
 * ```
 */
export function createUserStore(options: {
  authority: string
  clientId: string
  storage: Storage.Storage
}): UserStore {
  const key = storageKey(options.authority, options.clientId)
  const { storage } = options
  return {
    async get() {
      const text = await storage.getItem<string>(key)
      if (!text) return null
      try {
        const value = JSON.parse(text) as StoredUser | null
        return value && typeof value.access_token === 'string' ? value : null
      } catch {
        return null
      }
    },
    set: (user) => storage.setItem(key, JSON.stringify(user)),
    remove: () => storage.removeItem(key),
  }
}
