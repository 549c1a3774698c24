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
 *
 * A public node also bounds what one request may make it run, and so does
 * the gateway for callers that are not local: every call that executes
 * code runs with at most {@link rpcGasCap} gas (as geth's `--rpc.gascap`),
 * the calls of one request share that much, each upstream call is cut
 * after {@link foreignTimeoutMs}, and a call whose client went away is
 * aborted. Without it, one page kept Anvil busy for twenty minutes with a
 * batch of ten `eth_call`s at gas 2^48.
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
  const { chainId, port, host = '127.0.0.1', down } = options
  const anvil = await startNode({ chainId, host })
  try {
    const contracts = await deployContracts({ rpcUrl: anvil.rpcUrl, chainId })
    const gateway = await startServer({
      handler: createGateway({ nodeUrl: anvil.rpcUrl, down }),
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
    /**
     * Whether the gateway answers as if the node were down (read on each
     * request). @default never
     */
    down?: (() => boolean) | undefined
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
 * The most gas a caller that is not local may have the node spend on one
 * request: 50,000,000, geth's default `--rpc.gascap` (RPCGasCap). It is
 * above the gas limit of any block a dApp simulates against (Anvil's is
 * 30M), so a legitimate call never meets it, and a call at the cap ends in
 * a fraction of a second on Anvil. geth caps each call; since the gateway
 * forwards a batch as one request, its calls share the cap, or a batch of
 * a thousand calls would make the node run a thousand times as much.
 */
export const rpcGasCap = 50_000_000n

/**
 * How long the gateway waits for the node on a request of a caller that
 * is not local: 5 s, geth's default `--rpc.evmtimeout`.
 */
export const foreignTimeoutMs = 5_000

/**
 * How long it waits on a request of a local caller (a test mining
 * thousands of blocks, a debug trace): 60 s.
 */
export const localTimeoutMs = 60_000

/**
 * The public methods that execute code, and so run under the gas cap.
 * (The debug and trace methods also do, but only local callers reach
 * them, and those run uncapped.)
 */
const executingMethods: ReadonlySet<string> = new Set([
  'eth_call',
  'eth_createAccessList',
  'eth_estimateGas',
  'eth_simulateV1',
])

/**
 * The gateway's request handler: reads the JSON-RPC body, refuses methods
 * the caller may not use, caps the gas of a caller that is not local, and
 * forwards the rest to the node, within a time bound and only while the
 * client waits.
 *
 * @param options.nodeUrl - The node to forward to.
 * @param options.gasCap - The gas cap of callers that are not local. @default {@link rpcGasCap}
 * @param options.timeoutMs - Their time bound, ms. @default {@link foreignTimeoutMs}
 * @param options.localTimeoutMs - A local caller's time bound, ms. @default {@link localTimeoutMs}
 */
export function createGateway(options: createGateway.Options) {
  const {
    nodeUrl,
    gasCap = rpcGasCap,
    timeoutMs = foreignTimeoutMs,
    localTimeoutMs: localBound = localTimeoutMs,
    down = () => false,
  } = options
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
      if (down()) return unreachable(res)
      return reply(res, 400, rpcError(null, -32700, 'Parse error.'))
    }
    const requests = Array.isArray(body) ? body : [body]
    // While the node is "down" (the node-down scenario) every caller gets
    // what this gateway answers when its node really does not answer, but
    // a local caller's admin calls (Anvil's methods, which pages on other
    // sites never reach) still pass: a test can still revert the chain.
    if (
      down() &&
      !(
        isLocal(req) &&
        requests.every(
          (request) =>
            !isPublicMethod((request as { method?: unknown } | null)?.method),
        )
      )
    )
      return unreachable(res)
    if (requests.length === 0)
      return reply(res, 400, rpcError(null, -32600, 'Empty batch.'))
    if (requests.length > maxBatch)
      return reply(
        res,
        400,
        rpcError(null, -32600, `A batch holds at most ${maxBatch} requests.`),
      )
    const local = isLocal(req)
    let forwarded = raw
    if (!local) {
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
      const capped = capGas(requests, gasCap)
      if (!capped.ok) {
        const errors = requests.map((request, index) => {
          const id = idOf((request as { id?: unknown } | null)?.id)
          const refusal = capped.refusals[index]
          return refusal
            ? rpcError(id, refusal.code, refusal.message)
            : rpcError(id, -32603, 'Not run: the batch was refused.')
        })
        return reply(res, 400, Array.isArray(body) ? errors : errors[0])
      }
      // What the node gets is what was checked: the parsed requests, with
      // their gas set, never the raw text (whose duplicate keys or other
      // spellings a node might read otherwise).
      forwarded = JSON.stringify(Array.isArray(body) ? requests : requests[0])
    }

    const bound = local ? localBound : timeoutMs
    const upstream = new AbortController()
    // A client that went away waits for nothing: stop the node's work.
    const onClose = () => {
      if (!res.writableEnded) upstream.abort()
    }
    res.on('close', onClose)
    const timer = setTimeout(() => upstream.abort(), bound)
    let status: number
    let answer: Buffer
    try {
      const response = await fetch(nodeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: forwarded,
        signal: upstream.signal,
      })
      status = response.status
      answer = Buffer.from(await response.arrayBuffer())
    } catch {
      if (res.destroyed || res.writableEnded) return
      if (upstream.signal.aborted) {
        const errors = requests.map((request) =>
          rpcError(
            idOf((request as { id?: unknown } | null)?.id),
            -32005,
            `The node did not answer within ${bound} ms.`,
          ),
        )
        return reply(res, 504, Array.isArray(body) ? errors : errors[0])
      }
      return unreachable(res)
    } finally {
      clearTimeout(timer)
      res.off('close', onClose)
    }
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(answer)
  }
}

export declare namespace createGateway {
  type Options = {
    /** The node to forward to. */
    nodeUrl: string
    /** The gas cap of callers that are not local. @default {@link rpcGasCap} */
    gasCap?: bigint | undefined
    /** Their time bound, ms. @default {@link foreignTimeoutMs} */
    timeoutMs?: number | undefined
    /** A local caller's time bound, ms. @default {@link localTimeoutMs} */
    localTimeoutMs?: number | undefined
    /**
     * Whether to answer as if the node were down (read on each request).
     * @default never
     */
    down?: (() => boolean) | undefined
  }
}

/** A gas field of a call: the object that holds it and its key. */
type GasField = { owner: Record<string, unknown>; key: string }

/** Why one request of a refused batch was refused. */
type GasRefusal = { code: number; message: string }

/**
 * Caps the gas of the requests' calls that execute code, in place: each
 * call's gas at `cap`, and their sum at `cap` too (a call that names no
 * gas gets an equal share of what the others left, as a call without gas
 * gets the cap from geth). Block overrides cannot raise the block's gas
 * limit above the cap either (a simulated call without gas, and the
 * estimate's upper bound, follow it).
 *
 * @returns Why each request is refused (`undefined` for one that is not
 *   at fault) when the requests ask more than the cap in all, or are not
 *   in a shape whose gas can be read.
 */
function capGas(
  requests: readonly unknown[],
  cap: bigint,
): { ok: true } | { ok: false; refusals: (GasRefusal | undefined)[] } {
  const refusals: (GasRefusal | undefined)[] = requests.map(() => undefined)
  const calls: GasField[][] = []
  for (const [index, request] of requests.entries()) {
    const found = gasFieldsOf(request)
    if (typeof found === 'string') {
      refusals[index] = { code: -32602, message: found }
      calls.push([])
      continue
    }
    calls.push(found.calls)
    for (const limit of found.limits) {
      const value = gasOf(limit.owner[limit.key])
      if (value === null)
        refusals[index] = {
          code: -32602,
          message: 'A gasLimit must be a quantity.',
        }
      else if (value !== undefined && value > cap)
        limit.owner[limit.key] = quantity(cap)
    }
  }

  let asked = 0n
  const unnamed: GasField[] = []
  for (const [index, fields] of calls.entries())
    for (const call of fields) {
      const gas = gasOf(call.owner[call.key])
      if (gas === null)
        refusals[index] = { code: -32602, message: 'gas must be a quantity.' }
      else if (gas === undefined) unnamed.push(call)
      else {
        const capped = gas < cap ? gas : cap
        asked += capped
        call.owner[call.key] = quantity(capped)
      }
    }
  if (refusals.some((refusal) => refusal !== undefined))
    return { ok: false, refusals }
  if (asked > cap) {
    const message = `Pages on other origins may use at most ${cap} gas per request, over all its calls (as geth's RPC gas cap); this one asks ${asked}.`
    return {
      ok: false,
      refusals: calls.map((fields) =>
        fields.length > 0 ? { code: -32005, message } : undefined,
      ),
    }
  }
  if (unnamed.length > 0) {
    const share = (cap - asked) / BigInt(unnamed.length)
    for (const call of unnamed) call.owner[call.key] = quantity(share)
  }
  return { ok: true }
}

/**
 * The gas fields of a request's calls (`gas`, and `gasLimit`, which some
 * clients send) and its block overrides' gas limits; none for a method
 * that executes no code; why not when the params are not in the method's
 * shape (the node would refuse them, but what cannot be read cannot be
 * capped).
 */
function gasFieldsOf(
  request: unknown,
): { calls: GasField[]; limits: GasField[] } | string {
  const { method, params } = (request ?? {}) as {
    method?: unknown
    params?: unknown
  }
  if (typeof method !== 'string' || !executingMethods.has(method))
    return { calls: [], limits: [] }
  if (!Array.isArray(params) || !isObject(params[0]))
    return `${method} takes its call as the first of its params, an array.`
  const calls: GasField[] = []
  const limits: GasField[] = []
  const call = (owner: Record<string, unknown>) => {
    calls.push({ owner, key: 'gas' })
    if ('gasLimit' in owner) limits.push({ owner, key: 'gasLimit' })
  }
  if (method === 'eth_simulateV1') {
    const blocks = params[0].blockStateCalls
    if (!Array.isArray(blocks))
      return 'eth_simulateV1 takes { blockStateCalls: [...] } first.'
    for (const block of blocks) {
      if (!isObject(block)) return 'Each of blockStateCalls is an object.'
      if (block.blockOverrides !== undefined && block.blockOverrides !== null) {
        if (!isObject(block.blockOverrides))
          return 'blockOverrides is an object.'
        limits.push({ owner: block.blockOverrides, key: 'gasLimit' })
      }
      if (block.calls === undefined || block.calls === null) continue
      if (!Array.isArray(block.calls)) return 'calls is an array.'
      for (const entry of block.calls) {
        if (!isObject(entry)) return 'Each of calls is an object.'
        call(entry)
      }
    }
  } else {
    call(params[0])
    // eth_call's and eth_estimateGas's block overrides, after the block
    // and the state overrides.
    for (const param of params.slice(1))
      if (isObject(param) && 'gasLimit' in param)
        limits.push({ owner: param, key: 'gasLimit' })
  }
  return { calls, limits }
}

/**
 * A gas amount as nodes read it (a hex or decimal string, or a number);
 * `undefined` when absent, `null` when it is none of those.
 */
function gasOf(value: unknown): bigint | undefined | null {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'number')
    return Number.isInteger(value) && value >= 0 ? BigInt(value) : null
  if (typeof value !== 'string') return null
  if (/^0x[0-9a-f]{1,64}$/i.test(value) || /^[0-9]{1,78}$/.test(value))
    return BigInt(value)
  return null
}

function quantity(value: bigint): string {
  return `0x${value.toString(16)}`
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
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

/**
 * What the gateway answers when its node does not answer: 502 Bad Gateway,
 * as a provider's proxy in front of a node does, with a JSON-RPC error.
 */
function unreachable(res: ServerResponse) {
  reply(res, 502, rpcError(null, -32603, 'The node is not reachable.'))
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
