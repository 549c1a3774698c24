/**
 * The StarkEx provider's request and response types, as the published
 * 2.14.0 layer takes and answers them (@imtbl/x-client's request types,
 * the legacy exchange API's responses).
 */
import type * as Imx from '../../api/imx/models.generated.js'

/** An ERC20 token. */
export type ERC20Token = { type: 'ERC20'; tokenAddress: string }
/** An ERC721 token. */
export type ERC721Token = {
  type: 'ERC721'
  tokenId: string
  tokenAddress: string
}
/** ETH. */
export type ETHToken = { type: 'ETH' }
/** An amount of ETH, in wei. */
export type ETHAmount = ETHToken & { amount: string }
/** An amount of an ERC20 token, in its base unit. */
export type ERC20Amount = ERC20Token & { amount: string }
/** Any token. */
export type AnyToken = ETHToken | ERC721Token | ERC20Token
/** A token with its amount (an ERC721 is always one). */
export type TokenAmount = ETHAmount | ERC20Amount | ERC721Token
/** What an exchange transfer can move. */
export type ExchangeTokenAmount = ETHAmount | ERC20Amount

/** One NFT of a batch transfer. */
export type NftTransferDetails = {
  /** The receiver's StarkEx Ethereum address. */
  receiver: string
  tokenId: string
  tokenAddress: string
}

/** An order to create. */
export type UnsignedOrderRequest = {
  buy: TokenAmount
  sell: TokenAmount
  /** Unix time, rounded down to the hour by the exchange. */
  expiration_timestamp?: number | undefined
  fees?: Imx.FeeEntry[] | undefined
}

/** A transfer to create. */
export type UnsignedTransferRequest = TokenAmount & {
  /** The receiver's StarkEx Ethereum address. */
  receiver: string
}

/** A transfer of an exchange (an on- or off-ramp) to create. */
export type UnsignedExchangeTransferRequest = ExchangeTokenAmount & {
  /** The receiver's StarkEx Ethereum address. */
  receiver: string
  /** The exchange's id (`POST /v3/exchanges`). */
  transactionID: string
}

export type {
  CancelOrderResponse,
  CreateOrderResponse,
  CreateTradeResponse,
  CreateTransferResponse,
  CreateTransferResponseV1,
  CreateWithdrawalResponse,
  FeeEntry,
  GetSignableCancelOrderRequest,
  GetSignableTradeRequest,
  RegisterPassportUserResult,
  RegisterUserResponse,
} from '../../api/imx/models.generated.js'

/**
 * What `registerOffchain` answers: the exchange's answer to a new
 * registration (`RegisterPassportUserResult`: the keys it registered), or
 * `{ tx_hash: '' }` when the player was registered already. The published
 * 2.14.0 declares `RegisterUserResponse` and answers the same.
 */
export type RegisterOffchainResponse =
  | Imx.RegisterUserResponse
  | Imx.RegisterPassportUserResult

/**
 * The StarkEx provider (`IMXProvider` of the published 2.14.0), as
 * `passport.connectImx()` returns it.
 */
export type IMXProvider = {
  /** The player's StarkEx Ethereum address (`imx_eth_address`). */
  getAddress(): Promise<string>
  /** Registers the player with the exchange; an already registered one passes. */
  registerOffchain(): Promise<RegisterOffchainResponse>
  /** Whether the player's id token carries the three StarkEx claims. */
  isRegisteredOffchain(): Promise<boolean>
  /** @throws {PassportError} `OPERATION_NOT_SUPPORTED_ERROR`, synchronously. */
  isRegisteredOnchain(): never
  createOrder(request: UnsignedOrderRequest): Promise<Imx.CreateOrderResponse>
  cancelOrder(
    request: Imx.GetSignableCancelOrderRequest,
  ): Promise<Imx.CancelOrderResponse>
  createTrade(
    request: Imx.GetSignableTradeRequest,
  ): Promise<Imx.CreateTradeResponse>
  transfer(
    request: UnsignedTransferRequest,
  ): Promise<Imx.CreateTransferResponseV1>
  batchNftTransfer(
    request: readonly NftTransferDetails[],
  ): Promise<Imx.CreateTransferResponse>
  exchangeTransfer(
    request: UnsignedExchangeTransferRequest,
  ): Promise<Imx.CreateTransferResponseV1>
  /** @throws {PassportError} `OPERATION_NOT_SUPPORTED_ERROR`, synchronously. */
  deposit(deposit: TokenAmount): never
  /** @throws {PassportError} `OPERATION_NOT_SUPPORTED_ERROR`, synchronously. */
  prepareWithdrawal(request: TokenAmount): never
  /** @throws {PassportError} `OPERATION_NOT_SUPPORTED_ERROR`, synchronously. */
  completeWithdrawal(starkPublicKey: string, token: AnyToken): never
}
