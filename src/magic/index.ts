/**
 * The iframe wallet: a client for the passwordless-login provider's hidden
 * iframe, with the published magic-sdk's public API (switching is an import
 * change) plus EIP-6963 announcement and third-party wallets.
 *
 * @packageDocumentation
 */
import { Magic } from './Magic.js'

export {
  MagicExtensionError,
  MagicExtensionWarning,
  MagicRPCError,
  MagicSDKError,
  MagicSDKWarning,
  type SdkWarningCode,
} from './errors.js'
export {
  type Compat,
  Extension,
  type ExtensionStorage,
} from './extensions/Extension.js'
export {
  type MultichainConfig,
  MultichainExtension,
} from './extensions/multichain.js'
export { type OpenIdConfiguration, OpenIdExtension } from './extensions/oidc.js'
export {
  type ExtensionsOption,
  Magic,
  type MagicOptions,
  MagicSDK,
  version,
} from './Magic.js'
export type {
  AuthModule,
  LoginWithCredentialConfiguration,
  LoginWithEmailOTPConfiguration,
  LoginWithMagicLinkConfiguration,
  LoginWithSmsConfiguration,
  UpdateEmailConfiguration,
} from './modules/auth.js'
export type {
  NFTCheckoutRequest,
  NFTModule,
  NFTPurchaseRequest,
  NFTResponse,
  NFTTransferRequest,
} from './modules/nft.js'
export type {
  Callback as JsonRpcRequestCallback,
  Payload as JsonRpcRequestPayload,
  ResponsePayload as JsonRpcResponsePayload,
  RPCProviderModule,
} from './modules/rpcProvider.js'
export type {
  ExternalProvider,
  ThirdPartyWalletsModule,
} from './modules/thirdPartyWallets.js'
export type {
  GenerateIdTokenConfiguration,
  GetIdTokenConfiguration,
  MagicUserMetadata,
  MFAConfiguration,
  RecoverAccountConfiguration,
  RequestUserInfoScope,
  ShowSettingsConfiguration,
  UserModule,
} from './modules/user.js'
export type {
  ConnectWithUIOptions,
  GasApiResponse,
  GaslessTransactionRequest,
  Send7702TransactionRequest,
  Send7702TransactionResponse,
  ShowUIConfiguration,
  Sign7702AuthorizationRequest,
  Sign7702AuthorizationResponse,
} from './modules/wallet.js'
export type { Handle as PromiEvent } from './request.js'

export default Magic
