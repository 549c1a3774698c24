/**
 * The game wallet's login popup: both ends of it. The opener side opens the
 * authorization URL in a centred 410x450 window and waits for the redirect
 * page in it to post its URL back; the callback side is what that page runs.
 * Nothing here touches `window` or `document` at import time.
 */
import { BaseError } from '../../core/Errors.js'
import { messages } from '../errors.js'
import { PopupOverlay, type PopupOverlayOptions } from './overlay.js'

/** Defaults of the login popup (the published values). */
export const loginPopupDefaults = {
  /** Window size, as the published `signinPopup` call. */
  width: 410,
  height: 450,
  /** Window name: the login prompt's, as the published SDK named it. */
  target: 'passportLoginPrompt',
  /** Closed-window check, ms (oidc-client-ts `checkForPopupClosedInterval`). */
  closedCheckInterval: 500,
} as const

/** Wait after seeing the popup closed, for a callback still in flight. */
const closedGrace = 100

/** `source` of the callback message (oidc-client-ts's `messageSource`). */
export const callbackMessageSource = 'oidc-client'

/** The message the redirect page posts to its opener (oidc-client-ts's). */
export type CallbackMessage = {
  source: typeof callbackMessageSource
  url: string
  keepOpen: boolean
}

/** What the popup sent back: its URL (if any) and the response parameters. */
export type LoginPopupResult = {
  /** The redirect URL, or `undefined` for a bare `{code, state}` message. */
  url: string | undefined
  /** `code`, `state`, `error`… from the URL's query (else fragment). */
  params: URLSearchParams
}

/**
 * The `window.open` features of a popup of `width`x`height` centred over the
 * current window, as oidc-client-ts's `PopupUtils.center` places it.
 *
 * @example
 * ```ts
 * popupFeatures({ width: 410, height: 450 })
 * // 'location=no,toolbar=no,width=410,height=450,left=…,top=…'
 * ```
 */
export function popupFeatures(size: { width: number; height: number }): string {
  const { width, height } = size
  const left = Math.max(0, Math.round(screenX + (outerWidth - width) / 2))
  const top = Math.max(0, Math.round(screenY + (outerHeight - height) / 2))
  return `location=no,toolbar=no,width=${width},height=${height},left=${left},top=${top}`
}

/**
 * Opens the login popup at `url` and resolves with the callback its redirect
 * page posts (see {@link notifyOpener}); a `{code, state}` message is taken
 * too. A message counts only if it comes from the popup's window AND from
 * `origin`. When `window.open` returns null the blocked overlay offers Try
 * again (which opens the popup from the click) and close.
 *
 * Rejects with {@link PopupClosedError} when the popup or the overlay is
 * closed, {@link PopupBlockedError} when blocked with the blocked overlay
 * disabled, {@link PopupTimeoutError} after `timeout`,
 * {@link PopupResponseError} for an unreadable URL, and the signal's reason
 * on abort. The popup is closed when the promise settles, unless the
 * callback asked `keepOpen`.
 *
 * @example
 * ```ts
 * const { params } = await openLoginPopup({ url: authorizeUrl })
 * params.get('code')
 * ```
 */
export function openLoginPopup(
  options: openLoginPopup.Options,
): Promise<LoginPopupResult> {
  const {
    url,
    origin = location.origin,
    target = loginPopupDefaults.target,
    width = loginPopupDefaults.width,
    height = loginPopupDefaults.height,
    closedCheckInterval = loginPopupDefaults.closedCheckInterval,
    timeout,
    overlay: overlayOptions = {},
    signal,
  } = options
  return new Promise<LoginPopupResult>((resolve, reject) => {
    // Origins, not URLs: 'https://a.example/' means 'https://a.example'. An
    // invalid one throws here, which rejects the promise.
    const expectedOrigin = new URL(origin).origin
    let popup: Window | null = null
    let overlay: PopupOverlay | undefined
    let closedTimer: ReturnType<typeof setInterval> | undefined
    let timeoutTimer: ReturnType<typeof setTimeout> | undefined
    let settled = false

    const finish = (
      outcome: { error: unknown } | { result: LoginPopupResult },
      keepOpen = false,
    ) => {
      if (settled) return
      settled = true
      removeEventListener('message', onMessage)
      signal?.removeEventListener('abort', onAbort)
      clearInterval(closedTimer)
      clearTimeout(timeoutTimer)
      overlay?.remove()
      if (popup && !popup.closed && !keepOpen) popup.close()
      if ('error' in outcome) reject(outcome.error)
      else resolve(outcome.result)
    }

    function onMessage(event: MessageEvent) {
      if (!popup || event.source !== popup || event.origin !== expectedOrigin)
        return
      const data: unknown = event.data
      if (!data || typeof data !== 'object') return
      const message = data as Record<string, unknown>
      if (
        message.source === callbackMessageSource &&
        typeof message.url === 'string'
      ) {
        const params = readParams(message.url)
        if (params instanceof Error)
          return finish({ error: new PopupResponseError(params) })
        return finish(
          { result: { url: message.url, params } },
          message.keepOpen === true,
        )
      }
      if (typeof message.code === 'string' && typeof message.state === 'string')
        finish({
          result: {
            url: undefined,
            params: new URLSearchParams({
              code: message.code,
              state: message.state,
            }),
          },
        })
    }

    function onAbort() {
      const reason: unknown = signal?.reason
      finish({
        error: reason instanceof Error ? reason : new PopupAbortedError(),
      })
    }

    /** Opens the popup; false when blocked. Synchronous, for click gestures. */
    const open = (): boolean => {
      popup = window.open(url, target, popupFeatures({ width, height }))
      if (!popup) return false
      popup.focus()
      const opened = popup
      clearInterval(closedTimer)
      closedTimer = setInterval(() => {
        if (!opened.closed) return
        clearInterval(closedTimer)
        // A callback posted just before the popup closed itself wins.
        setTimeout(() => finish({ error: new PopupClosedError() }), closedGrace)
      }, closedCheckInterval)
      return true
    }

    if (signal?.aborted) return onAbort()
    signal?.addEventListener('abort', onAbort)
    addEventListener('message', onMessage)
    if (timeout !== undefined)
      timeoutTimer = setTimeout(
        () => finish({ error: new PopupTimeoutError() }),
        timeout,
      )
    if (open()) return

    overlay = new PopupOverlay(overlayOptions, true)
    const shown = overlay.append(
      () => {
        if (settled) return
        // Already reopened: bring it to the front instead of reloading it.
        if (popup && !popup.closed) {
          if (target.startsWith('_')) popup.focus()
          else window.open('', target)
          return
        }
        open()
      },
      () => finish({ error: new PopupClosedError() }),
    )
    if (!shown) finish({ error: new PopupBlockedError() })
  })
}

export declare namespace openLoginPopup {
  type Options = {
    /** The authorization URL to open. */
    url: string
    /** Origin (or a URL on it) the callback must come from; @default `location.origin` */
    origin?: string | undefined
    /** Window name; @default 'passportLoginPrompt' */
    target?: string | undefined
    /** @default 410 */
    width?: number | undefined
    /** @default 450 */
    height?: number | undefined
    /** How often to check whether the popup was closed, ms; @default 500 */
    closedCheckInterval?: number | undefined
    /** Give up after this many ms; @default never */
    timeout?: number | undefined
    /** The host's overlay switches (`popupOverlayOptions`). */
    overlay?: PopupOverlayOptions | undefined
    /** Aborts the wait (and closes the popup). */
    signal?: AbortSignal | undefined
  }
}

/**
 * The callback side, run by the redirect page inside the popup: posts
 * `{source: 'oidc-client', url, keepOpen}` to `window.opener`, pinned to
 * `openerOrigin` (so no other origin can read the code), then closes the
 * popup unless `keepOpen`. Returns false, touching nothing, when there is no
 * opener (e.g. the page was opened directly).
 *
 * @example
 * ```ts
 * // on the popup redirect page, served from the dApp's origin
 * notifyOpener()
 * ```
 */
export function notifyOpener(options: notifyOpener.Options = {}): boolean {
  const {
    url = location.href,
    openerOrigin = location.origin,
    keepOpen = false,
  } = options
  const opener: Window | null = window.opener
  if (!opener) return false
  const message: CallbackMessage = {
    source: callbackMessageSource,
    url,
    keepOpen,
  }
  opener.postMessage(message, openerOrigin)
  if (!keepOpen) window.close()
  return true
}

export declare namespace notifyOpener {
  type Options = {
    /** The URL to send; @default `location.href` */
    url?: string | undefined
    /** The opener's origin; @default `location.origin` (same-origin page) */
    openerOrigin?: string | undefined
    /** Leave the popup open; @default false */
    keepOpen?: boolean | undefined
  }
}

/** The response parameters of a redirect URL: query, else fragment. */
function readParams(url: string): URLSearchParams | Error {
  try {
    const parsed = new URL(url)
    if (parsed.search) return parsed.searchParams
    return new URLSearchParams(parsed.hash.slice(1))
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

/*
 * The login popup's errors. Each message is exactly its short message (no
 * details line), so callers and the Passport facade can match it.
 */

/** Base class of the login popup's errors. */
export class PopupError extends BaseError {
  override name = 'PopupError'
}

/** The user closed the popup or the overlay: 'Popup closed by user'. */
export class PopupClosedError extends PopupError {
  override name = 'PopupClosedError'
  constructor() {
    super(messages.popupClosed)
  }
}

/** Blocked and no overlay may offer a retry: 'Popup blocked by user'. */
export class PopupBlockedError extends PopupError {
  override name = 'PopupBlockedError'
  constructor() {
    super('Popup blocked by user')
  }
}

/** No callback within `timeout`: 'Popup timed out'. */
export class PopupTimeoutError extends PopupError {
  override name = 'PopupTimeoutError'
  constructor() {
    super('Popup timed out')
  }
}

/** A callback whose URL cannot be read: 'Invalid response from window'. */
export class PopupResponseError extends PopupError {
  override name = 'PopupResponseError'
  constructor(cause?: Error) {
    super('Invalid response from window', cause ? { cause, details: '' } : {})
  }
}

/** The caller's signal aborted without an Error reason: 'Popup aborted'. */
export class PopupAbortedError extends PopupError {
  override name = 'PopupAbortedError'
  constructor() {
    super('Popup aborted')
  }
}
