/**
 * The error codes the iframe answers with: JSON-RPC 2.0's own and the
 * provider's (the published SDK's `RPCErrorCode` values), and the message on
 * which a client wipes its device shares.
 */

/**
 * JSON-RPC and provider-specific RPC error codes, each its own export so
 * that the client keeps only the names it uses (see `wire/methods.ts`);
 * {@link rpcCodes} gathers them.
 */
export const ParseError = -32700
export const InvalidRequest = -32600
export const MethodNotFound = -32601
export const InvalidParams = -32602
export const InternalError = -32603
export const MagicLinkFailedVerification = -10000
export const MagicLinkExpired = -10001
export const MagicLinkRateLimited = -10002
export const UserAlreadyLoggedIn = -10003
export const UpdateEmailFailed = -10004
export const UserRequestEditEmail = -10005
export const MagicLinkInvalidRedirectURL = -10006
export const InactiveRecipient = -10010
export const AccessDeniedToUser = -10011
export const UserRejectedAction = -10012
export const RequestCancelled = -10014
export const RedirectLoginComplete = -10015
export const SessionTerminated = -10016
export const PopupRequestOverriden = -10017
export const SanEmail = -10018
export const DpopInvalidated = -10019
export const MaxAttemptsReached = -10031
export const UserRequiredMfa = -10033
export const InvalidRecaptcha = -10034
export const LoginThrottled = -10035
export const RecaptchaUnavailable = -10036

/** Every RPC error code, by name. */
export const rpcCodes = {
  ParseError,
  InvalidRequest,
  MethodNotFound,
  InvalidParams,
  InternalError,
  MagicLinkFailedVerification,
  MagicLinkExpired,
  MagicLinkRateLimited,
  UserAlreadyLoggedIn,
  UpdateEmailFailed,
  UserRequestEditEmail,
  MagicLinkInvalidRedirectURL,
  InactiveRecipient,
  AccessDeniedToUser,
  UserRejectedAction,
  RequestCancelled,
  RedirectLoginComplete,
  SessionTerminated,
  PopupRequestOverriden,
  SanEmail,
  DpopInvalidated,
  MaxAttemptsReached,
  UserRequiredMfa,
  InvalidRecaptcha,
  LoginThrottled,
  RecaptchaUnavailable,
} as const

export type RpcCode = (typeof rpcCodes)[keyof typeof rpcCodes]

/**
 * The provider's codes, one character per offset below -10000 (from
 * -10000 to -10036): `1` where {@link rpcCodes} has the code. A string
 * rather than a `Set` of the values: the client ships it with every page,
 * and this is the smaller. A test holds it to {@link rpcCodes}.
 */
const providerCodes = '1111111000111011111100000000000101111'

/** Whether `code` is one the SDK keeps; any other becomes -32603. */
export function isKnownRpcCode(code: unknown): code is RpcCode {
  if (typeof code !== 'number') return false
  if (code === ParseError || (code <= InvalidRequest && code >= InternalError))
    return true
  return providerCodes[MagicLinkFailedVerification - code] === '1'
}

/** The message that wipes every stored device share. */
export const userDeniedAccountAccess = 'User denied account access.'
