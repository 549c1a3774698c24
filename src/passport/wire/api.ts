/**
 * The game wallet's platform API as both sides see it. The wallet calls the
 * platform through the generated clients (`src/api`, whose wire holds the
 * OpenAPI types and operation tables); this module keeps what those do not
 * describe: the text the custody key signs to register, the link-wallet
 * typed data and the link route's own error codes, and the session-activity
 * check, which is not part of the OpenAPI specs. It also keeps the routes
 * and answers the emulated API serves them from. A leaf: it imports
 * nothing.
 *
 * Paths and bodies are those the published @imtbl/passport 2.x sends (its
 * generated multi-rollup client); every call but the chain list and the
 * session-activity check carries `Authorization: Bearer <access token>`.
 */

/** `GET` (no credential): what background activity the game wants. */
export const sessionActivityCheckPath = '/v1/sdk/session-activity/check'

/** Paths on the API domain. `{…}` segments are filled by the helpers below. */
export const paths = {
  /** `GET`: the chains (`{ result: [{ id: 'eip155:N', name }] }`). */
  chains: '/v1/chains',
  /** `POST`: registers the player's zkEVM wallet (see {@link counterfactualAddressPath}). */
  counterfactualAddress:
    '/v2/chains/{chain_name}/passport/counterfactual-address',
  /** `POST`: the guardian evaluates a zkEVM transaction. */
  evaluateTransaction: '/guardian/v1/transactions/evm/evaluate',
  /** `POST`: the guardian evaluates EIP-712 typed data. */
  evaluateMessage: '/guardian/v1/messages/evaluate',
  /** `POST`: the guardian evaluates an ERC-191 (personal_sign) message. */
  evaluateErc191Message: '/guardian/v1/erc191-messages/evaluate',
  /** `POST`: the confirmation page approves a transaction. */
  approveTransaction: '/guardian/v1/transactions/{transactionID}/approve',
  /** `POST`: the confirmation page approves a message. */
  approveMessage: '/guardian/v1/messages/{messageID}/approve',
  /** `GET`: the player's profile, with `linked_addresses`. */
  userInfo: '/passport-profile/v1/user/info',
  /** `POST`: links an external wallet to the player. */
  linkedWallets: '/passport-profile/v2/linked-wallets',
  /** See {@link sessionActivityCheckPath}. */
  sessionActivityCheck: sessionActivityCheckPath,
} as const

/** The counterfactual-address path of a chain (e.g. `imtbl-zkevm-testnet`). */
export function counterfactualAddressPath(chainName: string): string {
  return paths.counterfactualAddress.replace(
    '{chain_name}',
    encodeURIComponent(chainName),
  )
}

/** One chain of `GET /v1/chains`. */
type ChainRecord = {
  /** CAIP-2, e.g. `eip155:13473`. */
  id: string
  /** The API's name for it, e.g. `imtbl-zkevm-testnet`. */
  name: string
  /** The chain's JSON-RPC URL. */
  rpc_url: string
}

/** `GET /v1/chains`. */
export type ChainsResponse = { result: ChainRecord[] }

/** The counterfactual-address answer. */
export type CounterfactualAddressResponse = { counterfactual_address: string }

/** The text the custody key signs to register a zkEVM wallet. */
export const registrationMessage =
  'Only sign this message from Immutable Passport'

/** The answer to a transaction evaluation. */
export type EvaluateTransactionResponse = {
  confirmationRequired: boolean
  confirmationMethod?: 'otp' | 'web' | undefined
  transactionId?: string | undefined
}

/** The answer to a message evaluation. */
export type EvaluateMessageResponse = {
  confirmationRequired: boolean
  confirmationMethod?: 'otp' | 'web' | undefined
  messageId?: string | undefined
}

/** `GET` {@link paths.userInfo}. */
export type UserInfoResponse = {
  sub: string
  email?: string | undefined
  passport_address?: string | undefined
  linked_addresses: string[]
}

/** The answer to a link request. */
export type LinkWalletResponse = {
  address: string
  type: string
  created_at: string
  updated_at: string
  name?: string | undefined
  clientName: string
}

/** Error `code`s of the link route. */
export const linkWalletErrorCodes = {
  alreadyLinked: 'ALREADY_LINKED',
  maxWalletsLinked: 'MAX_WALLETS_LINKED',
  duplicateNonce: 'DUPLICATE_NONCE',
  validation: 'VALIDATION_ERROR',
} as const

/** The EIP-712 message an external wallet signs to be linked. */
export const linkWalletTypedData = {
  domain: { chainId: 1 },
  types: {
    EIP712Domain: [{ name: 'chainId', type: 'uint256' }],
    LinkWallet: [
      { name: 'walletAddress', type: 'address' },
      { name: 'immutablePassportAddress', type: 'address' },
      { name: 'condition', type: 'string' },
      { name: 'nonce', type: 'string' },
    ],
  },
  primaryType: 'LinkWallet',
  condition: 'I agree to link this wallet to my Immutable Passport account.',
} as const

/** The session-activity check's query parameters. */
export const sessionActivityParams = {
  clientId: 'clientId',
  wallet: 'wallet',
  checkCount: 'checkCount',
  sendCount: 'sendCount',
} as const

/** The session-activity check's answer (404: nothing to do). */
export type SessionActivityResponse = {
  contractAddress?: string | undefined
  /** A function taking no arguments, e.g. `ping` or `ping()`. */
  functionName?: string | undefined
  /** Seconds before checking again; 0 or absent: stop. */
  delay?: number | undefined
}

/** The request header carrying the SDK's version (sent on every API call). */
export const sdkVersionHeader = 'x-sdk-version'
