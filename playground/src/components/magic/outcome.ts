/** How a screen of the iframe wallet ended, as its row shows it. */
export type ScreenOutcome = {
  state: 'done' | 'cancelled' | 'failed'
  words: string
}

/** The provider's "the user closed it" (-10014), and update email's (-10004). */
const cancelCodes = new Set([-10014, 4001])

/**
 * What a screen's answer means: `true` (closed after it did its work), an
 * NFT flow's `{ status }`, an email (the settings' result), or a failure,
 * of which the user closing the screen is a cancel.
 */
export function outcomeOf(result: unknown, error?: unknown): ScreenOutcome {
  if (error !== undefined) {
    const { code, message } = (error ?? {}) as {
      code?: unknown
      message?: unknown
    }
    const cancelled =
      (typeof code === 'number' && cancelCodes.has(code)) ||
      // Update email answers a cancel as "the update failed".
      (code === -10004 &&
        typeof message === 'string' &&
        /cancel/i.test(message))
    return cancelled
      ? { state: 'cancelled', words: 'Closed: nothing changed.' }
      : { state: 'failed', words: 'Failed: see the banner above.' }
  }
  if (typeof result === 'object' && result !== null && 'status' in result) {
    const { status } = result as { status: unknown }
    return status === 'cancelled'
      ? { state: 'cancelled', words: 'Closed: nothing bought.' }
      : status === 'processed'
        ? { state: 'done', words: 'Done: the NFT is yours.' }
        : { state: 'failed', words: `Ended: ${String(status)}.` }
  }
  if (result === false)
    return { state: 'cancelled', words: 'Closed: nothing changed.' }
  return {
    state: 'done',
    words:
      typeof result === 'string' ? `Done: ${result}.` : 'Done (answered true).',
  }
}
