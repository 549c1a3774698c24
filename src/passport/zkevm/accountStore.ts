/**
 * The provider's one record of the player's wallet. Every part of the
 * provider that learns the wallet (sign-in, registration, logout, a silent
 * read of the session) records it here, and only here is `accountsChanged`
 * emitted: once per real change, never for the same wallet again, so a
 * dApp's listener runs exactly when `eth_accounts` would answer otherwise
 * (EIP-1193).
 */
import type { Address } from 'viem'

/** The wallet as the provider knows it. */
export type AccountStore = {
  /** The wallet last recorded; `undefined` while none is. */
  readonly address: Address | undefined
  /**
   * Records the wallet (`undefined`: none, e.g. after logout) and emits
   * `accountsChanged` when it differs from the one recorded before.
   */
  set(address: Address | undefined): void
  /**
   * Records the wallet of a player already signed in when the provider
   * started, without an event (it is where the accounts start, not a
   * change), unless something was recorded meanwhile: a later sign-in or
   * logout wins over this earlier read.
   */
  start(address: Address | undefined): void
  /**
   * Reads the session's registered wallet, silently, and records it. A
   * session that cannot be read (a failed refresh) answers `undefined`
   * and records nothing: a transient failure is no logout.
   */
  read(): Promise<Address | undefined>
}

/**
 * Creates the store of one provider.
 *
 * @example
 * ```ts
 * const accounts = create({
 *   wallet: async () => (await session.getUser())?.zkEvm?.ethAddress,
 *   onChange: (accounts) => emitter.emit('accountsChanged', accounts),
 * })
 * accounts.set(wallet) // emits [wallet]
 * accounts.set(wallet) // no event
 * ```
 */
export function create(options: create.Options): AccountStore {
  let address: Address | undefined
  let recorded = false

  const set = (next: Address | undefined) => {
    recorded = true
    // Addresses compare case-insensitively (EIP-55 case is a checksum).
    const same = next?.toLowerCase() === address?.toLowerCase()
    if (same) return
    address = next
    options.onChange(next ? [next] : [])
  }

  return {
    get address() {
      return address
    },
    set,
    start(next) {
      if (recorded) return
      recorded = true
      address = next
    },
    async read() {
      let wallet: Address | undefined
      try {
        wallet = await options.wallet()
      } catch {
        return undefined
      }
      set(wallet)
      return wallet
    },
  }
}

export declare namespace create {
  type Options = {
    /**
     * The session's registered wallet (`undefined` without one); throws
     * when the session cannot be read.
     */
    wallet: () => Promise<Address | undefined>
    /** Emits `accountsChanged` with the new accounts. */
    onChange: (accounts: Address[]) => void
  }
}
