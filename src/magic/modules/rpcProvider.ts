/**
 * `magic.rpcProvider`: an EIP-1193 provider (plus the legacy web3 `send` and
 * `sendAsync` forms). Its `connect`, `disconnect`, `accountsChanged` and
 * `chainChanged` events come from a small state store that learns accounts
 * and chain id from results, and each instance has its own emitter.
 */
import * as Emitter from '../../core/Emitter.js'
import * as PromiEvent from '../../core/PromiEvent.js'
import * as Rpc from '../../core/Rpc.js'
import {
  createInvalidArgumentError,
  createSynchronousWeb3MethodWarning,
  MagicRPCError,
  ProviderDisconnectedError,
} from '../errors.js'
import { type Client, type EventsOf, type Handle, request } from '../request.js'
import * as Codes from '../wire/codes.js'
import * as Methods from '../wire/methods.js'

/** The methods whose params carry typed data (second param). */
export const typedDataMethods: readonly string[] = [
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
]

/** What the provider knows of the wallet. */
export type State = {
  accounts: readonly string[]
  /** Hex chain id, once learned. */
  chainId: string | undefined
}

/** A loose JSON-RPC request as web3 libraries pass it. */
export type Payload = Rpc.standardize.Payload

/** A JSON-RPC response as `sendAsync` callbacks receive it. */
export type ResponsePayload = {
  jsonrpc: string
  id: string | number | null
  result?: unknown
  error?: unknown
}

/** The overloads of `rpcProvider.send`. */
export type Send = {
  <result = unknown>(
    method: string,
    params?: readonly unknown[],
  ): Handle<result>
  (payload: Payload | readonly Payload[], callback: Callback): void
  (payload: Payload): ResponsePayload
}

/** `sendAsync` / legacy `send` callback. */
export type Callback = (error: unknown, response?: unknown) => void

/** The provider's EIP-1193 events. */
export type ProviderEvents = {
  connect: (info: { chainId: string }) => void
  disconnect: (error: ProviderDisconnectedError) => void
  accountsChanged: (accounts: readonly string[]) => void
  chainChanged: (chainId: string) => void
  // biome-ignore lint/suspicious/noExplicitAny: other events are untyped.
  [event: string]: (...args: any[]) => void
}

/** A store of {@link State}; `subscribe` gets `(next, previous)`. */
export type StateStore = ReturnType<typeof createState>

/** Creates the provider's state store. */
export function createState() {
  let state: State = { accounts: [], chainId: undefined }
  const listeners = new Set<(next: State, previous: State) => void>()
  return {
    get: (): State => state,
    set(patch: Partial<State>) {
      const previous = state
      state = { ...state, ...patch }
      for (const listener of [...listeners]) listener(state, previous)
    },
    subscribe(listener: (next: State, previous: State) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/**
 * What a successful result teaches the store: accounts from
 * `eth_accounts`, `eth_requestAccounts` and `mc_login`, the chain from
 * `eth_chainId`, and a logout clears both.
 */
export function learn(
  method: string,
  result: unknown,
): Partial<State> | undefined {
  const name = Methods.fromTestMode(method) ?? method
  if (
    name === 'eth_accounts' ||
    name === Methods.requestAccounts ||
    name === Methods.login
  )
    return Array.isArray(result)
      ? { accounts: result.filter((a) => typeof a === 'string') }
      : undefined
  if (name === 'eth_chainId') {
    if (typeof result === 'number')
      return { chainId: `0x${result.toString(16)}` }
    if (typeof result === 'string') return { chainId: result }
    return undefined
  }
  if (name === Methods.logout && result === true)
    return { accounts: [], chainId: undefined }
  return undefined
}

/** The `rpcProvider` module. */
export type RPCProviderModule = ReturnType<typeof create>

/** Builds the `rpcProvider` module of a client. */
export function create(client: Client, store: StateStore) {
  const emitter = Emitter.create<ProviderEvents>()
  store.subscribe((next, previous) => {
    if (next.chainId !== undefined && previous.chainId === undefined)
      emitter.emit('connect', { chainId: next.chainId })
    if (!sameAccounts(next.accounts, previous.accounts))
      emitter.emit('accountsChanged', next.accounts)
    if (
      next.chainId !== undefined &&
      previous.chainId !== undefined &&
      next.chainId !== previous.chainId
    )
      emitter.emit('chainChanged', next.chainId)
    if (next.chainId === undefined && previous.chainId !== undefined)
      emitter.emit(
        'disconnect',
        new ProviderDisconnectedError('The user logged out.'),
      )
  })

  function send(payload: Payload): Handle<unknown> {
    const standard = Rpc.standardize(payload)
    const typed = typedDataMethods.includes(standard.method)
    if (client.testMode)
      standard.method = Methods.testModeRpcMethod(standard.method)
    if (!typed) return request(client, standard)
    // Typed data is checked before anything is sent; the checks load on the
    // first typed-data request.
    return PromiEvent.create<unknown, EventsOf<never>>(async (resolve) => {
      const { validateParams } = await import('./typedData.js')
      try {
        validateParams(standard.params)
      } catch (error) {
        throw new MagicRPCError({
          code: Codes.InvalidParams,
          message: (error as Error).message,
        })
      }
      resolve(await request(client, standard))
    }) as unknown as Handle<unknown>
  }

  function sendAsync(
    payload: Payload | readonly Payload[],
    callback: Callback,
  ): void {
    if (!callback)
      throw createInvalidArgumentError({
        procedure: 'Magic.rpcProvider.sendAsync',
        argument: 1,
        expected: 'function',
        received: callback === null ? 'null' : typeof callback,
      })
    const one = (item: Payload): Promise<[unknown, ResponsePayload]> => {
      const base = { jsonrpc: item.jsonrpc ?? '2.0', id: item.id ?? null }
      return send(item).then(
        (result): [unknown, ResponsePayload] => [
          null,
          { ...base, result, error: null },
        ],
        (error): [unknown, ResponsePayload] => [error, { ...base, error }],
      )
    }
    if (Array.isArray(payload)) {
      Promise.all(payload.map(one)).then((all) =>
        callback(
          null,
          all.map(([, response]) => response),
        ),
      )
      return
    }
    one(payload as Payload).then(([error, response]) =>
      callback(error, response),
    )
  }

  function legacySend(
    payloadOrMethod: string | Payload | readonly Payload[],
    paramsOrCallback?: unknown,
  ): unknown {
    if (typeof payloadOrMethod === 'string')
      return send({
        method: payloadOrMethod,
        params: Array.isArray(paramsOrCallback) ? paramsOrCallback : [],
      })
    if (Array.isArray(payloadOrMethod) || paramsOrCallback) {
      sendAsync(payloadOrMethod, paramsOrCallback as Callback)
      return undefined
    }
    const warning = createSynchronousWeb3MethodWarning()
    warning.log()
    const payload = payloadOrMethod as Payload
    return {
      jsonrpc: payload.jsonrpc,
      id: payload.id,
      result: undefined,
      error: { code: -32603, message: warning.rawMessage },
    }
  }

  const provider = {
    /** Marks this provider as Magic's. */
    isMagic: true as const,

    /**
     * EIP-1193 `request`; returns a PromiEvent of the result (`any` by
     * default, as published, so that it fits viem's `EIP1193Provider`).
     */
    // biome-ignore lint/suspicious/noExplicitAny: the published default.
    request<result = any>(args: {
      method: string
      params?: unknown
    }): Handle<result> {
      return send(args) as Handle<result>
    },

    /**
     * `send(method, params)` returns a PromiEvent; `send(payload, callback)`
     * is `sendAsync`; `send(payload)` alone (synchronous web3) is not
     * supported: it warns `SYNC_WEB3_METHOD` and returns an error payload.
     */
    send: legacySend as Send,

    /** web3 `sendAsync` for a request or a batch; the callback is required. */
    sendAsync,

    /** Opens the login UI (`mc_login`); resolves to the accounts. */
    enable(): Handle<string[]> {
      return send({ method: Methods.login }) as Handle<string[]>
    },

    on: chain('on'),
    once: chain('once'),
    addListener: chain('on'),
    off: chain('off'),
    removeListener: chain('off'),
    removeAllListeners: (event?: string) => {
      emitter.removeAllListeners(event)
      return provider
    },
    emit: emitter.emit,
    eventNames: emitter.eventNames,
    listeners: emitter.listeners,
    listenerCount: emitter.listenerCount,
  }

  function chain(method: 'on' | 'once' | 'off') {
    return (event: string, listener: (...args: never[]) => void) => {
      ;(emitter[method] as (event: string, listener: unknown) => unknown)(
        event,
        listener,
      )
      return provider
    }
  }

  return provider
}

function sameAccounts(a: readonly string[], b: readonly string[]) {
  return a.length === b.length && a.every((account, i) => account === b[i])
}
