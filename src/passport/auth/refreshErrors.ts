/**
 * How a failed refresh is judged (the 2.24.8 rule, passport.md §5): a
 * permanent OAuth error logs the user out, a transient failure keeps them,
 * anything else (an invalid token answer) logs them out. See `session.ts`.
 */
import * as oauth from 'oauth4webapi'
import { PassportErrorType } from '../errors.js'

/** OAuth codes that mean the refresh token can never work again. */
export const permanentOAuthErrors: readonly string[] = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'access_denied',
  'login_required',
  'consent_required',
  'interaction_required',
  'account_selection_required',
]

/** The three kinds of refresh failure. */
export type Kind = 'permanent' | 'transient' | 'invalid'

/** The error type thrown for each kind. */
export const errorTypes: Record<Kind, PassportErrorType> = {
  permanent: PassportErrorType.NOT_LOGGED_IN_ERROR,
  transient: PassportErrorType.SILENT_LOGIN_ERROR,
  invalid: PassportErrorType.AUTHENTICATION_ERROR,
}

/** Sorts a refresh failure into the three kinds of `session.ts`. */
export function classify(error: unknown): Kind {
  if (error instanceof oauth.ResponseBodyError)
    return permanentOAuthErrors.includes(error.error)
      ? 'permanent'
      : 'transient'
  if (
    error instanceof oauth.OperationProcessingError &&
    error.code === oauth.RESPONSE_IS_NOT_CONFORM &&
    error.cause instanceof Response
  )
    return error.cause.status >= 500 || error.cause.status === 429
      ? 'transient'
      : 'invalid'
  // fetch's network failure (oauth4webapi's own TypeErrors carry a `code`)
  if (error instanceof TypeError && !('code' in error)) return 'transient'
  const name = (error as { name?: unknown } | null)?.name
  if (name === 'AbortError' || name === 'TimeoutError') return 'transient'
  return 'invalid'
}

/** The text after `Failed to refresh token: `. */
export function describe(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError)
    return error.error_description || error.error
  return error instanceof Error ? error.message : String(error)
}
