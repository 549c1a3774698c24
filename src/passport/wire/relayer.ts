/**
 * The game wallet's relayer as both sides see it: one JSON-RPC route, its
 * methods, their parameters and the statuses of a relayed transaction. A
 * leaf: it imports nothing.
 *
 * As the published @imtbl/passport 2.x speaks it: `POST {relayerUrl}/v1/transactions`
 * with `Authorization: Bearer <access token>` and a JSON-RPC 2.0 body; chain
 * ids are CAIP-2 strings (`eip155:N`).
 */

/** The relayer's one path. */
export const path = '/v1/transactions'

/** The methods. */
export const methods = {
  sendTransaction: 'eth_sendTransaction',
  getTransactionByHash: 'im_getTransactionByHash',
  getFeeOptions: 'im_getFeeOptions',
  sign: 'im_sign',
  signTypedData: 'im_signTypedData',
} as const

/** The statuses of a relayed transaction. */
export const statuses = {
  pending: 'PENDING',
  submitted: 'SUBMITTED',
  successful: 'SUCCESSFUL',
  reverted: 'REVERTED',
  failed: 'FAILED',
  cancelled: 'CANCELLED',
} as const

/** One of {@link statuses}. */
export type Status = (typeof statuses)[keyof typeof statuses]

/** `eth_sendTransaction`'s parameter; the result is the relayer's id. */
export type SendTransactionParams = {
  /** The smart-contract wallet. */
  to: string
  /** `execute(txs, nonce, signature)` calldata. */
  data: string
  /** CAIP-2. */
  chainId: string
}

/** `im_getTransactionByHash`'s result (its parameter is the relayer's id). */
export type RelayerTransaction = {
  status: Status
  chainId: string
  relayerId: string
  /** The chain's transaction hash, once submitted. */
  hash?: string | undefined
  statusMessage?: string | undefined
}

/** `im_getFeeOptions`'s parameter. */
export type FeeOptionsParams = {
  userAddress: string
  /** ABI-encoded `MetaTransaction[]`. */
  data: string
  chainId: string
}

/** One fee option. */
export type FeeOption = {
  /** Wei, a decimal string. */
  tokenPrice: string
  tokenSymbol: string
  tokenDecimals: number
  tokenAddress: string
  recipientAddress: string
}

/** The fee token the SDK pays with. */
export const feeTokenSymbol = 'IMX'

/** `im_sign`'s parameter; the result is the co-signer's signature part, hex without `0x`. */
export type SignParams = {
  chainId: string
  /** The smart-contract wallet. */
  address: string
  /** The message as UTF-8 text. */
  message: string
}

/** `im_signTypedData`'s parameter; the result as {@link SignParams}'s. */
export type SignTypedDataParams = {
  chainId: string
  address: string
  eip712Payload: unknown
}

/** The CAIP-2 id of an EVM chain. */
export function caip2(chainId: number): string {
  return `eip155:${chainId}`
}

/**
 * JSON-RPC error codes the emulated relayer answers with (EIP-1474), in an
 * HTTP 200 response's `error`.
 */
export const errorCodes = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  /** The guardian did not allow the transaction or message. */
  rejected: -32003,
  /** The relayer's queues are full; retry later. */
  limitExceeded: -32005,
  /**
   * The wallet is not the one of the access token's player (EIP-1193's
   * unauthorized): the relayer acts for that wallet only.
   */
  unauthorized: 4100,
} as const
