/**
 * The game wallet: OIDC sign-in and a smart-contract wallet on a zkEVM chain,
 * with the published @imtbl/passport 2.x public API. Filled in by issues 4+.
 *
 * @packageDocumentation
 */
export type { DeviceConnectResponse } from './auth/device.js'
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
} from './config.js'
export {
  PassportError,
  PassportErrorType,
  withPassportError,
} from './errors.js'
