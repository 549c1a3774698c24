/**
 * Test double of the `Transport` seam: records the requests, answers them
 * with `answer` (or later with `respond`), and plays iframe flow events.
 * Used by the unit tests only.
 */
import type * as Rpc from '../../core/Rpc.js'
import * as Storage from '../../core/Storage.js'
import type { Client } from '../request.js'
import type { Transport } from '../transport/index.js'

type Answer = (
  request: Rpc.Request,
) => Partial<Rpc.Response> | Promise<Partial<Rpc.Response>> | undefined

/** Creates a fake transport; `answer` may leave a request pending. */
export function createFakeTransport(answer: Answer = () => undefined) {
  const requests: Rpc.Request[] = []
  const pending = new Map<
    number | string,
    (response: Partial<Rpc.Response>) => void
  >()
  const listeners = new Map<
    number | string,
    Set<(event: string, params: readonly unknown[]) => void>
  >()
  let preloads = 0
  let destroyed = 0
  const transport: Transport = {
    post(request) {
      requests.push(request)
      const answered = answer(request)
      if (answered) return Promise.resolve(answered)
      return new Promise((resolve) => pending.set(request.id, resolve))
    },
    async postBatch(batch) {
      return Promise.all(batch.map((request) => transport.post(request)))
    },
    onEvent(id, listener) {
      const set = listeners.get(id) ?? new Set()
      set.add(listener)
      listeners.set(id, set)
      return () => set.delete(listener)
    },
    on: () => () => {},
    send() {},
    async preload() {
      preloads++
    },
    destroy() {
      destroyed++
    },
  }
  return {
    transport,
    requests,
    /** The methods and params sent, in order (ids dropped). */
    sent: () => requests.map(({ method, params }) => ({ method, params })),
    /** Answers a pending request. */
    respond(id: number | string, response: Partial<Rpc.Response>) {
      const resolve = pending.get(id)
      if (!resolve) throw new Error(`No pending request ${id}`)
      pending.delete(id)
      resolve({ jsonrpc: '2.0', id, ...response })
    },
    /** Plays a `MAGIC_HANDLE_EVENT` of request `id`. */
    event(id: number | string, event: string, ...params: unknown[]) {
      for (const listener of listeners.get(id) ?? []) listener(event, params)
    },
    listenerCount: (id: number | string) => listeners.get(id)?.size ?? 0,
    preloads: () => preloads,
    destroyed: () => destroyed,
  }
}

/** A client around a fake transport, with memory storage. */
export function createClient(
  fake: ReturnType<typeof createFakeTransport>,
  overrides: Partial<Client> = {},
): Client {
  return {
    testMode: false,
    useStorageCache: false,
    storage: Storage.memory(),
    transport: () => fake.transport,
    ...overrides,
  }
}

/** Answers every request with `result`. */
export function resultOf(result: unknown): Answer {
  return (request) => ({ jsonrpc: '2.0', id: request.id, result })
}

/** Lets pending promise callbacks run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
