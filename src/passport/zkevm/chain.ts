/**
 * The provider's chain client: JSON-RPC over HTTP to the chain node with
 * the published SDK's chain-node defaults (its ethers `JsonRpcProvider`):
 * - calls made within 10 ms go out as one batch of at most 100 calls and
 *   1 MiB;
 * - identical reads a dApp makes within 250 ms share one answer;
 * - waiting for a mined transaction polls every 4000 ms;
 * - a transaction just sent is fetched again after 1000, then 100, then
 *   every 4000 ms until the node knows it;
 * - the node's errors are mapped to the six kinds the published SDK names
 *   (insufficient funds, nonce expired, replacement underpriced, action
 *   rejected, unsupported operation, unknown error), each a core RPC error
 *   with the node's error (code, message, data) as its cause.
 *
 * Only raw JSON-RPC is needed (pass-through, code, nonce and receipt
 * reads), so no full chain client is bundled.
 */
import type { Address, Hex } from 'viem'
import * as RpcErrors from '../../core/RpcErrors.js'
import * as Transport from '../../core/Transport.js'

/** The chain-node defaults (published: ethers' `JsonRpcProvider` options). */
export const defaults = {
  /** How long a call waits for others to join its batch, ms. */
  batchStallTime: 10,
  /** Calls per batch at most. */
  batchMaxCount: 100,
  /** Body size of a batch at most, bytes. */
  batchMaxSize: 1_048_576,
  /** How long identical reads share one answer, ms. */
  cacheTimeout: 250,
  /** Block polling while waiting for a transaction to be mined, ms. */
  pollingInterval: 4000,
  /** Waits before fetching a sent transaction again, ms; then `pollingInterval`. */
  sentTransactionRetries: [1000, 100] as readonly number[],
} as const

/** The chain node, by JSON-RPC. */
export type RpcClient = Transport.Transport & {
  /**
   * As `request`, for a dApp's read: identical calls (method and params)
   * made within {@link defaults.cacheTimeout} of the first share its
   * answer, so a burst of the same read costs one call.
   */
  read: Transport.Transport['request']
  /** Sends the calls waiting for their batch now (see {@link Transport.HttpTransport}). */
  flush(): void
}

/**
 * The kinds node errors are mapped to (the published SDK's, from ethers:
 * `INSUFFICIENT_FUNDS`, `NONCE_EXPIRED`, `REPLACEMENT_UNDERPRICED`,
 * `ACTION_REJECTED`, `UNSUPPORTED_OPERATION`, `UNKNOWN_ERROR`).
 */
export type NodeErrorKind =
  | 'INSUFFICIENT_FUNDS'
  | 'NONCE_EXPIRED'
  | 'REPLACEMENT_UNDERPRICED'
  | 'ACTION_REJECTED'
  | 'UNSUPPORTED_OPERATION'
  | 'UNKNOWN_ERROR'

/** A node error mapped to its kind; the node's own error is its `cause`. */
export type NodeError = RpcErrors.RpcError & {
  readonly kind: NodeErrorKind
  readonly cause: Transport.RpcResponseError
}

/** Creates the chain client of `url`. */
export function createRpcClient(
  url: string,
  options: { cacheTimeout?: number | undefined } = {},
): RpcClient {
  const { cacheTimeout = defaults.cacheTimeout } = options
  const transport = Transport.http(url, {
    batch: {
      wait: defaults.batchStallTime,
      batchSize: defaults.batchMaxCount,
      maxBytes: defaults.batchMaxSize,
    },
  })
  const request: Transport.Transport['request'] = async (args) => {
    try {
      return await transport.request(args)
    } catch (error) {
      if (error instanceof Transport.RpcResponseError)
        throw nodeError(args.method, error)
      throw error
    }
  }
  const answers = new Map<string, Promise<unknown>>()
  return {
    request,
    flush: transport.flush,
    read<result>(args: { method: string; params?: unknown }) {
      const key = JSON.stringify([args.method, args.params ?? []])
      let answer = answers.get(key)
      if (!answer) {
        answer = request(args)
        // Settled or not, the answer is shared from the first call on, as
        // the published SDK's provider caches a request for its lifetime.
        answer.catch(() => {})
        answers.set(key, answer)
        const shared = answer
        setTimeout(() => {
          if (answers.get(key) === shared) answers.delete(key)
        }, cacheTimeout)
      }
      return answer as Promise<result>
    },
  }
}

/**
 * Maps a node's error to one of the kinds the published SDK names, as its
 * chain client (ethers v6 `getRpcError`) does:
 * - `eth_estimateGas` "insufficient funds" (not a revert) and "nonce too
 *   low" → `INSUFFICIENT_FUNDS` and `NONCE_EXPIRED`;
 * - any other failure of `eth_call` or `eth_estimateGas` is the call's
 *   own exception (a revert): the node's code, text and revert data stay
 *   the error's own, so that viem decodes the contract's error;
 * - "user denied" → `ACTION_REJECTED` (4001);
 * - `eth_sendRawTransaction` / `eth_sendTransaction`: insufficient funds,
 *   a nonce too low, an underpriced replacement, a transaction without
 *   replay protection;
 * - "the method … does not exist" → `UNSUPPORTED_OPERATION`;
 * - anything else → `UNKNOWN_ERROR`, with the node's own text (the
 *   published SDK's "could not coalesce error" says less than the node).
 *
 * The result is the core class of the node's code (4001 for a rejection),
 * with the kind's text, `kind`, the node's `data`, and the node's error as
 * `cause`.
 */
export function nodeError(
  method: string,
  error: Transport.RpcResponseError,
): RpcErrors.RpcError {
  const text = error.shortMessage
  const mapped = (kind: NodeErrorKind, message: string, code = error.code) =>
    Object.assign(
      RpcErrors.fromCode(code, { message, data: error.data, cause: error }),
      { kind },
    ) as NodeError
  if (method === 'eth_estimateGas') {
    if (!/revert/i.test(text) && /insufficient funds/i.test(text))
      return mapped('INSUFFICIENT_FUNDS', 'insufficient funds')
    if (/nonce/i.test(text) && /too low/i.test(text))
      return mapped('NONCE_EXPIRED', 'nonce has already been used')
  }
  if (method === 'eth_call' || method === 'eth_estimateGas')
    return RpcErrors.fromCode(error.code, {
      message: text,
      data: error.data,
      cause: error,
    })
  if (/user denied/i.test(text))
    return mapped(
      'ACTION_REJECTED',
      'user rejected action',
      RpcErrors.UserRejectedRequestError.code,
    )
  // Nodes put the reason in the message or in data: both are searched.
  const all = `${text} ${JSON.stringify(error.data ?? null)}`
  if (method === 'eth_sendRawTransaction' || method === 'eth_sendTransaction') {
    if (/insufficient funds|base fee exceeds gas limit/i.test(all))
      return mapped(
        'INSUFFICIENT_FUNDS',
        'insufficient funds for intrinsic transaction cost',
      )
    if (/nonce/i.test(all) && /too low/i.test(all))
      return mapped('NONCE_EXPIRED', 'nonce has already been used')
    if (/replacement transaction/i.test(all) && /underpriced/i.test(all))
      return mapped('REPLACEMENT_UNDERPRICED', 'replacement fee too low')
    if (/only replay-protected/i.test(all))
      return mapped(
        'UNSUPPORTED_OPERATION',
        'legacy pre-eip-155 transactions not supported',
      )
  }
  if (/the method .* does not exist/i.test(all))
    return mapped('UNSUPPORTED_OPERATION', 'unsupported operation')
  return mapped('UNKNOWN_ERROR', text || 'Unknown error')
}

/** The node's chain id. */
export async function getChainId(rpc: RpcClient): Promise<number> {
  const answer = await rpc.request<Hex>({ method: 'eth_chainId' })
  const chainId = typeof answer === 'string' ? Number(answer) : Number.NaN
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw new RpcErrors.InternalError({
      message: `Invalid chain id from the node: ${String(answer)}`,
    })
  return chainId
}

/** The code at `address` (latest block); `0x` for an account without code. */
export function getCode(rpc: RpcClient, address: Address): Promise<Hex> {
  return rpc.request<Hex>({
    method: 'eth_getCode',
    params: [address, 'latest'],
  })
}

/** A transaction's receipt as the node answers it; `null` while not mined. */
export type RpcReceipt = {
  status: Hex
  blockHash: Hex
  blockNumber: Hex
  gasUsed: Hex
  transactionHash: Hex
  logs: { address: Address; data: Hex; topics: Hex[] }[]
}

/** The receipt of `hash`, or `null` while it is not mined. */
export function getTransactionReceipt(
  rpc: RpcClient,
  hash: Hex,
): Promise<RpcReceipt | null> {
  return rpc.request<RpcReceipt | null>({
    method: 'eth_getTransactionReceipt',
    params: [hash],
  })
}

/** Waits between polls; tests pass their own. */
export type Sleep = (ms: number) => Promise<void>

const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Waits until the node knows the transaction `hash` just sent: fetches it
 * at once, then again after 1000 ms, 100 ms, and every 4000 ms, as the
 * published SDK's chain client does after a send. A node error is tried
 * again on the same schedule (likely a passing fault of the node's); an
 * unsupported method or a node out of reach ends the wait, as there.
 */
export async function waitForTransaction(
  rpc: RpcClient,
  hash: Hex,
  options: { sleep?: Sleep | undefined } = {},
): Promise<unknown> {
  const { sleep: wait = sleep } = options
  const retries = [...defaults.sentTransactionRetries]
  for (;;) {
    let transaction: unknown = null
    try {
      transaction = await rpc.request({
        method: 'eth_getTransactionByHash',
        params: [hash],
      })
    } catch (error) {
      const kind = (error as Partial<NodeError>).kind
      if (kind === undefined || kind === 'UNSUPPORTED_OPERATION') throw error
    }
    if (transaction) return transaction
    await wait(retries.shift() ?? defaults.pollingInterval)
  }
}

/** Polls every 4000 ms until `hash` is mined; resolves its receipt. */
export async function waitForTransactionReceipt(
  rpc: RpcClient,
  hash: Hex,
  options: { sleep?: Sleep | undefined } = {},
): Promise<RpcReceipt> {
  const { sleep: wait = sleep } = options
  for (;;) {
    const receipt = await getTransactionReceipt(rpc, hash)
    if (receipt) return receipt
    await wait(defaults.pollingInterval)
  }
}
