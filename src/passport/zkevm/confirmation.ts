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
 * what needs confirming, or closes it when nothing does. Nothing here
 * touches `window` before `open`.
 */
import { BaseError } from '../../core/Errors.js'
import { PopupOverlay, type PopupOverlayOptions } from '../auth/overlay.js'
import { popupFeatures } from '../auth/popup.js'
import * as Wire from '../wire/confirmation.js'

/** Opens confirmation popups. */
export type Confirmation = {
  /**
   * Opens the popup on the loading page, synchronously. A blocked popup
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
 * One opened popup, for one signing request: a second request on the same
 * handle ends the first (it resolves false) and finds the popup closed.
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
   * Closes the popup and the overlay; a pending answer resolves false.
   * Idempotent.
   */
  close(): void
}

/**
 * Creates the confirmation popups of one wallet.
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
  } = options
  // The origin the pages must come from: 'https://a.example/' means
  // 'https://a.example'. The published SDK compares the configured string
  // as it is, so a trailing slash there silently refuses every answer.
  const origin = new URL(passportDomain).origin
  return {
    open(openOptions = {}) {
      if (crossSdkBridgeEnabled) return bridgeHandle
      return openHandle({
        origin,
        overlayOptions,
        closedPollInterval,
        width: openOptions.width ?? Wire.sizes.default.width,
        height: openOptions.height ?? Wire.sizes.default.height,
      })
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
  }
}

/** The handle of the game bridge: no window, nothing confirmed. */
const bridgeHandle: Handle = {
  transaction: async () => false,
  message: async () => false,
  unavailable: async () => undefined,
  close: () => undefined,
}

/** A request waiting for the popup. */
type Pending = {
  /** What a message from the page means; undefined for the unavailable page. */
  prefix: 'transaction' | 'message' | undefined
  finish(outcome: { value: boolean } | { error: Error }): void
}

function openHandle(options: {
  origin: string
  overlayOptions: PopupOverlayOptions
  closedPollInterval: number
  width: number
  height: number
}): Handle {
  const { origin, overlayOptions, closedPollInterval, width, height } = options
  let href = origin + Wire.paths.loading
  let popup: Window | null = null
  let overlay: PopupOverlay | undefined
  let overlayClosed = false
  let closed = false
  /** Blocked, and no overlay may offer a retry. */
  let unopenable = false
  let pending: Pending | undefined

  const openWindow = (): boolean => {
    try {
      popup = window.open(
        href,
        Wire.windowName,
        popupFeatures({ width, height }),
      )
    } catch {
      // A sandboxed frame without allow-popups throws instead of
      // answering null: blocked all the same.
      popup = null
    }
    if (!popup) return false
    popup.focus()
    return true
  }

  const closeAll = () => {
    closed = true
    overlay?.remove()
    overlay = undefined
    if (popup && !popup.closed) popup.close()
    popup = null
  }

  const opened = openWindow()
  overlay = new PopupOverlay(overlayOptions, !opened)
  const shown = overlay.append(
    () => {
      if (closed) return
      // Re-launch: a popup lost behind the game (or never opened) is
      // replaced by a new one on the page now due, from this click.
      if (popup && !popup.closed) popup.close()
      openWindow()
    },
    () => {
      overlayClosed = true
      if (pending) pending.finish({ value: false })
      else closeAll()
    },
  )
  if (!opened && !shown) unopenable = true

  /**
   * Shows `path` in the popup and waits: for the page's answer when
   * `prefix` is set, else for the popup to be closed.
   */
  const show = (
    path: string,
    prefix: Pending['prefix'],
  ): Promise<{ value: boolean } | { error: Error }> =>
    new Promise((resolve) => {
      if (pending) pending.finish({ value: false })
      if (unopenable)
        return resolve({ error: new ConfirmationError('openFailed') })
      if (closed || overlayClosed) return resolve({ value: false })
      href = origin + path

      let timer: ReturnType<typeof setInterval> | undefined
      const onMessage = (event: MessageEvent) => {
        // Only the popup's own window, on the passport domain, may answer:
        // any frame or window of the page could post a look-alike.
        if (!popup || event.source !== popup || event.origin !== origin) return
        const data: unknown = event.data
        if (!data || typeof data !== 'object') return
        const message = data as Record<string, unknown>
        if (message.eventType !== Wire.eventType || prefix === undefined) return
        const type = message.messageType
        if (type === Wire.messages.ready) {
          popup.postMessage(
            { eventType: Wire.eventType, messageType: Wire.messages.start },
            origin,
          )
          return
        }
        if (type === `${prefix}_confirmed`) return entry.finish({ value: true })
        if (type === `${prefix}_rejected`) return entry.finish({ value: false })
        if (type === `${prefix}_error`)
          return entry.finish({
            error: new ConfirmationError(
              prefix === 'transaction' ? 'transactionError' : 'messageError',
            ),
          })
        entry.finish({ error: new ConfirmationError('unsupportedMessage') })
      }
      const entry: Pending = {
        prefix,
        finish(outcome) {
          if (pending !== entry) return
          pending = undefined
          removeEventListener('message', onMessage)
          clearInterval(timer)
          closeAll()
          resolve(outcome)
        },
      }
      pending = entry
      addEventListener('message', onMessage)
      // A closed popup is a "no"; a blocked one (none yet) waits for Try
      // again or the overlay's close button.
      timer = setInterval(() => {
        if (popup?.closed) entry.finish({ value: false })
      }, closedPollInterval)
      if (popup?.closed) return entry.finish({ value: false })
      if (popup) popup.location.href = href
    })

  const answer = async (
    path: string,
    prefix: 'transaction' | 'message',
  ): Promise<boolean> => {
    const outcome = await show(path, prefix)
    if ('error' in outcome) throw outcome.error
    return outcome.value
  }

  return {
    transaction({ transactionId, wallet, chainId }) {
      return answer(
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
    message({ messageId, wallet, messageType }) {
      return answer(
        Wire.paths.zkEvmMessage +
          query({ messageID: messageId, etherAddress: wallet, messageType }),
        'message',
      )
    },
    async unavailable() {
      // Blocked with no overlay: nothing can be shown, nothing to wait for.
      await show(Wire.paths.unavailable, undefined)
    },
    close() {
      if (pending) pending.finish({ value: false })
      else closeAll()
    },
  }
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
