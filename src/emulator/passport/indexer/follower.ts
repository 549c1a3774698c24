/**
 * Follows one chain: reads its new blocks' transfer and order logs with
 * `eth_getLogs`, reads what a contract or an NFT first needs from the chain
 * (ERC-165 support, name, symbol, decimals, token URIs), and adds it all to
 * the chain's {@link ChainState} one block range at a time.
 *
 * It survives Anvil's snapshot reverts and resets: before going on, it
 * checks that the block it indexed last is still the chain's; when it is
 * not (the height went down, or the hash at that height changed), it walks
 * back to the last block both agree on, drops what came after and indexes
 * again from there.
 *
 * @packageDocumentation
 */
import {
  type Address,
  createPublicClient,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  HttpRequestError,
  http,
  numberToHex,
  parseAbi,
  TimeoutError,
} from 'viem'
import {
  compareLocations,
  decodeLog,
  indexedTopics,
  type RawLog,
  type SaleEvent,
  salesOf,
  type TransferEvent,
} from './events.js'
import {
  type Content,
  contentOfJson,
  erc1155Uri,
  jsonOfDataUri,
} from './metadata.js'
import {
  activityIdOf,
  append,
  type ChainState,
  type ContractInfo,
  type Entry,
  link,
  nftKey,
  rollback,
} from './state.js'

/** What a follower reads, and how. */
export type FollowerOptions = {
  chainId: number
  /** The node's own JSON-RPC URL. */
  nodeUrl: string
  /** The Seaport contract whose `OrderFulfilled` events are sales. */
  seaport?: Address | undefined
  state: ChainState
  now: () => Date
  /** The most blocks one `eth_getLogs` asks for. @default 2_000 */
  range?: number | undefined
  /** How long one node request may take, in ms. @default 5_000 */
  requestTimeout?: number | undefined
}

/** A follower of one chain. */
export type Follower = {
  /**
   * Indexes up to the chain's head as of now. Calls made while a pass
   * runs share the next pass, so that a caller always waits for a pass
   * that started after it called.
   */
  catchUp(): Promise<void>
  /** The last indexed block's height, or -1 before the first. */
  readonly height: number
  /** Why the last pass failed (the node gone, say), if it did. */
  readonly lastError: unknown
  /** Stops; a pass under way ends first. */
  stop(): Promise<void>
}

/** The most block hashes kept to find where a reverted chain forked. */
export const maxKeptHashes = 10_000

/** How many chain reads run at once while indexing. */
const concurrency = 8

const interfaces = {
  erc721: '0x80ac58cd',
  erc1155: '0xd9b67a26',
  erc2981: '0x2a55205a',
} as const

const abi = parseAbi([
  'function supportsInterface(bytes4) view returns (bool)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function contractURI() view returns (string)',
  'function baseURI() view returns (string)',
  'function tokenURI(uint256) view returns (string)',
  'function uri(uint256) view returns (string)',
  'function royaltyInfo(uint256, uint256) view returns (address, uint256)',
])

/** The gas a metadata read may burn (a `data:` URI is built on chain). */
const callGas = 10_000_000n

/** The chain moved under a range being read: read it again. */
class ChainMoved extends Error {}

/** Creates a follower; it reads nothing until {@link Follower.catchUp}. */
export function createFollower(options: FollowerOptions): Follower {
  const { chainId, state, now, range = 2_000, requestTimeout = 5_000 } = options
  const seaport = options.seaport?.toLowerCase() as Address | undefined
  const client = createPublicClient({
    transport: http(options.nodeUrl, {
      retryCount: 0,
      timeout: requestTimeout,
    }),
  })
  const request = client.request as (args: {
    method: string
    params?: unknown
  }) => Promise<unknown>

  /** Hashes of indexed blocks (those with events, and each range's last). */
  const hashes = new Map<number, Hex>()
  let tip: { height: number; hash: Hex } | undefined
  let lastError: unknown
  let stopped = false
  let running: Promise<void> | undefined
  let queued: Promise<void> | undefined

  const blockHash = async (height: number): Promise<Hex | undefined> => {
    const block = (await request({
      method: 'eth_getBlockByNumber',
      params: [numberToHex(height), false],
    })) as { hash?: Hex } | null
    return block?.hash ?? undefined
  }

  const remember = (height: number, hash: Hex) => {
    hashes.delete(height)
    hashes.set(height, hash)
    while (hashes.size > maxKeptHashes) {
      const oldest = hashes.keys().next().value
      if (oldest === undefined) break
      hashes.delete(oldest)
    }
  }

  /** Drops what a revert or reset took away, if anything. */
  const reconcile = async (head: number) => {
    if (!tip) return
    if (head >= tip.height && (await blockHash(tip.height)) === tip.hash) return
    let fork = -1
    const heights = [...hashes.keys()].sort((a, b) => b - a)
    for (const height of heights) {
      if (height > head) continue
      if ((await blockHash(height)) === hashes.get(height)) {
        fork = height
        break
      }
    }
    rollback(state, fork, now())
    for (const height of [...hashes.keys()])
      if (height > fork) hashes.delete(height)
    const hash = hashes.get(fork)
    tip = hash === undefined ? undefined : { height: fork, hash }
  }

  const logsOf = async (from: number, to: number): Promise<RawLog[]> =>
    (await request({
      method: 'eth_getLogs',
      params: [
        {
          fromBlock: numberToHex(from),
          toBlock: numberToHex(to),
          topics: [indexedTopics],
        },
      ],
    })) as RawLog[]

  /** Indexes blocks `from` to `to`, all or nothing. */
  const indexRange = async (from: number, to: number) => {
    const hash = await blockHash(to)
    if (hash === undefined) throw new ChainMoved()
    const logs = await logsOf(from, to)
    if ((await blockHash(to)) !== hash) throw new ChainMoved()
    if (
      logs.some(
        (log) => Number(log.blockNumber) === to && log.blockHash !== hash,
      )
    )
      throw new ChainMoved()

    const decoded = logs.flatMap((log) => decodeLog(log, seaport))
    const byTransaction = new Map<Hex, typeof decoded>()
    for (const event of decoded) {
      const list = byTransaction.get(event.at.txHash) ?? []
      list.push(event)
      byTransaction.set(event.at.txHash, list)
    }
    const events = [...byTransaction.values()]
      .flatMap((events) => salesOf(events))
      .sort((a, b) => compareLocations(a.at, b.at))

    const contracts = await readContracts(events, to)
    const royalties = await readRoyalties(events)
    const metadata = await readMetadata(events, contracts)

    // Everything read: apply it at once, so readers never see half a range.
    const at = now()
    const entries: Entry[] = events.map((event) => ({
      ...event,
      id: activityIdOf(chainId, event.at, event.kind),
      indexedAt: at,
      ...(event.kind === 'sale'
        ? { royaltyRecipient: royalties.get(event.orderHash) }
        : {}),
    }))
    for (const [address, info] of contracts) state.contracts.set(address, info)
    const known = new Set(state.nfts.keys())
    append(state, entries)
    for (const [key, content] of metadata) state.chainMetadata.set(key, content)
    for (const nft of state.nfts.values()) {
      if (known.has(nft.key)) continue
      const content =
        state.givenMetadata.get(nft.key) ?? state.chainMetadata.get(nft.key)
      if (content) link(state, nft.key, nft.contract, content, at)
    }
    for (const log of logs)
      if (log.blockNumber !== null && log.blockHash !== null)
        remember(Number(log.blockNumber), log.blockHash)
    remember(to, hash)
    tip = { height: to, hash }
  }

  /** What the contracts first seen in `events` answer at block `to`. */
  const readContracts = async (
    events: readonly (TransferEvent | SaleEvent)[],
    to: number,
  ): Promise<Map<Address, ContractInfo>> => {
    const firstSeen = new Map<Address, TransferEvent['standard']>()
    for (const event of events)
      if (
        event.kind === 'transfer' &&
        !state.contracts.has(event.contract) &&
        !firstSeen.has(event.contract)
      )
        firstSeen.set(event.contract, event.standard)
    const infos = new Map<Address, ContractInfo>()
    await each([...firstSeen], async ([address, standard]) => {
      infos.set(address, await readContract(address, standard, to))
    })
    return infos
  }

  const readContract = async (
    address: Address,
    standard: TransferEvent['standard'],
    block: number,
  ): Promise<ContractInfo> => {
    const read = (name: string, args: readonly unknown[] = []) =>
      call(address, name, args, block)
    const text = async (name: string) => {
      const value = await read(name)
      return typeof value === 'string' ? value : null
    }
    if (standard === 'ERC20') {
      const decimals = await read('decimals')
      return {
        address,
        kind: 'ERC20',
        name: await text('name'),
        symbol: await text('symbol'),
        decimals: typeof decimals === 'number' ? decimals : null,
        contractUri: null,
        description: null,
        image: null,
        externalLink: null,
        baseUri: null,
      }
    }
    const kind =
      (await read('supportsInterface', [interfaces.erc721])) === true
        ? 'ERC721'
        : (await read('supportsInterface', [interfaces.erc1155])) === true
          ? 'ERC1155'
          : standard
    const contractUri = await text('contractURI')
    const json = contractUri === null ? undefined : jsonOfDataUri(contractUri)
    const field = (name: string) =>
      typeof json?.[name] === 'string' ? (json[name] as string) : null
    return {
      address,
      kind,
      name: (await text('name')) ?? field('name'),
      symbol: await text('symbol'),
      decimals: null,
      contractUri,
      description: field('description'),
      image: field('image'),
      externalLink: field('external_link') ?? field('external_url'),
      baseUri: await text('baseURI'),
    }
  }

  /** The metadata of the NFTs first seen in `events`, by NFT key. */
  const readMetadata = async (
    events: readonly (TransferEvent | SaleEvent)[],
    contracts: ReadonlyMap<Address, ContractInfo>,
  ): Promise<Map<string, Content | null>> => {
    const firstSeen = new Map<string, TransferEvent>()
    for (const event of events) {
      if (event.kind !== 'transfer' || event.tokenId === undefined) continue
      const key = nftKey(event.contract, event.tokenId)
      if (
        !firstSeen.has(key) &&
        !state.chainMetadata.has(key) &&
        !state.givenMetadata.has(key)
      )
        firstSeen.set(key, event)
    }
    const out = new Map<string, Content | null>()
    await each([...firstSeen], async ([key, event]) => {
      const kind =
        contracts.get(event.contract)?.kind ??
        state.contracts.get(event.contract)?.kind ??
        event.standard
      const tokenId = event.tokenId as bigint
      const name = kind === 'ERC1155' ? 'uri' : 'tokenURI'
      // At the block that minted it (it may be burnt since), else now (a
      // node that keeps no state that old).
      const uri =
        (await call(event.contract, name, [tokenId], event.at.block)) ??
        (await call(event.contract, name, [tokenId], 'latest'))
      const json =
        typeof uri === 'string'
          ? jsonOfDataUri(kind === 'ERC1155' ? erc1155Uri(uri, tokenId) : uri)
          : undefined
      out.set(key, json ? contentOfJson(json) : null)
    })
    return out
  }

  /** The ERC-2981 royalty recipient of each sale's first NFT. */
  const readRoyalties = async (
    events: readonly (TransferEvent | SaleEvent)[],
  ): Promise<Map<Hex, Address>> => {
    const out = new Map<Hex, Address>()
    await each(
      events.filter((event): event is SaleEvent => event.kind === 'sale'),
      async (sale) => {
        const [asset] = sale.assets
        if (!asset || sale.payment.fees.length === 0) return
        const info = await call(
          asset.contract,
          'royaltyInfo',
          [asset.tokenId, sale.payment.total],
          sale.at.block,
        )
        if (Array.isArray(info) && typeof info[0] === 'string')
          out.set(sale.orderHash, info[0].toLowerCase() as Address)
      },
    )
    return out
  }

  /**
   * A view call's decoded result at `block`, or `undefined` when the
   * contract does not answer it (no such function, a revert, a result
   * that does not decode). A node that cannot be reached fails the pass.
   */
  const call = async (
    to: Address,
    functionName: string,
    args: readonly unknown[],
    block: number | 'latest',
  ): Promise<unknown> => {
    let data: Hex
    try {
      data = (await request({
        method: 'eth_call',
        params: [
          {
            to,
            gas: numberToHex(callGas),
            data: encodeFunctionData({
              abi,
              functionName,
              args,
            } as Parameters<typeof encodeFunctionData>[0]),
          },
          block === 'latest' ? block : numberToHex(block),
        ],
      })) as Hex
    } catch (error) {
      if (error instanceof HttpRequestError || error instanceof TimeoutError)
        throw error
      return undefined
    }
    try {
      return decodeFunctionResult({
        abi,
        functionName,
        data,
      } as Parameters<typeof decodeFunctionResult>[0])
    } catch {
      return undefined
    }
  }

  /** One pass: up to the head, again from the fork when the chain moved. */
  const pass = async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const head = Number(
          BigInt((await request({ method: 'eth_blockNumber' })) as Hex),
        )
        await reconcile(head)
        for (let from = (tip?.height ?? -1) + 1; from <= head && !stopped; ) {
          const to = Math.min(head, from + range - 1)
          await indexRange(from, to)
          from = to + 1
        }
        lastError = undefined
        return
      } catch (error) {
        if (!(error instanceof ChainMoved)) throw error
      }
    }
  }

  const run = async () => {
    try {
      await pass()
    } catch (error) {
      lastError = error
    } finally {
      running = undefined
    }
  }

  return {
    catchUp() {
      if (stopped) return Promise.resolve()
      if (queued) return queued
      if (!running) {
        running = run()
        return running
      }
      queued = running.then(() => {
        queued = undefined
        if (stopped) return
        running = run()
        return running
      })
      return queued
    },
    get height() {
      return tip?.height ?? -1
    },
    get lastError() {
      return lastError
    },
    async stop() {
      stopped = true
      await queued
      await running
    },
  }
}

/** Runs `task` over `items`, a few at a time. */
async function each<item>(
  items: readonly item[],
  task: (item: item) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += concurrency)
    await Promise.all(items.slice(i, i + concurrency).map(task))
}
