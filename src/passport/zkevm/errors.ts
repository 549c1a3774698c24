/**
 * The zkEVM provider's errors: `code`, exact `message` and `data` as
 * EIP-1193 and EIP-1474 define them, with the codes and texts of the
 * published SDK (`JsonRpcError`), so a dapp matching on `code` or `message`
 * behaves as with @imtbl/passport. viem and wagmi recognise RPC errors by
 * `code` (viem's `custom` transport maps each code to its own class), so
 * these are our own classes on the core `BaseError`, in viem's layout
 * (`shortMessage`, `details`, `cause`, `walk`), rather than viem's
 * `RpcError` family, whose classes cannot be tree-shaken apart.
 */
import type { ProviderRpcErrorCode } from 'viem'
import { BaseError } from '../../core/Errors.js'
import { RpcResponseError } from '../../core/Transport.js'

/** EIP-1193 provider error codes. */
export const ProviderErrorCode = {
  USER_REJECTED_REQUEST: 4001,
  UNAUTHORIZED: 4100,
  UNSUPPORTED_METHOD: 4200,
  DISCONNECTED: 4900,
} as const

/** JSON-RPC error codes the provider uses (EIP-1474 and the SDK's own). */
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

/** `'Transaction failed to submit with status X. Error message: …'`. */
export function failedToSubmit(status: string, message: string | undefined) {
  return `Transaction failed to submit with status ${status}. Error message: ${message ?? ''}`
}

/**
 * What every error of the provider is: an RPC error with a numeric `code`,
 * an exact one-line `message` and optional `data`.
 */
export class RpcError extends BaseError {
  override name = 'RpcError'
  /** The JSON-RPC (`-32xxx`) or EIP-1193 (`4xxx`, `57xx`) code. */
  code: number
  /** Extra information (e.g. a node's revert data). */
  data?: unknown
  constructor(
    code: number,
    message: string,
    options: { cause?: unknown; data?: unknown } = {},
  ) {
    // The message is the short text alone (the published SDK's errors
    // have no `Details:` lines); the cause keeps the rest.
    super(message, { cause: asError(options.cause, message) })
    this.message = message
    this.code = code
    if (options.data !== undefined) this.data = options.data
  }
}

/** A JSON-RPC error (`-32xxx`, or a node's own code) with an exact `message`. */
export class JsonRpcError extends RpcError {
  override name = 'JsonRpcError'
  constructor(
    code: (typeof RpcErrorCode)[keyof typeof RpcErrorCode] | (number & {}),
    message: string,
    options: { cause?: unknown; data?: unknown } = {},
  ) {
    super(code, message, options)
    this.name = 'JsonRpcError'
  }
}

/** An EIP-1193 provider error (`4xxx`) with an exact `message`. */
export class ProviderError extends RpcError {
  override name = 'ProviderError'
  constructor(
    code: ProviderRpcErrorCode,
    message: string,
    options: { cause?: unknown; data?: unknown } = {},
  ) {
    super(code, message, options)
    this.name = 'ProviderError'
  }
}

/**
 * The guardian refused to answer (HTTP 403): the published SDK's
 * `WalletError` of type `SERVICE_UNAVAILABLE_ERROR`, raised once the
 * unavailable screen was shown.
 */
export class ServiceUnavailableError extends JsonRpcError {
  override name = 'ServiceUnavailableError'
  /** The published `PassportErrorType`. */
  readonly type = 'SERVICE_UNAVAILABLE_ERROR' as const
  constructor(options: { cause?: unknown } = {}) {
    super(RpcErrorCode.RPC_SERVER_ERROR, messages.serviceUnavailable, options)
    this.name = 'ServiceUnavailableError'
  }
}

/** 4100: no registered wallet yet. */
export function unauthorised() {
  return new ProviderError(
    ProviderErrorCode.UNAUTHORIZED,
    messages.unauthorised,
  )
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
  if (method === 'wallet_sendTransaction')
    return new JsonRpcError(
      RpcErrorCode.METHOD_NOT_SUPPORTED,
      messages.methodNotSupported,
    )
  return new ProviderError(
    ProviderErrorCode.UNSUPPORTED_METHOD,
    messages.methodNotSupported,
  )
}

/** -32602 with `message`. */
export function invalidParams(message: string) {
  return new JsonRpcError(RpcErrorCode.INVALID_PARAMS, message)
}

/** The message of anything thrown. */
export function describe(error: unknown): string {
  if (error instanceof RpcError) return error.shortMessage
  if (error instanceof Error) return error.message
  return String(error)
}

/**
 * Turns anything thrown inside a request into an RPC error: the provider's
 * own errors pass unchanged, others become -32603 with their message (the
 * published SDK's fallback, so no plain `Error` escapes `request`).
 */
export function toRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error
  // The chain node's own error (pass-through methods): its code, message
  // and data, as a wallet forwarding to a node answers.
  if (error instanceof RpcResponseError)
    return new JsonRpcError(error.code, error.shortMessage, {
      cause: error,
      data: error.data,
    })
  return new JsonRpcError(
    RpcErrorCode.INTERNAL_ERROR,
    describe(error) || 'Internal error',
    { cause: error },
  )
}

function asError(cause: unknown, message: string): Error {
  return cause instanceof Error ? cause : new Error(message)
}
