/**
 * The overlay the game wallet lays over the host page around a popup: the
 * "generic" one while a popup is open (to re-launch it) and the "blocked" one
 * when the browser blocked it. Both have a Try again button and a close
 * button, and one stylesheet. Nothing here touches `document` before
 * {@link PopupOverlay.append}.
 */

/** The host's switches, as in the published `popupOverlayOptions`. */
export type PopupOverlayOptions = {
  /** Never show the generic overlay (the one while a popup is open). */
  disableGenericPopupOverlay?: boolean | undefined
  /** Never show the blocked-popup overlay. */
  disableBlockedPopupOverlay?: boolean | undefined
}

/** Ids of the overlay's elements (the root's id is the published one). */
export const overlayIds = {
  root: 'passport-overlay',
  contents: 'passport-overlay-contents',
  text: 'passport-overlay-text',
  tryAgain: 'passport-overlay-try-again',
  close: 'passport-overlay-close',
  style: 'passport-overlay-style',
} as const

const blockedTitle = 'Pop-up blocked.'
const blockedBody =
  'Please try again below. If the problem continues, adjust your browser settings.'

/** The overlay's texts, exactly as shown (`blocked` is title + body). */
export const overlayTexts = {
  generic: "Secure pop-up not showing? We'll help you re-launch",
  blocked: `${blockedTitle} ${blockedBody}`,
  tryAgain: 'Try again',
  close: 'Close',
} as const

/** `data-testid`s of the overlay's elements (equal to their ids). */
export const overlayTestIds = overlayIds

const svgNs = 'http://www.w3.org/2000/svg'

/**
 * One overlay, generic or blocked. `append` shows it (at most once) unless
 * the options disable that kind; `remove` takes it and, when no other
 * overlay is left, its stylesheet off the page. Listeners are bound to this
 * overlay's own buttons.
 *
 * @example
 * ```ts
 * const overlay = new PopupOverlay({ disableGenericPopupOverlay: true }, true)
 * overlay.append(() => retry(), () => { overlay.remove(); cancel() })
 * ```
 */
export class PopupOverlay {
  /** Whether this is the blocked-popup overlay (else the generic one). */
  readonly blocked: boolean
  readonly #options: PopupOverlayOptions
  #root: HTMLElement | undefined
  #tryAgain: (() => void) | undefined
  #close: (() => void) | undefined

  constructor(options: PopupOverlayOptions = {}, blocked = false) {
    this.#options = { ...options }
    this.blocked = blocked
  }

  /**
   * Whether this kind is allowed by the options: `disableGenericPopupOverlay`
   * turns off the generic overlay, `disableBlockedPopupOverlay` the blocked
   * one (the published rule).
   */
  get enabled(): boolean {
    return this.blocked
      ? !this.#options.disableBlockedPopupOverlay
      : !this.#options.disableGenericPopupOverlay
  }

  /** The overlay's root element while it is on the page. */
  get element(): HTMLElement | undefined {
    return this.#root?.isConnected ? this.#root : undefined
  }

  /**
   * Shows the overlay (once; a second call only rebinds the handlers) unless
   * disabled. Returns whether it is shown.
   */
  append(tryAgainOnClick: () => void, onCloseClick: () => void): boolean {
    if (!this.enabled) return false
    if (!this.element) this.#root = build(this.blocked)
    this.update(tryAgainOnClick)
    this.#bind('close', onCloseClick)
    return true
  }

  /** Replaces the Try again handler. */
  update(tryAgainOnClick: () => void): void {
    this.#bind('tryAgain', tryAgainOnClick)
  }

  /**
   * Takes the overlay (and its listeners) off the page, and the stylesheet
   * when no overlay is left; harmless when it is not shown.
   */
  remove(): void {
    const root = this.#root
    if (!root) return
    const button = (id: string) => root.querySelector(`#${id}`)
    if (this.#tryAgain)
      button(overlayIds.tryAgain)?.removeEventListener('click', this.#tryAgain)
    if (this.#close)
      button(overlayIds.close)?.removeEventListener('click', this.#close)
    this.#root = undefined
    this.#tryAgain = undefined
    this.#close = undefined
    root.remove()
    if (!document.getElementById(overlayIds.root))
      document.getElementById(overlayIds.style)?.remove()
  }

  #bind(which: 'tryAgain' | 'close', handler: () => void): void {
    const button = this.#root?.querySelector<HTMLButtonElement>(
      `#${overlayIds[which]}`,
    )
    if (!button) return
    const previous = which === 'tryAgain' ? this.#tryAgain : this.#close
    if (previous) button.removeEventListener('click', previous)
    button.addEventListener('click', handler)
    if (which === 'tryAgain') this.#tryAgain = handler
    else this.#close = handler
  }
}

/** Builds and appends one overlay (and the stylesheet, once). */
function build(blocked: boolean): HTMLElement {
  if (!document.getElementById(overlayIds.style)) {
    const style = element('style', overlayIds.style)
    style.textContent = overlayCss
    document.head.append(style)
  }
  const root = element('div', overlayIds.root)
  root.setAttribute('role', 'dialog')
  root.setAttribute('aria-modal', 'true')
  root.dataset.variant = blocked ? 'blocked' : 'generic'

  const close = element('button', overlayIds.close)
  close.type = 'button'
  close.setAttribute('aria-label', overlayTexts.close)
  close.append(closeIcon())

  const contents = element('div', overlayIds.contents)
  const text = element('p', overlayIds.text)
  if (blocked) {
    const strong = document.createElement('strong')
    strong.textContent = blockedTitle
    text.append(strong, ` ${blockedBody}`)
  } else text.textContent = overlayTexts.generic
  root.setAttribute('aria-labelledby', overlayIds.text)

  const tryAgain = element('button', overlayIds.tryAgain)
  tryAgain.type = 'button'
  tryAgain.textContent = overlayTexts.tryAgain

  contents.append(text, tryAgain)
  root.append(close, contents)
  document.body.append(root)
  return root
}

/** An element with the given id, also set as its `data-testid`. */
function element<tag extends keyof HTMLElementTagNameMap>(
  tag: tag,
  id: string,
): HTMLElementTagNameMap[tag] {
  const node = document.createElement(tag)
  node.id = id
  node.dataset.testid = id
  return node
}

/** A drawn "x" (two strokes), so no asset is fetched. */
function closeIcon(): SVGSVGElement {
  const svg = document.createElementNS(svgNs, 'svg')
  svg.setAttribute('viewBox', '0 0 20 20')
  svg.setAttribute('aria-hidden', 'true')
  const path = document.createElementNS(svgNs, 'path')
  path.setAttribute('d', 'M4.5 4.5l11 11M15.5 4.5l-11 11')
  path.setAttribute('stroke', '#f3f3f3')
  path.setAttribute('stroke-width', '2.5')
  path.setAttribute('stroke-linecap', 'round')
  svg.append(path)
  return svg
}

/*
 * The stylesheet, scoped to the root id. Every rule is `!important` so that
 * host styles cannot hide or restyle the overlay; fonts are the system's (no
 * external assets).
 */
const rootSelector = `#${overlayIds.root}`

/** The CSS injected (once) into `<head>` while an overlay is shown. */
export const overlayCss = `
${rootSelector}{all:initial!important;position:fixed!important;inset:0!important;
z-index:2147483647!important;display:flex!important;flex-direction:column!important;
justify-content:center!important;align-items:center!important;box-sizing:border-box!important;
background:rgba(13,13,13,.48)!important;backdrop-filter:blur(28px)!important;
-webkit-backdrop-filter:blur(28px)!important;color:#b6b6b6!important;
font:400 16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif!important}
${rootSelector} *{box-sizing:border-box!important;font:inherit!important}
#${overlayIds.contents}{display:flex!important;flex-direction:column!important;
align-items:center!important;max-width:400px!important;padding:0 24px!important;text-align:center!important}
#${overlayIds.text}{margin:0!important;color:#b6b6b6!important}
#${overlayIds.text} strong{display:block!important;margin-bottom:10px!important;
color:#e01a3d!important;font-weight:500!important}
#${overlayIds.tryAgain}{margin-top:27px!important;padding:12px 24px!important;
color:#f3f3f3!important;background:transparent!important;border:2px solid #f3f3f3!important;
border-radius:30px!important;font-weight:500!important;cursor:pointer!important}
#${overlayIds.close}{position:absolute!important;top:40px!important;right:40px!important;
width:48px!important;height:48px!important;display:flex!important;align-items:center!important;
justify-content:center!important;padding:0!important;border:none!important;border-radius:50%!important;
background:rgba(243,243,243,.15)!important;cursor:pointer!important}
#${overlayIds.close} svg{width:20px!important;height:20px!important}
${rootSelector} button:focus-visible{outline:2px solid #f3f3f3!important;outline-offset:2px!important}
`
