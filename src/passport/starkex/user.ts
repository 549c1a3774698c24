/**
 * The signed-in player as the StarkEx layer needs them: registered (the id
 * token's three `passport.imx_*` claims), with the published texts when
 * they are not.
 */
import type { User, UserImx } from '../auth/user.js'
import { messages, PassportError, PassportErrorType } from '../errors.js'

/** The StarkEx layer's exact texts (published 2.14.0). */
export const starkExMessages = {
  notRegistered: 'User has not been registered with StarkEx',
  imxUserMissing: 'Failed to obtain a User with the required IMX attributes',
  operationNotSupported: 'Operation not supported',
  failedToInitialise: 'Failed to initialise',
} as const

/** `NOT_LOGGED_IN_ERROR` 'User has been logged out'. */
export function loggedOut(): PassportError {
  return new PassportError(
    messages.loggedOut,
    PassportErrorType.NOT_LOGGED_IN_ERROR,
  )
}

/**
 * The player registered on StarkEx.
 *
 * @throws {PassportError} `NOT_LOGGED_IN_ERROR` without an id token,
 *   `USER_NOT_REGISTERED_ERROR` without the claims.
 */
export function imxUserOf(user: User): UserImx {
  if (!user.idToken) throw loggedOut()
  if (!user.imx)
    throw new PassportError(
      starkExMessages.notRegistered,
      PassportErrorType.USER_NOT_REGISTERED_ERROR,
    )
  return user as UserImx
}

/** `OPERATION_NOT_SUPPORTED_ERROR` 'Operation not supported'. */
export function operationNotSupported(): PassportError {
  return new PassportError(
    starkExMessages.operationNotSupported,
    PassportErrorType.OPERATION_NOT_SUPPORTED_ERROR,
  )
}

/** The `Authorization` header of the player's calls. */
export function bearer(user: User): { Authorization: string } {
  return { Authorization: `Bearer ${user.accessToken}` }
}
