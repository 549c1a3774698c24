/**
 * The zkEVM provider's errors: viem's `RpcError` / `ProviderRpcError` with
 * the codes and exact messages of the published SDK (`JsonRpcError`), so a
 * dapp matching on `code` or `message` behaves as with @imtbl/passport, and
 * viem-based code recognises them as RPC errors.
 */
import { ProviderRpcError, type ProviderRpcErrorCode, RpcError } from 'viem'

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
 * A JSON-RPC error (`-32xxx`) with an exact `message`: viem's layout adds
 * `Details:`/`Version:` lines, which the published SDK's errors do not
 * have, so the message is reset to the short text.
 */
export class JsonRpcError extends RpcError {
  override name = 'JsonRpcError'
  constructor(
    code: (typeof RpcErrorCode)[keyof typeof RpcErrorCode],
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(asError(options.cause, message), { code, shortMessage: message })
    this.name = 'JsonRpcError'
    this.message = message
  }
}

/** An EIP-1193 provider error (`4xxx`) with an exact `message`. */
export class ProviderError extends ProviderRpcError {
  override name = 'ProviderError'
  constructor(
    code: ProviderRpcErrorCode,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(asError(options.cause, message), { code, shortMessage: message })
    this.name = 'ProviderError'
    this.message = message
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
  return new JsonRpcError(
    RpcErrorCode.INTERNAL_ERROR,
    describe(error) || 'Internal error',
    { cause: error },
  )
}

function asError(cause: unknown, message: string): Error {
  return cause instanceof Error ? cause : new Error(message)
}
