import { createModalNotReadyError, type SdkWarningCode } from '../errors.js'
import * as Messages from '../wire/messages.js'
import * as Heartbeat from './heartbeat.js'
import * as Match from './match.js'
import * as View from './view.js'

/**
 * One iframe and its messages, shared by every transport with the same
 * encoded parameters (a module-level map, like the published SDK's). It owns
 * the element, the ready handshake, the overlay, the origin and source
 * checks, the reload and the heartbeat; transports subscribe to its
 * messages.
 */

/** A warning for the host's console (the SDK's `MagicSDKWarning`s). */
export type Warning = { code: SdkWarningCode | undefined; message: string }

/** An incoming message that passed the checks; `response` defaults to `{}`. */
export type Message = Record<string, unknown> & {
  msgType: string
  response: Record<string, unknown>
}

/** The shared side of one iframe, as its transports see it. */
export type Channel = {
  /** Calls `handler` with each accepted message. Returns an unsubscribe. */
  subscribe(handler: (message: Message) => void): () => void
  /** Creates the iframe (once), repairs it if it went missing, waits ready. */
  ready(): Promise<void>
  /**
   * Waits ready, then posts what `build` makes; rebuilds and retries when
   * the iframe went missing meanwhile.
   */
  post(build: () => Promise<Record<string, unknown>>): Promise<void>
  /** Drops one user; the last one removes the iframe and every listener. */
  release(): void
}

const channels = new Map<string, State>()

type State = Channel & { users: number }

/**
 * The channel of `encodedParams`, made on first use. Creating it touches no
 * browser global; the iframe is made by the first `ready()`/`post()`.
 */
export function acquire(options: acquire.Options): Channel {
  const existing = channels.get(options.encodedParams)
  if (existing) {
    existing.users++
    return existing
  }
  const state = open(options)
  channels.set(options.encodedParams, state)
  return state
}

export declare namespace acquire {
  type Options = {
    origin: string
    encodedParams: string
    heartbeat: boolean
    warn: (warning: Warning) => void
    now: () => number
  }
}

function open(options: acquire.Options): State {
  const { encodedParams, origin, warn } = options
  const type = (name: Messages.IncomingType) =>
    Messages.messageType(name, encodedParams)
  const handlers = new Set<(message: Message) => void>()
  let iframe: HTMLIFrameElement | undefined
  let mounted: Promise<void> | undefined
  let isReady = false
  let waiters: (() => void)[] = []
  let activeElement: Element | null = null
  let closed = false

  const heartbeat = options.heartbeat
    ? Heartbeat.create({
        now: options.now,
        ping: () =>
          iframe?.contentWindow?.postMessage(
            {
              msgType: Messages.messageType('MAGIC_PING', encodedParams),
              payload: [],
            },
            origin,
          ),
        reload,
      })
    : undefined

  function onMessage(event: MessageEvent) {
    // Only our own iframe's window at the endpoint origin may talk to us:
    // another window of the same origin (a second iframe, a popup) cannot.
    if (event.origin !== origin) return
    if (!iframe?.contentWindow || event.source !== iframe.contentWindow) return
    const data: unknown = event.data
    if (typeof data !== 'object' || data === null) return
    const { msgType, response } = data as Record<string, unknown>
    if (typeof msgType !== 'string' || !msgType) return
    const message = {
      ...(data as Record<string, unknown>),
      msgType,
      response: (response ?? {}) as Record<string, unknown>,
    }
    if (Match.isPong(msgType)) heartbeat?.pong()
    else if (Match.isActivity(msgType)) heartbeat?.activity()
    if (msgType === type('MAGIC_OVERLAY_READY')) markReady()
    else if (msgType === type('MAGIC_SHOW_OVERLAY')) showOverlay()
    else if (msgType === type('MAGIC_HIDE_OVERLAY')) hideOverlay()
    else if (msgType === type('MAGIC_SEND_PRODUCT_ANNOUNCEMENT'))
      announce(message.response)
    for (const handler of [...handlers])
      try {
        handler(message)
      } catch (error) {
        queueMicrotask(() => {
          throw error
        })
      }
  }

  function markReady() {
    isReady = true
    const resolved = waiters
    waiters = []
    for (const resolve of resolved) resolve()
  }

  function showOverlay() {
    if (!iframe) return
    View.applyStyles(iframe, View.shownStyles)
    activeElement = document.activeElement
    iframe.focus()
  }

  function hideOverlay() {
    if (!iframe) return
    View.applyStyles(iframe, View.hiddenStyles)
    const previous = activeElement as HTMLElement | null
    activeElement = null
    if (typeof previous?.focus === 'function') previous.focus()
  }

  function announce(response: Record<string, unknown>) {
    const result = response.result as Record<string, unknown> | undefined
    const text = result?.product_announcement
    if (text) warn({ code: 'ANNOUNCEMENT', message: String(text) })
  }

  function onLoad() {
    heartbeat?.activity()
  }

  function onBeforeUnload() {
    heartbeat?.stop()
  }

  function attach() {
    // Unlike the published SDK, which warns and then never creates its
    // iframe (so every request hangs), we warn and create our own: the
    // foreign element's window is not ours, so the source check would drop
    // its messages anyway, and its ready state is unknown to us.
    if (View.hasForeign(encodedParams, iframe))
      warn({ code: 'DUPLICATE_IFRAME', message: 'Duplicate iframes found.' })
    iframe?.removeEventListener('load', onLoad)
    iframe = View.createElement(origin, encodedParams)
    iframe.addEventListener('load', onLoad)
    document.body.appendChild(iframe)
  }

  function mount() {
    // Without a document (SSR, workers) there is no iframe to talk to.
    if (typeof document === 'undefined')
      return Promise.reject(createModalNotReadyError())
    mounted ??= View.whenDocumentReady().then(() => {
      if (closed) return
      window.addEventListener('message', onMessage)
      window.addEventListener('beforeunload', onBeforeUnload)
      attach()
    })
    return mounted
  }

  /**
   * Before each post, repairs the iframe as the published SDK does: a
   * removed element is made again, an element without a window is appended
   * again, and one whose `src` lost our parameters gets its `src` back;
   * each waits for a new ready message.
   */
  function repair(element: HTMLIFrameElement) {
    if (!element.isConnected) {
      isReady = false
      warn({ code: undefined, message: 'Magic SDK: Modal lost, re-initiating' })
      attach()
    } else if (!element.contentWindow) {
      isReady = false
      document.body.appendChild(element)
      warn({
        code: undefined,
        message: 'Magic SDK: Modal did not append in the iframe, re-initiating',
      })
    } else if (!View.hasParams(element, encodedParams)) {
      isReady = false
      element.src = View.src(origin, encodedParams)
    }
  }

  function reload() {
    isReady = false
    if (iframe?.isConnected) iframe.src = View.src(origin, encodedParams)
  }

  async function ready() {
    await mount()
    for (;;) {
      if (closed || !iframe) throw createModalNotReadyError()
      repair(iframe)
      if (isReady) return
      await new Promise<void>((resolve) => waiters.push(resolve))
    }
  }

  const state: State = {
    users: 1,
    subscribe(handler) {
      const own = (message: Message) => handler(message)
      handlers.add(own)
      return () => handlers.delete(own)
    },
    ready,
    async post(build) {
      for (;;) {
        await ready()
        const data = await build()
        const target = iframe?.contentWindow
        if (isReady && iframe?.isConnected && target) {
          target.postMessage(data, origin)
          return
        }
      }
    },
    release() {
      if (--state.users > 0) return
      closed = true
      channels.delete(encodedParams)
      heartbeat?.stop()
      if (mounted) {
        window.removeEventListener('message', onMessage)
        window.removeEventListener('beforeunload', onBeforeUnload)
      }
      iframe?.removeEventListener('load', onLoad)
      iframe?.remove()
      iframe = undefined
      markReady()
    },
  }
  return state
}
