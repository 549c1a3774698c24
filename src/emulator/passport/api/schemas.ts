/**
 * The bodies of the platform API's passport, guardian and crafting routes
 * the emulator serves beyond the wallet's own flows: the generated OpenAPI
 * types of the multi-rollup API (`components.schemas`), so that an answer
 * drifting from the spec the clients are generated from fails to compile.
 * Where the published generated client (`@imtbl/generated-clients` 2.24.8)
 * reads more than the spec declares, a local type adds it and says why.
 *
 * @packageDocumentation
 */
import type {
  Severity,
  TransactionEvaluationStatus,
  VerificationStatus,
} from '../../../api/wire/enumerations.js'
import type { components } from '../../../api/wire/mr/schema.generated.js'

type Schemas = components['schemas']

export type { Severity, VerificationStatus }

/** `GET /v1/chains/{chain_name}/passport/users/{user_id}/linked-addresses`. */
export type GetLinkedAddressesRes = Schemas['GetLinkedAddressesRes']

/** `GET /passport-mr/v1/users/{userId}/linked-addresses` (deprecated). */
export type GetLinkedAddressesResDeprecated =
  Schemas['GetLinkedAddressesResDeprecated']

/**
 * `GET /passport-mr/v1/users/{user_id}/metadata`; the spec leaves every
 * field of a registration optional, the emulator always knows them all.
 */
export type GetPassportMetadataRes = {
  passport_metadata: Required<
    Schemas['GetPassportMetadataRes']['passport_metadata'][number]
  >[]
}

/** Any item of a Seaport order. */
export type SeaportItem =
  | Schemas['SeaportNativeItem']
  | Schemas['SeaportERC20Item']
  | Schemas['SeaportERC721Item']
  | Schemas['SeaportERC1155Item']
  | Schemas['SeaportERC721CollectionItem']
  | Schemas['SeaportERC1155CollectionItem']

/** A fee of a Seaport order. */
export type SeaportFee = Schemas['SeaportFee']

/** One order: what its offerer sells, what they ask, and the fees. */
export type SeaportOrderMetadata = Schemas['SeaportAdvancedOrder']

/** The transaction-metadata answer. */
export type GetTransactionMetadataRes = Schemas['GetTransactionMetadataRes']

/** The typed-data-metadata answer. */
export type GetTypedDataMetadataRes = Schemas['GetTypedDataMetadataRes']

/** One finding of a simulation. */
export type Analysis = {
  severity: Severity
  description: string
  address?: string
}

/**
 * What a simulation found: `success` with its findings, `error` when the
 * simulated transaction reverts, `simulation_failed` when it could not be
 * simulated. The spec no longer declares it; the published client's
 * `ValidationResult` does, and the wallet's confirmation reads it.
 */
export type ValidationResult =
  | {
      status: Extract<TransactionEvaluationStatus, 'success'>
      highestSeverity: { severity: Severity; description: string }
      analysis: Analysis[]
    }
  | {
      status: Exclude<TransactionEvaluationStatus, 'success'>
      error: string
    }

/** `GET /guardian/v1/transactions/{transactionID}`, with the client's `validation`. */
export type Transaction = Schemas['Transaction'] & {
  validation?: ValidationResult
}

/**
 * `GET /guardian/v1/messages/{messageID}`, with the client's `validation`;
 * `data` echoes the typed data the wallet submitted, which need not list
 * `EIP712Domain` in its types as the spec's `EIP712Message` requires.
 */
export type EvmMessage = Omit<Schemas['EVMMessage'], 'data'> & {
  data: Record<string, unknown>
  validation?: ValidationResult
}

/** `GET /guardian/v1/erc191-messages/{messageID}`. */
export type Erc191MessageResponse = Schemas['Erc191MessageResponse']

/** The crafting signature. */
export type SignCraftingResult = Schemas['SignCraftingResult']
