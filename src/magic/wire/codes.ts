/**
 * Error and warning codes of the iframe wallet (seed 000 §8) and the texts
 * the published SDK uses, which ours repeat exactly.
 */

/** JSON-RPC and provider-specific RPC error codes. */
export const rpcCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  MagicLinkFailedVerification: -10000,
  MagicLinkExpired: -10001,
  MagicLinkRateLimited: -10002,
  UserAlreadyLoggedIn: -10003,
  UpdateEmailFailed: -10004,
  UserRequestEditEmail: -10005,
  MagicLinkInvalidRedirectURL: -10006,
  InactiveRecipient: -10010,
  AccessDeniedToUser: -10011,
  UserRejectedAction: -10012,
  RequestCancelled: -10014,
  RedirectLoginComplete: -10015,
  SessionTerminated: -10016,
  PopupRequestOverriden: -10017,
  SanEmail: -10018,
  DpopInvalidated: -10019,
  MaxAttemptsReached: -10031,
  UserRequiredMfa: -10033,
  InvalidRecaptcha: -10034,
  LoginThrottled: -10035,
  RecaptchaUnavailable: -10036,
} as const

export type RpcCode = (typeof rpcCodes)[keyof typeof rpcCodes]

const known = new Set<number>(Object.values(rpcCodes))

/** Whether `code` is one the SDK keeps; any other becomes -32603. */
export function isKnownRpcCode(code: unknown): code is RpcCode {
  return typeof code === 'number' && known.has(code)
}

/** SDK error codes with their fixed messages (where they have one). */
export const sdkErrors = {
  MISSING_API_KEY:
    'Please provide an API key that you acquired from the Magic developer dashboard.',
  MODAL_NOT_READY: 'Modal is not ready',
  CONNECTION_WAS_LOST: 'Connection to the Magic iframe was lost.',
  MALFORMED_RESPONSE: 'Response from the Magic iframe is malformed.',
  INVALID_ARGUMENT: 'Invalid argument.',
  EXTENSION_NOT_INITIALIZED: 'Extension is not initialized.',
  INCOMPATIBLE_EXTENSIONS: 'Some extensions are incompatible.',
} as const

export type SdkErrorCode = keyof typeof sdkErrors

export const sdkWarnings = [
  'SYNC_WEB3_METHOD',
  'DUPLICATE_IFRAME',
  'REACT_NATIVE_ENDPOINT_CONFIGURATION',
  'DEPRECATION_NOTICE',
  'ANNOUNCEMENT',
] as const

export type SdkWarningCode = (typeof sdkWarnings)[number]

/** The message that wipes every stored device share. */
export const userDeniedAccountAccess = 'User denied account access.'
