/** The errors of `Storage` backends (re-exported there). */
import { BaseError } from '../Errors.js'
import type { Driver } from '../Storage.js'

/** Thrown when a storage backend cannot be used here. */
export class UnavailableError extends BaseError {
  override readonly name = 'Storage.UnavailableError'
  constructor({ cause, driver }: { cause?: unknown; driver: Driver }) {
    super(
      `${driver === 'local' ? 'localStorage' : 'IndexedDB'} is unavailable.`,
      {
        cause: cause instanceof Error ? cause : undefined,
      },
    )
  }
}
