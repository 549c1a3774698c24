/**
 * A chain of the emulator: an Anvil node with the contracts deployed, behind
 * a JSON-RPC gateway that is the chain's public `rpcUrl`.
 *
 * Anvil answers every method to anyone, admin methods included
 * (`anvil_setBalance`, `anvil_impersonateAccount`, `evm_revert`, …), with
 * CORS open to every origin. The emulator runs while its user browses, so
 * the node itself listens on a port of its own with CORS off, and dApps talk
 * to the gateway instead, which lets pages on other sites use the standard
 * Ethereum methods (reads and signed transactions, as any public node would)
 * but keeps every other method for loopback pages and local programs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isLoopbackOrigin } from '../loopback.js'
import { findFreePort } from '../net.js'
import { startServer } from '../server.js'
import type { Chain } from '../service.js'
import { AnvilStartError, startAnvil } from './anvil.js'
import { deployContracts } from './deploy.js'

/** A started chain. */
export type RunningChain = Chain & {
  /** Stops the gateway and Anvil. Idempotent. */
  stop(): Promise<void>
}

/**
 * Starts Anvil on a free port of its own, deploys the contracts, and opens
 * the gateway on `port`. If a step fails, what started is stopped.
 *
 * @example
 * ```ts
 * const chain = await startChain({ chainId: 31337, port: 8545 })
 * chain.rpcUrl // 'http://127.0.0.1:8545'
 * await chain.stop()
 * ```
 *
 * @param options.chainId - The chain id.
 * @param options.port - The gateway's port (the public `rpcUrl`).
 * @param options.host - The interface to bind. @default '127.0.0.1'
 * @returns The running chain.
 */
export async function startChain(
  options: startChain.Options,
): Promise<RunningChain> {
  const { chainId, port, host = '127.0.0.1' } = options
  const anvil = await startNode({ chainId, host })
  try {
    const contracts = await deployContracts({ rpcUrl: anvil.rpcUrl, chainId })
    const gateway = await startServer({
      handler: createGateway({ nodeUrl: anvil.rpcUrl }),
      port,
      host,
      name: `chain ${chainId}`,
    })
    let stopping: Promise<void> | undefined
    return {
      chainId,
      rpcUrl: gateway.url,
      nodeUrl: anvil.rpcUrl,
      contracts,
      stop() {
        stopping ??= gateway.stop().finally(() => anvil.stop())
        return stopping
      },
    }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

export declare namespace startChain {
  type Options = {
    /** The chain id. */
    chainId: number
    /** The gateway's port. */
    port: number
    /** The interface to bind. @default '127.0.0.1' */
    host?: string | undefined
  }
}

/**
 * Starts Anvil on a port the system says is free. Another process may take
 * it between the check and Anvil's start, so a few ports are tried.
 */
async function startNode(options: { chainId: number; host: string }) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAnvil({ ...options, port: await findFreePort() })
    } catch (error) {
      const taken =
        error instanceof AnvilStartError && /in use/.test(error.shortMessage)
      if (!taken || attempt >= 5) throw error
    }
  }
}

/**
 * Methods pages on any origin may call: the standard Ethereum JSON-RPC API
 * (EIP-1474 and the execution-apis specification: reads, filters, fee
 * data, simulation, and transactions the caller signed), as a public node
 * serves it. Anything else is for loopback pages and local programs only:
 * Anvil's, Hardhat's and the EVM's admin methods, debug and trace methods,
 * the txpool, and every method that acts with the node's own accounts.
 * Those include Anvil's `eth_`-named ones (`eth_sendUnsignedTransaction`
 * sends from any address without a signature; `eth_sendTransaction`,
 * `eth_sendTransactionSync` and the `eth_sign*` methods use its unlocked
 * keys), which is why this is a list of what is allowed rather than of
 * what is not.
 */
export function isPublicMethod(method: unknown): boolean {
  return typeof method === 'string' && publicMethods.has(method)
}

const publicMethods: ReadonlySet<string> = new Set([
  'eth_accounts',
  'eth_blobBaseFee',
  'eth_blockNumber',
  'eth_call',
  'eth_chainId',
  'eth_config',
  'eth_createAccessList',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_getLogs',
  'eth_getProof',
  'eth_getStorageAt',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_getUncleByBlockHashAndIndex',
  'eth_getUncleByBlockNumberAndIndex',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber',
  'eth_maxPriorityFeePerGas',
  'eth_newBlockFilter',
  'eth_newFilter',
  'eth_newPendingTransactionFilter',
  'eth_protocolVersion',
  'eth_sendRawTransaction',
  'eth_sendRawTransactionSync',
  'eth_simulateV1',
  'eth_syncing',
  'eth_uninstallFilter',
  'net_listening',
  'net_peerCount',
  'net_version',
  'web3_clientVersion',
  'web3_sha3',
])

/**
 * The most requests one batch may hold: 1000, geth's default
 * (`--rpc.batch-request-limit`), so a page cannot make the node work
 * through tens of thousands of calls with one request.
 */
export const maxBatch = 1000

/**
 * The gateway's request handler: reads the JSON-RPC body, refuses methods
 * the caller may not use, and forwards the rest to the node unchanged.
 *
 * @param options.nodeUrl - The node to forward to.
 */
export function createGateway(options: { nodeUrl: string }) {
  const { nodeUrl } = options
  return async (req: IncomingMessage, res: ServerResponse) => {
    const origin = req.headers.origin
    // Any page may read the chain, as with a public node.
    if (origin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', origin)
      res.setHeader('Vary', 'Origin')
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': '600',
      })
      res.end()
      return
    }
    if (req.method !== 'POST')
      return reply(res, 405, rpcError(null, -32600, 'Send JSON-RPC with POST.'))

    const raw = await readBody(req)
    let body: unknown
    try {
      body = JSON.parse(raw)
    } catch {
      return reply(res, 400, rpcError(null, -32700, 'Parse error.'))
    }
    const requests = Array.isArray(body) ? body : [body]
    if (requests.length === 0)
      return reply(res, 400, rpcError(null, -32600, 'Empty batch.'))
    if (requests.length > maxBatch)
      return reply(
        res,
        400,
        rpcError(null, -32600, `A batch holds at most ${maxBatch} requests.`),
      )
    if (!isLocal(req)) {
      const refused = requests.filter(
        (request) => !isPublicMethod((request as { method?: unknown })?.method),
      )
      if (refused.length > 0) {
        const errors = requests.map((request) => {
          const { id, method } = (request ?? {}) as {
            id?: unknown
            method?: unknown
          }
          return isPublicMethod(method)
            ? rpcError(idOf(id), -32603, 'Not run: the batch was refused.')
            : rpcError(
                idOf(id),
                4100,
                `${typeof method === 'string' ? method : 'This method'} is answered for pages on a loopback origin only.`,
              )
        })
        return reply(res, 403, Array.isArray(body) ? errors : errors[0])
      }
    }

    let answer: Response
    try {
      answer = await fetch(nodeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: raw,
      })
    } catch {
      return reply(
        res,
        502,
        rpcError(null, -32603, 'The node is not reachable.'),
      )
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' })
    res.end(Buffer.from(await answer.arrayBuffer()))
  }
}

/**
 * Whether the caller is local: a page on a loopback origin, or a program
 * outside a browser (which sends no `Origin`). A browser sends `Origin` on
 * every cross-origin POST, so a missing one from a cross-site context is not
 * trusted either.
 */
function isLocal(req: IncomingMessage): boolean {
  const origin = req.headers.origin
  if (origin !== undefined) return isLoopbackOrigin(origin)
  return req.headers['sec-fetch-site'] !== 'cross-site'
}

/** A JSON-RPC id as the answer may echo it: string, number or null. */
function idOf(id: unknown): string | number | null {
  return typeof id === 'string' || typeof id === 'number' ? id : null
}

function rpcError(id: string | number | null, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } }
}

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** The request body as text (its size is bounded by the server). */
async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
