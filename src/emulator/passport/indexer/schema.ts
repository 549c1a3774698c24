/**
 * The records the indexer's routes answer, typed after the platform's
 * OpenAPI description of the multi-rollup API (its `components.schemas`):
 * the same names and fields, so that the generated client types can
 * replace these once they are shared.
 *
 * @packageDocumentation
 */

/** `ActivityType`. */
export const activityTypes = [
  'mint',
  'burn',
  'transfer',
  'sale',
  'deposit',
  'withdrawal',
] as const
export type ActivityType = (typeof activityTypes)[number]

/** `AssetVerificationStatus`. */
export const verificationStatuses = [
  'verified',
  'unverified',
  'spam',
  'inactive',
] as const
export type VerificationStatus = (typeof verificationStatuses)[number]

/** `CollectionContractType`, `NFTContractType`, `MarketplaceContractType`. */
export type NftContractType = 'ERC721' | 'ERC1155'

/** `NFTMetadataAttribute.display_type`. */
export const displayTypes = [
  'number',
  'boost_percentage',
  'boost_number',
  'date',
] as const
export type DisplayType = (typeof displayTypes)[number]

/** `SearchStacks`' `sort_by`. */
export const stackSorts = ['cheapest_first'] as const

/** `Chain`: `{ id: 'eip155:N', name }`. */
export type ApiChainRef = { id: string; name: string }

/** `Page`. */
export type Page = {
  previous_cursor: string | null
  next_cursor: string | null
}

/** `NFTMetadataAttribute`. */
export type Attribute = {
  display_type?: DisplayType | null
  trait_type: string
  value: string | number | boolean
}

/**
 * `NFTMetadataRequest`: the metadata of an NFT as a mint request or a
 * refresh gives it; every field may be left out or null.
 */
export type NftMetadataInput = {
  name?: string | null | undefined
  description?: string | null | undefined
  image?: string | null | undefined
  external_url?: string | null | undefined
  animation_url?: string | null | undefined
  youtube_url?: string | null | undefined
  attributes?: readonly Attribute[] | null | undefined
}

/** `ActivityNFT`. */
export type ActivityNft = {
  contract_type: NftContractType
  contract_address: string
  token_id: string
  amount: string
}

/** `ActivityToken`. */
export type ActivityToken = { contract_type: 'ERC20'; contract_address: string }

/** `ActivityNativeToken`. */
export type ActivityNativeToken = { symbol: string }

/** `SaleFee`. */
export type SaleFee = { amount: string; type?: 'ROYALTY'; recipient: string }

/** `SalePayment`. */
export type SalePayment = {
  token: ActivityToken | ActivityNativeToken
  price_excluding_fees: string
  price_including_fees: string
  fees: SaleFee[]
}

/** `ActivityDetails`: `Mint`, `Burn`, `Transfer` or `NFTSale`. */
export type ActivityDetails =
  | { to: string; amount: string; asset: ActivityNft | ActivityToken }
  | { from: string; amount: string; asset: ActivityNft | ActivityToken }
  | {
      from: string
      to: string
      amount: string
      asset: ActivityNft | ActivityToken
    }
  | {
      order_id: string
      to: string
      from: string
      asset: ActivityNft[]
      payment: SalePayment
    }

/** `BlockchainMetadata`. */
export type BlockchainMetadata = {
  transaction_hash: string
  block_number: string
  transaction_index: string
  log_index: string | null
}

/** `Activity`. */
export type Activity = {
  id: string
  chain: ApiChainRef
  type: ActivityType
  details: ActivityDetails
  updated_at: string
  indexed_at: string
  blockchain_metadata: BlockchainMetadata | null
}

/** `Collection`. */
export type Collection = {
  chain: ApiChainRef
  name: string | null
  symbol: string | null
  contract_type: NftContractType
  contract_address: string
  description: string | null
  image: string | null
  external_link: string | null
  contract_uri: string | null
  base_uri: string | null
  verification_status: VerificationStatus
  indexed_at: string
  updated_at: string
  metadata_synced_at: string | null
}

/** `CollectionMetadata`. */
export type CollectionMetadata = {
  name: string | null
  symbol: string | null
  description: string | null
  image: string | null
  external_link: string | null
  contract_uri: string | null
  base_uri: string | null
}

/** `NFT`. */
export type Nft = {
  chain: ApiChainRef
  token_id: string
  contract_address: string
  contract_type: NftContractType
  indexed_at: string
  updated_at: string
  metadata_synced_at: string | null
  metadata_id: string | null
  name: string | null
  description: string | null
  image: string | null
  external_link: string | null
  external_url: string | null
  animation_url: string | null
  youtube_url: string | null
  attributes: Attribute[]
  total_supply: string | null
}

/** `NFTWithBalance`. */
export type NftWithBalance = Omit<Nft, 'external_url' | 'total_supply'> & {
  balance: string
}

/** `NFTOwner` and `NFTWithOwner`. */
export type NftOwner = {
  chain: ApiChainRef
  contract_address: string
  token_id: string
  account_address: string
  balance: string
  updated_at: string
}

/** `Token`. */
export type Token = {
  chain: ApiChainRef
  contract_address: string
  root_contract_address: string | null
  root_chain_id: string | null
  bridge_used: string | null
  symbol: string | null
  decimals: number | null
  image_url: string | null
  name: string | null
  verification_status: VerificationStatus
  updated_at: string
  is_canonical: boolean
}

/** `Metadata`. */
export type Metadata = {
  id: string
  chain: ApiChainRef
  contract_address: string
  created_at: string
  updated_at: string | null
  name: string | null
  description: string | null
  image: string | null
  external_url: string | null
  animation_url: string | null
  youtube_url: string | null
  attributes: Attribute[] | null
}

/** `Stack`. */
export type Stack = {
  stack_id: string
  chain: ApiChainRef
  contract_address: string
  contract_type: NftContractType
  created_at: string
  updated_at: string
  name: string | null
  description: string | null
  image: string | null
  external_url: string | null
  animation_url: string | null
  youtube_url: string | null
  attributes: Attribute[] | null
}

/** `NFTWithStack`. */
export type NftWithStack = Stack & { token_id: string; balance: number | null }

/** `MarketPriceNativeToken` or `MarketPriceERC20Token`. */
export type MarketPriceToken =
  | { type: 'NATIVE'; symbol: string | null }
  | {
      type: 'ERC20'
      contract_address: string
      symbol: string | null
      decimals: number | null
    }

/** `MarketPriceFees`. */
export type MarketPriceFee = {
  type: 'ROYALTY' | 'MAKER_ECOSYSTEM' | 'TAKER_ECOSYSTEM' | 'PROTOCOL'
  amount: string
  recipient_address: string
}

/** `MarketPriceDetails`. */
export type MarketPriceDetails = {
  token: MarketPriceToken
  amount: string
  fee_inclusive_amount: string
  fees: MarketPriceFee[]
  converted_prices: Record<string, string> | null
}

/** `Listing`: an active listing as the order book shows it. */
export type Listing = {
  listing_id: string
  price_details: MarketPriceDetails
  token_id: string
  contract_address: string
  creator: string
  amount: string
}

/** `Bid`: an active bid; `token_id` null for a collection bid. */
export type Bid = {
  bid_id: string
  price_details: MarketPriceDetails
  token_id: string | null
  contract_address: string
  creator: string
  amount: string
}

/** `LastTrade`. */
export type LastTrade = {
  trade_id: string
  contract_address: string
  token_id: string
  price_details: MarketPriceDetails[]
  amount: string
  created_at: string
}

/** `Market`. */
export type Market = {
  floor_listing: Listing | null
  top_bid: Bid | null
  last_trade: LastTrade | null
}

/** `NFTBundle`. */
export type NftBundle = {
  nft_with_stack: NftWithStack
  market: Market | null
  listings: Listing[]
  bids: Bid[]
}

/** `StackBundle`. */
export type StackBundle = {
  stack: Stack
  stack_count: number
  market: Market | null
  listings: Listing[]
  bids: Bid[]
}

/** `NFTQuoteResult`. */
export type NftQuote = {
  chain: ApiChainRef
  token_id: string
  market_stack: Market
  market_nft: { last_trade: LastTrade | null }
  market_collection: Market
}

/** `StackQuoteResult`. */
export type StackQuote = {
  chain: ApiChainRef
  stack_id: string
  market_stack: Market
  market_collection: Market
}

/** `FilterValue`, `Filter`, `FilterResult`. */
export type FilterResult = {
  chain: ApiChainRef
  contract_address: string
  filters: {
    name: string
    values: { value: string; nft_count: string }[]
    omitted_values_count: number
  }[]
}

/** `MetadataRefreshRateLimitResult`. */
export type RefreshLimitResult = {
  imx_refreshes_limit: string
  imx_refresh_limit_reset: string
  imx_remaining_refreshes: string
  retry_after: string
}
