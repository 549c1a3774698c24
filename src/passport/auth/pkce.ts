/**
 * The manual PKCE flow for games (RFC 7636): `loginWithPKCEFlow`
 * returns the authorization URL and keeps the state and verifier in
 * `localStorage` (`pkce_state`, `pkce_verifier`, as published; the nonce in
 * `pkce_nonce`); `loginWithPKCEFlowCallback(code, state)` checks the state,
 * exchanges the code and stores the user.
 */

import type * as Storage from '../../core/Storage.js'
import {
  messages,
  PassportError,
  PassportErrorType,
  withPassportError,
} from '../errors.js'
import type { Client } from './oidc.js'
import { fromTokenResponse, toUser, type User, type UserStore } from './user.js'

/** The `localStorage` keys of the flow. */
export const storageKeys = {
  state: 'pkce_state',
  verifier: 'pkce_verifier',
  nonce: 'pkce_nonce',
} as const

/** What both steps need. */
export type Context = {
  client: Client
  /** Where the state, verifier and nonce wait for the callback. */
  storage: Storage.Storage
  /** Where the signed-in user is persisted. */
  users: UserStore
  /** Clock in ms. @default Date.now */
  now?: (() => number) | undefined
}

/**
 * Starts the flow: a fresh 32-byte verifier, state and nonce are stored and
 * the authorization URL (`response_type=code`, S256 challenge, `client_id`,
 * `redirect_uri`, `state`, `scope`, `audience`, `nonce`) is returned for the
 * game to open.
 *
 * @example
 * ```ts
 * const url = await loginWithPKCEFlow(context)
 * openBrowser(url)
 * ```
 */
export async function loginWithPKCEFlow(context: Context): Promise<string> {
  return withPassportError(async () => {
    const { url, state, codeVerifier, nonce } =
      await context.client.authorizationUrl()
    await context.storage.setItem(storageKeys.state, state)
    await context.storage.setItem(storageKeys.verifier, codeVerifier)
    await context.storage.setItem(storageKeys.nonce, nonce)
    return url.href
  }, PassportErrorType.AUTHENTICATION_ERROR)
}

/**
 * Finishes the flow with the `code` and `state` the redirect carried:
 * - nothing stored → `'No code verifier or state for PKCE'`;
 * - another state → `'Provided state does not match stored state'`;
 * - otherwise the code is exchanged (the id token verified, with the stored
 *   nonce), the user stored and the PKCE keys removed.
 *
 * @throws {PassportError} `AUTHENTICATION_ERROR`.
 */
export async function loginWithPKCEFlowCallback(
  context: Context,
  code: string,
  state: string,
): Promise<User> {
  return withPassportError(async () => {
    const { storage } = context
    const storedState = await storage.getItem<string>(storageKeys.state)
    const verifier = await storage.getItem<string>(storageKeys.verifier)
    if (!storedState || !verifier)
      throw new PassportError(
        messages.noPkceData,
        PassportErrorType.AUTHENTICATION_ERROR,
      )
    if (state !== storedState)
      throw new PassportError(
        messages.stateMismatch,
        PassportErrorType.AUTHENTICATION_ERROR,
      )
    const nonce =
      (await storage.getItem<string>(storageKeys.nonce)) ?? undefined
    const response = await context.client.exchangeCode({
      code,
      state,
      codeVerifier: verifier,
      nonce,
    })
    const now = (context.now ?? Date.now)()
    const stored = fromTokenResponse(response, { now })
    await context.users.set(stored)
    for (const key of Object.values(storageKeys)) await storage.removeItem(key)
    return toUser(stored, { now })
  }, PassportErrorType.AUTHENTICATION_ERROR)
}
