/**
 * The StarkEx provider of one `connectImx()`: the published 2.14.0
 * surface (`IMXProvider`) over the workflows of this folder. The Stark
 * signer is derived from the custody key on first use and dropped when
 * the player logs out (the next use derives it again, from whoever is
 * signed in then).
 */
import type * as Emitter from '../../core/Emitter.js'
import type { Events } from '../auth/session.js'
import {
  isPassportError,
  PassportErrorType,
  withPassportError,
} from '../errors.js'
import type { DisposableSigner } from '../zkevm/custodySigner.js'
import type { Context } from './context.js'
import { exchangeTransfer } from './exchange.js'
import { cancelOrder, createOrder } from './orders.js'
import { signedIn } from './player.js'
import { registerOffchain } from './registration.js'
import {
  deriveStarkSigner,
  type StarkKeyLookup,
  type StarkSigner,
} from './starkSigner.js'
import { createTrade } from './trades.js'
import { batchNftTransfer, transfer } from './transfers.js'
import type { IMXProvider } from './types.js'
import { imxUserOf, operationNotSupported } from './user.js'

/** What {@link createImxProvider} needs. */
export type ProviderOptions = Omit<Context, 'custody' | 'starkSigner'> & {
  /** Makes the custody key (on first use; destroyed on logout). */
  createCustodySigner: () => DisposableSigner
  /** The exchange's record of an address, for the Stark key's legacy grinds. */
  lookup: StarkKeyLookup
  /** The session's events: `loggedOut` drops the signers. */
  events: Emitter.Emitter<Events>
}

/**
 * Creates the provider.
 *
 * @example
 * ```ts
 * const provider = createImxProvider(options)
 * if (!(await provider.isRegisteredOffchain())) await provider.registerOffchain()
 * ```
 */
export function createImxProvider(options: ProviderOptions): IMXProvider {
  const { createCustodySigner, lookup, events, ...rest } = options
  let custody: DisposableSigner | undefined
  let stark: Promise<StarkSigner> | undefined
  const getCustody = () => {
    custody ??= createCustodySigner()
    return custody
  }
  events.on('loggedOut', () => {
    custody?.destroy()
    custody = undefined
    stark = undefined
  })
  const context: Context = {
    ...rest,
    custody: getCustody,
    starkSigner() {
      if (!stark) {
        const derived = withPassportError(
          () => deriveStarkSigner(getCustody(), lookup),
          PassportErrorType.WALLET_CONNECTION_ERROR,
        )
        stark = derived
        // A failed derivation is not kept: the next call tries again.
        derived.catch(() => {
          if (stark === derived) stark = undefined
        })
      }
      return stark
    },
  }

  return {
    async getAddress() {
      return imxUserOf(await signedIn(context)).imx.ethAddress
    },
    registerOffchain: () => registerOffchain(context),
    async isRegisteredOffchain() {
      try {
        imxUserOf(await signedIn(context))
        return true
      } catch (error) {
        if (isPassportError(error, PassportErrorType.USER_NOT_REGISTERED_ERROR))
          return false
        throw error
      }
    },
    isRegisteredOnchain() {
      throw operationNotSupported()
    },
    createOrder: (request) => createOrder(context, request),
    cancelOrder: (request) => cancelOrder(context, request),
    createTrade: (request) => createTrade(context, request),
    transfer: (request) => transfer(context, request),
    batchNftTransfer: (request) => batchNftTransfer(context, request),
    exchangeTransfer: (request) => exchangeTransfer(context, request),
    deposit() {
      throw operationNotSupported()
    },
    prepareWithdrawal() {
      throw operationNotSupported()
    },
    completeWithdrawal() {
      throw operationNotSupported()
    },
  }
}
