/**
 * The indexer's state as the platform API shows it: activities, NFTs,
 * owners, collections, tokens, metadata, stacks and market data, each in
 * its OpenAPI record. Addresses are lowercase, as the hosted indexer
 * answers them; times are ISO 8601.
 *
 * @packageDocumentation
 */
import { type Address, zeroAddress } from 'viem'
import { caip2 } from '../api/http.js'
import type { IndexerChain, ListingsSource, MarketQuery } from './indexer.js'
import type { Content } from './metadata.js'
import type {
  Activity,
  ActivityNft,
  ApiChainRef,
  Bid,
  Collection,
  LastTrade,
  Listing,
  Market,
  Metadata,
  Nft,
  NftContractType,
  NftOwner,
  NftWithBalance,
  SaleFee,
  Stack,
  Token,
  VerificationStatus,
} from './schema.js'
import type {
  ChainState,
  ContractRecord,
  Entry,
  NftRecord,
  StackRecord,
} from './state.js'

/** The symbol of the emulator chains' native currency (IMX on zkEVM). */
export const nativeSymbol = 'IMX'

/** The `Chain` record of a followed chain. */
export function chainRefOf(chain: IndexerChain): ApiChainRef {
  return { id: caip2(chain.chainId), name: chain.name }
}

/** A contract's verification status (`unverified` unless one was set). */
export function statusOf(
  state: ChainState,
  address: Address,
): VerificationStatus {
  return state.statuses.get(address)?.status ?? 'unverified'
}

/** The type of a collection: what ERC-165 said, else what its events were. */
export function collectionTypeOf(
  state: ChainState,
  address: Address,
  fallback: NftContractType = 'ERC721',
): NftContractType {
  const kind = state.contracts.get(address)?.kind
  return kind === 'ERC721' || kind === 'ERC1155' ? kind : fallback
}

/** An indexed event as an `Activity`. */
export function activityOf(
  chain: IndexerChain,
  entry: Entry,
  listings: ListingsSource | undefined,
): Activity {
  const blockchain_metadata = {
    transaction_hash: entry.at.txHash,
    block_number: String(entry.at.block),
    transaction_index: String(entry.at.txIndex),
    log_index: String(entry.at.logIndex),
  }
  const times = {
    updated_at: entry.indexedAt.toISOString(),
    indexed_at: entry.indexedAt.toISOString(),
  }
  if (entry.kind === 'sale') {
    const fees: SaleFee[] = entry.payment.fees.map((fee) => ({
      amount: fee.amount.toString(),
      ...(fee.recipient === entry.royaltyRecipient
        ? { type: 'ROYALTY' as const }
        : {}),
      recipient: fee.recipient,
    }))
    return {
      id: entry.id,
      chain: chainRefOf(chain),
      type: 'sale',
      details: {
        order_id:
          listings?.orderId?.({
            chainId: chain.chainId,
            orderHash: entry.orderHash,
          }) ?? entry.orderHash,
        to: entry.buyer,
        from: entry.seller,
        asset: entry.assets.map((asset) => ({
          contract_type: asset.standard,
          contract_address: asset.contract,
          token_id: asset.tokenId.toString(),
          amount: asset.amount.toString(),
        })),
        payment: {
          token:
            entry.payment.token === undefined
              ? { symbol: nativeSymbol }
              : {
                  contract_type: 'ERC20',
                  contract_address: entry.payment.token,
                },
          price_excluding_fees: entry.payment.proceeds.toString(),
          price_including_fees: entry.payment.total.toString(),
          fees,
        },
      },
      ...times,
      blockchain_metadata,
    }
  }
  const amount = entry.amount.toString()
  const asset:
    | ActivityNft
    | { contract_type: 'ERC20'; contract_address: string } =
    entry.tokenId === undefined
      ? { contract_type: 'ERC20', contract_address: entry.contract }
      : {
          contract_type: entry.standard === 'ERC1155' ? 'ERC1155' : 'ERC721',
          contract_address: entry.contract,
          token_id: entry.tokenId.toString(),
          amount,
        }
  const type =
    entry.from === zeroAddress
      ? 'mint'
      : entry.to === zeroAddress
        ? 'burn'
        : 'transfer'
  return {
    id: entry.id,
    chain: chainRefOf(chain),
    type,
    details:
      type === 'mint'
        ? { to: entry.to, amount, asset }
        : type === 'burn'
          ? { from: entry.from, amount, asset }
          : { from: entry.from, to: entry.to, amount, asset },
    ...times,
    blockchain_metadata,
  }
}

/** The activity type of an entry. */
export function activityTypeOf(entry: Entry): Activity['type'] {
  if (entry.kind === 'sale') return 'sale'
  return entry.from === zeroAddress
    ? 'mint'
    : entry.to === zeroAddress
      ? 'burn'
      : 'transfer'
}

/** The NFT contracts and token ids an entry moved. */
export function assetsOf(
  entry: Entry,
): readonly { contract: Address; tokenId: bigint | undefined }[] {
  return entry.kind === 'sale'
    ? entry.assets
    : [{ contract: entry.contract, tokenId: entry.tokenId }]
}

/** The accounts an entry moved assets between. */
export function accountsOf(entry: Entry): readonly Address[] {
  return entry.kind === 'sale'
    ? [entry.seller, entry.buyer]
    : [entry.from, entry.to]
}

/** The metadata of an NFT (its stack's), and when it was last set. */
export function nftMetadataOf(
  state: ChainState,
  key: string,
): { stack: StackRecord; syncedAt: Date } | undefined {
  const linked = state.links.get(key)
  const stack = linked && state.stacks.get(linked.stackId)
  return stack && linked ? { stack, syncedAt: linked.syncedAt } : undefined
}

const noContent: Content = {
  name: null,
  description: null,
  image: null,
  external_url: null,
  animation_url: null,
  youtube_url: null,
  attributes: null,
}

/**
 * When an NFT last changed: a transfer, or its metadata (which a chain
 * revert does not undo).
 */
export function nftUpdatedAt(state: ChainState, nft: NftRecord): Date {
  return latest(nft.updatedAt, state.links.get(nft.key)?.syncedAt)
}

/** An NFT as `NFT`. */
export function nftOf(chain: IndexerChain, nft: NftRecord): Nft {
  const { state } = chain
  const metadata = nftMetadataOf(state, nft.key)
  const content = metadata?.stack.content ?? noContent
  return {
    chain: chainRefOf(chain),
    token_id: nft.tokenId.toString(),
    contract_address: nft.contract,
    contract_type: collectionTypeOf(state, nft.contract, nft.standard),
    indexed_at: nft.indexedAt.toISOString(),
    updated_at: nftUpdatedAt(state, nft).toISOString(),
    metadata_synced_at: metadata?.syncedAt.toISOString() ?? null,
    metadata_id: metadata?.stack.id ?? null,
    name: content.name,
    description: content.description,
    image: content.image,
    external_link: content.external_url,
    external_url: content.external_url,
    animation_url: content.animation_url,
    youtube_url: content.youtube_url,
    attributes: content.attributes ?? [],
    total_supply: nft.supply.toString(),
  }
}

/** An NFT an account holds, as `NFTWithBalance`. */
export function nftWithBalanceOf(
  chain: IndexerChain,
  nft: NftRecord,
  balance: bigint,
): NftWithBalance {
  const { external_url: _, total_supply: __, ...rest } = nftOf(chain, nft)
  return { ...rest, balance: balance.toString() }
}

/** An account's holding of an NFT, as `NFTOwner` / `NFTWithOwner`. */
export function ownerOf(
  chain: IndexerChain,
  nft: NftRecord,
  account: Address,
  holding: { balance: bigint; updatedAt: Date },
): NftOwner {
  return {
    chain: chainRefOf(chain),
    contract_address: nft.contract,
    token_id: nft.tokenId.toString(),
    account_address: account,
    balance: holding.balance.toString(),
    updated_at: holding.updatedAt.toISOString(),
  }
}

/** A collection as `Collection`. */
export function collectionOf(
  chain: IndexerChain,
  record: ContractRecord,
): Collection {
  const { state } = chain
  const info = state.contracts.get(record.address)
  const refreshed = state.collectionMetadata.get(record.address)
  const given = refreshed?.metadata
  const updatedAt = latest(
    record.updatedAt,
    refreshed?.at,
    state.statuses.get(record.address)?.at,
  )
  return {
    chain: chainRefOf(chain),
    name: given ? given.name : (info?.name ?? null),
    symbol: given ? given.symbol : (info?.symbol ?? null),
    contract_type: collectionTypeOf(state, record.address),
    contract_address: record.address,
    description: given ? given.description : (info?.description ?? null),
    image: given ? given.image : (info?.image ?? null),
    external_link: given ? given.external_link : (info?.externalLink ?? null),
    contract_uri: given ? given.contract_uri : (info?.contractUri ?? null),
    base_uri: given ? given.base_uri : (info?.baseUri ?? null),
    verification_status: statusOf(state, record.address),
    indexed_at: record.indexedAt.toISOString(),
    updated_at: updatedAt.toISOString(),
    metadata_synced_at: refreshed?.at.toISOString() ?? null,
  }
}

/** When a collection was last updated (for `from_updated_at`). */
export function collectionUpdatedAt(
  state: ChainState,
  record: ContractRecord,
): Date {
  return latest(
    record.updatedAt,
    state.collectionMetadata.get(record.address)?.at,
    state.statuses.get(record.address)?.at,
  )
}

/** An ERC-20 as `Token`. */
export function tokenOf(chain: IndexerChain, record: ContractRecord): Token {
  const { state } = chain
  const info = state.contracts.get(record.address)
  return {
    chain: chainRefOf(chain),
    contract_address: record.address,
    root_contract_address: null,
    root_chain_id: null,
    bridge_used: null,
    symbol: info?.symbol ?? null,
    decimals: info?.decimals ?? null,
    image_url: null,
    name: info?.name ?? null,
    verification_status: statusOf(state, record.address),
    updated_at: latest(
      record.updatedAt,
      state.statuses.get(record.address)?.at,
    ).toISOString(),
    // Canonical tokens are the platform's own listed ones (bridged from
    // L1); no token of a local chain is one.
    is_canonical: false,
  }
}

/** A stack's metadata as `Metadata`. */
export function metadataOf(chain: IndexerChain, stack: StackRecord): Metadata {
  return {
    id: stack.id,
    chain: chainRefOf(chain),
    contract_address: stack.contract,
    created_at: stack.createdAt.toISOString(),
    updated_at: stack.updatedAt.toISOString(),
    ...stack.content,
  }
}

/** A stack as `Stack`. */
export function stackOf(chain: IndexerChain, stack: StackRecord): Stack {
  return {
    stack_id: stack.id,
    chain: chainRefOf(chain),
    contract_address: stack.contract,
    contract_type: collectionTypeOf(chain.state, stack.contract),
    created_at: stack.createdAt.toISOString(),
    updated_at: stack.updatedAt.toISOString(),
    ...stack.content,
  }
}

/** The latest of some times. */
function latest(first: Date, ...others: (Date | undefined)[]): Date {
  return others.reduce<Date>(
    (max, date) => (date !== undefined && date > max ? date : max),
    first,
  )
}

/** The active orders and trades of some NFTs, filtered as a route asks. */
export type MarketData = {
  listings: Listing[]
  bids: Bid[]
  trades: LastTrade[]
}

/**
 * Reads the order book's active listings, bids and trades of a
 * collection's NFTs (all of them, or `tokenIds`), keeping those paid in
 * `paymentToken` (`NATIVE` or an ERC-20, lowercase) when one is given.
 */
export async function marketDataOf(
  listings: ListingsSource | undefined,
  query: MarketQuery,
  paymentToken: string | undefined,
): Promise<MarketData> {
  if (!listings) return { listings: [], bids: [], trades: [] }
  const [active, bids, trades] = await Promise.all([
    listings.listings(query),
    listings.bids?.(query) ?? [],
    listings.trades?.(query) ?? [],
  ])
  const paidIn = (details: Listing['price_details']) =>
    paymentToken === undefined ||
    (paymentToken === 'NATIVE'
      ? details.token.type === 'NATIVE'
      : details.token.type === 'ERC20' &&
        details.token.contract_address.toLowerCase() === paymentToken)
  return {
    listings: [...active]
      .filter((listing) => paidIn(listing.price_details))
      .sort(cheapestFirst),
    bids: [...bids]
      .filter((bid) => paidIn(bid.price_details))
      .sort((a, b) => compareAmounts(b.price_details, a.price_details)),
    trades: [...trades]
      .filter((trade) => trade.price_details.every(paidIn))
      .sort((a, b) => (a.created_at < b.created_at ? 1 : -1)),
  }
}

/** Orders listings by their price, fees included, cheapest first. */
export function cheapestFirst(a: Listing, b: Listing): number {
  return compareAmounts(a.price_details, b.price_details)
}

function compareAmounts(
  a: Listing['price_details'],
  b: Listing['price_details'],
): number {
  const x = amountOf(a.fee_inclusive_amount)
  const y = amountOf(b.fee_inclusive_amount)
  return x < y ? -1 : x > y ? 1 : 0
}

function amountOf(value: string): bigint {
  return /^[0-9]{1,78}$/.test(value) ? BigInt(value) : 0n
}

/**
 * The `Market` of some NFTs: the cheapest listing, the highest bid (a
 * collection bid counts for every NFT) and the latest trade among them.
 */
export function marketOf(
  data: MarketData,
  tokenIds: ReadonlySet<string> | undefined,
): Market {
  const mine = (tokenId: string | null) =>
    tokenIds === undefined || tokenId === null || tokenIds.has(tokenId)
  return {
    floor_listing: data.listings.find((l) => mine(l.token_id)) ?? null,
    top_bid: data.bids.find((b) => mine(b.token_id)) ?? null,
    last_trade: data.trades.find((t) => mine(t.token_id)) ?? null,
  }
}
