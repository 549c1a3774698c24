/**
 * The main chain as the emulator's UI shows it: the latest blocks, their
 * transactions with decoded calls, status and revert reasons. It follows
 * the node's new heads (`eth_subscribe` over the node's WebSocket) only
 * while a page watches, so an emulator nobody looks at does no work.
 *
 * @packageDocumentation
 */
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  isHex,
  type PublicClient,
} from 'viem'
import { revertMessage } from '../chain/revert.js'
import type { Chain } from '../service.js'
import { type DecodedCall, decodeCall } from './decode.js'

/** How many of the latest blocks are shown. */
export const shownBlocks = 12

/** The most transactions shown of one block. */
export const shownTransactions = 50

/** How long to wait before subscribing again after the node went away, ms. */
const reconnectMs = 1_000

/** A transaction as the UI lists it. */
export type TransactionRow = {
  readonly hash: Hex
  readonly from: Address
  readonly nonce: number
  readonly status: 'success' | 'reverted'
  readonly gasUsed: string
  readonly call: DecodedCall
  /** Why it reverted, in words (see chain/revert.ts). */
  readonly revert?: string | undefined
}

/** A block as the UI lists it. */
export type BlockRow = {
  readonly number: string
  readonly hash: Hex
  /** ISO 8601. */
  readonly timestamp: string
  readonly transactionCount: number
  readonly transactions: readonly TransactionRow[]
}

/** The chain view. */
export type ChainWatch = {
  /** Starts following new heads (counted: one per watching page). */
  watch(): void
  /** Stops, once every page that called {@link ChainWatch.watch} left. */
  unwatch(): void
  /** The chain's id and its latest blocks, newest first. */
  snapshot(): { chainId: number; blocks: readonly BlockRow[] }
  /** Stops for good. */
  stop(): void
}

/**
 * Creates the chain view of `chain`.
 *
 * @param options.onChange - Called once a new block is read.
 */
export function createChainWatch(options: {
  chain: Chain
  onChange: () => void
}): ChainWatch {
  const { chain, onChange } = options
  const client: PublicClient = createPublicClient({
    transport: http(chain.nodeUrl),
  })
  let blocks: BlockRow[] = []
  let watchers = 0
  let stopped = false
  let socket: WebSocket | undefined
  let retry: ReturnType<typeof setTimeout> | undefined
  /** The newest block read, and the reads in order. */
  let newest: bigint | undefined
  let reading: Promise<void> = Promise.resolve()

  const read = (head: bigint) => {
    reading = reading.then(async () => {
      const from =
        newest === undefined || head - newest > BigInt(shownBlocks)
          ? head - BigInt(shownBlocks) + 1n
          : // At or below the newest read: the chain was reverted to a
            // snapshot, and this head is a new block of that number.
            head <= newest
            ? head
            : newest + 1n
      for (let number = from < 0n ? 0n : from; number <= head; number++) {
        if (watchers === 0) return
        const row = await blockRow(client, chain, number).catch(() => undefined)
        if (!row) continue
        // A reverted chain (a test's snapshot) reuses numbers: the new
        // block replaces the old one's place.
        blocks = [
          row,
          ...blocks.filter((b) => BigInt(b.number) < number),
        ].slice(0, shownBlocks)
        newest = number
        onChange()
      }
    })
  }

  const subscribe = () => {
    if (stopped || watchers === 0 || socket) return
    const url = chain.nodeUrl.replace(/^http/, 'ws')
    const ws = new WebSocket(url)
    socket = ws
    ws.addEventListener('open', () => {
      ws.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_subscribe',
          params: ['newHeads'],
        }),
      )
      // What is on chain already, before the first new head.
      void client.getBlockNumber({ cacheTime: 0 }).then(read, () => {})
    })
    ws.addEventListener('message', (event) => {
      const number = headOf(event.data)
      if (number !== undefined) read(number)
    })
    ws.addEventListener('close', () => {
      if (socket !== ws) return
      socket = undefined
      // The node went away (a scenario takes it down): try again later.
      if (!stopped && watchers > 0) retry = setTimeout(subscribe, reconnectMs)
    })
    ws.addEventListener('error', () => {
      // 'close' follows and retries.
    })
  }

  const close = () => {
    clearTimeout(retry)
    const open = socket
    socket = undefined
    open?.close()
  }

  return {
    watch() {
      watchers++
      subscribe()
    },
    unwatch() {
      watchers = Math.max(0, watchers - 1)
      if (watchers === 0) {
        close()
        newest = undefined
        blocks = []
      }
    },
    snapshot: () => ({ chainId: chain.chainId, blocks }),
    stop() {
      stopped = true
      close()
    },
  }
}

/** The block `number` with its transactions decoded. */
async function blockRow(
  client: PublicClient,
  chain: Chain,
  number: bigint,
): Promise<BlockRow> {
  const block = await client.getBlock({
    blockNumber: number,
    includeTransactions: true,
  })
  const transactions = await Promise.all(
    block.transactions.slice(0, shownTransactions).map(async (tx) => {
      const receipt = await client.getTransactionReceipt({ hash: tx.hash })
      const row: TransactionRow = {
        hash: tx.hash,
        from: tx.from,
        nonce: tx.nonce,
        status: receipt.status,
        gasUsed: receipt.gasUsed.toString(),
        call: decodeCall(
          { to: tx.to, data: tx.input, value: tx.value },
          chain.contracts,
        ),
        ...(receipt.status === 'reverted'
          ? { revert: revertMessage(await revertData(client, tx.hash)) }
          : {}),
      }
      return row
    }),
  )
  return {
    number: block.number.toString(),
    hash: block.hash,
    timestamp: new Date(Number(block.timestamp) * 1000).toISOString(),
    transactionCount: block.transactions.length,
    transactions,
  }
}

/** The revert data of a mined transaction, from the node's call trace. */
async function revertData(
  client: PublicClient,
  hash: Hex,
): Promise<Hex | undefined> {
  const trace = await client
    .request<{
      Method: 'debug_traceTransaction'
      Parameters: [Hex, { tracer: 'callTracer' }]
      ReturnType: { output?: unknown }
    }>({
      method: 'debug_traceTransaction',
      params: [hash, { tracer: 'callTracer' }],
    })
    .catch(() => undefined)
  const output = trace?.output
  return typeof output === 'string' && isHex(output, { strict: true })
    ? output
    : undefined
}

/** The block number of a `newHeads` notification. */
function headOf(data: unknown): bigint | undefined {
  if (typeof data !== 'string') return undefined
  try {
    const message = JSON.parse(data) as {
      method?: unknown
      params?: { result?: { number?: unknown } }
    }
    const number = message.params?.result?.number
    return message.method === 'eth_subscription' &&
      typeof number === 'string' &&
      isHex(number)
      ? BigInt(number)
      : undefined
  } catch {
    return undefined
  }
}
