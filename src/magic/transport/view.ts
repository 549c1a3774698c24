/**
 * The iframe element: its attributes, its hidden and shown styles, and the
 * wait for a document to put it in. Only called from the browser (never at
 * import time).
 */

/**
 * The hidden styles of the published SDK's iframe, in the order it sets them
 * (a full-page, transparent, click-through overlay until it is shown).
 */
export const hiddenStyles = {
  display: 'none',
  position: 'fixed',
  top: '0',
  right: '0',
  width: '100%',
  height: '100%',
  borderRadius: '0',
  border: 'none',
  opacity: '0',
  zIndex: '-1',
} as const

/** The styles that show the iframe as a full-page overlay. */
export const shownStyles = {
  display: 'block',
  zIndex: '2147483647',
  opacity: '1',
} as const

/**
 * The iframe's `src`: the endpoint origin, `/send?params=` and the
 * URL-encoded parameters.
 *
 * @example
 * ```ts
 * View.src('https://auth.magic.link', 'eyJB...') // 'https://auth.magic.link/send?params=eyJB...'
 * ```
 */
export function src(origin: string, encodedParams: string): string {
  return `${origin}/send?params=${encodeURIComponent(encodedParams)}`
}

/**
 * Makes the (not yet attached) iframe element with the published SDK's
 * class, label, title, permissions and hidden styles.
 *
 * @example
 * ```ts
 * document.body.appendChild(View.createElement(origin, encodedParams))
 * ```
 */
export function createElement(
  origin: string,
  encodedParams: string,
): HTMLIFrameElement {
  const iframe = document.createElement('iframe')
  iframe.classList.add('magic-iframe')
  iframe.dataset.magicIframeLabel = new URL(origin).host
  iframe.title = 'Secure Modal'
  iframe.src = src(origin, encodedParams)
  iframe.allow = 'clipboard-read; clipboard-write'
  applyStyles(iframe, hiddenStyles)
  return iframe
}

/** Sets each style of `styles` on `element`. */
export function applyStyles(
  element: HTMLElement,
  styles: Partial<Record<StyleName, string>>,
): void {
  for (const [name, value] of Object.entries(styles))
    element.style[name as StyleName] = value
}

type StyleName = keyof typeof hiddenStyles

/**
 * Whether the document holds a `.magic-iframe` for these parameters other
 * than `own` (another copy of the SDK, or a leftover).
 */
export function hasForeign(
  encodedParams: string,
  own: HTMLIFrameElement | undefined,
): boolean {
  const needle = encodeURIComponent(encodedParams)
  for (const element of document.querySelectorAll('.magic-iframe'))
    if (
      element !== own &&
      element instanceof HTMLIFrameElement &&
      element.src.includes(needle)
    )
      return true
  return false
}

/**
 * Whether `iframe` is in the document and still looks like ours: the same
 * `src` parameters (the published SDK's check before each request).
 */
export function hasParams(
  iframe: HTMLIFrameElement,
  encodedParams: string,
): boolean {
  return iframe.src.includes(encodeURIComponent(encodedParams))
}

/**
 * Resolves once the document can take the iframe: at once when its
 * `readyState` is `loaded`, `interactive` or `complete`, else on the
 * window's `load`.
 */
export function whenDocumentReady(): Promise<void> {
  if (['loaded', 'interactive', 'complete'].includes(document.readyState))
    return Promise.resolve()
  return new Promise((resolve) =>
    window.addEventListener('load', () => resolve(), { once: true }),
  )
}
