/**
 * Linked wallets: a player links an external wallet (one they sign with
 * elsewhere, e.g. a browser extension) to their account, proving control
 * with an EIP-712 signature of that wallet, and reads the addresses linked.
 * The platform API's profile routes through the generated passport-profile
 * class, as the published @imtbl/passport 2.x calls them, with its error
 * mapping.
 */
import { ApiError } from '../../api/ApiErrors.js'
import { Configuration } from '../../api/Configuration.js'
import type { UserInfo } from '../../api/mr/models.generated.js'
import { PassportProfileApi } from '../../api/mr/passport-profile.generated.js'
import { NetworkError } from '../../core/Http.js'
import type { User } from '../auth/user.js'
import { PassportError, PassportErrorType } from '../errors.js'
import { type LinkWalletResponse, linkWalletErrorCodes } from '../wire/api.js'

/** What linking needs from the wallet. */
export type Context = {
  /** The profile API (the published `passportMrBasePath`). */
  apiBase: string
  /** The signed-in user (refreshed when stale), or null. */
  getUser(): Promise<User | null | undefined>
  /** The fetch the API client sends with; @default globalThis.fetch */
  fetch?: typeof fetch | undefined
}

/** The published `linkExternalWallet` parameters. */
export type LinkWalletParams = {
  /** The wallet's EIP-6963 rdns, `External` or `WalletConnect`. */
  type: string
  /** The external wallet's address. */
  walletAddress: string
  /** Its EIP-712 signature of the link message (see `wire/api.ts`). */
  signature: string
  /** The nonce signed in the message. */
  nonce: string
}

/** The published `LinkedWallet`. */
export type LinkedWallet = LinkWalletResponse

/** The published texts of the link path. */
export const linkingMessages = {
  notLoggedIn: 'User is not logged in',
  notRegistered: 'User has not been registered',
  failed: 'Link wallet request failed',
} as const

/** The error type of each API error code; any other is generic. */
const errorTypes: Record<string, PassportErrorType> = {
  [linkWalletErrorCodes.alreadyLinked]:
    PassportErrorType.LINK_WALLET_ALREADY_LINKED_ERROR,
  [linkWalletErrorCodes.maxWalletsLinked]:
    PassportErrorType.LINK_WALLET_MAX_WALLETS_LINKED_ERROR,
  [linkWalletErrorCodes.duplicateNonce]:
    PassportErrorType.LINK_WALLET_DUPLICATE_NONCE_ERROR,
  [linkWalletErrorCodes.validation]:
    PassportErrorType.LINK_WALLET_VALIDATION_ERROR,
}

/**
 * Links an external wallet to the signed-in, registered player.
 *
 * @example
 * ```ts
 * const linked = await linkExternalWallet(context, {
 *   type: 'io.metamask',
 *   walletAddress,
 *   signature, // the external wallet's EIP-712 signature
 *   nonce,
 * })
 * ```
 *
 * @throws {PassportError} `NOT_LOGGED_IN_ERROR` 'User is not logged in';
 *   `USER_NOT_REGISTERED_ERROR` 'User has not been registered'; for an API
 *   error body `{code, message}`, its message with the type of its code
 *   (`LINK_WALLET_ALREADY_LINKED_ERROR`, `…_MAX_WALLETS_LINKED_ERROR`,
 *   `…_DUPLICATE_NONCE_ERROR`, `…_VALIDATION_ERROR`, else
 *   `…_GENERIC_ERROR`); for another failed answer `LINK_WALLET_GENERIC_ERROR`
 *   'Link wallet request failed with status code {status}'; when no answer
 *   came, `LINK_WALLET_GENERIC_ERROR` 'Link wallet request failed' with the
 *   cause.
 */
export async function linkExternalWallet(
  context: Context,
  params: LinkWalletParams,
): Promise<LinkedWallet> {
  const user = await registeredUser(context)
  let answer: { data: unknown; status: number }
  try {
    answer = await profileApi(context).linkWalletV2(
      {
        linkWalletV2Request: {
          type: params.type,
          wallet_address: params.walletAddress,
          signature: params.signature,
          nonce: params.nonce,
        },
      },
      bearer(user),
    )
  } catch (cause) {
    if (!(cause instanceof ApiError)) {
      // No answer at all: the published text plus the cause's.
      const reason = cause instanceof Error ? `: ${reasonOf(cause)}` : ''
      throw new PassportError(
        linkingMessages.failed + reason,
        PassportErrorType.LINK_WALLET_GENERIC_ERROR,
        { cause },
      )
    }
    // The route's own code (ALREADY_LINKED on a 409, …) picks the type.
    const body = apiErrorOf(cause)
    if (body)
      throw new PassportError(
        body.message,
        errorTypes[body.code] ?? PassportErrorType.LINK_WALLET_GENERIC_ERROR,
        { cause },
      )
    answer = cause.response
  }
  if (answer.status < 300 && isLinkedWallet(answer.data))
    return { ...answer.data }
  throw new PassportError(
    `${linkingMessages.failed} with status code ${answer.status}`,
    PassportErrorType.LINK_WALLET_GENERIC_ERROR,
  )
}

/**
 * The addresses linked to the signed-in player (`linked_addresses` of the
 * profile); an empty list when signed out, as published.
 *
 * @throws {PassportError} `SERVICE_UNAVAILABLE_ERROR` (the published SDK's
 *   type for this call) when the profile cannot be read: the API error's
 *   message, else why.
 */
export async function getLinkedAddresses(context: Context): Promise<string[]> {
  const user = await context.getUser()
  if (!user?.profile.sub) return []
  const unavailable = (message: string, cause?: unknown) =>
    new PassportError(message, PassportErrorType.SERVICE_UNAVAILABLE_ERROR, {
      cause,
    })
  let answer: { data: unknown; status: number }
  try {
    answer = await profileApi(context).getUserInfo(bearer(user))
  } catch (cause) {
    if (!(cause instanceof ApiError))
      throw unavailable(
        cause instanceof Error ? reasonOf(cause) : String(cause),
        cause,
      )
    const body = apiErrorOf(cause)
    if (body) throw unavailable(body.message)
    answer = cause.response
  }
  const addresses = (answer.data as Partial<UserInfo> | null | undefined)
    ?.linked_addresses
  if (answer.status >= 300 || !Array.isArray(addresses))
    throw unavailable(`Request failed with status code ${answer.status}`)
  return addresses.filter(
    (address): address is string => typeof address === 'string',
  )
}

/** The user, who must be signed in and registered on either chain. */
async function registeredUser(context: Context): Promise<User> {
  const user = await context.getUser()
  if (!user)
    throw new PassportError(
      linkingMessages.notLoggedIn,
      PassportErrorType.NOT_LOGGED_IN_ERROR,
    )
  if (!user.zkEvm && !user.imx)
    throw new PassportError(
      linkingMessages.notRegistered,
      PassportErrorType.USER_NOT_REGISTERED_ERROR,
    )
  return user
}

/**
 * The profile API under the context's base, its path kept (the generated
 * client appends the route to its base path).
 */
function profileApi(context: Context): PassportProfileApi {
  return new PassportProfileApi(
    new Configuration({ basePath: context.apiBase.replace(/\/+$/, '') }),
    undefined,
    context.fetch,
  )
}

/** The player's access token, as the published SDK passes it per call. */
function bearer(user: User) {
  return { headers: { Authorization: `Bearer ${user.accessToken}` } }
}

/**
 * Why no answer came: the network's own reason (`fetch failed`) rather
 * than the fetch helper's wrapper, as the published text carries it.
 */
function reasonOf(error: Error): string {
  return error instanceof NetworkError && error.cause instanceof Error
    ? error.cause.message
    : error.message
}

/** The API's `{ code, message }` error body, when the answer carried one. */
function apiErrorOf(
  error: ApiError,
): { code: string; message: string } | undefined {
  const { code, message } = error.body ?? {}
  return typeof code === 'string' && typeof message === 'string'
    ? { code, message }
    : undefined
}

function isLinkedWallet(value: unknown): value is LinkedWallet {
  if (typeof value !== 'object' || value === null) return false
  const { address, type } = value as Record<string, unknown>
  return typeof address === 'string' && typeof type === 'string'
}
