/**
 * The iframe wallet's session marker: a `localStorage` key per API key that
 * says a session may exist. The session itself lives in the provider's
 * iframe, out of the page's reach; the client sets the marker when a result
 * shows a logged-in user and removes it when one shows none (or on logout).
 * The wagmi connector reads it on page load to decide, without loading the
 * client or creating the iframe, whether to ask the iframe at all.
 */
import * as Methods from './wire/methods.js'

/** The marker's key for `apiKey`. */
export function key(apiKey: string): string {
  return `embedded-wallets.magic.session:${apiKey}`
}

/**
 * Whether a session of `apiKey` may exist, read synchronously. `false`
 * without `localStorage` (SSR: nothing to reconnect there); `true` where it
 * refuses access, since the page cannot tell and the iframe may still hold
 * a session.
 */
export function mayExist(apiKey: string): boolean {
  try {
    const storage = globalThis.localStorage as globalThis.Storage | undefined
    return storage ? storage.getItem(key(apiKey)) !== null : false
  } catch {
    return true
  }
}

/** The login methods whose success means a session. */
const logins: ReadonlySet<string> = new Set([
  Methods.loginWithEmailOtp,
  Methods.loginWithSms,
  Methods.loginWithMagicLink,
  Methods.loginWithCredential,
  Methods.loginWithOidc,
])

/**
 * Updates the marker of `apiKey` from a successful result of `method` (as
 * sent, test-mode names included): a login, accounts or `isLoggedIn: true`
 * set it; no accounts from `eth_accounts`, `isLoggedIn: false` or a logout
 * remove it. Storage failures are ignored: the marker only saves loading.
 */
export function note(apiKey: string, method: string, result: unknown): void {
  const name = Methods.fromTestMode(method) ?? method
  let present: boolean | undefined
  if (logins.has(name)) present = result !== null && result !== undefined
  else if (name === Methods.isLoggedIn) present = result === true
  else if (name === Methods.logout) present = false
  else if (Array.isArray(result)) {
    if (name === 'eth_accounts') present = result.length > 0
    else if (name === Methods.requestAccounts || name === Methods.login)
      present = result.length > 0 || undefined
  }
  if (present === undefined) return
  try {
    const storage = globalThis.localStorage as globalThis.Storage | undefined
    if (present) storage?.setItem(key(apiKey), '1')
    else storage?.removeItem(key(apiKey))
  } catch {
    // Storage refused: `mayExist` then answers `true`.
  }
}
