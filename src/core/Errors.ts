import {
  ChainDisconnectedError,
  InternalRpcError,
  InvalidInputRpcError,
  InvalidParamsRpcError,
  InvalidRequestRpcError,
  MethodNotFoundRpcError,
  ParseRpcError,
  ProviderDisconnectedError,
  ProviderRpcError,
  TransactionRejectedRpcError,
  UnauthorizedProviderError,
  UnsupportedProviderMethodError,
  UserRejectedRequestError,
} from 'viem'
import type * as Rpc from './Rpc.js'

/*
 * The EIP-1193 / EIP-1474 error classes are viem's own, re-exported so that
 * `instanceof` works across this package, viem and wagmi. Each has a
 * `static code` and an instance `code`; their messages keep viem's
 * `Version:` line. Build them from a wire error with {@link fromCode}.
 */
export {
  ChainDisconnectedError,
  InternalRpcError,
  InvalidInputRpcError,
  InvalidParamsRpcError,
  InvalidRequestRpcError,
  MethodNotFoundRpcError,
  ParseRpcError,
  ProviderDisconnectedError,
  ProviderRpcError,
  RpcError,
  TransactionRejectedRpcError,
  UnauthorizedProviderError,
  UnsupportedProviderMethodError,
  UserRejectedRequestError,
} from 'viem'

/**
 * The error classes {@link fromCode} picks by JSON-RPC / EIP-1193 code. They
 * are viem's classes, re-exported from this module.
 *
 * @example
 * ```ts
 * import { Errors } from 'embedded-wallets/core'
 *
 * Errors.classes[4001] === Errors.UserRejectedRequestError // true
 * ```
 */
export const classes = {
  4001: UserRejectedRequestError,
  4100: UnauthorizedProviderError,
  4200: UnsupportedProviderMethodError,
  4900: ProviderDisconnectedError,
  4901: ChainDisconnectedError,
  [-32700]: ParseRpcError,
  [-32600]: InvalidRequestRpcError,
  [-32601]: MethodNotFoundRpcError,
  [-32602]: InvalidParamsRpcError,
  [-32603]: InternalRpcError,
  [-32000]: InvalidInputRpcError,
  [-32003]: TransactionRejectedRpcError,
} as const

/**
 * Base class of every error this package defines. The message is the short
 * message followed by the meta messages, a `Docs:` line and a `Details:` line
 * (viem's layout, without a version line).
 *
 * @example
 * ```ts
 * import { Errors } from 'embedded-wallets/core'
 *
 * class FooError extends Errors.BaseError {
 *   override readonly name = 'Foo.FooError'
 *   constructor() {
 *     super('Foo went wrong.', { details: 'bar was empty' })
 *   }
 * }
 * ```
 */
export class BaseError<
  cause extends Error | undefined = Error | undefined,
> extends Error {
  override name = 'BaseError'
  override cause: cause
  /** The explanation: `options.details`, else the cause's details/message. */
  details: string
  /** Where the error is documented (printed as is on the `Docs:` line). */
  docsPath?: string | undefined
  /** Extra lines printed between the short message and the details. */
  metaMessages?: readonly string[] | undefined
  /** The one-line summary, without details. */
  shortMessage: string

  constructor(shortMessage: string, options: BaseError.Options<cause> = {}) {
    const { cause, metaMessages } = options
    const details = options.details ?? detailsOf(cause)
    const docsPath =
      options.docsPath ?? (cause instanceof BaseError ? cause.docsPath : '')
    const footer = [
      ...(docsPath ? [`Docs: ${docsPath}`] : []),
      ...(details ? [`Details: ${details}`] : []),
    ]
    const message = [
      shortMessage || 'An error occurred.',
      ...(metaMessages?.length ? ['', ...metaMessages] : []),
      ...(footer.length ? ['', ...footer] : []),
    ].join('\n')
    super(message, cause ? { cause } : undefined)
    this.cause = cause as cause
    this.details = details
    if (docsPath) this.docsPath = docsPath
    if (metaMessages) this.metaMessages = metaMessages
    this.shortMessage = shortMessage
  }

  /**
   * Follows the chain of causes. Without `fn`, returns the innermost cause;
   * with `fn`, returns the first error in the chain (this one included) that
   * `fn` accepts, or `null`.
   */
  walk(fn?: ((error: unknown) => boolean) | undefined): unknown {
    return walk(this, fn)
  }
}

export declare namespace BaseError {
  type Options<cause extends Error | undefined = Error | undefined> = {
    /** The error this one wraps. */
    cause?: cause | undefined
    /** Explanation; @default the cause's details or message */
    details?: string | undefined
    /** Documentation path or URL; @default the cause's docsPath */
    docsPath?: string | undefined
    /** Lines printed under the short message. */
    metaMessages?: readonly string[] | undefined
  }
}

/**
 * Builds the typed error for a JSON-RPC / EIP-1193 error code: one of viem's
 * classes for 4001, 4100, 4200, 4900, 4901, -32700, -32600, -32601, -32602,
 * -32603, -32000 and -32003; a generic `ProviderRpcError` keeping the code for
 * any other. The wire `message` becomes the error's `details` (the class keeps
 * its own short message) and `data` is kept on the instance.
 *
 * @example
 * ```ts
 * import { Errors } from 'embedded-wallets/core'
 *
 * const error = Errors.fromCode({ code: 4001, message: 'User denied' })
 * error instanceof Errors.UserRejectedRequestError // true
 * error.details // 'User denied'
 * ```
 */
export function fromCode<const code extends number>(
  parameters: fromCode.Parameters<code>,
): fromCode.ReturnType<code> {
  const { code, data, message } = parameters
  const cause = new Error(message ?? '')
  const Class = (classes as Record<number, new (cause: Error) => Error>)[code]
  const error = Class
    ? Object.assign(new Class(cause), data === undefined ? {} : { data })
    : new ProviderRpcError(cause, {
        code,
        data,
        name: 'ProviderRpcError',
        shortMessage: 'An unknown RPC error occurred.',
      })
  return error as fromCode.ReturnType<code>
}

export declare namespace fromCode {
  type Parameters<code extends number = number> = {
    /** JSON-RPC or EIP-1193 error code. */
    code: code
    /** Message received on the wire; becomes `details`. */
    message?: string | undefined
    /** Extra data received on the wire, kept as `data`. */
    data?: unknown
  }
  type ReturnType<code extends number = number> = WithData<
    code extends keyof typeof classes
      ? InstanceType<(typeof classes)[code]>
      : ProviderRpcError<unknown>
  >
  type ErrorType = never
}

/**
 * Turns any thrown value into the JSON-RPC error object a provider or an
 * emulator puts on the wire. Errors with a numeric `code` keep it, with their
 * wire message (`details`, else the short message); anything else becomes
 * -32603 with the error's message, or `'Internal error'`.
 *
 * @example
 * ```ts
 * import { Errors } from 'embedded-wallets/core'
 *
 * Errors.toJson(Errors.fromCode({ code: 4100, message: 'Log in first' }))
 * // { code: 4100, message: 'Log in first' }
 * ```
 */
export function toJson(error: unknown): Rpc.ErrorObject {
  if (typeof error !== 'object' || error === null)
    return { code: InternalRpcError.code, message: 'Internal error' }
  const { code, data } = error as { code?: unknown; data?: unknown }
  const json: Rpc.ErrorObject = Number.isInteger(code)
    ? { code: code as number, message: wireMessage(error) }
    : { code: InternalRpcError.code, message: internalMessage(error) }
  if (data !== undefined) json.data = data
  return json
}

export declare namespace toJson {
  type ErrorType = never
}

/** A class instance with the `data` field typed as received. */
type WithData<error> = Omit<error, 'data'> & { data?: unknown }

function wireMessage(error: object): string {
  const { details, shortMessage, message } = error as Record<string, unknown>
  const text = [details, shortMessage, message].find(
    (value): value is string => typeof value === 'string' && value !== '',
  )
  return text ?? 'Internal error'
}

function internalMessage(error: object): string {
  if (error instanceof BaseError) return error.shortMessage || 'Internal error'
  if (error instanceof Error) return error.message || 'Internal error'
  return 'Internal error'
}

function detailsOf(cause: Error | undefined): string {
  if (!cause) return ''
  if (cause instanceof BaseError) return cause.details || cause.shortMessage
  const { details } = cause as { details?: unknown }
  if (typeof details === 'string' && details) return details
  return cause.message
}

function walk(
  error: unknown,
  fn?: ((error: unknown) => boolean) | undefined,
): unknown {
  if (fn?.(error)) return error
  if (
    typeof error === 'object' &&
    error !== null &&
    'cause' in error &&
    error.cause !== undefined
  )
    return walk(error.cause, fn)
  return fn ? null : error
}
