/**
 * Speaks the iframe wallet's raw wire protocol (src/magic/wire) to the
 * emulator's `/send` iframe from the test page, with no client library: the
 * emulator's side of the protocol, checked on its own. Keeps a device key
 * (DPoP), the refresh token and the device share like a client would.
 */
import type * as Rpc from '../../src/core/Rpc.js'
import * as Messages from '../../src/magic/wire/messages.js'
import { createDpopKey, type DpopKey } from './dpop.js'

/** A message the iframe posted to the test page. */
export type Received = { msgType: string } & Record<string, unknown>

/** The emulator's iframe, opened on the test page. */
export type MagicFrame = {
  readonly iframe: HTMLIFrameElement
  /** The raw encoded params (the msgType suffix). */
  readonly encoded: string
  /** Every message received from the iframe, in order. */
  readonly received: readonly Received[]
  /** Waits for the first message (since `from`) that `match` accepts. */
  waitFor(
    match: (message: Received) => boolean,
    options?: { from?: number; timeout?: number },
  ): Promise<Received>
  /** Posts `{ msgType: '<type>-<params>', ...data }` to the iframe. */
  post(type: Messages.OutgoingType, data?: Record<string, unknown>): void
  /**
   * Sends a request (with a fresh DPoP proof, `rt` and device share once
   * known) and returns its id; `response(id)` waits for the answer.
   */
  send(method: string, params?: unknown): Promise<number>
  /** Waits for the response to request `id`, keeping its `rt`/share. */
  response(id: number, timeout?: number): Promise<Received>
  /** `send` then `response`: the JSON-RPC response object. */
  request(method: string, params?: unknown): Promise<Partial<Rpc.Response>>
  /** Sends the caller's answer to request `payloadId`'s flow. */
  answer(payloadId: number, eventType: string, args?: unknown): Promise<void>
  /** The session material learnt from responses. */
  readonly session: { rt?: string; deviceShare?: string }
  /** Removes the iframe and the listener. */
  destroy(): void
}

let nextId = Math.floor(Math.random() * 1_000_000) + 1

/**
 * Creates the iframe (`<endpoint>/send?params=…`) and resolves once it
 * posted `MAGIC_OVERLAY_READY-<params>`.
 *
 * @param options.domainOrigin - `DOMAIN_ORIGIN` in the params. @default location.origin
 * @param options.waitReady - Wait for ready. @default true
 */
export async function openMagicFrame(options: {
  endpoint: string
  apiKey: string
  network?: Messages.Network | undefined
  domainOrigin?: string | undefined
  waitReady?: boolean | undefined
}): Promise<MagicFrame> {
  const { endpoint, apiKey, domainOrigin = location.origin } = options
  const endpointOrigin = new URL(endpoint).origin
  const encoded = Messages.encodeParams({
    API_KEY: apiKey,
    DOMAIN_ORIGIN: domainOrigin,
    ETH_NETWORK: options.network,
    host: new URL(endpoint).host,
    sdk: 'magic-sdk',
    version: '33.13.0',
    locale: 'en_US',
  })
  const received: Received[] = []
  const waiters = new Set<() => void>()
  const iframe = document.createElement('iframe')
  iframe.dataset.testid = 'magic-iframe'
  iframe.title = 'Secure Modal'
  iframe.allow = 'clipboard-read; clipboard-write'
  iframe.style.cssText =
    'position:fixed;top:0;left:0;width:480px;height:640px;border:0'
  const listener = (event: MessageEvent) => {
    if (event.source !== iframe.contentWindow) return
    if (event.origin !== endpointOrigin) return
    const data = event.data as Received
    if (typeof data?.msgType !== 'string') return
    received.push(data)
    for (const wake of waiters) wake()
  }
  window.addEventListener('message', listener)
  iframe.src = `${endpointOrigin}/send?params=${encodeURIComponent(encoded)}`

  const type = (name: Messages.IncomingType) =>
    Messages.messageType(name, encoded)
  let key: DpopKey | undefined
  const session: MagicFrame['session'] = {}

  const frame: MagicFrame = {
    iframe,
    encoded,
    received,
    waitFor(match, { from = 0, timeout = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.slice(from).find(match)
          if (!found) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(found)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`No matching message within ${timeout} ms`))
        }, timeout)
        waiters.add(check)
        check()
      })
    },
    post(name, data = {}) {
      iframe.contentWindow?.postMessage(
        { ...data, msgType: Messages.messageType(name, encoded) },
        endpointOrigin,
      )
    },
    async send(method, params = []) {
      key ??= await createDpopKey()
      const id = nextId++
      frame.post(Messages.outgoing.request, {
        payload: { jsonrpc: '2.0', id, method, params },
        jwt: await key.proof(),
        ...(session.rt ? { rt: session.rt } : {}),
        ...(session.deviceShare ? { deviceShare: session.deviceShare } : {}),
      })
      return id
    },
    async response(id, timeout = 15_000) {
      const message = await frame.waitFor(
        (message) =>
          message.msgType === type(Messages.incoming.response) &&
          (message.response as Rpc.Response | undefined)?.id === id,
        { timeout },
      )
      if (typeof message.rt === 'string') session.rt = message.rt
      if (typeof message.deviceShare === 'string')
        session.deviceShare = message.deviceShare
      return message
    },
    async request(method, params) {
      const id = await frame.send(method, params)
      return (await frame.response(id)).response as Partial<Rpc.Response>
    },
    async answer(payloadId, eventType, args) {
      await frame.send('magic_intermediary_event', [
        { payloadId, eventType, args },
      ])
    },
    session,
    destroy() {
      window.removeEventListener('message', listener)
      iframe.remove()
    },
  }

  const ready = frame.waitFor(
    (message) => message.msgType === type(Messages.incoming.overlayReady),
  )
  document.body.append(iframe)
  if (options.waitReady !== false) await ready
  else ready.catch(() => {})
  return frame
}

/** The wire type `<type>-<params>` of `frame`. */
export function typeOf(frame: MagicFrame, name: Messages.IncomingType): string {
  return Messages.messageType(name, frame.encoded)
}

/** Whether `message` is flow event `event` of request `id`. */
export function isEvent(
  frame: MagicFrame,
  id: number,
  event: string,
): (message: Received) => boolean {
  return (message) => {
    if (message.msgType !== typeOf(frame, Messages.incoming.event)) return false
    const response = message.response as
      | { id?: unknown; result?: { event?: unknown } }
      | undefined
    return response?.id === id && response.result?.event === event
  }
}
