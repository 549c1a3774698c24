/**
 * A StarkEx request the guardian checks, in the published order: the
 * popup opens on its loading page as the call starts (so that a popup
 * blocker still counts the click), the guardian evaluates the payload
 * hash the exchange answered, and the popup closes however the request
 * ends.
 */
import type { OpenOptions } from '../zkevm/confirmation.js'
import { checkStarkExTransaction } from '../zkevm/guardian.js'
import type { Context } from './context.js'

/**
 * Has the guardian check a payload hash; the player confirms it on the
 * popup's page (which shows `wallet`, their StarkEx Ethereum address) when
 * the guardian asks.
 */
export type Guard = (payloadHash: string, wallet: string) => Promise<void>

/**
 * Runs `task` holding the confirmation popup (at `size`, the default
 * 480x720 when absent), with the {@link Guard} of this popup.
 */
export async function withConfirmation<result>(
  context: Context,
  size: OpenOptions | undefined,
  task: (guard: Guard) => Promise<result>,
): Promise<result> {
  const handle = context.confirmation.open(size)
  try {
    return await task((payloadHash, wallet) =>
      checkStarkExTransaction(context.guardian, {
        payloadHash,
        wallet,
        handle,
      }),
    )
  } finally {
    handle.close()
  }
}
