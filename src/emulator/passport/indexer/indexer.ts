/**
 * The emulated indexer: one {@link Follower} per emulator chain, polling
 * its node, and the state the platform API's indexer routes read (see
 * routes.ts). Its state lives in memory for one emulator run: a restart on
 * a fresh chain starts from nothing.
 *
 * What other backends give it travels through small interfaces: the
 * minting backend hands it the metadata of what it mints
 * ({@link Indexer.metadata}), the order book its active listings, bids and
 * trades ({@link ListingsSource}) for the pricing quotes and the search's
 * market data.
 *
 * @packageDocumentation
 */
import type { Address, Hex } from 'viem'
import {
  InvalidParamsError,
  LimitExceededError,
} from '../../../core/RpcErrors.js'
import { chainNameOf } from '../api/chains.js'
import { createFollower, type Follower } from './follower.js'
import { type Content, contentOfInput } from './metadata.js'
import { type Cursors, createCursors } from './pages.js'
import type {
  Bid,
  LastTrade,
  Listing,
  NftMetadataInput,
  VerificationStatus,
} from './schema.js'
import { type ChainState, createChainState, link, nftKey } from './state.js'

/** A chain the indexer follows. */
export type IndexedChain = {
  readonly chainId: number
  /** The node's own JSON-RPC URL (not the public gateway). */
  readonly nodeUrl: string
  /**
   * The Seaport contract whose `OrderFulfilled` events make sales of the
   * NFT transfers in their transaction; without it, none do.
   */
  readonly seaport?: Address | undefined
}

/** Which NFTs of a collection a market question is about. */
export type MarketQuery = {
  readonly chainId: number
  /** The collection, lowercase. */
  readonly contractAddress: Address
  /** Only these token ids (decimal strings); all of the collection's when left out. */
  readonly tokenIds?: readonly string[] | undefined
}

/**
 * What the order book tells the indexer: its active orders and trades in
 * the API's shapes, for the pricing quotes, the stacks' and NFTs' market
 * data and the sales' order ids. Until an order book is given, there are
 * none.
 */
export type ListingsSource = {
  /** The ACTIVE listings of the query's NFTs. */
  listings(query: MarketQuery): readonly Listing[] | Promise<readonly Listing[]>
  /**
   * The ACTIVE bids on the query's NFTs, collection bids (`token_id`
   * null) included.
   */
  bids?(query: MarketQuery): readonly Bid[] | Promise<readonly Bid[]>
  /** The trades of the query's NFTs (any order; the newest is picked). */
  trades?(
    query: MarketQuery,
  ): readonly LastTrade[] | Promise<readonly LastTrade[]>
  /**
   * The order book's id of a Seaport order, by its hash (lowercase hex),
   * for a sale's `order_id`; the hash itself when it answers `undefined`.
   */
  orderId?(query: { chainId: number; orderHash: Hex }): string | undefined
}

/** The NFT metadata the indexer serves before anything the chain says. */
export type MetadataStore = {
  /**
   * Sets the metadata of an NFT (minted or not yet): the indexer serves it
   * from now on, in the NFT's stack of equal metadata.
   *
   * @throws {InvalidParamsError} When the metadata breaks the API's rules
   *   for an `NFTMetadataRequest`, or the chain is not the emulator's.
   * @throws {LimitExceededError} Past {@link maxGivenMetadata} NFTs.
   */
  set(
    chainId: number,
    contract: Address,
    tokenId: bigint | string,
    metadata: NftMetadataInput,
  ): void
  /** The metadata set for an NFT, if any. */
  get(
    chainId: number,
    contract: Address,
    tokenId: bigint | string,
  ): NftMetadataInput | undefined
}

/** One followed chain. */
export type IndexerChain = {
  readonly chainId: number
  /** Its API name (`imtbl-zkevm-local-N`). */
  readonly name: string
  readonly state: ChainState
  readonly follower: Follower
}

/** The emulated indexer. */
export type Indexer = {
  readonly chains: readonly IndexerChain[]
  readonly metadata: MetadataStore
  readonly listings: ListingsSource | undefined
  /** Signs the routes' page cursors. */
  readonly cursors: Cursors
  readonly now: () => Date
  /**
   * Indexes up to each chain's head as of this call (or one chain's), for
   * at most `timeout` ms: a read after it sees every transfer mined before
   * it was called. A node that cannot be reached leaves what was indexed.
   */
  sync(chainId?: number, timeout?: number): Promise<void>
  /**
   * Sets the verification status of a collection or token (`unverified`
   * by default), as the platform's staff would.
   *
   * @throws {LimitExceededError} Past {@link maxStatuses} contracts.
   */
  setVerificationStatus(
    chainId: number,
    contract: Address,
    status: VerificationStatus,
  ): void
  /** The verification status of a contract (`unverified` unless set). */
  verificationStatus(chainId: number, contract: Address): VerificationStatus
  /** The chain of an API name, if it is one of the emulator's. */
  chainByName(name: string): IndexerChain | undefined
  /** Stops following every chain. Idempotent. */
  stop(): Promise<void>
}

/** The most NFTs the minting backend may give metadata for, per chain. */
export const maxGivenMetadata = 100_000

/** The most contracts given a verification status, per chain. */
export const maxStatuses = 10_000

/**
 * Creates the indexer and starts following its chains.
 *
 * @example
 * ```ts
 * const indexer = createIndexer({ chains: [{ chainId: 31337, nodeUrl: anvil.rpcUrl }] })
 * await indexer.sync()
 * indexer.metadata.set(31337, collection, 1n, { name: 'Sword' })
 * await indexer.stop()
 * ```
 */
export function createIndexer(options: createIndexer.Options): Indexer {
  const {
    listings,
    now = () => new Date(),
    pollingInterval = 1_000,
    syncTimeout = 5_000,
  } = options
  const chains: IndexerChain[] = options.chains.map((chain) => {
    const state = createChainState(chain.chainId)
    return {
      chainId: chain.chainId,
      name: chainNameOf(chain.chainId),
      state,
      follower: createFollower({
        chainId: chain.chainId,
        nodeUrl: chain.nodeUrl,
        seaport: chain.seaport,
        state,
        now,
      }),
    }
  })
  const byId = (chainId: number) =>
    chains.find((chain) => chain.chainId === chainId)

  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const poll = () => {
    timer = setTimeout(async () => {
      await Promise.all(chains.map((chain) => chain.follower.catchUp()))
      if (!stopped) poll()
    }, pollingInterval)
    timer.unref?.()
  }
  poll()

  const metadata: MetadataStore = {
    set(chainId, contract, tokenId, input) {
      const chain = byId(chainId)
      if (!chain)
        throw new InvalidParamsError({
          message: `The emulator has no chain ${chainId}.`,
        })
      const id = tokenIdOf(tokenId)
      const content = contentOfInput(input)
      if (typeof content === 'string' || id === undefined)
        throw new InvalidParamsError({
          message:
            typeof content === 'string'
              ? content
              : 'tokenId must be a uint256.',
        })
      const key = nftKey(contract, id)
      const { state } = chain
      if (
        !state.givenMetadata.has(key) &&
        state.givenMetadata.size >= maxGivenMetadata
      )
        throw new LimitExceededError({
          message: `The indexer holds the metadata of ${maxGivenMetadata} NFTs, its most.`,
        })
      giveMetadata(state, key, content, now())
    },
    get(chainId, contract, tokenId) {
      const id = tokenIdOf(tokenId)
      if (id === undefined) return undefined
      return byId(chainId)?.state.givenMetadata.get(nftKey(contract, id))
    },
  }

  return {
    chains,
    metadata,
    listings,
    cursors: createCursors(),
    now,
    async sync(chainId, timeout = syncTimeout) {
      const targets =
        chainId === undefined
          ? chains
          : chains.filter((c) => c.chainId === chainId)
      let timeoutTimer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        Promise.all(targets.map((chain) => chain.follower.catchUp())),
        new Promise<void>((resolve) => {
          timeoutTimer = setTimeout(resolve, timeout)
        }),
      ])
      clearTimeout(timeoutTimer)
    },
    setVerificationStatus(chainId, contract, status) {
      const chain = byId(chainId)
      if (!chain) return
      const { state } = chain
      const address = contract.toLowerCase() as Address
      const at = now()
      if (status === 'unverified') state.statuses.delete(address)
      else {
        if (!state.statuses.has(address) && state.statuses.size >= maxStatuses)
          throw new LimitExceededError({
            message: `The indexer holds the statuses of ${maxStatuses} contracts, its most.`,
          })
        state.statuses.set(address, { status, at })
      }
      const record = state.collections.get(address) ?? state.tokens.get(address)
      if (record) record.updatedAt = at
    },
    verificationStatus(chainId, contract) {
      const status = byId(chainId)?.state.statuses.get(
        contract.toLowerCase() as Address,
      )
      return status?.status ?? 'unverified'
    },
    chainByName(name) {
      return chains.find((chain) => chain.name === name)
    },
    async stop() {
      if (stopped) return
      stopped = true
      clearTimeout(timer)
      await Promise.all(chains.map((chain) => chain.follower.stop()))
    },
  }
}

export declare namespace createIndexer {
  type Options = {
    /** The chains to follow, the main one first. */
    chains: readonly IndexedChain[]
    /** The order book's active orders and trades; none without it. */
    listings?: ListingsSource | undefined
    /** The clock of `indexed_at` and `updated_at`. @default () => new Date() */
    now?: (() => Date) | undefined
    /**
     * How often each node is asked for new blocks, in ms (reads catch up
     * by themselves). @default 1_000
     */
    pollingInterval?: number | undefined
    /** The longest {@link Indexer.sync} waits, in ms. @default 5_000 */
    syncTimeout?: number | undefined
  }
}

/**
 * Gives an NFT metadata (the minting backend's, or a refresh's): it wins
 * over what the chain says, and moves the NFT to the stack of its content
 * if it is indexed already.
 */
export function giveMetadata(
  state: ChainState,
  key: string,
  content: Content,
  at: Date,
): void {
  state.givenMetadata.set(key, content)
  const nft = state.nfts.get(key)
  if (nft) link(state, key, nft.contract, content, at)
}

function tokenIdOf(value: bigint | string): bigint | undefined {
  if (typeof value === 'bigint')
    return value >= 0n && value < 2n ** 256n ? value : undefined
  return /^(0|[1-9][0-9]{0,77})$/.test(value) && BigInt(value) < 2n ** 256n
    ? BigInt(value)
    : undefined
}
