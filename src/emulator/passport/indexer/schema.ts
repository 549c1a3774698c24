/**
 * The records the indexer's routes answer: the platform's generated
 * OpenAPI types of the multi-rollup API (`components.schemas`), under the
 * names the indexer uses, so that an answer drifting from the spec the
 * clients are generated from fails to compile. The few local types say
 * where and why the emulator's answer is narrower than the schema.
 *
 * @packageDocumentation
 */
import {
  ActivityType,
  AttributeDisplayType,
  VerificationStatus,
} from '../../../api/wire/enumerations.js'
import { SearchStacksSortByEnum } from '../../../api/wire/mr/enums.generated.js'
import type { components } from '../../../api/wire/mr/schema.generated.js'

type Schemas = components['schemas']

export type { ActivityType, VerificationStatus }

/** Every `ActivityType`, for validating a filter. */
export const activityTypes: readonly ActivityType[] =
  Object.values(ActivityType)

/** Every `AssetVerificationStatus`, for validating a filter. */
export const verificationStatuses: readonly VerificationStatus[] =
  Object.values(VerificationStatus)

/** `CollectionContractType`, `NFTContractType`, `MarketplaceContractType`. */
export type NftContractType = Schemas['NFTContractType']

/** `NFTMetadataAttribute.display_type`. */
export type DisplayType = AttributeDisplayType

/** Every display type of an attribute, for validating metadata. */
export const displayTypes: readonly DisplayType[] =
  Object.values(AttributeDisplayType)

/** `SearchStacks`' `sort_by`. */
export const stackSorts = Object.values(SearchStacksSortByEnum)

/** `Chain`: `{ id: 'eip155:N', name }`. */
export type ApiChainRef = Schemas['Chain']

/** `Page`. */
export type Page = Schemas['Page']

/** `NFTMetadataAttribute`. */
export type Attribute = Schemas['NFTMetadataAttribute']

/**
 * `NFTMetadataRequest`, widened to take `undefined` where the schema
 * leaves a field out, as a body parsed by the routes carries it.
 */
export type NftMetadataInput = {
  [field in keyof Schemas['NFTMetadataRequest']]?:
    | Schemas['NFTMetadataRequest'][field]
    | undefined
}

/**
 * `ActivityNFT`; openapi-typescript types its `contract_type` as the
 * schema's name (a discriminator without a mapping), but the spec's
 * property is `NFTContractType`, which is what the platform sends.
 */
export type ActivityNft = Omit<Schemas['ActivityNFT'], 'contract_type'> & {
  contract_type: NftContractType
}

/** `ActivityToken`, its `contract_type` as the spec's `TokenContractType`. */
export type ActivityToken = Omit<Schemas['ActivityToken'], 'contract_type'> & {
  contract_type: Schemas['TokenContractType']
}

/** `ActivityNativeToken`. */
export type ActivityNativeToken = Schemas['ActivityNativeToken']

/** `SaleFee`; the indexer always knows a fee's amount and recipient. */
export type SaleFee = Schemas['SaleFee'] & { amount: string; recipient: string }

/** `SalePayment`. */
export type SalePayment = Omit<Schemas['SalePayment'], 'token' | 'fees'> & {
  token: ActivityToken | ActivityNativeToken
  fees: SaleFee[]
}

/** The asset of a mint, burn or transfer, with the contract types above. */
type WithAsset<record> = Omit<record, 'asset'> & {
  asset: ActivityNft | ActivityToken
}

/** `ActivityDetails`: `Mint`, `Burn`, `Transfer` or `NFTSale` (no bridge here). */
export type ActivityDetails =
  | WithAsset<Schemas['Mint']>
  | WithAsset<Schemas['Burn']>
  | WithAsset<Schemas['Transfer']>
  | (Omit<Schemas['NFTSale'], 'asset' | 'payment'> & {
      asset: ActivityNft[]
      payment: SalePayment
    })

/** `BlockchainMetadata` (the spec's schema is nullable). */
export type BlockchainMetadata = NonNullable<Schemas['BlockchainMetadata']>

/** `Activity`. */
export type Activity = Omit<Schemas['Activity'], 'details'> & {
  details: ActivityDetails
}

/** `Collection`. */
export type Collection = Schemas['Collection']

/** `CollectionMetadata`. */
export type CollectionMetadata = Schemas['CollectionMetadata']

/** `NFT`. */
export type Nft = Schemas['NFT']

/** `NFTWithBalance`. */
export type NftWithBalance = Schemas['NFTWithBalance']

/** `NFTOwner` and `NFTWithOwner` (the indexer always knows `updated_at`). */
export type NftOwner = Schemas['NFTWithOwner']

/** `Token`. */
export type Token = Schemas['Token']

/** `Metadata`. */
export type Metadata = Schemas['Metadata']

/** `Stack`. */
export type Stack = Schemas['Stack']

/** `NFTWithStack`. */
export type NftWithStack = Schemas['NFTWithStack']

/** `MarketPriceNativeToken` or `MarketPriceERC20Token`. */
export type MarketPriceToken = Schemas['MarketPriceDetails']['token']

/** `MarketPriceFees`. */
export type MarketPriceFee = Schemas['MarketPriceFees']

/** `MarketPriceDetails`. */
export type MarketPriceDetails = Schemas['MarketPriceDetails']

/** `Listing`: an active listing as the order book shows it. */
export type Listing = Schemas['Listing']

/** `Bid`: an active bid; `token_id` null for a collection bid. */
export type Bid = Schemas['Bid']

/** `LastTrade` (the spec's schema is nullable). */
export type LastTrade = NonNullable<Schemas['LastTrade']>

/** `Market`. */
export type Market = Schemas['Market']

/** `NFTBundle`. */
export type NftBundle = Schemas['NFTBundle']

/** `StackBundle`. */
export type StackBundle = Schemas['StackBundle']

/** `NFTQuoteResult`. */
export type NftQuote = Schemas['NFTQuoteResult']

/** `StackQuoteResult`. */
export type StackQuote = Schemas['StackQuoteResult']

/** `FilterResult`. */
export type FilterResult = Schemas['FilterResult']

/** `MetadataRefreshRateLimitResult`. */
export type RefreshLimitResult = Schemas['MetadataRefreshRateLimitResult']

/**
 * The answer bodies of the indexer's routes under the spec's names, each
 * route's `c.json` checked against its own: the generated ones, but for
 * the activities, whose assets carry the contract types above.
 */
export type Answers = Omit<
  Schemas,
  'ListActivitiesResult' | 'GetActivityResult'
> & {
  ListActivitiesResult: Omit<Schemas['ListActivitiesResult'], 'result'> & {
    result: Activity[]
  }
  GetActivityResult: { result: Activity }
  /** `GET /v1/chains/{chain_name}/stacks`: a bare list. */
  ListStacksResult: StackBundle[]
}
