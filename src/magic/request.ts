/**
 * The one place where a module call becomes a PromiEvent: it routes the
 * request (third-party wallet or iframe), emits the iframe's flow events on
 * the handle, forwards the caller's answers as `magic_intermediary_event`
 * and turns the response into a result or a {@link MagicRPCError}.
 */
import * as PromiEvent from '../core/PromiEvent.js'
import * as Rpc from '../core/Rpc.js'
import type * as Storage from '../core/Storage.js'
import {
  createExtensionNotInitializedError,
  createMalformedResponseError,
  MagicRPCError,
} from './errors.js'
import type { Transport } from './transport/index.js'
import * as Events from './wire/events.js'
import * as Methods from './wire/methods.js'

/** What the modules of one SDK instance share. */
export type Client = {
  readonly testMode: boolean
  readonly useStorageCache: boolean
  /** The SDK's key-value store (`MagicAuthLocalStorage`). */
  readonly storage: Storage.Storage
  /** The iframe transport (created on first use). */
  transport(): Transport
  /**
   * Answers a request elsewhere (third-party wallet mode): returns the
   * promise of its result, or `undefined` to send it to the iframe.
   */
  route?: ((request: Rpc.Request) => Promise<unknown> | undefined) | undefined
  /**
   * Called with every successful result, before the handle resolves; when
   * it returns a promise, the handle resolves after that settles.
   */
  onResult?: ((method: string, result: unknown) => unknown) | undefined
}

/** A listener of a flow event. */
// biome-ignore lint/suspicious/noExplicitAny: flow events carry any payload.
export type Listener = (...args: any[]) => void

/** An event map naming `names`, each with a loose listener. */
export type EventsOf<names extends string> = { [name in names]: Listener }

/** Events every request handle may emit besides `done/error/settled`. */
export type CommonEvent =
  | typeof Events.closedByUser
  | typeof Events.closedByUserOnReceived

/**
 * What a module method returns: a Promise of `result` that is also an
 * emitter of the flow's events (`names`) and of `done/error/settled`.
 */
export type Handle<
  result,
  names extends string = never,
> = PromiEvent.PromiEvent<
  result,
  PromiEvent.Events<result, EventsOf<names | CommonEvent>>
>

/** Options of {@link request}. */
export type RequestOptions = {
  /**
   * Event names the caller may `emit` on the handle to answer the flow; each
   * emit sends `magic_intermediary_event` to the iframe.
   */
  forward?: readonly string[] | undefined
}

const clients = new WeakMap<object, Client>()

/** Remembers the client of an SDK instance (for its extensions). */
export function register(sdk: object, client: Client): void {
  clients.set(sdk, client)
}

/**
 * The client of an SDK instance registered with {@link register}. An
 * extension initialised with anything else was never initialised with a
 * Magic SDK instance: `EXTENSION_NOT_INITIALIZED`, naming `member`.
 */
export function clientOf(sdk: object, member: string): Client {
  const client = clients.get(sdk)
  if (!client) throw createExtensionNotInitializedError(member)
  return client
}

/**
 * Sends `payload` and returns its handle. A third-party wallet answers it
 * when `client.route` takes it; otherwise it goes to the iframe.
 *
 * @example
 * ```ts
 * const handle = request(client, Rpc.createRequest('magic_get_info'))
 * const info = await handle
 * ```
 */
export function request<result = unknown, names extends string = never>(
  client: Client,
  payload: Rpc.Request,
  options: RequestOptions = {},
): Handle<result, names> {
  const routed = client.route?.(payload)
  const handle = routed
    ? fromPromise<result, names>(client, payload, routed)
    : overlay<result, names>(client, payload)
  for (const name of options.forward ?? [])
    (handle.on as (name: string, listener: Listener) => unknown)(
      name,
      (...args: unknown[]) => intermediary(client, payload.id, name, args[0]),
    )
  return handle
}

/**
 * Sends `magic_intermediary_event` (the caller's answer to a running flow)
 * to the iframe, whatever the routing; its response is not awaited.
 */
export function intermediary(
  client: Client,
  payloadId: number | string,
  eventType: string,
  args?: unknown,
): void {
  const event = Rpc.createRequest(Methods.intermediaryEvent, [
    { payloadId, eventType, args },
  ])
  client
    .transport()
    .post(event)
    .catch(() => {})
}

/** Reads a response: the result, or the error it carries. */
export function settle(response: Partial<Rpc.Response> | undefined): unknown {
  const { error, result } = response ?? {}
  if (error !== undefined && error !== null) throw new MagicRPCError(error)
  if (result !== undefined) return result
  throw createMalformedResponseError()
}

function overlay<result, names extends string>(
  client: Client,
  payload: Rpc.Request,
): Handle<result, names> {
  const handle: Handle<result, names> = PromiEvent.create<
    result,
    EventsOf<names | CommonEvent>
  >(async (resolve, reject) => {
    const transport = client.transport()
    const emit = (name: string, ...args: readonly unknown[]) =>
      (handle.emit as (name: string, ...args: unknown[]) => boolean)(
        name,
        ...args,
      )
    const off = transport.onEvent(payload.id, (event, params) => {
      emit(event, ...params)
      if (event === Events.closedByUserOnReceived) emit(Events.closedByUser)
    })
    try {
      const result = settle(await transport.post(payload)) as result
      const pending = client.onResult?.(payload.method, result)
      if (pending instanceof Promise) await pending
      resolve(result)
    } catch (error) {
      reject(error)
    } finally {
      off()
    }
  })
  return handle
}

function fromPromise<result, names extends string>(
  client: Client,
  payload: Rpc.Request,
  promise: Promise<unknown>,
): Handle<result, names> {
  return PromiEvent.create<result, EventsOf<names | CommonEvent>>(
    async (resolve) => {
      const result = (await promise) as result
      const pending = client.onResult?.(payload.method, result)
      if (pending instanceof Promise) await pending
      resolve(result)
    },
  )
}
