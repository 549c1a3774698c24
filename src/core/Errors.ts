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
