/**
 * Logout, in the published SDK's order: the refresh token is revoked
 * (RFC 7009), the stored user removed and `loggedOut` emitted (the session's
 * `logout`), then the identity provider's session is ended at
 * `{auth}/v2/logout?client_id=&returnTo=`:
 * - `'redirect'` (default): the page navigates there after the revocation;
 * - `'silent'`: it is loaded in a hidden iframe in parallel with the
 *   revocation; the `returnTo` page runs {@link logoutSilentCallback}, which
 *   tells this page. As published (`Promise.allSettled`), a failure of either
 *   half does not fail the logout; the user is removed either way.
 */
import { type CallbackMessage, callbackMessageSource } from './popup.js'
import type { Session } from './session.js'

/** What a logout needs. */
export type Context = {
  session: Pick<Session, 'logout' | 'removeUser' | 'emitter'>
  /** The end-session URL (`client.endSessionUrl()`). */
  endSessionUrl: string
  /** The `returnTo` page (needed for the silent round trip). */
  logoutRedirectUri?: string | undefined
}

/** oidc-client-ts's silent-request time-out, ms. */
export const silentTimeoutMs = 10_000

/**
 * Revokes, removes the user, emits `loggedOut`, then navigates to the
 * end-session URL (`navigate`, default `location.assign`).
 *
 * @throws {PassportError} `LOGOUT_ERROR` when the revocation fails (nothing
 *   is removed then, and the page stays).
 */
export async function logoutRedirect(
  context: Context,
  navigate: (url: string) => void = (url) => location.assign(url),
): Promise<void> {
  const url = await context.session.logout()
  navigate(url)
}

/**
 * Revokes and ends the provider's session in a hidden iframe, in parallel;
 * resolves when both have settled. The user is removed and `loggedOut`
 * emitted even when the revocation failed.
 */
export async function logoutSilent(
  context: Context,
  options: { timeoutMs?: number | undefined } = {},
): Promise<void> {
  const [revoked] = await Promise.allSettled([
    context.session.logout(),
    signoutInIframe(context.endSessionUrl, {
      returnTo: context.logoutRedirectUri,
      timeoutMs: options.timeoutMs ?? silentTimeoutMs,
    }),
  ])
  if (revoked.status === 'rejected') {
    await context.session.removeUser()
    context.session.emitter.emit('loggedOut')
  }
}

/**
 * Loads `url` in a hidden iframe and resolves when the `returnTo` page in it
 * posts its callback (`{source: 'oidc-client', url}`): the message must come
 * from that iframe's window AND from `returnTo`'s origin, and its URL must
 * start with `returnTo`. Rejects after `timeoutMs` with oidc-client-ts's
 * `'IFrame timed out without a response'`. The iframe is removed either way.
 */
export function signoutInIframe(
  url: string,
  options: { returnTo?: string | undefined; timeoutMs: number },
): Promise<void> {
  const { returnTo, timeoutMs } = options
  return new Promise<void>((resolve, reject) => {
    const frame = document.createElement('iframe')
    frame.setAttribute('aria-hidden', 'true')
    frame.title = 'Signing out'
    frame.style.cssText =
      'visibility:hidden;position:fixed;left:-1000px;top:0;width:0;height:0;border:0'
    const origin = returnTo ? new URL(returnTo).origin : undefined
    const done = (error?: Error) => {
      clearTimeout(timer)
      removeEventListener('message', onMessage)
      frame.remove()
      if (error) reject(error)
      else resolve()
    }
    function onMessage(event: MessageEvent) {
      if (event.source !== frame.contentWindow || event.origin !== origin)
        return
      const data = event.data as Partial<CallbackMessage> | null
      if (
        data?.source === callbackMessageSource &&
        typeof data.url === 'string' &&
        returnTo !== undefined &&
        data.url.startsWith(returnTo)
      )
        done()
    }
    const timer = setTimeout(
      () => done(new Error('IFrame timed out without a response')),
      timeoutMs,
    )
    addEventListener('message', onMessage)
    frame.src = url
    document.body.append(frame)
  })
}

/**
 * The `returnTo` page's step inside the silent-logout iframe: posts
 * `{source: 'oidc-client', url, keepOpen: false}` to the parent, pinned to
 * this page's origin. Does nothing outside an iframe.
 *
 * @example
 * ```ts
 * // on the logoutRedirectUri page
 * await passport.logoutSilentCallback(location.href)
 * ```
 */
export function logoutSilentCallback(url: string): void {
  if (typeof window === 'undefined' || window.parent === window) return
  const message: CallbackMessage = {
    source: callbackMessageSource,
    url,
    keepOpen: false,
  }
  window.parent.postMessage(message, location.origin)
}
