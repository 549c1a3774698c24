/**
 * The error `startEmulator` (`index.ts`) throws when a piece fails to start,
 * and the one-line description of an error chain it carries.
 */
import { BaseError } from '../core/Errors.js'

/**
 * Thrown when the emulator cannot start. The short message names the step
 * that failed; the details say why. What had started is stopped first.
 */
export class StartError extends BaseError<Error | undefined> {
  override readonly name = 'Emulator.StartError'
  constructor(options: {
    step: string
    cause: unknown
    cleanup?: unknown
  }) {
    const { step, cause, cleanup } = options
    super(`The emulator could not ${step}.`, {
      cause: cause instanceof Error ? cause : undefined,
      details: describe(cause),
      metaMessages:
        cleanup === undefined
          ? undefined
          : [`Stopping what had started failed too: ${describe(cleanup)}`],
    })
  }
}

/** One line from an error and its causes, short messages first. */
function describe(error: unknown): string {
  if (error instanceof AggregateError)
    return [error.message, ...error.errors.map(describe)].join(' ')
  if (!(error instanceof Error)) return String(error)
  const own = error instanceof BaseError ? error.shortMessage : error.message
  return error.cause === undefined ? own : `${own} ${describe(error.cause)}`
}
