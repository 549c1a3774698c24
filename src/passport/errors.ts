/**
 * The game wallet's error model: the published `PassportErrorType` string
 * values, `PassportError` (a message plus a `type`), the
 * `withPassportError` wrapper and the exact messages of the sign-in flows.
 */

/**
 * The error types of the published SDK (2.x `PassportErrorType`). The values
 * are the public contract: dApps compare `error.type` against these strings.
 */
export const PassportErrorType = {
  AUTHENTICATION_ERROR: 'AUTHENTICATION_ERROR',
  INVALID_CONFIGURATION: 'INVALID_CONFIGURATION',
  WALLET_CONNECTION_ERROR: 'WALLET_CONNECTION_ERROR',
  NOT_LOGGED_IN_ERROR: 'NOT_LOGGED_IN_ERROR',
  SILENT_LOGIN_ERROR: 'SILENT_LOGIN_ERROR',
  REFRESH_TOKEN_ERROR: 'REFRESH_TOKEN_ERROR',
  USER_REGISTRATION_ERROR: 'USER_REGISTRATION_ERROR',
  USER_NOT_REGISTERED_ERROR: 'USER_NOT_REGISTERED_ERROR',
  LOGOUT_ERROR: 'LOGOUT_ERROR',
  TRANSFER_ERROR: 'TRANSFER_ERROR',
  CREATE_ORDER_ERROR: 'CREATE_ORDER_ERROR',
  CANCEL_ORDER_ERROR: 'CANCEL_ORDER_ERROR',
  EXCHANGE_TRANSFER_ERROR: 'EXCHANGE_TRANSFER_ERROR',
  CREATE_TRADE_ERROR: 'CREATE_TRADE_ERROR',
  OPERATION_NOT_SUPPORTED_ERROR: 'OPERATION_NOT_SUPPORTED_ERROR',
  LINK_WALLET_ALREADY_LINKED_ERROR: 'LINK_WALLET_ALREADY_LINKED_ERROR',
  LINK_WALLET_MAX_WALLETS_LINKED_ERROR: 'LINK_WALLET_MAX_WALLETS_LINKED_ERROR',
  LINK_WALLET_VALIDATION_ERROR: 'LINK_WALLET_VALIDATION_ERROR',
  LINK_WALLET_DUPLICATE_NONCE_ERROR: 'LINK_WALLET_DUPLICATE_NONCE_ERROR',
  LINK_WALLET_GENERIC_ERROR: 'LINK_WALLET_GENERIC_ERROR',
  SERVICE_UNAVAILABLE_ERROR: 'SERVICE_UNAVAILABLE_ERROR',
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
  /** Calls that need a session, made without one. */
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

/** The published SDK's error: a message and a {@link PassportErrorType}. */
export class PassportError extends Error {
  override name = 'PassportError'
  /** What kind of failure this is. */
  type: PassportErrorType

  constructor(
    message: string,
    type: PassportErrorType,
    options?: { cause?: unknown } | undefined,
  ) {
    super(message, options)
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
    if (isPassportError(error, PassportErrorType.SERVICE_UNAVAILABLE_ERROR))
      throw new PassportError(error.message, error.type, { cause: error })
    const message =
      extractApiError(error)?.message ??
      oauthMessage(error) ??
      (error instanceof Error ? error.message : String(error))
    throw new PassportError(message, type, { cause: error })
  }
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
