import { BaseError } from '../../core/Errors.js'

/*
 * The login popup's errors. Each message is exactly its short message (no
 * details line), so callers and the Passport facade can match it.
 */

/** Base class of the login popup's errors. */
export class PopupError extends BaseError {
  override name = 'PopupError'
}

/** The user closed the popup or the overlay: 'Popup closed by user'. */
export class PopupClosedError extends PopupError {
  override name = 'PopupClosedError'
  constructor() {
    super('Popup closed by user')
  }
}

/** Blocked and no overlay may offer a retry: 'Popup blocked by user'. */
export class PopupBlockedError extends PopupError {
  override name = 'PopupBlockedError'
  constructor() {
    super('Popup blocked by user')
  }
}

/** No callback within `timeout`: 'Popup timed out'. */
export class PopupTimeoutError extends PopupError {
  override name = 'PopupTimeoutError'
  constructor() {
    super('Popup timed out')
  }
}

/** A callback whose URL cannot be read: 'Invalid response from window'. */
export class PopupResponseError extends PopupError {
  override name = 'PopupResponseError'
  constructor(cause?: Error) {
    super('Invalid response from window', cause ? { cause, details: '' } : {})
  }
}

/** The caller's signal aborted without an Error reason: 'Popup aborted'. */
export class PopupAbortedError extends PopupError {
  override name = 'PopupAbortedError'
  constructor() {
    super('Popup aborted')
  }
}
