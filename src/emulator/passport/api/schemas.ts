/**
 * The bodies of the platform API's passport, guardian and crafting routes
 * the emulator serves beyond the wallet's own flows, typed after the
 * OpenAPI spec of the multi-rollup API (`GetLinkedAddressesRes`,
 * `GetTransactionMetadataRes`, `Transaction`, `SignCraftingResult` and the
 * others, under the same names). Where the spec and the published
 * generated client (`@imtbl/generated-clients` 2.24.8) differ, the client's
 * shape is kept: it is what callers parse (`validation` on a guardian
 * record; `orders` on the Seaport fulfilment metadata).
 *
 * @packageDocumentation
 */

/** `GET /v1/chains/{chain_name}/passport/users/{user_id}/linked-addresses`. */
export type GetLinkedAddressesRes = { linked_addresses: string[] }

/** `GET /passport-mr/v1/users/{userId}/linked-addresses` (deprecated). */
export type GetLinkedAddressesResDeprecated = { linkedAddresses: string[] }

/** One chain's registration of a player's game wallet. */
export type PassportMetadata = {
  /** CAIP-2, `eip155:N`. */
  chain_id: string
  /** The API's name of the chain. */
  chain_key: string
  /** The wallet's signer: the player's key-custody address. */
  user_admin_key: string
  /** The smart-contract wallet's address. */
  counterfactual_address: string
}

/** `GET /passport-mr/v1/users/{user_id}/metadata`. */
export type GetPassportMetadataRes = { passport_metadata: PassportMetadata[] }

/** The platform's verification status of a contract. */
export type VerificationStatus = 'verified' | 'unverified' | 'spam' | 'inactive'

/** `POST /v1/chains/{chain_name}/passport/transaction-metadata`. */
export type GetTransactionMetadataRequest = {
  contract_address: string
  method_id: string
  transaction_id: string
  transaction_data: string
}

export type Erc20ApproveMetadata = {
  transaction_type: 'ERC20_APPROVE'
  amount: string
  token_symbol: string
  spender: string
  is_smart_contract: boolean
  is_contract_verified: boolean
  immutable_verification_status: VerificationStatus
  contract_name: string
  image_url: string
}

export type Erc20TransferMetadata = {
  transaction_type: 'ERC20_TRANSFER'
  to_address: string
  amount: string
  decimals: number
  symbol: string
  immutable_verification_status: VerificationStatus
  image_url: string
}

export type Erc20TransferFromMetadata = {
  transaction_type: 'ERC20_TRANSFER_FROM'
  from_address: string
  to_address: string
  amount: string
  decimals: number
  symbol: string
  immutable_verification_status: VerificationStatus
  image_url: string
}

export type Erc721ApproveMetadata = {
  transaction_type: 'ERC721_APPROVE'
  collection_name: string
  collection_image: string
  asset_image: string
  asset_name: string
  is_smart_contract: boolean
  is_contract_verified: boolean
  contract_name: string
  token_id: string
  immutable_verification_status: VerificationStatus
}

export type NftSetApprovalForAllMetadata = {
  transaction_type:
    | 'ERC721_SET_APPROVAL_FOR_ALL'
    | 'ERC1155_SET_APPROVAL_FOR_ALL'
  collection_name: string
  collection_image: string
  is_smart_contract: boolean
  is_contract_verified: boolean
  contract_name: string
  immutable_verification_status: VerificationStatus
}

export type Erc721TransferFromMetadata = {
  transaction_type: 'ERC721_TRANSFER_FROM'
  from_address: string
  to_address: string
  collection_name: string
  token_id: string
  asset_name: string
  asset_image: string
  immutable_verification_status: VerificationStatus
}

export type Erc721SafeTransferFromBatchItem = {
  to_address: string
  token_id: string
  asset_name: string
  asset_image: string
}

export type Erc721SafeTransferFromBatchMetadata = {
  transaction_type: 'ERC721_SAFE_TRANSFER_FROM_BATCH'
  from_address: string
  collection_name: string
  items: Erc721SafeTransferFromBatchItem[]
  immutable_verification_status: VerificationStatus
}

export type SeaportNativeItem = {
  type: 'NATIVE'
  amount: string
  decimals: number
}

export type SeaportErc20Item = {
  type: 'ERC20'
  contract_address: string
  symbol: string | null
  image_url: string | null
  amount: string
  decimals: number
  immutable_verification_status: VerificationStatus
}

export type SeaportErc721Item = {
  type: 'ERC721'
  contract_address: string
  contract_name: string | null
  image_url?: string
  name: string | null
  token_id: string
  immutable_verification_status: VerificationStatus
}

export type SeaportErc1155Item = Omit<SeaportErc721Item, 'type'> & {
  type: 'ERC1155'
  amount: string
}

export type SeaportCollectionItem = {
  type: 'ERC721Collection' | 'ERC1155Collection'
  contract_address: string
  contract_name: string | null
  image_url: string
  amount: string
  immutable_verification_status: VerificationStatus
}

/** Any item of a Seaport order. */
export type SeaportItem =
  | SeaportNativeItem
  | SeaportErc20Item
  | SeaportErc721Item
  | SeaportErc1155Item
  | SeaportCollectionItem

export type SeaportFee = {
  type: 'NATIVE' | 'ERC20'
  amount: string
  recipient_address: string
  contract_address?: string
  symbol?: string | null
  decimals: number
}

/** One order: what its offerer sells, what they ask, and the fees. */
export type SeaportOrderMetadata = {
  buy: SeaportItem
  sell: SeaportItem
  fees: SeaportFee[]
}

export type SeaportFulfillAvailableAdvancedOrdersMetadata = {
  transaction_type: 'SEAPORT_FULFILL_AVAILABLE_ADVANCED_ORDERS'
  is_smart_contract: boolean
  is_contract_verified: boolean
  contract_name: string
  orders: SeaportOrderMetadata[]
}

export type UnknownMetadata = {
  transaction_type: 'UNKNOWN'
  is_smart_contract: boolean
  is_contract_verified: boolean
  contract_name: string
}

/** The transaction-metadata answer. */
export type GetTransactionMetadataRes =
  | Erc20ApproveMetadata
  | Erc20TransferMetadata
  | Erc20TransferFromMetadata
  | Erc721ApproveMetadata
  | NftSetApprovalForAllMetadata
  | Erc721TransferFromMetadata
  | Erc721SafeTransferFromBatchMetadata
  | SeaportFulfillAvailableAdvancedOrdersMetadata
  | UnknownMetadata

/** The typed-data-metadata answer. */
export type GetTypedDataMetadataRes =
  | ({
      typed_data_type: 'SEAPORT_CREATE_LISTING_METADATA'
    } & SeaportOrderMetadata)
  | { typed_data_type: 'UNKNOWN' }

/** A severity of the guardian's analysis. */
export type Severity = 'malicious' | 'benign' | 'warning' | 'unknown' | 'info'

/** One finding of a simulation. */
export type Analysis = {
  severity: Severity
  description: string
  address?: string
}

/**
 * What a simulation found (the published client's `ValidationResult`):
 * `success` with its findings, `error` when the simulated transaction
 * reverts, `simulation_failed` when it could not be simulated.
 */
export type ValidationResult =
  | {
      status: 'success'
      highestSeverity: { severity: Severity; description: string }
      analysis: Analysis[]
    }
  | { status: 'error'; error: string }
  | { status: 'simulation_failed'; error: string }

/** `GET /guardian/v1/transactions/{transactionID}`. */
export type Transaction = {
  id: string
  eth_address: string
  status: string
  transaction_type: string
  version: string
  transaction_metadata: Record<string, unknown>
  client_name?: string
  validation?: ValidationResult
}

/** `GET /guardian/v1/messages/{messageID}`. */
export type EvmMessage = {
  id: string
  eth_address: string
  status: string
  version: string
  data: Record<string, unknown>
  validation?: ValidationResult
}

/** `GET /guardian/v1/erc191-messages/{messageID}`. */
export type Erc191MessageResponse = {
  id: string
  eth_address: string
  status: string
  version: string
  data: string
}

/** One call of a crafting request. */
export type CraftingCall = {
  target_address: string
  function_signature: string
  function_args: string[]
}

/** `POST /v1/chains/{chain_name}/crafting/sign`. */
export type SignCraftingRequest = {
  multi_caller: { address: string; name: string; version: string }
  reference_id: string
  calls: CraftingCall[]
  expires_at: string
}

/** The crafting signature. */
export type SignCraftingResult = { signer_address: string; signature: string }
