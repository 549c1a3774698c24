/**
 * The connectors' listener bookkeeping, as wagmi's `injected` connector
 * keeps it: one provider listened to at a time, for `accountsChanged`,
 * `chainChanged` and `disconnect`, each forwarded to the connector's own
 * handler (so that wagmi's `change` and `disconnect` events follow).
 */

/** The connector handlers the provider's events are forwarded to. */
export type Handlers = {
  onAccountsChanged(accounts: string[]): void
  onChainChanged(chainId: string): void
  onDisconnect(): void
}

type Event = 'accountsChanged' | 'chainChanged' | 'disconnect'

/**
 * What is used of a provider: EIP-1193 `on` and `removeListener`. The
 * listener's argument is `never` so that providers with narrower event maps
 * (viem's `EIP1193Provider`, the game wallet's provider) fit.
 */
export type Emitter = {
  on(event: Event, listener: (value: never) => void): void
  removeListener(event: Event, listener: (value: never) => void): void
}

/** The provider listened to, and the listeners given to it. */
type Attached<provider extends Emitter> = {
  provider: provider
  accountsChanged: (accounts: string[]) => void
  chainChanged: (chainId: string) => void
  disconnect: () => void
}

/**
 * A connector's listeners: `attach` moves them to a provider (nothing
 * happens when it is the one already listened to), `detach` removes them.
 */
export function create<provider extends Emitter>() {
  let attached: Attached<provider> | undefined
  const detach = () => {
    if (!attached) return
    const { provider } = attached
    provider.removeListener('accountsChanged', attached.accountsChanged)
    provider.removeListener('chainChanged', attached.chainChanged)
    provider.removeListener('disconnect', attached.disconnect)
    attached = undefined
  }
  return {
    /** The provider listened to, if any. */
    get provider(): provider | undefined {
      return attached?.provider
    },
    attach(provider: provider, handlers: Handlers): void {
      if (attached?.provider === provider) return
      detach()
      attached = {
        provider,
        accountsChanged: (accounts) => handlers.onAccountsChanged(accounts),
        chainChanged: (chainId) => handlers.onChainChanged(chainId),
        disconnect: () => handlers.onDisconnect(),
      }
      provider.on('accountsChanged', attached.accountsChanged)
      provider.on('chainChanged', attached.chainChanged)
      provider.on('disconnect', attached.disconnect)
    },
    detach,
  }
}
