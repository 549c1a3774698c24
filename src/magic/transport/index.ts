/**
 * The iframe transport: how the client's modules reach the provider's
 * `/send` iframe. One channel (element, handshake, checks) per distinct
 * parameters, shared by the clients that have them; each client keeps its
 * own pending requests, flow listeners and session material.
 */
import type * as Rpc from '../../core/Rpc.js'
import type * as Storage from '../../core/Storage.js'
import { createModalNotReadyError, MagicSDKWarning } from '../errors.js'
import * as Messages from '../wire/messages.js'
import * as Channel from './channel.js'
import type * as Envelope from './envelope.js'
import * as Match from './match.js'

/**
 * What the client's modules need from the iframe transport. The transport
 * owns the iframe, the ready handshake, origin/source checks, the DPoP proof,
 * the refresh token and the device share; modules only send JSON-RPC.
 */
export type Transport = {
  /**
   * Posts one request (after the iframe is ready, reloading it if it went
   * missing) and resolves with its raw response envelope's `response` once
   * the iframe answers it. Rejects only for transport failures (e.g.
   * `MODAL_NOT_READY`); RPC errors come back inside the response.
   */
  post(request: Rpc.Request): Promise<Partial<Rpc.Response>>
  /** Posts a batch; resolves once every id of it has been answered. */
  postBatch(
    requests: readonly Rpc.Request[],
  ): Promise<readonly Partial<Rpc.Response>[]>
  /**
   * Listens to the flow events (`MAGIC_HANDLE_EVENT`) of request `id`:
   * `listener(event, params)`. Returns an unsubscribe.
   */
  onEvent(
    id: number | string,
    listener: (event: string, params: readonly unknown[]) => void,
  ): () => void
  /** Listens to every message of one incoming type (e.g. 3PW requests). */
  on(
    type: Messages.IncomingType,
    listener: (data: Record<string, unknown>) => void,
  ): () => void
  /** Posts a raw message (`msgType` gets the params suffix). */
  send(type: Messages.OutgoingType, data: Record<string, unknown>): void
  /** Creates the iframe now (unless already) and waits for it to be ready. */
  preload(): Promise<void>
  /** Removes listeners, timers and the iframe. */
  destroy(): void
}

/** The provider's default endpoint origin; only it gets a heartbeat. */
export const defaultOrigin = 'https://auth.magic.link'

/**
 * Creates the iframe transport of one client. Clients whose encoded
 * parameters are equal share one iframe (and its ready state and
 * heartbeat); each keeps its own storage, pending requests and listeners.
 * Nothing touches the DOM until the first request or `preload()`.
 *
 * @example
 * ```ts
 * import * as Transport from './transport/index.js'
 *
 * const transport = Transport.create({ endpoint, params, storage, networkHash })
 * await transport.preload()
 * const response = await transport.post(Rpc.createRequest('magic_get_info'))
 * ```
 * @param options - See {@link create.Options}.
 * @returns The {@link Transport}.
 */
export function create(options: create.Options): Transport {
  const { endpoint, networkHash, params, storage } = options
  const { now = () => Date.now(), warn = logWarning } = options
  const origin = new URL(endpoint).origin
  const encodedParams = Messages.encodeParams(params)
  const context: Envelope.Context = { networkHash, now, storage }
  // The session material (DPoP keys, device shares: ./envelope.ts and
  // ../keys/) is loaded with `import()` as the transport is made, which is
  // when the iframe starts loading: no request can be posted before the
  // iframe is ready, so the download runs alongside the provider's page
  // instead of delaying the dApp's.
  const envelope = import('./envelope.js')
  // Before it is loaded nothing is kept in memory that another client's
  // write could make stale. A failed download fails each request that
  // needs it, not the page.
  envelope.then((Envelope) => Envelope.listen(storage)).catch(() => {})
  const channel = Channel.acquire({
    encodedParams,
    heartbeat: options.heartbeat ?? origin === defaultOrigin,
    now,
    origin,
    warn,
  })

  /** Answer handlers of pending request ids (`Map` keys compare strictly). */
  const waiting = new Map<unknown, (message: Channel.Message) => void>()
  const rejects = new Set<(error: Error) => void>()
  const eventListeners = new Map<unknown, Set<onEvent.Listener>>()
  const typeListeners = new Set<{
    type: Messages.IncomingType
    listener: (data: Record<string, unknown>) => void
  }>()
  const responseType = Messages.messageType(
    'MAGIC_HANDLE_RESPONSE',
    encodedParams,
  )
  const eventType = Messages.messageType('MAGIC_HANDLE_EVENT', encodedParams)

  const unsubscribe = channel.subscribe((message) => {
    const { msgType, response } = message
    if (msgType === responseType) waiting.get(response.id)?.(message)
    else if (msgType === eventType) routeEvent(response)
    for (const entry of [...typeListeners])
      if (Match.matches(msgType, entry.type, encodedParams))
        safely(() => entry.listener(message))
  })

  function routeEvent(response: Record<string, unknown>) {
    const result = response.result as Record<string, unknown> | undefined
    if (typeof result?.event !== 'string') return
    const params = Array.isArray(result.params) ? result.params : []
    const { event } = result
    for (const listener of [...(eventListeners.get(response.id) ?? [])])
      safely(() => listener(event, params))
  }

  function request<result>(
    payload: Rpc.Request | readonly Rpc.Request[],
    ids: readonly Rpc.Request['id'][],
    settle: (responses: Partial<Rpc.Response>[]) => result,
  ): Promise<result> {
    if (isOffline()) return Promise.reject(createModalNotReadyError())
    return new Promise<result>((resolve, reject) => {
      const responses: Partial<Rpc.Response>[] = []
      const absorbed: Promise<void>[] = []
      let remaining = ids.length
      const fail = (error: Error) => {
        for (const id of ids) waiting.delete(id)
        rejects.delete(fail)
        reject(error)
      }
      rejects.add(fail)
      ids.forEach((id, index) => {
        waiting.set(id, (message) => {
          waiting.delete(id)
          responses[index] = message.response as Partial<Rpc.Response>
          absorbed.push(
            envelope.then((Envelope) => Envelope.absorb(message, context)),
          )
          if (--remaining > 0) return
          rejects.delete(fail)
          void Promise.all(absorbed).then(() => resolve(settle(responses)))
        })
      })
      const msgType = Messages.messageType(
        'MAGIC_HANDLE_REQUEST',
        encodedParams,
      )
      channel
        .post(async () => (await envelope).build(msgType, payload, context))
        .catch((error: Error) => fail(error))
    })
  }

  return {
    post(payload) {
      return request(payload, [payload.id], ([response]) => response ?? {})
    },
    async postBatch(payloads) {
      if (payloads.length === 0) return []
      return request(
        payloads,
        payloads.map((payload) => payload.id),
        (responses) => responses,
      )
    },
    onEvent(id, listener) {
      const listeners = eventListeners.get(id) ?? new Set()
      listeners.add(listener)
      eventListeners.set(id, listeners)
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) eventListeners.delete(id)
      }
    },
    on(type, listener) {
      const entry = { type, listener }
      typeListeners.add(entry)
      return () => typeListeners.delete(entry)
    },
    send(type, data) {
      const msgType = Messages.messageType(type, encodedParams)
      channel.post(async () => ({ ...data, msgType })).catch(() => {})
    },
    preload() {
      return channel.ready()
    },
    destroy() {
      unsubscribe()
      for (const fail of [...rejects]) fail(createModalNotReadyError())
      waiting.clear()
      eventListeners.clear()
      typeListeners.clear()
      channel.release()
    },
  }
}

export declare namespace create {
  type Options = {
    /** The provider endpoint; only its origin is used. */
    endpoint: string
    /** The parameters encoded into the iframe `src` and every `msgType`. */
    params: Messages.Params
    /** Where the keys, the refresh token and device shares live. */
    storage: Storage.Storage
    /** The device-share slot (`ds_<networkHash>`) of this client. */
    networkHash: string
    /**
     * Receives warnings (`DUPLICATE_IFRAME`, `ANNOUNCEMENT`, reloads).
     * @default logs `Magic SDK Warning: [CODE] message` with console.warn
     */
    warn?: ((warning: Channel.Warning) => void) | undefined
    /** Clock in milliseconds (proof `iat`, pong times). @default Date.now */
    now?: (() => number) | undefined
    /**
     * Whether to run the heartbeat (set by the first client of an iframe).
     * @default the endpoint origin is `https://auth.magic.link`
     */
    heartbeat?: boolean | undefined
  }
}

export declare namespace onEvent {
  type Listener = (event: string, params: readonly unknown[]) => void
}

/** Runs a caller's listener; its error is reported, not propagated. */
function safely(run: () => void) {
  try {
    run()
  } catch (error) {
    queueMicrotask(() => {
      throw error
    })
  }
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false
}

function logWarning({ code, message }: Channel.Warning) {
  if (code) new MagicSDKWarning(code, message).log()
  else console.warn(message)
}
