/**
 * What the indexer knows of one chain, in memory for one emulator run: the
 * journal of indexed events in chain order (transfers and sales), the
 * contracts they came from, and what follows from them — NFTs with their
 * supply, owners with their balances, collections, ERC-20 tokens — plus
 * the NFTs' metadata and stacks, and what local programs set (verification
 * statuses, collection metadata).
 *
 * Ownership is derived from the journal alone, so dropping the events of
 * reverted blocks and deriving again ({@link rollback}) gives exactly the
 * state of the chain that remains.
 *
 * @packageDocumentation
 */
import { randomUUID } from 'node:crypto'
import { type Address, keccak256, stringToHex, zeroAddress } from 'viem'
import {
  compareLocations,
  type Location,
  locationKey,
  type SaleEvent,
  type TransferEvent,
} from './events.js'
import { type Content, contentKey } from './metadata.js'
import { sortable } from './pages.js'
import type {
  CollectionMetadata,
  NftContractType,
  VerificationStatus,
} from './schema.js'

/** An indexed event: its activity id and when it was indexed. */
export type Entry = (TransferEvent | SaleEvent) & {
  /** The activity's id (a UUID derived from where the event happened). */
  id: string
  indexedAt: Date
  /** The recipient of the NFTs' ERC-2981 royalty, for a sale. */
  royaltyRecipient?: Address | undefined
}

/** What the indexer read of a contract when it first saw it. */
export type ContractInfo = {
  address: Address
  /** A collection's type, or `ERC20` for a fungible token. */
  kind: NftContractType | 'ERC20'
  name: string | null
  symbol: string | null
  /** An ERC-20's `decimals()`. */
  decimals: number | null
  /** Its `contractURI()` and what a `data:` one says. */
  contractUri: string | null
  description: string | null
  image: string | null
  externalLink: string | null
  /** Its `baseURI()`, when it has one. */
  baseUri: string | null
}

/** An NFT, as its transfers make it. */
export type NftRecord = {
  key: string
  contract: Address
  tokenId: bigint
  standard: NftContractType
  /** Minted less burnt. */
  supply: bigint
  indexedAt: Date
  updatedAt: Date
}

/** An account's balance of one NFT or token. */
export type Holding = { balance: bigint; updatedAt: Date }

/** A collection or token: when it was first indexed and last changed. */
export type ContractRecord = {
  address: Address
  indexedAt: Date
  updatedAt: Date
}

/** A stack: NFTs of one collection with the same metadata (one metadata id). */
export type StackRecord = {
  id: string
  contract: Address
  content: Content
  key: string
  /** Creation order, for stable listing. */
  seq: number
  createdAt: Date
  updatedAt: Date
}

/** The state of one chain. */
export type ChainState = {
  readonly chainId: number
  readonly entries: Entry[]
  readonly contracts: Map<Address, ContractInfo>
  readonly nfts: Map<string, NftRecord>
  /** Balances by NFT key, then by account. */
  readonly owners: Map<string, Map<Address, Holding>>
  readonly collections: Map<Address, ContractRecord>
  readonly tokens: Map<Address, ContractRecord>
  readonly activities: Map<string, Entry>
  /** Metadata read from the chain (`null`: read, none usable). */
  readonly chainMetadata: Map<string, Content | null>
  /** Metadata given by the minting backend or a refresh: it wins. */
  readonly givenMetadata: Map<string, Content>
  readonly stacks: Map<string, StackRecord>
  readonly stackByContent: Map<string, string>
  /** Each NFT's stack, and when its metadata was last set. */
  readonly links: Map<string, { stackId: string; syncedAt: Date }>
  readonly statuses: Map<Address, { status: VerificationStatus; at: Date }>
  readonly collectionMetadata: Map<
    Address,
    { metadata: CollectionMetadata; at: Date }
  >
  stackSeq: number
}

/** A new, empty state. */
export function createChainState(chainId: number): ChainState {
  return {
    chainId,
    entries: [],
    contracts: new Map(),
    nfts: new Map(),
    owners: new Map(),
    collections: new Map(),
    tokens: new Map(),
    activities: new Map(),
    chainMetadata: new Map(),
    givenMetadata: new Map(),
    stacks: new Map(),
    stackByContent: new Map(),
    links: new Map(),
    statuses: new Map(),
    collectionMetadata: new Map(),
    stackSeq: 0,
  }
}

/** The key of an NFT: its contract and id. */
export function nftKey(contract: Address, tokenId: bigint): string {
  return `${contract.toLowerCase()}:${sortable(tokenId)}`
}

/**
 * A UUID (version 4 layout) derived from `text`, so that an event keeps
 * its activity id however often it is read.
 */
export function uuidOf(text: string): string {
  const hex = keccak256(stringToHex(text)).slice(2, 34).split('')
  hex[12] = '4'
  hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  const s = hex.join('')
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`
}

/** The activity id of an event at `at` on `chainId`. */
export function activityIdOf(
  chainId: number,
  at: Location,
  kind: 'transfer' | 'sale',
): string {
  return uuidOf(
    `${chainId}:${at.blockHash}:${at.logIndex}:${at.position}:${kind}`,
  )
}

/**
 * Adds a block range's events (in chain order, after everything indexed)
 * and what follows from them.
 */
export function append(state: ChainState, entries: readonly Entry[]): void {
  for (const entry of entries) {
    state.entries.push(entry)
    apply(state, entry)
  }
}

/**
 * Drops every event of a block above `height` and derives the state again
 * from what remains; what the dropped events had touched is marked updated
 * at `now`, so that readers following `updated_at` see the change. The
 * contracts, NFTs and stacks that no event names any more are forgotten.
 *
 * @returns How many events were dropped.
 */
export function rollback(state: ChainState, height: number, now: Date): number {
  const kept = state.entries.filter((entry) => entry.at.block <= height)
  const dropped = state.entries.filter((entry) => entry.at.block > height)
  if (dropped.length === 0) return 0
  state.entries.length = 0
  for (const map of [
    state.nfts,
    state.owners,
    state.collections,
    state.tokens,
    state.activities,
  ])
    map.clear()
  append(state, kept)

  const named = new Set(kept.flatMap(contractsOf))
  for (const address of [...state.contracts.keys()])
    if (!named.has(address)) state.contracts.delete(address)
  for (const key of [...state.chainMetadata.keys()])
    if (!state.nfts.has(key)) state.chainMetadata.delete(key)
  for (const key of [...state.links.keys()])
    if (!state.nfts.has(key)) unlink(state, key)

  for (const entry of dropped) {
    if (entry.kind !== 'transfer') continue
    if (entry.tokenId === undefined) continue
    const key = nftKey(entry.contract, entry.tokenId)
    const nft = state.nfts.get(key)
    if (nft) nft.updatedAt = now
    for (const account of [entry.from, entry.to]) {
      const holding = state.owners.get(key)?.get(account)
      if (holding) holding.updatedAt = now
    }
  }
  return dropped.length
}

/** The contracts an event names. */
function contractsOf(entry: Entry): Address[] {
  return entry.kind === 'transfer'
    ? [entry.contract]
    : entry.assets.map((asset) => asset.contract)
}

function apply(state: ChainState, entry: Entry): void {
  if (entry.kind === 'sale') {
    state.activities.set(entry.id, entry)
    return
  }
  if (entry.sale === undefined) state.activities.set(entry.id, entry)
  const at = entry.indexedAt
  if (entry.tokenId === undefined) {
    if (!state.tokens.has(entry.contract))
      state.tokens.set(entry.contract, {
        address: entry.contract,
        indexedAt: at,
        updatedAt: at,
      })
    return
  }
  if (!state.collections.has(entry.contract))
    state.collections.set(entry.contract, {
      address: entry.contract,
      indexedAt: at,
      updatedAt: at,
    })
  const key = nftKey(entry.contract, entry.tokenId)
  let nft = state.nfts.get(key)
  if (!nft) {
    nft = {
      key,
      contract: entry.contract,
      tokenId: entry.tokenId,
      standard: entry.standard === 'ERC1155' ? 'ERC1155' : 'ERC721',
      supply: 0n,
      indexedAt: at,
      updatedAt: at,
    }
    state.nfts.set(key, nft)
  }
  if (entry.from === zeroAddress) nft.supply += entry.amount
  if (entry.to === zeroAddress)
    nft.supply = nft.supply > entry.amount ? nft.supply - entry.amount : 0n
  nft.updatedAt = at
  let holders = state.owners.get(key)
  if (!holders) {
    holders = new Map()
    state.owners.set(key, holders)
  }
  move(holders, entry, at)
}

/**
 * Moves `amount` between two holders. A sender the journal shows holding
 * less (a contract that mints without a mint event) is left at zero.
 */
function move(
  holders: Map<Address, Holding>,
  entry: TransferEvent,
  at: Date,
): void {
  if (entry.from !== zeroAddress) {
    const holding = holders.get(entry.from) ?? { balance: 0n, updatedAt: at }
    holding.balance =
      holding.balance > entry.amount ? holding.balance - entry.amount : 0n
    holding.updatedAt = at
    holders.set(entry.from, holding)
  }
  if (entry.to !== zeroAddress) {
    const holding = holders.get(entry.to) ?? { balance: 0n, updatedAt: at }
    holding.balance += entry.amount
    holding.updatedAt = at
    holders.set(entry.to, holding)
  }
}

/**
 * Gives an NFT the metadata `content`: the stack of that content in its
 * collection (created if none has it yet). A stack left without NFTs is
 * forgotten.
 */
export function link(
  state: ChainState,
  key: string,
  contract: Address,
  content: Content,
  now: Date,
): StackRecord {
  const byContent = `${contract}|${contentKey(content)}`
  let stack = state.stacks.get(state.stackByContent.get(byContent) ?? '')
  if (!stack) {
    stack = {
      id: randomUUID(),
      contract,
      content,
      key: contentKey(content),
      seq: ++state.stackSeq,
      createdAt: now,
      updatedAt: now,
    }
    state.stacks.set(stack.id, stack)
    state.stackByContent.set(byContent, stack.id)
  }
  const previous = state.links.get(key)
  state.links.set(key, { stackId: stack.id, syncedAt: now })
  if (previous && previous.stackId !== stack.id) prune(state, previous.stackId)
  const nft = state.nfts.get(key)
  if (nft) nft.updatedAt = now
  return stack
}

/**
 * Replaces a stack's metadata (every NFT of the stack shows it), keeping
 * its id.
 */
export function restack(
  state: ChainState,
  stack: StackRecord,
  content: Content,
  now: Date,
): void {
  const before = `${stack.contract}|${stack.key}`
  if (state.stackByContent.get(before) === stack.id)
    state.stackByContent.delete(before)
  stack.content = content
  stack.key = contentKey(content)
  stack.updatedAt = now
  state.stackByContent.set(`${stack.contract}|${stack.key}`, stack.id)
  for (const [key, linked] of state.links)
    if (linked.stackId === stack.id) {
      linked.syncedAt = now
      const nft = state.nfts.get(key)
      if (nft) nft.updatedAt = now
    }
}

function unlink(state: ChainState, key: string): void {
  const previous = state.links.get(key)
  state.links.delete(key)
  if (previous) prune(state, previous.stackId)
}

function prune(state: ChainState, stackId: string): void {
  for (const linked of state.links.values())
    if (linked.stackId === stackId) return
  const stack = state.stacks.get(stackId)
  if (!stack) return
  state.stacks.delete(stackId)
  const byContent = `${stack.contract}|${stack.key}`
  if (state.stackByContent.get(byContent) === stackId)
    state.stackByContent.delete(byContent)
}

/** The sort key of an entry: where it happened on the chain. */
export function entryKey(entry: Entry): string {
  return locationKey(entry.at)
}

/** Sorts entries as the chain ordered them. */
export function compareEntries(a: Entry, b: Entry): number {
  return compareLocations(a.at, b.at)
}
