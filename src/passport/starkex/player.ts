/**
 * The signed-in player and their Stark signer, as every StarkEx call
 * needs them. Their failures are the published ones, never re-typed by
 * the call's own error type.
 */
import type { User, UserImx } from '../auth/user.js'
import type { Context } from './context.js'
import type { StarkSigner } from './starkSigner.js'
import { imxUserOf, loggedOut } from './user.js'

/**
 * The signed-in user (refreshed when stale).
 *
 * @throws {PassportError} `NOT_LOGGED_IN_ERROR` 'User has been logged out'.
 */
export async function signedIn(context: Context): Promise<User> {
  const user = await context.session.getUser()
  if (!user) throw loggedOut()
  return user
}

/**
 * The registered player and their Stark signer. The user is checked first,
 * so that an unregistered one never starts the custody key.
 *
 * @throws {PassportError} `NOT_LOGGED_IN_ERROR`, `USER_NOT_REGISTERED_ERROR`,
 *   or the signer's `WALLET_CONNECTION_ERROR`.
 */
export async function registeredPlayer(
  context: Context,
): Promise<{ user: UserImx; starkSigner: StarkSigner }> {
  const user = imxUserOf(await signedIn(context))
  return { user, starkSigner: await context.starkSigner() }
}
