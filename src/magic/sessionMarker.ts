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

/**
 * Updates the marker of `apiKey` from a successful result of `method` (as
 * sent, test-mode names included): a login (every login method is
 * `magic_auth_login_with_*`), accounts or `isLoggedIn: true` set it; no
 * accounts, `isLoggedIn: false` or a logout remove it. Storage failures are
 * ignored: the marker only saves loading.
 */
export function note(apiKey: string, method: string, result: unknown): void {
  const name = Methods.fromTestMode(method) ?? method
  const present =
    name === Methods.isLoggedIn
      ? result === true
      : name === Methods.logout
        ? false
        : name === 'eth_accounts' ||
            name === Methods.requestAccounts ||
            name === Methods.login
          ? Array.isArray(result) && result.length > 0
          : name.startsWith('magic_auth_login_with_') || undefined
  if (present === undefined) return
  try {
    const storage = globalThis.localStorage as globalThis.Storage | undefined
    if (present) storage?.setItem(key(apiKey), '1')
    else storage?.removeItem(key(apiKey))
  } catch {
    // Storage refused: `mayExist` then answers `true`.
  }
}
