/**
 * The game wallet's error model: the published `PassportErrorType` string
 * values, `PassportError` (a message plus a `type`, on the core
 * `BaseError`), the `withPassportError` wrapper and the exact messages of
 * the sign-in flows. The zkEVM provider's errors are the core RPC errors
 * (`zkevm/errors.ts`); those that the published SDK throws with a type
 * carry the same `type`.
 */
import { BaseError } from '../core/Errors.js'

/**
 * The error types of the published SDK (2.x `PassportErrorType`) that this
 * wallet raises. The values are the public contract: dApps compare
 * `error.type` against these strings. The StarkEx layer's (registration,
 * transfers, orders, trades, exchange transfers and the operations it does
 * not support) are those of 2.14.0, the last version with that layer. The
 * published enum also names one type nothing raises
 * (`REFRESH_TOKEN_ERROR`), and `TRANSACTION_REJECTED`, which the published
 * StarkEx workflows re-type as their own before it reaches the caller.
 */
export const PassportErrorType = {
  AUTHENTICATION_ERROR: 'AUTHENTICATION_ERROR',
  INVALID_CONFIGURATION: 'INVALID_CONFIGURATION',
  WALLET_CONNECTION_ERROR: 'WALLET_CONNECTION_ERROR',
  NOT_LOGGED_IN_ERROR: 'NOT_LOGGED_IN_ERROR',
  SILENT_LOGIN_ERROR: 'SILENT_LOGIN_ERROR',
  USER_NOT_REGISTERED_ERROR: 'USER_NOT_REGISTERED_ERROR',
  LOGOUT_ERROR: 'LOGOUT_ERROR',
  LINK_WALLET_ALREADY_LINKED_ERROR: 'LINK_WALLET_ALREADY_LINKED_ERROR',
  LINK_WALLET_MAX_WALLETS_LINKED_ERROR: 'LINK_WALLET_MAX_WALLETS_LINKED_ERROR',
  LINK_WALLET_VALIDATION_ERROR: 'LINK_WALLET_VALIDATION_ERROR',
  LINK_WALLET_DUPLICATE_NONCE_ERROR: 'LINK_WALLET_DUPLICATE_NONCE_ERROR',
  LINK_WALLET_GENERIC_ERROR: 'LINK_WALLET_GENERIC_ERROR',
  SERVICE_UNAVAILABLE_ERROR: 'SERVICE_UNAVAILABLE_ERROR',
  USER_REGISTRATION_ERROR: 'USER_REGISTRATION_ERROR',
  TRANSFER_ERROR: 'TRANSFER_ERROR',
  CREATE_ORDER_ERROR: 'CREATE_ORDER_ERROR',
  CANCEL_ORDER_ERROR: 'CANCEL_ORDER_ERROR',
  CREATE_TRADE_ERROR: 'CREATE_TRADE_ERROR',
  EXCHANGE_TRANSFER_ERROR: 'EXCHANGE_TRANSFER_ERROR',
  OPERATION_NOT_SUPPORTED_ERROR: 'OPERATION_NOT_SUPPORTED_ERROR',
} as const

/** One of the {@link PassportErrorType} values. */
export type PassportErrorType =
  (typeof PassportErrorType)[keyof typeof PassportErrorType]

/**
 * The exact messages of the sign-in flows, as the published SDK words them:
 * apps match on these texts.
 */
export const messages = {
  /** Device flow: the server answered `expired_token`. */
  tokenExpired: 'Token expired, please log in again',
  /** Device flow: the server answered `access_denied`. */
  userDeniedAccess: 'User denied access',
  /** Device flow: any other token-endpoint error. */
  errorGettingToken: 'Error getting token',
  /** PKCE callback: the returned state is not the stored one. */
  stateMismatch: 'Provided state does not match stored state',
  /** PKCE callback: nothing stored by `loginWithPKCEFlow`. */
  noPkceData: 'No code verifier or state for PKCE',
  /** Popup login: the blocked-popup overlay was closed. */
  popupClosed: 'Popup closed by user',
  /** Device flow: the caller's overall time-out passed. */
  timedOut: 'Timed out',
  /** The custody key is needed after the player logged out. */
  loggedOut: 'User has been logged out',
  /** Prefix of every refresh failure. */
  refreshFailed: 'Failed to refresh token',
} as const

/**
 * `'{fields} cannot be null'`: the configuration error text. With a prefix it
 * reads `'{prefix} - {fields} cannot be null'`; fields are joined by `', '`.
 *
 * @example
 * ```ts
 * cannotBeNull(['clientId', 'redirectUri']) // 'clientId, redirectUri cannot be null'
 * ```
 */
export function cannotBeNull(
  fields: readonly string[],
  prefix?: string | undefined,
): string {
  const text = `${fields.join(', ')} cannot be null`
  return prefix ? `${prefix} - ${text}` : text
}

/**
 * The published SDK's error: a message and a {@link PassportErrorType}.
 * `message` is the published text alone, on one line, and there are no
 * `details` (the published error has none, and a cause's details may be a
 * backend's raw answer); what lies underneath stays on `cause`.
 */
export class PassportError extends BaseError {
  override name = 'PassportError'
  /** What kind of failure this is. */
  type: PassportErrorType

  constructor(
    message: string,
    type: PassportErrorType,
    options: { cause?: unknown } = {},
  ) {
    const { cause } = options
    super(message, { cause: asError(cause), details: '' })
    this.message = message
    this.type = type
  }
}

/** Whether `error` is a {@link PassportError}, of `type` when given. */
export function isPassportError(
  error: unknown,
  type?: PassportErrorType | undefined,
): error is PassportError {
  return (
    error instanceof PassportError &&
    (type === undefined || error.type === type)
  )
}

/**
 * The published type an error carries: a {@link PassportError}'s, or that
 * of a provider error thrown with one (e.g. the guardian's
 * `SERVICE_UNAVAILABLE_ERROR`).
 */
export function typeOf(error: unknown): PassportErrorType | undefined {
  if (!(error instanceof Error)) return undefined
  const { type } = error as { type?: unknown }
  return typeof type === 'string' &&
    Object.hasOwn(PassportErrorType, type) &&
    PassportErrorType[type as PassportErrorType] === type
    ? (type as PassportErrorType)
    : undefined
}

/** An API error body: `{ code, message }` (published `isAPIError`). */
export type ApiError = { code: string; message: string; details?: string }

/** Whether `value` looks like an API error body (`code` and `message`). */
export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    'code' in value &&
    'message' in value
  )
}

/**
 * Runs `fn`; a failure becomes a {@link PassportError} of `type`, as in the
 * published SDK:
 * - a `SERVICE_UNAVAILABLE_ERROR` passes through with its type kept;
 * - an API error (the thrown value itself, or its `response.data`, or its
 *   `body`, has `code` and `message`) gives its `message`;
 * - an OAuth error answer (an error with an `error` code, like
 *   oauth4webapi's `ResponseBodyError`) gives its `error_description`, else
 *   its `error`;
 * - anything else gives its own `message`.
 *
 * The original error is kept as `cause`.
 *
 * @example
 * ```ts
 * await withPassportError(() => logout(), PassportErrorType.LOGOUT_ERROR)
 * ```
 */
export async function withPassportError<result>(
  fn: () => Promise<result>,
  type: PassportErrorType,
): Promise<result> {
  try {
    return await fn()
  } catch (error) {
    if (typeOf(error) === PassportErrorType.SERVICE_UNAVAILABLE_ERROR)
      throw new PassportError(
        messageOf(error),
        PassportErrorType.SERVICE_UNAVAILABLE_ERROR,
        { cause: error },
      )
    const message =
      extractApiError(error)?.message ?? oauthMessage(error) ?? messageOf(error)
    throw new PassportError(message, type, { cause: error })
  }
}

/** The text of anything thrown: a core error's short message (no details). */
export function messageOf(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage
  if (error instanceof Error) return error.message
  return String(error)
}

function asError(cause: unknown): Error | undefined {
  if (cause === undefined || cause instanceof Error) return cause
  return Object.assign(new Error(messageOf(cause)), { value: cause })
}

function oauthMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined
  const { error: code, error_description: description } = error as {
    error?: unknown
    error_description?: unknown
  }
  if (typeof code !== 'string') return undefined
  return typeof description === 'string' && description ? description : code
}

function extractApiError(error: unknown): ApiError | undefined {
  if (error instanceof Error) {
    const { response, body } = error as {
      response?: { data?: unknown }
      body?: unknown
    }
    if (isApiError(response?.data)) return response.data
    if (isApiError(body)) return body
    return undefined
  }
  return isApiError(error) ? error : undefined
}
