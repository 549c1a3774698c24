/**
 * The platform's enumerations and the statuses of its records, each an
 * `as const` object (member names as the published clients spell them)
 * with the union of its values as a type of the same name.
 *
 * Where an OpenAPI spec declares the set, it is the generated enumeration
 * itself (`src/api/wire/<spec>/enums.generated.ts`); the sets that the
 * specs spread over several schemas, or declare wider than the platform
 * uses them (order types, chain types), or no longer declare (severity,
 * transaction evaluation status), are written here.
 */
import * as Imx from './imx/enums.generated.js'
import * as Mr from './mr/enums.generated.js'

/** What happened to a token: an activity's `type`. */
export const ActivityType = Mr.ActivityType
export type ActivityType = Mr.ActivityType

/** A collection's or token's verification status. */
export const VerificationStatus = Mr.AssetVerificationStatus
export type VerificationStatus = Mr.AssetVerificationStatus

/** A collection's contract type. */
export const CollectionContractType = Mr.CollectionContractType
export type CollectionContractType = Mr.CollectionContractType

/** A token's type on the legacy exchange API. */
export const TokenType = Imx.EncodeAssetRequestTokenTypeEnum
export type TokenType = Imx.EncodeAssetRequestTokenTypeEnum

/** Who an order's fee goes to. */
export const FeeType = Mr.FeeTypeEnum
export type FeeType = Mr.FeeTypeEnum

/** An order's type. */
export const OrderType = {
  Listing: 'LISTING',
  Bid: 'BID',
  CollectionBid: 'COLLECTION_BID',
} as const
export type OrderType = (typeof OrderType)[keyof typeof OrderType]

/** The type of an order's buy or sell item. */
export const ItemType = {
  Native: 'NATIVE',
  Erc20: 'ERC20',
  Erc721: 'ERC721',
  Erc1155: 'ERC1155',
  Erc721Collection: 'ERC721_COLLECTION',
  Erc1155Collection: 'ERC1155_COLLECTION',
} as const
export type ItemType = (typeof ItemType)[keyof typeof ItemType]

/** How an NFT attribute's value is shown. */
export const AttributeDisplayType = Mr.NFTMetadataAttributeDisplayTypeEnum
export type AttributeDisplayType = Mr.NFTMetadataAttributeDisplayTypeEnum

/** A studio's tier. */
export const OrganisationTier = Mr.OrganisationTier
export type OrganisationTier = Mr.OrganisationTier

/** How risky the guardian judges a transaction or message. */
export const Severity = {
  Malicious: 'malicious',
  Benign: 'benign',
  Warning: 'warning',
  Unknown: 'unknown',
  Info: 'info',
} as const
export type Severity = (typeof Severity)[keyof typeof Severity]

/** How the guardian asks the player to confirm. */
export const ConfirmationMethod =
  Mr.MessageEvaluationResponseConfirmationMethodEnum
export type ConfirmationMethod =
  Mr.MessageEvaluationResponseConfirmationMethodEnum

/** The chain a guardian evaluation is for. */
export const ChainType = { Starkex: 'starkex', Evm: 'evm' } as const
export type ChainType = (typeof ChainType)[keyof typeof ChainType]

/** A project's chain on the legacy exchange API (`zkevm` where the newer API says `evm`). */
export const ExchangeChainType = Imx.CreateProjectGroupRequestChainTypeEnum
export type ExchangeChainType = Imx.CreateProjectGroupRequestChainTypeEnum

/** The provider of an exchange (fiat on- and off-ramp). */
export const ExchangeProvider = Imx.CreateExchangeAndURLAPIRequestProviderEnum
export type ExchangeProvider = Imx.CreateExchangeAndURLAPIRequestProviderEnum

/** An exchange's direction. */
export const RampDirection = Imx.CreateExchangeAndURLAPIRequestTypeEnum
export type RampDirection = Imx.CreateExchangeAndURLAPIRequestTypeEnum

/** A metadata field's type in a collection's metadata schema. */
export const MetadataFieldType = Imx.MetadataSchemaRequestTypeEnum
export type MetadataFieldType = Imx.MetadataSchemaRequestTypeEnum

/** An order's status. */
export const OrderStatus = Mr.OrderStatusName
export type OrderStatus = Mr.OrderStatusName

/** How a cancelled order was cancelled. */
export const CancellationType = Mr.CancelledOrderStatusCancellationTypeEnum
export type CancellationType = Mr.CancelledOrderStatusCancellationTypeEnum

/** A mint request's status. */
export const MintRequestStatus = Mr.MintRequestStatus
export type MintRequestStatus = Mr.MintRequestStatus

/** A contract's status on the operator allowlist. */
export const OperatorAllowlistStatus = Mr.OperatorAllowlistStatus
export type OperatorAllowlistStatus = Mr.OperatorAllowlistStatus

/** A contract verification request's status. */
export const VerificationRequestStatus = Mr.VerificationRequestStatus
export type VerificationRequestStatus = Mr.VerificationRequestStatus

/** The outcome of the guardian's evaluation of a transaction. */
export const TransactionEvaluationStatus = {
  Success: 'success',
  Error: 'error',
  SimulationFailed: 'simulation_failed',
} as const
export type TransactionEvaluationStatus =
  (typeof TransactionEvaluationStatus)[keyof typeof TransactionEvaluationStatus]

/** The status of a queued job (a metadata refresh). */
export const QueuedStatus = Imx.GetMetadataRefreshResponseStatusEnum
export type QueuedStatus = Imx.GetMetadataRefreshResponseStatusEnum
