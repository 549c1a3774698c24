/**
 * JSON-RPC 2.0 payloads as both wallets send them: the request and response
 * shapes, and requests numbered by one counter per page (ids are never
 * reused while a page lives, so responses cannot be confused).
 */

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

/**
 * The page's request ids: 1, 2, 3… and 1 again after
 * `Number.MAX_SAFE_INTEGER`, so that an id is always a safe integer.
 */
let lastId = 0

function nextId(): number {
  lastId = lastId >= Number.MAX_SAFE_INTEGER ? 1 : lastId + 1
  return lastId
}

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
    id: nextId(),
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
 * a new one is returned. A request made by {@link createRequest} is
 * already complete and is returned as it is.
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
    id: nextId(),
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
