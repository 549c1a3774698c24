/**
 * JSON-RPC over HTTP to a chain node, with request batching: calls made
 * within a short window go out as one JSON-RPC batch (an array body), as
 * viem's `http` transport and ethers' `JsonRpcProvider` do, so that a dApp's
 * burst of reads costs one round trip. Small on purpose: a wallet that only
 * forwards and reads a few methods does not need a full chain client.
 */
import * as Errors from './Errors.js'
import * as Http from './Http.js'
import * as Rpc from './Rpc.js'

/** Sends one JSON-RPC call and resolves its `result`. */
export type Transport = {
  request<result = unknown>(args: {
    method: string
    params?: unknown
  }): Promise<result>
}

/**
 * A JSON-RPC error answered by the node, with its `code`, `message` (the
 * node's text exactly) and `data` (e.g. the revert data of `eth_call`).
 */
export class RpcResponseError extends Errors.BaseError {
  override readonly name = 'Transport.RpcResponseError'
  /** The node's JSON-RPC error code. */
  readonly code: number
  /** The node's `data`, if any. */
  readonly data: unknown
  constructor(error: Rpc.ErrorObject) {
    super(String(error.message ?? ''))
    this.code = Number(error.code)
    this.data = error.data
  }
}

/** An answer that is not a JSON-RPC response to the request sent. */
export class MalformedResponseError extends Errors.BaseError {
  override readonly name = 'Transport.MalformedResponseError'
  constructor(url: string) {
    super(`Malformed JSON-RPC response from ${url}`)
  }
}

/** The HTTP transport, which can send its waiting batch at once. */
export type HttpTransport = Transport & {
  /**
   * Sends the calls waiting for their batch now, as one batch, instead of
   * when the batch window ends: for a caller that knows nothing else will
   * join, such as a wallet that has just asked for every read it needs.
   */
  flush(): void
}

/**
 * The HTTP transport.
 *
 * @example
 * ```ts
 * import { Transport } from 'embedded-wallets/core'
 *
 * const node = Transport.http('https://rpc.testnet.immutable.com')
 * const [chainId, block] = await Promise.all([
 *   node.request({ method: 'eth_chainId' }),
 *   node.request({ method: 'eth_blockNumber' }),
 * ]) // one POST with a batch of two calls
 * ```
 */
export function http(url: string, options: http.Options = {}): HttpTransport {
  const {
    batch: { wait = 10, batchSize = 100, maxBytes = 1_048_576 } = {},
    retryCount = 3,
    retryDelay = 150,
    timeout = 10_000,
  } = options

  type Pending = {
    request: Rpc.Request
    bytes: number
    resolve: (value: unknown) => void
    reject: (error: unknown) => void
  }
  let queue: Pending[] = []
  let queueBytes = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  // One policy per failure: the fetch helper retries a 429 in its throttle
  // slots (within the POST's time-out), this loop the other transient ones.
  const post = (body: unknown) =>
    Http.retry(
      () =>
        Http.json<unknown>(url, {
          body,
          ...(timeout > 0 ? { timeout } : {}),
        }),
      {
        retries: retryCount,
        interval: (attempt) => retryDelay * 2 ** (attempt - 1),
        shouldRetry: isTransient,
      },
    )

  function settle(pending: Pending, response: unknown) {
    const answer = response as Partial<Rpc.Response> | null | undefined
    if (!answer || typeof answer !== 'object')
      pending.reject(new MalformedResponseError(url))
    else if (answer.error) pending.reject(new RpcResponseError(answer.error))
    else if ('result' in answer) pending.resolve(answer.result)
    else pending.reject(new MalformedResponseError(url))
  }

  async function send(batch: Pending[]) {
    try {
      // A lone call goes out unbatched, which every node accepts.
      if (batch.length === 1) {
        settle(batch[0]!, await post(batch[0]!.request))
        return
      }
      const answers = await post(batch.map((pending) => pending.request))
      // Some nodes answer a whole batch with one error object.
      if (!Array.isArray(answers)) {
        for (const pending of batch) settle(pending, answers)
        return
      }
      // Matched by id, whatever the order (some nodes echo ids as text).
      const byId = new Map<string, unknown>()
      for (const answer of answers)
        if (answer && typeof answer === 'object')
          byId.set(String((answer as Rpc.Response).id), answer)
      for (const pending of batch)
        settle(pending, byId.get(String(pending.request.id)))
    } catch (error) {
      for (const pending of batch) pending.reject(error)
    }
  }

  function flush() {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const batch = queue
    queue = []
    queueBytes = 0
    if (batch.length) void send(batch)
  }

  return {
    flush,
    request<result>(args: { method: string; params?: unknown }) {
      const request = Rpc.createRequest(args.method, args.params ?? [])
      return new Promise<result>((resolve, reject) => {
        // Bytes of the request in the batch body, its comma included.
        const bytes =
          new TextEncoder().encode(JSON.stringify(request)).length + 1
        if (queue.length && queueBytes + bytes + 2 > maxBytes) flush()
        queue.push({
          request,
          bytes,
          resolve: resolve as (value: unknown) => void,
          reject,
        })
        queueBytes += bytes
        if (queue.length >= batchSize) flush()
        else timer ??= setTimeout(flush, wait)
      })
    },
  }
}

export declare namespace http {
  type Options = {
    /** Batching of calls made close together. */
    batch?:
      | {
          /** How long a call waits for others to join its batch, ms. @default 10 */
          wait?: number | undefined
          /** Calls per batch at most. @default 100 */
          batchSize?: number | undefined
          /** Body size of a batch at most, bytes. @default 1048576 */
          maxBytes?: number | undefined
        }
      | undefined
    /**
     * Retries of a POST that failed in transit, timed out or answered
     * 408/5xx. A 429 is not counted here: the fetch helper
     * (`Http.request`) retries it in its throttle slots. @default 3
     */
    retryCount?: number | undefined
    /** First wait before a retry, doubled each time, ms. @default 150 */
    retryDelay?: number | undefined
    /**
     * Time limit of one POST, ms, the fetch helper's 429 waits included
     * (0: the fetch helper's 300000 ms). @default 10000
     */
    timeout?: number | undefined
  }
}

/**
 * A failure worth another try: the network, a time-out, or a node that is
 * busy or failing (a 429 left after the fetch helper's own retries is not:
 * the node keeps throttling). A body that is not JSON will not become JSON
 * on a second try.
 */
function isTransient(error: unknown): boolean {
  if (error instanceof Http.HttpError)
    return [408, 500, 502, 503, 504].includes(error.status)
  return (
    error instanceof Http.NetworkError || error instanceof Http.TimeoutError
  )
}
