import * as Errors from './Errors.js'

/** A JSON-RPC 2.0 request as this package sends it. */
export type Request<method extends string = string, params = unknown> = {
  jsonrpc: '2.0'
  id: number
  method: method
  params: params
}

/** The `error` member of a JSON-RPC response. */
export type ErrorObject = {
  code: number
  message: string
  data?: unknown
}

/** A JSON-RPC 2.0 response: `result` on success, `error` on failure. */
export type Response<result = unknown> = {
  jsonrpc: '2.0'
  id: number | string | null
  result?: result | undefined
  error?: ErrorObject | null | undefined
}

/** A source of request ids. */
export type IdStore = {
  /** Returns the next id: 1, 2, 3… and 1 again after `MAX_SAFE_INTEGER`. */
  next(): number
  /** Makes the next id 1 again. */
  reset(): void
}

/**
 * Creates an id counter. The package keeps one module-level store for
 * {@link createRequest} and {@link standardize}; create your own to control
 * ids (for example in tests of the wrap-around).
 *
 * @example
 * ```ts
 * import { Rpc } from 'embedded-wallets/core'
 *
 * const ids = Rpc.createIdStore()
 * ids.next() // 1
 * ids.next() // 2
 * ```
 */
export function createIdStore(options: createIdStore.Options = {}): IdStore {
  const { first = 1 } = options
  let next = first
  return {
    next() {
      const id = next
      next = id >= Number.MAX_SAFE_INTEGER ? 1 : id + 1
      return id
    },
    reset() {
      next = 1
    },
  }
}

export declare namespace createIdStore {
  type Options = {
    /** The first id handed out. @default 1 */
    first?: number | undefined
  }
}

const ids = createIdStore()
const created = new WeakSet<object>()

/**
 * Creates a JSON-RPC request with the next id of the module-level counter
 * (1, 2, 3…, back to 1 after `Number.MAX_SAFE_INTEGER`).
 *
 * @example
 * ```ts
 * import { Rpc } from 'embedded-wallets/core'
 *
 * Rpc.createRequest('eth_accounts')
 * // { jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] }
 * ```
 */
export function createRequest<const method extends string, params = []>(
  method: method,
  params?: params,
): Request<method, params> {
  const request = {
    jsonrpc: '2.0',
    id: ids.next(),
    method,
    params: params ?? [],
  } as Request<method, params>
  created.add(request)
  return request
}

/**
 * Completes a loose payload into a request: `jsonrpc` defaults to `'2.0'`,
 * `method` to `'noop'`, `params` to `[]`, and `id` is always a fresh counter
 * value, even when the payload had one. The caller's object is not changed;
 * a new one is returned. Requests made by {@link createRequest} or
 * {@link createBatch} are already complete and are returned as they are.
 *
 * @example
 * ```ts
 * import { Rpc } from 'embedded-wallets/core'
 *
 * Rpc.standardize({ method: 'eth_chainId' })
 * // { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] }
 * ```
 */
export function standardize(payload: standardize.Payload): Request {
  if (created.has(payload)) return payload as Request
  return {
    ...payload,
    jsonrpc: payload.jsonrpc ?? '2.0',
    id: ids.next(),
    method: payload.method ?? 'noop',
    params: payload.params ?? [],
  }
}

export declare namespace standardize {
  type Payload = {
    jsonrpc?: '2.0' | undefined
    id?: number | string | null | undefined
    method?: string | undefined
    params?: unknown
  }
}

/**
 * Reads a JSON-RPC response: a non-null `error` is thrown as the typed error
 * of its code (see `Errors.fromCode`, `data` kept); otherwise a defined
 * `result` is returned; a response with neither throws
 * {@link MalformedResponseError}.
 *
 * @example
 * ```ts
 * import { Rpc } from 'embedded-wallets/core'
 *
 * Rpc.parseResponse({ jsonrpc: '2.0', id: 1, result: '0x1' }) // '0x1'
 * ```
 */
export function parseResponse<result = unknown>(
  response: parseResponse.Input<result>,
  options: parseResponse.Options = {},
): result {
  const { error, result } = response ?? {}
  if (error !== undefined && error !== null) {
    const { code, data, message } = error as Partial<ErrorObject>
    throw Errors.fromCode({
      code: Number.isInteger(code) ? (code as number) : -32603,
      data,
      message: typeof message === 'string' ? message : undefined,
    })
  }
  if (result !== undefined) return result
  throw new MalformedResponseError(options)
}

export declare namespace parseResponse {
  type Input<result = unknown> = Partial<Response<result>> | null | undefined
  type Options = {
    /**
     * Message of the malformed-response error.
     * @default "Response from the provider's iframe is malformed."
     */
    malformedMessage?: string | undefined
  }
  type ErrorType = ReturnType<typeof Errors.fromCode> | MalformedResponseError
}

/**
 * Creates the requests of a batch, each with its own fresh id.
 *
 * @example
 * ```ts
 * import { Rpc } from 'embedded-wallets/core'
 *
 * Rpc.createBatch([{ method: 'eth_chainId' }, { method: 'eth_accounts' }])
 * ```
 */
export function createBatch(
  calls: readonly createBatch.Call[],
): readonly Request[] {
  return calls.map(({ method, params }) => createRequest(method, params))
}

export declare namespace createBatch {
  type Call = { method: string; params?: unknown }
}

/**
 * Puts the responses of a batch in the order of its requests, matching ids
 * with `===`. `responses` may be partial (gathered as they arrive): missing
 * ones are `undefined` and `complete` is `false` until every id is matched.
 *
 * @example
 * ```ts
 * import { Rpc } from 'embedded-wallets/core'
 *
 * const batch = Rpc.createBatch([{ method: 'eth_chainId' }])
 * const { complete, responses } = Rpc.matchResponses(batch, received)
 * ```
 */
export function matchResponses<result = unknown>(
  requests: readonly Pick<Request, 'id'>[],
  responses: readonly Response<result>[],
): matchResponses.ReturnType<result> {
  const ordered = requests.map((request) =>
    responses.find((response) => response.id === request.id),
  )
  return {
    complete: ordered.every((response) => response !== undefined),
    responses: ordered,
  }
}

export declare namespace matchResponses {
  type ReturnType<result = unknown> = {
    /** Whether every request has its response. */
    complete: boolean
    /** One entry per request, in request order. */
    responses: readonly (Response<result> | undefined)[]
  }
}

/** Thrown when a response carries neither `result` nor `error`. */
export class MalformedResponseError extends Errors.BaseError {
  override readonly name = 'Rpc.MalformedResponseError'
  constructor({ malformedMessage }: parseResponse.Options = {}) {
    super(
      malformedMessage ?? "Response from the provider's iframe is malformed.",
    )
  }
}
