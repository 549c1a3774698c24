/**
 * The one RPC error model of both wallets: a base {@link RpcError} with a
 * numeric `code`, an exact `message` and optional `data`, and one class per
 * standard code (JSON-RPC 2.0, EIP-1474, EIP-1193, EIP-3326, EIP-5792), each
 * with a `static code` as viem's and ox's errors have. {@link fromCode} is
 * the one way from a code to its class; {@link from} turns anything thrown
 * into an RPC error. Each product keeps its published class names and texts
 * as subclasses or by passing its own text to these classes.
 *
 * The `message` is the text alone (no `Details:` or `Docs:` lines): dApps and
 * the published SDKs match on the exact texts, and viem and wagmi map an
 * error to their own classes by `code`.
 *
 * @example
 * ```ts
 * import { RpcErrors } from 'embedded-wallets/core'
 *
 * try {
 *   await provider.request({ method: 'eth_requestAccounts' })
 * } catch (error) {
 *   if (RpcErrors.from(error) instanceof RpcErrors.UserRejectedRequestError)
 *     return // the user said no
 *   throw error
 * }
 * ```
 */
import { BaseError } from './Errors.js'
import type * as Rpc from './Rpc.js'

/** What every RPC error constructor takes besides its code and text. */
export type Options = {
  /** What went wrong underneath (kept, never printed in `message`). */
  cause?: unknown
  /** The wire error's `data` (e.g. a node's revert data). */
  data?: unknown
}

/** What a coded class's constructor takes: its text defaults to the EIP's. */
export type CodedOptions = Options & {
  /** The text; @default the standard's text for the code */
  message?: string | undefined
}

/**
 * An error with a JSON-RPC or EIP-1193 `code`. Foreign codes (a node's own,
 * the iframe wallet's -10xxx) use this class directly; standard ones have
 * their own subclass (see {@link fromCode}).
 */
export class RpcError<code extends number = number> extends BaseError {
  override name = 'RpcError'
  /** The JSON-RPC (`-32xxx`), EIP-1193 (`4xxx`) or EIP-5792 (`57xx`) code. */
  readonly code: code
  /** The wire error's `data`, if any. */
  data?: unknown

  constructor(code: code, message: string, options: Options = {}) {
    const { cause, data } = options
    super(message, {
      cause: cause === undefined ? undefined : asError(cause),
      docsPath: '',
    })
    // The published texts are one line: the details stay on `details`
    // and `cause`, out of `message`.
    this.message = message
    this.code = code
    if (data !== undefined) this.data = data
  }

  /** The JSON-RPC `error` member for this error. */
  toObject(): Rpc.ErrorObject {
    return {
      code: this.code,
      message: this.message,
      ...(this.data === undefined ? {} : { data: this.data }),
    }
  }
}

/** An EIP-1193 provider error (`4xxx`) or an EIP-5792 one (`57xx`). */
export class ProviderRpcError<
  code extends number = number,
> extends RpcError<code> {
  override name = 'ProviderRpcError'
}

// JSON-RPC 2.0 (https://www.jsonrpc.org/specification#error_object)

/** -32700: the server could not parse the JSON it received. */
export class ParseError extends RpcError<-32700> {
  static readonly code = -32700 as const
  override name = 'RpcErrors.ParseError'
  constructor(options: CodedOptions = {}) {
    super(ParseError.code, options.message ?? 'Parse error', options)
  }
}

/** -32600: the JSON sent is not a valid request object. */
export class InvalidRequestError extends RpcError<-32600> {
  static readonly code = -32600 as const
  override name = 'RpcErrors.InvalidRequestError'
  constructor(options: CodedOptions = {}) {
    super(InvalidRequestError.code, options.message ?? 'Invalid Request', {
      ...options,
    })
  }
}

/** -32601: the method does not exist or is not available. */
export class MethodNotFoundError extends RpcError<-32601> {
  static readonly code = -32601 as const
  override name = 'RpcErrors.MethodNotFoundError'
  constructor(options: CodedOptions = {}) {
    super(MethodNotFoundError.code, options.message ?? 'Method not found', {
      ...options,
    })
  }
}

/** -32602: invalid method parameters. */
export class InvalidParamsError extends RpcError<-32602> {
  static readonly code = -32602 as const
  override name = 'RpcErrors.InvalidParamsError'
  constructor(options: CodedOptions = {}) {
    super(InvalidParamsError.code, options.message ?? 'Invalid params', {
      ...options,
    })
  }
}

/** -32603: an internal JSON-RPC error. */
export class InternalError extends RpcError<-32603> {
  static readonly code = -32603 as const
  override name = 'RpcErrors.InternalError'
  constructor(options: CodedOptions = {}) {
    super(InternalError.code, options.message ?? 'Internal error', options)
  }
}

// EIP-1474 (https://eips.ethereum.org/EIPS/eip-1474#error-codes)

/** -32000: missing or invalid parameters; wallets also use it as "server error". */
export class InvalidInputError extends RpcError<-32000> {
  static readonly code = -32000 as const
  override name = 'RpcErrors.InvalidInputError'
  constructor(options: CodedOptions = {}) {
    super(InvalidInputError.code, options.message ?? 'Invalid input', options)
  }
}

/** -32001: the requested resource was not found. */
export class ResourceNotFoundError extends RpcError<-32001> {
  static readonly code = -32001 as const
  override name = 'RpcErrors.ResourceNotFoundError'
  constructor(options: CodedOptions = {}) {
    super(
      ResourceNotFoundError.code,
      options.message ?? 'Resource not found',
      options,
    )
  }
}

/** -32002: the requested resource is not available. */
export class ResourceUnavailableError extends RpcError<-32002> {
  static readonly code = -32002 as const
  override name = 'RpcErrors.ResourceUnavailableError'
  constructor(options: CodedOptions = {}) {
    super(
      ResourceUnavailableError.code,
      options.message ?? 'Resource unavailable',
      options,
    )
  }
}

/** -32003: the transaction was rejected (by the user, or by the wallet). */
export class TransactionRejectedError extends RpcError<-32003> {
  static readonly code = -32003 as const
  override name = 'RpcErrors.TransactionRejectedError'
  constructor(options: CodedOptions = {}) {
    super(
      TransactionRejectedError.code,
      options.message ?? 'Transaction rejected',
      options,
    )
  }
}

/** -32004: the method is not supported. */
export class MethodNotSupportedError extends RpcError<-32004> {
  static readonly code = -32004 as const
  override name = 'RpcErrors.MethodNotSupportedError'
  constructor(options: CodedOptions = {}) {
    super(
      MethodNotSupportedError.code,
      options.message ?? 'Method not supported',
      options,
    )
  }
}

/** -32005: the request exceeds a limit (rate, size, gas). */
export class LimitExceededError extends RpcError<-32005> {
  static readonly code = -32005 as const
  override name = 'RpcErrors.LimitExceededError'
  constructor(options: CodedOptions = {}) {
    super(LimitExceededError.code, options.message ?? 'Limit exceeded', options)
  }
}

/** -32006: the JSON-RPC version is not supported. */
export class JsonRpcVersionUnsupportedError extends RpcError<-32006> {
  static readonly code = -32006 as const
  override name = 'RpcErrors.JsonRpcVersionUnsupportedError'
  constructor(options: CodedOptions = {}) {
    super(
      JsonRpcVersionUnsupportedError.code,
      options.message ?? 'JSON-RPC version not supported',
      options,
    )
  }
}

// EIP-1193 (https://eips.ethereum.org/EIPS/eip-1193#provider-errors)

/** 4001: the user rejected the request. */
export class UserRejectedRequestError extends ProviderRpcError<4001> {
  static readonly code = 4001 as const
  override name = 'RpcErrors.UserRejectedRequestError'
  constructor(options: CodedOptions = {}) {
    super(
      UserRejectedRequestError.code,
      options.message ?? 'The user rejected the request.',
      options,
    )
  }
}

/** 4100: the method or account has not been authorised by the user. */
export class UnauthorizedError extends ProviderRpcError<4100> {
  static readonly code = 4100 as const
  override name = 'RpcErrors.UnauthorizedError'
  constructor(options: CodedOptions = {}) {
    super(
      UnauthorizedError.code,
      options.message ??
        'The requested method and/or account has not been authorized by the user.',
      options,
    )
  }
}

/** 4200: the provider does not support the method. */
export class UnsupportedMethodError extends ProviderRpcError<4200> {
  static readonly code = 4200 as const
  override name = 'RpcErrors.UnsupportedMethodError'
  constructor(options: CodedOptions = {}) {
    super(
      UnsupportedMethodError.code,
      options.message ?? 'The Provider does not support the requested method.',
      options,
    )
  }
}

/** 4900: the provider is disconnected from all chains. */
export class DisconnectedError extends ProviderRpcError<4900> {
  static readonly code = 4900 as const
  override name = 'RpcErrors.DisconnectedError'
  constructor(options: CodedOptions = {}) {
    super(
      DisconnectedError.code,
      options.message ?? 'The Provider is disconnected from all chains.',
      options,
    )
  }
}

/** 4901: the provider is not connected to the requested chain. */
export class ChainDisconnectedError extends ProviderRpcError<4901> {
  static readonly code = 4901 as const
  override name = 'RpcErrors.ChainDisconnectedError'
  constructor(options: CodedOptions = {}) {
    super(
      ChainDisconnectedError.code,
      options.message ??
        'The Provider is not connected to the requested chain.',
      options,
    )
  }
}

/** 4902 (EIP-3326): the wallet does not know the chain; add it first. */
export class UnrecognizedChainError extends ProviderRpcError<4902> {
  static readonly code = 4902 as const
  override name = 'RpcErrors.UnrecognizedChainError'
  constructor(options: CodedOptions = {}) {
    super(
      UnrecognizedChainError.code,
      options.message ?? 'Unrecognized chain ID.',
      options,
    )
  }
}

// EIP-5792 (https://eips.ethereum.org/EIPS/eip-5792#error-codes)

/** 5700: a capability the app requires is not supported. */
export class UnsupportedNonOptionalCapabilityError extends ProviderRpcError<5700> {
  static readonly code = 5700 as const
  override name = 'RpcErrors.UnsupportedNonOptionalCapabilityError'
  constructor(options: CodedOptions = {}) {
    super(
      UnsupportedNonOptionalCapabilityError.code,
      options.message ?? 'Unsupported non-optional capability.',
      options,
    )
  }
}

/** 5710: the wallet does not support the calls' chain. */
export class UnsupportedChainIdError extends ProviderRpcError<5710> {
  static readonly code = 5710 as const
  override name = 'RpcErrors.UnsupportedChainIdError'
  constructor(options: CodedOptions = {}) {
    super(
      UnsupportedChainIdError.code,
      options.message ?? 'Unsupported chain ID.',
      options,
    )
  }
}

/** 5720: a batch with this id was already submitted. */
export class DuplicateIdError extends ProviderRpcError<5720> {
  static readonly code = 5720 as const
  override name = 'RpcErrors.DuplicateIdError'
  constructor(options: CodedOptions = {}) {
    super(DuplicateIdError.code, options.message ?? 'Duplicate ID.', options)
  }
}

/** 5730: no batch has this id. */
export class UnknownBundleIdError extends ProviderRpcError<5730> {
  static readonly code = 5730 as const
  override name = 'RpcErrors.UnknownBundleIdError'
  constructor(options: CodedOptions = {}) {
    super(
      UnknownBundleIdError.code,
      options.message ?? 'Unknown bundle ID.',
      options,
    )
  }
}

/** 5740: the batch is too large for the wallet. */
export class BundleTooLargeError extends ProviderRpcError<5740> {
  static readonly code = 5740 as const
  override name = 'RpcErrors.BundleTooLargeError'
  constructor(options: CodedOptions = {}) {
    super(
      BundleTooLargeError.code,
      options.message ?? 'Bundle too large.',
      options,
    )
  }
}

/** 5750: the user rejected upgrading the account for atomic calls. */
export class AtomicReadyWalletRejectedUpgradeError extends ProviderRpcError<5750> {
  static readonly code = 5750 as const
  override name = 'RpcErrors.AtomicReadyWalletRejectedUpgradeError'
  constructor(options: CodedOptions = {}) {
    super(
      AtomicReadyWalletRejectedUpgradeError.code,
      options.message ?? 'Atomic-ready wallet rejected upgrade.',
      options,
    )
  }
}

/** 5760: the wallet cannot run the calls atomically. */
export class AtomicityNotSupportedError extends ProviderRpcError<5760> {
  static readonly code = 5760 as const
  override name = 'RpcErrors.AtomicityNotSupportedError'
  constructor(options: CodedOptions = {}) {
    super(
      AtomicityNotSupportedError.code,
      options.message ?? 'Atomicity not supported.',
      options,
    )
  }
}

/** A coded class: constructible from options, with its `code`. */
type CodedClass = (new (
  options?: CodedOptions,
) => RpcError) & {
  readonly code: number
}

/**
 * Every coded class, by code: made on the first {@link fromCode}, so that a
 * bundle that never calls it keeps only the classes it uses.
 */
let classes: ReadonlyMap<number, CodedClass> | undefined
const codedClasses = (): ReadonlyMap<number, CodedClass> =>
  new Map(
    (
      [
        ParseError,
        InvalidRequestError,
        MethodNotFoundError,
        InvalidParamsError,
        InternalError,
        InvalidInputError,
        ResourceNotFoundError,
        ResourceUnavailableError,
        TransactionRejectedError,
        MethodNotSupportedError,
        LimitExceededError,
        JsonRpcVersionUnsupportedError,
        UserRejectedRequestError,
        UnauthorizedError,
        UnsupportedMethodError,
        DisconnectedError,
        ChainDisconnectedError,
        UnrecognizedChainError,
        UnsupportedNonOptionalCapabilityError,
        UnsupportedChainIdError,
        DuplicateIdError,
        UnknownBundleIdError,
        BundleTooLargeError,
        AtomicReadyWalletRejectedUpgradeError,
        AtomicityNotSupportedError,
      ] as const
    ).map((type) => [type.code, type]),
  )

/**
 * The error of `code`: an instance of its class when the code is a
 * standard one, else a plain {@link RpcError} (4xxx and 57xx codes a
 * {@link ProviderRpcError}). Without `message`, the standard's text (or
 * 'Unknown error' for a code no standard names).
 *
 * @example
 * ```ts
 * import { RpcErrors } from 'embedded-wallets/core'
 *
 * RpcErrors.fromCode(4001) instanceof RpcErrors.UserRejectedRequestError // true
 * RpcErrors.fromCode(-32015, { message: 'reverted' }).code // -32015
 * ```
 */
export function fromCode(code: number, options: CodedOptions = {}): RpcError {
  classes ??= codedClasses()
  const type = classes.get(code)
  if (type) return new type(options)
  const message = options.message ?? 'Unknown error'
  if ((code >= 4000 && code < 5000) || (code >= 5700 && code < 5800))
    return new ProviderRpcError(code, message, options)
  return new RpcError(code, message, options)
}

/**
 * Anything thrown, as an RPC error:
 * - an {@link RpcError} passes unchanged;
 * - an error object with an integer `code` and a string `message` (a node's
 *   answer, another wallet's error, a wire error object) becomes the class
 *   of its code, with its `message` and `data`, and itself as the cause;
 * - anything else becomes -32603 with its message (`'Internal error'` when
 *   it has none).
 *
 * @example
 * ```ts
 * import { RpcErrors } from 'embedded-wallets/core'
 *
 * RpcErrors.from({ code: 4001, message: 'No' }).message // 'No'
 * RpcErrors.from(new Error('boom')).code // -32603
 * ```
 */
export function from(error: unknown): RpcError {
  if (error instanceof RpcError) return error
  if (typeof error === 'object' && error !== null) {
    const { code, message, data } = error as {
      code?: unknown
      message?: unknown
      data?: unknown
    }
    if (Number.isInteger(code) && typeof message === 'string')
      return fromCode(code as number, {
        message: shortMessageOf(error) ?? message,
        data,
        cause: error,
      })
  }
  const message = shortMessageOf(error) ?? messageOf(error)
  return new InternalError({
    message: message || 'Internal error',
    cause: error,
  })
}

function shortMessageOf(error: unknown): string | undefined {
  return error instanceof BaseError ? error.shortMessage : undefined
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  return typeof error === 'string' ? error : ''
}

function asError(cause: unknown): Error {
  if (cause instanceof Error) return cause
  const error = new Error(messageOf(cause) || 'Non-error thrown')
  Object.defineProperty(error, 'value', { value: cause })
  return error
}
