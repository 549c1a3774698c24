/**
 * The iframe app's channel to the host page: it accepts messages only from
 * the parent window on the origin named in the params, and posts only to
 * that origin.
 */
import * as Messages from '../../../../magic/wire/messages.js'

/** The channel to the host page. */
export type Host = {
  /** Posts `{ msgType: '<type>-<params>', ...data }` to the parent. */
  post(type: Messages.IncomingType, data?: Record<string, unknown>): void
  /** Stops listening. */
  destroy(): void
}

/** A message from the host, its type split from the params suffix. */
export type HostMessage = {
  type: string
  data: Record<string, unknown>
}

/**
 * Opens the channel. `onMessage` gets only messages whose source is
 * `parent`, whose origin is `origin` and whose `msgType` carries exactly
 * this iframe's encoded params.
 *
 * @param options.window - The iframe's window.
 * @param options.origin - The host page's origin (`DOMAIN_ORIGIN`).
 * @param options.encodedParams - The raw `params` query value.
 * @param options.onMessage - Called with each accepted message.
 */
export function openHost(options: openHost.Options): Host {
  const { window, origin, encodedParams, onMessage } = options
  const parent = window.parent
  const listener = (event: MessageEvent) => {
    if (event.source !== parent || event.origin !== origin) return
    const data: unknown = event.data
    if (typeof data !== 'object' || data === null) return
    const msgType = (data as { msgType?: unknown }).msgType
    if (typeof msgType !== 'string') return
    const parsed = Messages.parseMessageType(msgType)
    if (!parsed || parsed.encodedParams !== encodedParams) return
    onMessage({ type: parsed.type, data: data as Record<string, unknown> })
  }
  window.addEventListener('message', listener)
  return {
    post(type, data = {}) {
      const msgType = Messages.messageType(type, encodedParams)
      parent.postMessage({ ...data, msgType }, origin)
    },
    destroy() {
      window.removeEventListener('message', listener)
    },
  }
}

export declare namespace openHost {
  type Options = {
    window: Window
    origin: string
    encodedParams: string
    onMessage: (message: HostMessage) => void
  }
}
