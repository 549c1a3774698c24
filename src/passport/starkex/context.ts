/**
 * What every StarkEx workflow shares: the session, the exchange's and the
 * guardian's clients, the custody key, the player's Stark signer (derived
 * on first use), the confirmation popup and the retry settings.
 */
import type { User } from '../auth/user.js'
import type { Confirmation } from '../zkevm/confirmation.js'
import type { CustodySigner } from '../zkevm/custodySigner.js'
import type { StarkExGuardianContext } from '../zkevm/guardian.js'
import type { ExchangeClients } from './clients.js'
import type { StarkSigner } from './starkSigner.js'

/** The session as the StarkEx layer uses it. */
export type StarkExSession = {
  /** The signed-in user (refreshed when stale), else `null`. */
  getUser(): Promise<User | null>
  /** Refreshes now, so that new claims appear; `null` on failure. */
  forceUserRefresh(): Promise<User | null>
}

/** What the workflows get. */
export type Context = {
  session: StarkExSession
  /** The legacy exchange API at `imxPublicApiDomain`. */
  exchange: ExchangeClients
  /** The custody key, made on first use. */
  custody: () => CustodySigner
  /** The player's Stark signer, derived on first use. */
  starkSigner: () => Promise<StarkSigner>
  guardian: StarkExGuardianContext
  confirmation: Confirmation
  /** Refreshes after registration until the claims appear. @default 3 at 1000 ms */
  registrationRetries?: number | undefined
  registrationRetryInterval?: number | undefined
}
