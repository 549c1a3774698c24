/**
 * Linked wallets: a player links an external wallet (one they sign with
 * elsewhere, e.g. a browser extension) to their account, proving control
 * with an EIP-712 signature of that wallet, and reads the addresses linked.
 * The platform API's profile routes, as the published @imtbl/passport 2.x
 * calls them, with its error mapping.
 */
import type { User } from '../auth/user.js'
import { PassportError, PassportErrorType } from '../errors.js'
import {
  type ApiError,
  type LinkWalletRequest,
  type LinkWalletResponse,
  linkWalletErrorCodes,
  paths,
  type UserInfoResponse,
} from '../wire/api.js'

/** What linking needs from the wallet. */
export type Context = {
  /** The profile API (the published `passportMrBasePath`). */
  apiBase: string
  /** The signed-in user (refreshed when stale), or null. */
  getUser(): Promise<User | null | undefined>
  /** @default globalThis.fetch */
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
  const body: LinkWalletRequest = {
    type: params.type,
    wallet_address: params.walletAddress,
    signature: params.signature,
    nonce: params.nonce,
  }
  let response: Response
  try {
    response = await (context.fetch ?? globalThis.fetch)(
      endpoint(context.apiBase, paths.linkedWallets),
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${user.accessToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      },
    )
  } catch (cause) {
    // No answer at all: the published text plus the cause's.
    const reason = cause instanceof Error ? `: ${cause.message}` : ''
    throw new PassportError(
      linkingMessages.failed + reason,
      PassportErrorType.LINK_WALLET_GENERIC_ERROR,
      { cause },
    )
  }
  const answer = await readJson(response)
  if (response.ok && isLinkedWallet(answer)) return answer
  if (isApiError(answer))
    throw new PassportError(
      answer.message,
      errorTypes[answer.code] ?? PassportErrorType.LINK_WALLET_GENERIC_ERROR,
      { cause: answer },
    )
  throw new PassportError(
    `${linkingMessages.failed} with status code ${response.status}`,
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
  let response: Response
  try {
    response = await (context.fetch ?? globalThis.fetch)(
      endpoint(context.apiBase, paths.userInfo),
      { headers: { authorization: `Bearer ${user.accessToken}` } },
    )
  } catch (cause) {
    throw unavailable(
      cause instanceof Error ? cause.message : String(cause),
      cause,
    )
  }
  const answer = await readJson(response)
  if (!response.ok && isApiError(answer)) throw unavailable(answer.message)
  const addresses = (answer as Partial<UserInfoResponse> | null)
    ?.linked_addresses
  if (!response.ok || !Array.isArray(addresses))
    throw unavailable(`Request failed with status code ${response.status}`)
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
 * The route under the base, its path kept (the published generated client
 * appends the route to its base path).
 */
function endpoint(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path
}

async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text()
    return text ? (JSON.parse(text) as unknown) : null
  } catch {
    return null
  }
}

function isApiError(value: unknown): value is ApiError {
  if (typeof value !== 'object' || value === null) return false
  const { code, message } = value as Record<string, unknown>
  return typeof code === 'string' && typeof message === 'string'
}

function isLinkedWallet(value: unknown): value is LinkedWallet {
  if (typeof value !== 'object' || value === null) return false
  const { address, type } = value as Record<string, unknown>
  return typeof address === 'string' && typeof type === 'string'
}
