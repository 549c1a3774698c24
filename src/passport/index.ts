/**
 * The game wallet: OIDC sign-in, a smart-contract wallet on a zkEVM chain and
 * the StarkEx layer (`connectImx`), with the published @imtbl/passport 2.x
 * public API (2.14.0's for StarkEx, the last version that had it). `Passport` is a named
 * export only, as published (2.2.0 `index.ts`).
 *
 * @packageDocumentation
 */
export type { DeviceConnectResponse } from './auth/device.js'
export {
  type DirectLoginOptions,
  MarketingConsentStatus,
} from './auth/flows.js'
export type { LoginOptions } from './auth/session.js'
export type {
  PassportMetadata,
  User,
  UserImx,
  UserProfile,
  UserZkEvm,
} from './auth/user.js'
export {
  type BaseConfiguration,
  Environment,
  type OidcConfiguration,
  type PassportModuleConfiguration,
  type PassportOverrides,
  type PopupOverlayOptions,
  type WalletContracts,
} from './config.js'
export {
  PassportError,
  PassportErrorType,
  withPassportError,
} from './errors.js'
export {
  type ConnectEvmOptions,
  type LoginArguments,
  Passport,
  type PassportEvents,
} from './Passport.js'
export type {
  AnyToken,
  CancelOrderResponse,
  CreateOrderResponse,
  CreateTradeResponse,
  CreateTransferResponse,
  CreateTransferResponseV1,
  ERC20Amount,
  ERC20Token,
  ERC721Token,
  ETHAmount,
  ETHToken,
  ExchangeTokenAmount,
  GetSignableCancelOrderRequest,
  GetSignableTradeRequest,
  IMXProvider,
  NftTransferDetails,
  RegisterOffchainResponse,
  TokenAmount,
  UnsignedExchangeTransferRequest,
  UnsignedOrderRequest,
  UnsignedTransferRequest,
} from './starkex/types.js'
export { linkWalletTypedData } from './wire/api.js'
export type { ConfirmationPopupMode } from './zkevm/confirmation.js'
export {
  JsonRpcError,
  ProviderErrorCode,
  RpcErrorCode,
} from './zkevm/errors.js'
export type { LinkedWallet, LinkWalletParams } from './zkevm/linking.js'
export type { ZkEvmProvider } from './zkevm/provider.js'
export { ProviderEvent } from './zkevm/providerEvent.js'
export type {
  SessionActivityError,
  SessionActivityErrorReason,
} from './zkevm/sessionActivity.js'
