/**
 * The zkEVM provider's errors: the core RPC errors (`core/RpcErrors.ts`),
 * each an instance of the class of its code (4100 is an
 * `RpcErrors.UnauthorizedError`, -32602 an `RpcErrors.InvalidParamsError`,
 * …) carrying the published SDK's exact text, so a dapp matching on
 * `code` or `message` behaves as with @imtbl/passport, and viem and wagmi,
 * which recognise RPC errors by `code`, map them to their own classes. The
 * published names stay: `JsonRpcError`, `ProviderErrorCode`,
 * `RpcErrorCode`. Errors the published SDK throws with a
 * `PassportErrorType` carry the same `type` here, next to their code.
 */
import { BaseError } from '../../core/Errors.js'
import * as RpcErrors from '../../core/RpcErrors.js'
import {
  type PassportErrorType,
  messages as passportMessages,
  typeOf,
} from '../errors.js'

/** EIP-1193 provider error codes (published `ProviderErrorCode`). */
export const ProviderErrorCode = {
  USER_REJECTED_REQUEST: 4001,
  UNAUTHORIZED: 4100,
  UNSUPPORTED_METHOD: 4200,
  DISCONNECTED: 4900,
} as const

/** JSON-RPC error codes the provider uses (published `RpcErrorCode`, EIP-1474). */
export const RpcErrorCode = {
  RPC_SERVER_ERROR: -32000,
  TRANSACTION_REJECTED: -32003,
  METHOD_NOT_SUPPORTED: -32004,
  TRANSACTION_REVERTED: -32015,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  PARSE_ERROR: -32700,
} as const

/**
 * The published `JsonRpcError`: `new JsonRpcError(code, message)`, with
 * `code` and `message`. It is core's `RpcError` itself rather than a
 * subclass: the published SDK throws `JsonRpcError` for every code, so
 * `instanceof JsonRpcError` must hold for each error the provider throws,
 * and those are instances of core's per-code classes
 * (`RpcErrors.UnauthorizedError`, …), which a subclass of `RpcError` could
 * not be a parent of. One class keeps one hierarchy.
 */
export const JsonRpcError = RpcErrors.RpcError
/** An error of the provider: see {@link JsonRpcError}. */
export type JsonRpcError = RpcErrors.RpcError

/** A provider error that also has the published SDK's `PassportErrorType`. */
export type TypedRpcError<
  error extends RpcErrors.RpcError = RpcErrors.RpcError,
> = error & { readonly type: PassportErrorType }

/** The exact texts apps match on. */
export const messages = {
  unauthorised: 'Unauthorised - call eth_requestAccounts first',
  notAuthenticated: 'User not authenticated. Please log in first.',
  methodNotSupported: 'Method not supported',
  transactionRejected: 'Transaction rejected by user',
  signatureRejected: 'Signature rejected by user',
  serviceUnavailable: 'Service unavailable',
  notSupportedInBridge:
    'Transaction requires confirmation but this functionality is not supported in this environment. Please contact Immutable support if you need to enable this feature.',
  feesMissing: 'Failed to retrieve fees for IMX token',
  hashTimeout: 'transaction hash not generated in time',
  noIdToken: 'failed to obtain ID token',
  signerFailed: 'Signer failed to initialise',
  zkEvmUserMissing:
    'Failed to obtain a User with the required ZkEvm attributes',
  ejectionParams: 'im_signEjectionTransaction requires a singular param (hash)',
} as const

/**
 * `'Transaction failed to submit with status X.'`, followed by `' Error
 * message: …'` when the relayer gave one.
 */
export function failedToSubmit(status: string, message: string | undefined) {
  const text = `Transaction failed to submit with status ${status}.`
  return message ? `${text} Error message: ${message}` : text
}

/** `error`, with the published `type` it is thrown with. */
export function withType<error extends RpcErrors.RpcError>(
  error: error,
  type: PassportErrorType,
): TypedRpcError<error> {
  return Object.assign(error, { type })
}

/** 4100: no registered wallet yet. */
export function unauthorised() {
  return new RpcErrors.UnauthorizedError({ message: messages.unauthorised })
}

/**
 * A method the provider does not offer: EIP-1193's 4200 'Method not
 * supported', as the published SDK answers. `wallet_sendTransaction` alone
 * gets EIP-1474's -32004 with the same text: viem's `sendTransaction` (and
 * so wagmi's `sendTransaction` and `writeContract`) retries an
 * `eth_sendTransaction` that failed with -32000 or -32602 as
 * `wallet_sendTransaction`, and rethrows the first error only when the
 * retry answers -32601 or -32004. To a 4200 it throws the 4200 instead, so
 * a relayer failure, a timeout or an unavailable guardian would reach the
 * dapp as 'Method not supported'.
 */
export function unsupportedMethod(method: string) {
  const message = messages.methodNotSupported
  if (method === 'wallet_sendTransaction')
    return new RpcErrors.MethodNotSupportedError({ message })
  return new RpcErrors.UnsupportedMethodError({ message })
}

/** -32602 with `message`. */
export function invalidParams(
  message: string,
  options: { cause?: unknown } = {},
) {
  return new RpcErrors.InvalidParamsError({ message, cause: options.cause })
}

/** -32603 with `message`. */
export function internalError(
  message: string,
  options: { cause?: unknown } = {},
) {
  return new RpcErrors.InternalError({ message, cause: options.cause })
}

/**
 * The guardian refused to answer (HTTP 403): -32000 'Service unavailable'
 * with the published SDK's type `SERVICE_UNAVAILABLE_ERROR`, raised once
 * the unavailable screen was shown.
 */
export function serviceUnavailable(options: { cause?: unknown } = {}) {
  return withType(
    new RpcErrors.InvalidInputError({
      message: messages.serviceUnavailable,
      cause: options.cause,
    }),
    'SERVICE_UNAVAILABLE_ERROR',
  )
}

/**
 * The custody key is needed for a player who logged out meanwhile: 4100
 * 'User has been logged out' with the published type `NOT_LOGGED_IN_ERROR`
 * (the published SDK's custody signer throws it).
 */
export function loggedOut() {
  return withType(
    new RpcErrors.UnauthorizedError({ message: passportMessages.loggedOut }),
    'NOT_LOGGED_IN_ERROR',
  )
}

/** The message of anything thrown: a core error's short message, without details. */
export function describe(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage
  if (error instanceof Error) return error.message
  return String(error)
}

/**
 * Turns anything thrown inside a request into an RPC error: the provider's
 * own errors (the chain client's included, `chain.ts`) pass unchanged;
 * anything else becomes -32603 with its message (the published SDK's
 * fallback, so no plain `Error` escapes `request`), keeping the published
 * `type` of a `PassportError` (a failed sign-in, say).
 */
export function toRpcError(error: unknown): RpcErrors.RpcError {
  if (error instanceof RpcErrors.RpcError) return error
  const internal = internalError(describe(error) || 'Internal error', {
    cause: error,
  })
  const type = typeOf(error)
  return type ? withType(internal, type) : internal
}
