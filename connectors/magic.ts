import {
  ChainNotConfiguredError,
  ConnectorNotConnectedError,
  createConnector,
} from '@wagmi/core'
import {
  type EIP1193Provider,
  getAddress,
  SwitchChainError,
  UserRejectedRequestError,
} from 'viem'
import type { Magic } from '../src/magic/index.js'

/**
 * The iframe wallet's client the connector creates: `login` gets it whole
 * (its `auth` module included). A type-only import, so the client still
 * loads on the first `connect`, not with the connector.
 */
export type MagicInstance = Magic

export type MagicParameters = {
  /** The publishable API key from the provider's dashboard. */
  apiKey: string
  /**
   * Options of `new Magic(apiKey, options)` except `network`, which the
   * connector sets from the wagmi chain (one client, hence one iframe, per
   * chain: the provider serves one network per iframe).
   */
  options?: Record<string, unknown> | undefined
  /**
   * How `connect` logs a user in. By default the provider's own login
   * screens (`magic.wallet.connectWithUI()`); pass a function to drive a
   * headless flow from the app, e.g. email OTP with `showUI: false`.
   */
  login?: ((magic: MagicInstance) => Promise<unknown>) | undefined
}

/** Reverse-DNS id of the iframe wallet, shared with its EIP-6963 info. */
export const rdns = 'link.magic'

const icon =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCA0OCA0OCI+PHJlY3Qgd2lkdGg9IjQ4IiBoZWlnaHQ9IjQ4IiByeD0iMTIiIGZpbGw9IiM2ODUxZmYiLz48cGF0aCBkPSJNMTIgMzRWMTRsMTIgMTIgMTItMTJ2MjAiIHN0cm9rZT0iI2ZmZiIgc3Ryb2tlLXdpZHRoPSI0IiBmaWxsPSJub25lIi8+PC9zdmc+'

/** What the connector uses of the client's EIP-1193 provider. */
type Provider = Pick<EIP1193Provider, 'request' | 'on' | 'removeListener'>

type Handlers = {
  onAccountsChanged(accounts: string[]): void
  onChainChanged(chainId: string): void
  onDisconnect(): void
}

/** Builds the connector; exported as {@link magic}, with its `type`. */
function magicConnector(parameters: MagicParameters) {
  const clients = new Map<number, Promise<MagicInstance>>()
  let currentChainId: number | undefined
  let switching: Promise<void> = Promise.resolve()
  let listeners:
    | {
        provider: Provider
        accountsChanged: (accounts: string[]) => void
        chainChanged: (chainId: string) => void
        disconnect: () => void
      }
    | undefined

  return createConnector<Provider>((config) => {
    const chainOf = (chainId: number | undefined) => {
      const chain =
        chainId === undefined
          ? config.chains[0]
          : config.chains.find((chain) => chain.id === chainId)
      if (!chain) throw new ChainNotConfiguredError()
      return chain
    }

    const client = (chainId?: number | undefined) => {
      const chain = chainOf(chainId ?? currentChainId)
      let instance = clients.get(chain.id)
      if (!instance) {
        instance = import('../src/magic/index.js').then(({ Magic }) => {
          const rpcUrl = chain.rpcUrls.default.http[0]
          if (!rpcUrl) throw new ChainNotConfiguredError()
          return new Magic(parameters.apiKey, {
            // The connector lists the wallet itself; announcing it through
            // EIP-6963 too would show it twice in wagmi.
            announceProvider: false,
            useStorageCache: true,
            ...parameters.options,
            network: { rpcUrl, chainId: chain.id },
          })
        })
        clients.set(chain.id, instance)
      }
      return instance
    }

    return {
      id: rdns,
      name: 'Magic',
      type: 'magic',
      icon,
      rdns,

      async connect({ chainId, isReconnecting } = {}) {
        try {
          currentChainId = chainOf(chainId ?? currentChainId).id
          const instance = await client()
          // With `useStorageCache`, `isLoggedIn` may answer a stale cached
          // `true` for a session that is gone: the accounts decide.
          const loggedIn = isReconnecting || (await instance.user.isLoggedIn())
          let accounts = loggedIn ? await this.getAccounts() : []
          if (!accounts.length && !isReconnecting) {
            if (parameters.login) await parameters.login(instance)
            else await instance.wallet.connectWithUI()
            accounts = await this.getAccounts()
          }
          if (!accounts.length) throw new ConnectorNotConnectedError()
          attach(instance.rpcProvider, this)
          // biome-ignore lint/suspicious/noExplicitAny: wagmi widens connect's return by `withCapabilities`; this connector has none.
          return { accounts, chainId: currentChainId } as any
        } catch (error) {
          if (isUserRejection(error))
            throw new UserRejectedRequestError(error as Error)
          throw error
        }
      },

      async disconnect() {
        const instance = await client()
        detach()
        await instance.user.logout()
      },

      async getAccounts() {
        return accountsOf(await this.getProvider())
      },

      async getChainId() {
        const provider = await this.getProvider()
        return Number(await provider.request({ method: 'eth_chainId' }))
      },

      async getProvider({ chainId } = {}) {
        return (await client(chainId)).rpcProvider
      },

      async isAuthorized() {
        try {
          return await (await client()).user.isLoggedIn()
        } catch {
          return false
        }
      },

      async switchChain({ chainId }) {
        const chain = config.chains.find((chain) => chain.id === chainId)
        if (!chain) throw new SwitchChainError(new ChainNotConfiguredError())
        // One switch at a time: the last one asked for is the one that stays.
        const switched = switching.then(() => moveTo(chain.id, this))
        switching = switched.catch(() => {})
        await switched
        return chain
      },

      onAccountsChanged(accounts) {
        if (accounts.length === 0) this.onDisconnect()
        else
          config.emitter.emit('change', {
            accounts: accounts.map((account) => getAddress(account)),
          })
      },

      onChainChanged(chain) {
        config.emitter.emit('change', { chainId: Number(chain) })
      },

      async onDisconnect() {
        detach()
        config.emitter.emit('disconnect')
      },
    }

    /**
     * Makes `chainId`'s client the current one and emits one `change`. When
     * connected, that client must carry the session (the clients share the
     * page's storage): its accounts are read before it is listened to, so
     * that its learning them is not reported as an account change, and a
     * client with none fails the switch, which leaves the current chain.
     */
    async function moveTo(chainId: number, connector: Handlers) {
      let instance: MagicInstance
      let accounts: readonly `0x${string}`[] | undefined
      try {
        instance = await client(chainId)
        const previous = listeners?.provider
        if (previous && previous !== instance.rpcProvider) {
          accounts = await accountsOf(instance.rpcProvider)
          if (!accounts.length) throw new ConnectorNotConnectedError()
        }
      } catch (error) {
        throw new SwitchChainError(error as Error)
      }
      if (chainId === currentChainId && !accounts) return
      currentChainId = chainId
      if (accounts) attach(instance.rpcProvider, connector)
      config.emitter.emit('change', { chainId, ...(accounts && { accounts }) })
    }

    /** Listens as wagmi's `injected` does: to the connector's own handlers. */
    function attach(provider: Provider, connector: Handlers) {
      if (listeners?.provider === provider) return
      detach()
      listeners = {
        provider,
        accountsChanged: (accounts) => connector.onAccountsChanged(accounts),
        chainChanged: (chainId) => connector.onChainChanged(chainId),
        disconnect: () => connector.onDisconnect(),
      }
      provider.on('accountsChanged', listeners.accountsChanged)
      provider.on('chainChanged', listeners.chainChanged)
      provider.on('disconnect', listeners.disconnect)
    }

    function detach() {
      if (!listeners) return
      const { provider } = listeners
      provider.removeListener('accountsChanged', listeners.accountsChanged)
      provider.removeListener('chainChanged', listeners.chainChanged)
      provider.removeListener('disconnect', listeners.disconnect)
      listeners = undefined
    }
  })
}

/**
 * A wagmi connector for the iframe wallet. It lazy-imports the client, keeps
 * one client per configured chain, logs in on `connect` (provider screens or
 * the app's own headless flow) and logs out on `disconnect`.
 *
 * @example
 * ```ts
 * import { createConfig, http } from '@wagmi/core'
 * import { magic } from 'embedded-wallets/connectors'
 *
 * const config = createConfig({
 *   chains: [anvil],
 *   connectors: [magic({ apiKey: 'pk_live_…' })],
 *   transports: { [anvil.id]: http() },
 * })
 * ```
 */
export const magic = /* @__PURE__ */ Object.assign(magicConnector, {
  // A property set by a statement would keep every connector in a bundle
  // that imports one: bundlers cannot tell the statement has no effect.
  type: 'magic' as const,
})

/** The provider's `eth_accounts`, checksummed. */
async function accountsOf(provider: Provider) {
  const accounts = (await provider.request({
    method: 'eth_accounts',
  })) as readonly string[]
  return accounts.map((account) => getAddress(account))
}

/** 4001, or the provider's own "user rejected / cancelled" codes. */
function isUserRejection(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  return code === 4001 || code === -10012 || code === -10014
}
