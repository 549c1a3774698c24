/**
 * The wallet's side of the guardian's confirmation popup. When the guardian
 * asks the player to confirm a transaction or a message, the wallet shows a
 * page of the passport domain in a centred popup and waits for that page to
 * say confirmed, rejected or error, over `postMessage` (the protocol in
 * `../wire/confirmation.ts`, as the published @imtbl/passport 2.x speaks it).
 *
 * The popup is opened in two steps, as the published SDK does: {@link
 * Confirmation.open} opens it on the loading page synchronously (so that it
 * can still count as part of the click that started the request, before any
 * await), and the returned {@link Handle} then navigates it to the page of
 * what needs confirming, or closes it when nothing does. With `popup:
 * 'on-demand'` nothing opens until the guardian asks: the popup then opens
 * on the page to confirm while the click's activation is still live, and
 * the blocked overlay's Try again opens it from a new click otherwise.
 * Nothing here touches `window` before `open`.
 */
import { BaseError } from '../../core/Errors.js'
import { PopupOverlay, type PopupOverlayOptions } from '../auth/overlay.js'
import { popupFeatures } from '../auth/popup.js'
import * as Wire from '../wire/confirmation.js'
import { chainType as starkExChainType } from '../wire/starkex.js'

/** Opens confirmation popups. */
export type Confirmation = {
  /**
   * Opens the popup on the loading page, synchronously, unless the
   * wallet's popup is already open for another request. A blocked popup
   * shows the blocked overlay (Try again reopens it from the click); an
   * open one shows the generic overlay (Try again re-launches it), unless
   * the overlay options turn them off. In the game bridge nothing opens.
   */
  open(options?: OpenOptions | undefined): Handle
}

/** Options of one popup. */
export type OpenOptions = {
  /** Window size, px; @default 480x720 (a batch NFT transfer uses 480x784) */
  width?: number | undefined
  height?: number | undefined
}

/**
 * One signing request's claim on the wallet's popup: the window stays open
 * while any request holds it. A handle answers once: a second request on
 * it ends the first (which resolves false) and resolves false too.
 */
export type Handle = {
  /**
   * Shows the transaction page and resolves with the player's answer: true
   * when confirmed; false when rejected, or when the popup or the overlay
   * was closed.
   *
   * @throws {ConfirmationError} 'Error during transaction confirmation',
   *   'Unsupported message type', 'Failed to open confirmation screen'.
   */
  transaction(args: {
    transactionId: string
    wallet: string
    chainId: number
  }): Promise<boolean>
  /**
   * Shows the StarkEx transaction page (`transactionId` is the payload
   * hash, `wallet` the player's StarkEx Ethereum address) and resolves with
   * the player's answer, as {@link Handle.transaction}.
   *
   * @throws {ConfirmationError} as {@link Handle.transaction}.
   */
  starkExTransaction(args: {
    transactionId: string
    wallet: string
  }): Promise<boolean>
  /**
   * Shows the message page and resolves with the player's answer, as
   * {@link Handle.transaction}.
   *
   * @throws {ConfirmationError} 'Error during message confirmation',
   *   'Unsupported message type', 'Failed to open confirmation screen'.
   */
  message(args: {
    messageId: string
    wallet: string
    messageType: 'eip712' | 'erc191'
  }): Promise<boolean>
  /**
   * Shows the service-unavailable page and resolves when the player closed
   * it (or the overlay); at once when no popup could be shown.
   */
  unavailable(): Promise<void>
  /**
   * Lets go of the popup (the last request to let go closes it and the
   * overlay); a pending answer resolves false. Idempotent.
   */
  close(): void
}

/**
 * Creates the confirmation popups of one wallet.
 *
 * All the wallet's requests share one window: the published SDK opens one
 * window per request under one name, so a second request's `window.open`
 * sends the window showing the first request's page back to the loading
 * page, and whichever request ends first closes it under the others. Here
 * a request opens the window only when none is open, the window closes
 * when the last request holding it ends, and requests the guardian asks
 * about take turns in it, first asked first shown.
 *
 * @example
 * ```ts
 * const confirmation = create({ passportDomain: 'https://passport.immutable.com' })
 * const handle = confirmation.open() // in the click handler, before any await
 * const { confirmationRequired, transactionId } = await evaluate()
 * if (!confirmationRequired) handle.close()
 * else if (!(await handle.transaction({ transactionId, wallet, chainId })))
 *   throw new Error('Transaction rejected by user')
 * ```
 */
export function create(options: create.Options): Confirmation {
  const {
    passportDomain,
    overlay: overlayOptions = {},
    crossSdkBridgeEnabled = false,
    closedPollInterval = Wire.closedPollInterval,
    popup: mode = 'eager',
  } = options
  // The origin the pages must come from: 'https://a.example/' means
  // 'https://a.example'. The published SDK compares the configured string
  // as it is, so a trailing slash there silently refuses every answer.
  const origin = new URL(passportDomain).origin
  const loading = origin + Wire.paths.loading
  let size: { width: number; height: number } = Wire.sizes.default

  /** The shared window; null while blocked or after it closed. */
  let popup: Window | null = null
  /**
   * A window let go of before its first page committed, whose close waits
   * for that commit; the next request takes it up again as it is.
   */
  let closing: Window | null = null
  let overlay: PopupOverlay | undefined
  /** The page the window shows, or is to show once Try again opens it. */
  let href = loading
  /** Blocked, and no overlay may offer a retry. */
  let unopenable = false
  /** The requests holding the window open. */
  const holders = new Set<Holder>()
  /** The requests waiting for the player, in turn; the first is shown. */
  const queue: Pending[] = []
  let timer: ReturnType<typeof setInterval> | undefined

  const openWindow = (): boolean => {
    try {
      popup = window.open(href, Wire.windowName, popupFeatures(size))
    } catch {
      // A sandboxed frame without allow-popups throws instead of
      // answering null: blocked all the same.
      popup = null
    }
    if (!popup) return false
    popup.focus()
    return true
  }
  const isOpen = () => popup !== null && !popup.closed

  /**
   * Closes the window and the overlay. Every waiting request reads "no"
   * (the player closed the popup or the overlay, or the page spoke a
   * protocol we do not know); requests still holding it without waiting
   * keep their claim, and share the window the next request opens.
   */
  const closeAll = () => {
    const waiting = queue.splice(0)
    stopListening()
    clearTimeout(navigation)
    navigation = undefined
    overlay?.remove()
    overlay = undefined
    const closing = popup
    popup = null
    if (closing && !closing.closed) closeWindow(closing)
    href = loading
    unopenable = false
    for (const entry of waiting) {
      entry.holder.released = true
      holders.delete(entry.holder)
      entry.resolve({ value: false })
    }
  }

  /**
   * Shows a new window on `href` with its overlay: the window opens when
   * `canOpen` (otherwise, or when blocked, the blocked overlay offers Try
   * again); nothing at all can show when the overlay is turned off too.
   * Says whether a new window opened on `href` (not a closing one taken up
   * as it is).
   */
  function launch(openOptions: OpenOptions, canOpen: boolean): boolean {
    size = {
      width: openOptions.width ?? Wire.sizes.default.width,
      height: openOptions.height ?? Wire.sizes.default.height,
    }
    const taken = canOpen && takeUpClosing()
    const opened = taken || (canOpen && openWindow())
    overlay = new PopupOverlay(overlayOptions, !opened)
    const shown = overlay.append(() => {
      // Re-launch: a popup lost behind the game (or never opened) is
      // replaced by a new one on the page now due, from this click.
      if (isOpen()) popup?.close()
      openWindow()
    }, closeAll)
    unopenable = !opened && !shown
    return opened && !taken
  }

  const release = (holder: Holder) => {
    if (holder.released) return
    holder.released = true
    holders.delete(holder)
    if (holders.size === 0) closeAll()
  }

  const onMessage = (event: MessageEvent) => {
    // Only the popup's own window, on the passport domain, may answer:
    // any frame or window of the page could post a look-alike.
    if (!popup || event.source !== popup || event.origin !== origin) return
    const data: unknown = event.data
    if (!data || typeof data !== 'object') return
    const message = data as Record<string, unknown>
    const entry = queue[0]
    if (message.eventType !== Wire.eventType || entry?.prefix === undefined)
      return
    const { prefix } = entry
    const type = message.messageType
    if (type === Wire.messages.ready) {
      popup.postMessage(
        { eventType: Wire.eventType, messageType: Wire.messages.start },
        origin,
      )
      return
    }
    if (type === `${prefix}_confirmed`) return finish(entry, { value: true })
    if (type === `${prefix}_rejected`) return finish(entry, { value: false })
    if (type === `${prefix}_error`)
      return finish(entry, {
        error: new ConfirmationError(
          prefix === 'transaction' ? 'transactionError' : 'messageError',
        ),
      })
    // The page speaks a protocol this wallet does not know: its window is
    // of no use to any waiting request.
    finish(entry, { error: new ConfirmationError('unsupportedMessage') })
    closeAll()
  }

  const listen = () => {
    if (timer !== undefined) return
    addEventListener('message', onMessage)
    // A closed popup is a "no" for every waiting request; a blocked one
    // (none yet) waits for Try again or the overlay's close button.
    timer = setInterval(() => {
      if (popup?.closed) closeAll()
    }, closedPollInterval)
  }
  function stopListening() {
    if (timer === undefined) return
    removeEventListener('message', onMessage)
    clearInterval(timer)
    timer = undefined
  }

  /**
   * Shows the first waiting request's page. With none waiting, the answered
   * page stays until the window closes or another request is asked about:
   * sending it back to the loading page would leave a navigation pending
   * that the window's close, often a moment later, can lose to (Chromium
   * then keeps the window open on the loading page).
   */
  const showNext = () => {
    const entry = queue[0]
    if (!entry) {
      // What Try again reopens, should the window be lost meanwhile.
      href = loading
      return stopListening()
    }
    href = origin + entry.path
    listen()
    navigate()
  }

  let navigation: ReturnType<typeof setTimeout> | undefined
  /**
   * Closes a window once its first page has committed: closed while a load
   * from another site is committing, Chromium can leave it open on that
   * page, with `closed` already true, so that no later `close()` reaches it.
   * One the next request takes up again meanwhile stays open.
   */
  function closeWindow(target: Window) {
    closing = target
    const started = Date.now()
    const go = () => {
      if (target.closed || closing !== target) return
      if (!committed(target) && Date.now() - started < maxCommitWait) {
        setTimeout(go, 10)
        return
      }
      closing = null
      target.close()
    }
    go()
  }

  /**
   * The window whose close still waits for its first page, taken up again
   * as it is: reopening it by its name would start a second load of the
   * loading page, which a close a moment later (a request the guardian
   * asks nothing about ends in milliseconds) can lose to, as above.
   */
  const takeUpClosing = (): boolean => {
    const target = closing
    closing = null
    if (!target || target.closed) return false
    popup = target
    target.focus()
    return true
  }

  /**
   * Sends the popup to `href` once its first page has committed. Chromium
   * drops a navigation made while the window's first load, from another
   * site, is still pending (about 1 in 15 when the guardian answers within
   * a few milliseconds, as on loopback): the popup then stays on the
   * loading page for good. Until that load commits, the window still
   * holds its initial same-origin `about:blank`, which is what is checked.
   */
  function navigate() {
    clearTimeout(navigation)
    navigation = undefined
    const target = popup
    if (!target || target.closed) return
    const started = Date.now()
    const go = () => {
      navigation = undefined
      if (popup !== target || target.closed) return
      if (!committed(target) && Date.now() - started < maxCommitWait) {
        navigation = setTimeout(go, 10)
        return
      }
      target.location.href = href
    }
    go()
  }

  /** Ends a request's wait: its answer is in, and it lets go of the window. */
  function finish(entry: Pending, outcome: Outcome) {
    const index = queue.indexOf(entry)
    if (index === -1) return
    queue.splice(index, 1)
    entry.resolve(outcome)
    const { holder } = entry
    holder.released = true
    holders.delete(holder)
    if (holders.size === 0) return closeAll()
    // Others still hold the window: the next one waiting is shown.
    if (index === 0) showNext()
  }

  const show = (
    holder: Holder,
    path: string,
    prefix: Pending['prefix'],
  ): Promise<Outcome> =>
    new Promise((resolve) => {
      const previous = queue.find((entry) => entry.holder === holder)
      if (previous) finish(previous, { value: false })
      if (holder.released) return resolve({ value: false })
      let opened = false
      if (holder.deferred && !popup && !overlay && !unopenable) {
        // On demand: the window opens now, right on this page, if the
        // request's click still counts; if not, the blocked overlay's Try
        // again opens it from a new click.
        href = origin + path
        // Browsers block `window.open` once the click's transient
        // activation (HTML's `navigator.userActivation`) has expired or been
        // used; where the API is missing, the attempt is made.
        opened = launch(
          holder.deferred,
          (navigator.userActivation as UserActivation | undefined)?.isActive !==
            false,
        )
      }
      if (unopenable)
        return resolve({ error: new ConfirmationError('openFailed') })
      if (popup?.closed) closeAll()
      // Closed by the player, or its overlay dismissed, before this was
      // asked: nothing shows it, and nothing is confirmed unseen.
      if (!popup && !overlay) return resolve({ value: false })
      queue.push({ holder, path, prefix, resolve })
      // A window just opened on this page needs no second load of it.
      if (queue.length === 1) opened ? listen() : showNext()
    })

  const answer = async (
    holder: Holder,
    path: string,
    prefix: 'transaction' | 'message',
  ): Promise<boolean> => {
    const outcome = await show(holder, path, prefix)
    if ('error' in outcome) throw outcome.error
    return outcome.value
  }

  return {
    open(openOptions = {}) {
      if (crossSdkBridgeEnabled) return bridgeHandle
      const holder: Holder = { released: false }
      // Closed by the player since, or blocked with no overlay to retry
      // from: a new window opens from this click.
      if (popup?.closed || unopenable) closeAll()
      // The first request of a new window sets its size, and opens it from
      // its click (on demand: once the guardian asks, see `show`). Later
      // ones reuse the window as it is, so that a page the player is
      // reading is never replaced by the loading page.
      if (!popup && !overlay) {
        if (mode === 'on-demand') holder.deferred = openOptions
        else launch(openOptions, true)
      }
      holders.add(holder)
      return {
        transaction({ transactionId, wallet, chainId }) {
          return answer(
            holder,
            Wire.paths.zkEvmTransaction +
              query({
                transactionID: transactionId,
                etherAddress: wallet,
                chainType: 'evm',
                chainID: `eip155:${chainId}`,
              }),
            'transaction',
          )
        },
        starkExTransaction({ transactionId, wallet }) {
          return answer(
            holder,
            Wire.paths.transaction +
              query({
                transactionId,
                etherAddress: wallet,
                chainType: starkExChainType,
              }),
            'transaction',
          )
        },
        message({ messageId, wallet, messageType }) {
          return answer(
            holder,
            Wire.paths.zkEvmMessage +
              query({
                messageID: messageId,
                etherAddress: wallet,
                messageType,
              }),
            'message',
          )
        },
        async unavailable() {
          // Blocked with no overlay: nothing can be shown, nothing to wait for.
          await show(holder, Wire.paths.unavailable, undefined)
        },
        close() {
          const entry = queue.find((pending) => pending.holder === holder)
          if (entry) finish(entry, { value: false })
          else release(holder)
        },
      }
    },
  }
}

export declare namespace create {
  type Options = {
    /** Origin of the confirmation pages, e.g. `https://passport.immutable.com`. */
    passportDomain: string
    /** The host's overlay switches (`popupOverlayOptions`). */
    overlay?: PopupOverlayOptions | undefined
    /**
     * Inside the game bridge no popup can be shown: `open` opens nothing and
     * every request reads as not confirmed (the wallet then answers -32003,
     * as the published SDK does). @default false
     */
    crossSdkBridgeEnabled?: boolean | undefined
    /** How often to check whether the popup was closed, ms; @default 1000 */
    closedPollInterval?: number | undefined
    /**
     * When the popup opens (`confirmationPopup`): `'eager'` at `open`, on
     * the loading page, as the published SDK does; `'on-demand'` only when
     * a request is shown, on its page. @default 'eager'
     */
    popup?: ConfirmationPopupMode | undefined
  }
}

/** The handle of the game bridge: no window, nothing confirmed. */
const bridgeHandle: Handle = {
  transaction: async () => false,
  starkExTransaction: async () => false,
  message: async () => false,
  unavailable: async () => undefined,
  close: () => undefined,
}

/**
 * How long to wait for the popup's first page to commit before navigating
 * or closing it anyway, ms: a loaded machine can take seconds to start the
 * page's process, and only a load that hangs outlasts this.
 */
const maxCommitWait = 20_000

/**
 * Whether a window's first navigation has committed: reading its location
 * throws once it shows a page of another origin; before, it is the
 * initial `about:blank`, of the opener's origin.
 */
function committed(target: Window): boolean {
  try {
    return target.location.href !== 'about:blank'
  } catch {
    return true
  }
}

/**
 * When the confirmation popup opens: `'eager'` at the start of every
 * signing request (on the loading page, closed again when the guardian
 * asks nothing), as the published SDK does; `'on-demand'` only once the
 * guardian asks the player to confirm.
 */
export type ConfirmationPopupMode = 'eager' | 'on-demand'

/** One request's claim on the shared window. */
type Holder = {
  released: boolean
  /** On demand: the window's options, until the request is shown. */
  deferred?: OpenOptions | undefined
}

type Outcome = { value: boolean } | { error: Error }

/** A request waiting for the player in the popup. */
type Pending = {
  holder: Holder
  /** The page to show, from the passport domain's root. */
  path: string
  /** What a message from the page means; undefined for the unavailable page. */
  prefix: 'transaction' | 'message' | undefined
  resolve(outcome: Outcome): void
}

/**
 * A query string whose values are percent-encoded except `:`, so that
 * `chainID=eip155:13473` reads as the published SDK writes it (it does not
 * encode its values; ids and addresses need no encoding, and `:` is legal
 * in a query, RFC 3986 section 3.4).
 */
function query(params: Record<string, string>): string {
  return `?${Object.entries(params)
    .map(
      ([key, value]) =>
        `${key}=${encodeURIComponent(value).replaceAll('%3A', ':')}`,
    )
    .join('&')}`
}

/** Why a confirmation failed. */
export type ConfirmationErrorReason =
  | 'transactionError'
  | 'messageError'
  | 'unsupportedMessage'
  | 'openFailed'

/** The published SDK's texts, which apps match on. */
export const confirmationErrorMessages = {
  transactionError: 'Error during transaction confirmation',
  messageError: 'Error during message confirmation',
  unsupportedMessage: 'Unsupported message type',
  openFailed: 'Failed to open confirmation screen',
} as const satisfies Record<ConfirmationErrorReason, string>

/**
 * The confirmation popup failed: its page reported an error, sent a message
 * of an unknown type, or could not be opened. The message is exactly the
 * published text (no details line).
 */
export class ConfirmationError extends BaseError<undefined> {
  override readonly name = 'Confirmation.ConfirmationError'
  /** Which failure this is. */
  readonly reason: ConfirmationErrorReason
  constructor(reason: ConfirmationErrorReason) {
    super(confirmationErrorMessages[reason])
    this.reason = reason
  }
}
