import {
  ChainDisconnectedError,
  type EIP1193Provider,
  getAddress,
  SwitchChainError,
  UnauthorizedProviderError,
  UserRejectedRequestError,
} from 'viem'
import type {
  ExtensionsOption,
  Magic,
  MagicOptions,
} from '../src/magic/index.js'
import { providerInfo } from '../src/magic/providerInfo.js'
import * as SessionMarker from '../src/magic/sessionMarker.js'
import { createConnector } from './createConnector.js'
import { deferred } from './deferred.js'
import * as Listeners from './listeners.js'
import type { CreateConnectorFn } from './wagmi.js'

/**
 * The iframe wallet's client the connector creates: `login` gets it whole
 * (its `auth` module and mounted extensions included). A type-only import,
 * so the client still loads on the first use, not with the connector.
 */
export type MagicInstance<extensions extends ExtensionsOption = []> =
  Magic<extensions>

export type MagicParameters<extensions extends ExtensionsOption = []> = {
  /** The publishable API key from the provider's dashboard. */
  apiKey: string
  /**
   * Options of `new Magic(apiKey, options)` except `network`, which the
   * connector sets from the wagmi chain (one client, hence one iframe, per
   * chain: the provider serves one network per iframe).
   */
  options?: Omit<MagicOptions<extensions>, 'network'> | undefined
  /**
   * How `connect` logs a user in. By default the provider's own login
   * screens (`magic.wallet.connectWithUI()`); pass a function to drive a
   * headless flow from the app, e.g. email OTP with `showUI: false`.
   */
  login?: ((magic: MagicInstance<extensions>) => Promise<unknown>) | undefined
}

/** Reverse-DNS id of the iframe wallet, shared with its EIP-6963 info. */
export const rdns = providerInfo.rdns

/** What the connector uses of the client's EIP-1193 provider. */
type Provider = Pick<EIP1193Provider, 'request' | 'on' | 'removeListener'>

/** Builds the connector; exported as {@link magic}, with its `type`. */
function magicConnector<const extensions extends ExtensionsOption = []>(
  parameters: MagicParameters<extensions>,
): CreateConnectorFn<Provider> {
  const { apiKey } = parameters
  const clients = new Map<number, Promise<MagicInstance<extensions>>>()
  /** Each chain's stand-in provider, until its client is made. */
  const standIns = new Map<number, Provider>()
  let currentChainId: number | undefined
  let switching: Promise<void> = Promise.resolve()
  const listeners = Listeners.create<Provider>()

  return createConnector<Provider>((config) => {
    const chainOf = (chainId: number | undefined) => {
      const chain =
        chainId === undefined
          ? config.chains[0]
          : config.chains.find((chain) => chain.id === chainId)
      if (!chain) throw notConfigured(chainId)
      return chain
    }

    const client = (chainId?: number | undefined) => {
      const chain = chainOf(chainId ?? currentChainId)
      let instance = clients.get(chain.id)
      if (!instance) {
        instance = import('../src/magic/index.js').then(({ Magic }) => {
          const rpcUrl = chain.rpcUrls.default.http[0]
          if (!rpcUrl) throw notConfigured(chain.id)
          return new Magic(apiKey, {
            // The connector lists the wallet itself; announcing it through
            // EIP-6963 too would show it twice in wagmi.
            announceProvider: false,
            useStorageCache: true,
            ...parameters.options,
            network: { rpcUrl, chainId: chain.id },
          } as MagicOptions<extensions>)
        })
        clients.set(chain.id, instance)
      }
      return instance
    }

    return {
      id: rdns,
      name: providerInfo.name,
      type: 'magic',
      icon: providerInfo.icon,
      rdns,

      async connect({ chainId, isReconnecting } = {}) {
        try {
          currentChainId = chainOf(chainId ?? currentChainId).id
          const instance = await client()
          // With `useStorageCache`, `isLoggedIn` may answer a stale cached
          // `true` for a session that is gone: the accounts decide.
          const loggedIn = isReconnecting || (await instance.user.isLoggedIn())
          let accounts = loggedIn ? await accountsOf(instance.rpcProvider) : []
          if (!accounts.length && !isReconnecting) {
            if (parameters.login) await parameters.login(instance)
            else await instance.wallet.connectWithUI()
            accounts = await accountsOf(instance.rpcProvider)
          }
          if (!accounts.length)
            throw new UnauthorizedProviderError(
              new Error('No account is logged in.'),
            )
          listeners.attach(instance.rpcProvider, this)
          // biome-ignore lint/suspicious/noExplicitAny: wagmi widens connect's return by `withCapabilities`; this connector has none.
          return { accounts, chainId: currentChainId } as any
        } catch (error) {
          if (await isUserRejection(error))
            throw new UserRejectedRequestError(error as Error)
          throw error
        }
      },

      async disconnect() {
        const instance = await client()
        listeners.detach()
        await instance.user.logout()
      },

      async getAccounts() {
        return accountsOf(await this.getProvider())
      },

      async getChainId() {
        const provider = await this.getProvider()
        return Number(await provider.request({ method: 'eth_chainId' }))
      },

      /**
       * The chain's client's provider once that client is made; until then
       * a stand-in that makes it on first use, so that wagmi's `reconnect`
       * loads nothing on a page without a session.
       */
      async getProvider({ chainId } = {}) {
        const chain = chainOf(chainId ?? currentChainId)
        const made = clients.get(chain.id)
        if (made) return (await made).rpcProvider
        let standIn = standIns.get(chain.id)
        if (!standIn) {
          standIn = deferred(async () => (await client(chain.id)).rpcProvider)
          standIns.set(chain.id, standIn)
        }
        return standIn
      },

      /**
       * Answered from the page's session marker first: without one, `false`
       * with nothing loaded; with one, the client's `isLoggedIn`.
       */
      async isAuthorized() {
        if (!SessionMarker.mayExist(apiKey)) return false
        try {
          return await (await client()).user.isLoggedIn()
        } catch {
          return false
        }
      },

      async switchChain({ chainId }) {
        const chain = config.chains.find((chain) => chain.id === chainId)
        if (!chain) throw new SwitchChainError(notConfigured(chainId))
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
        listeners.detach()
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
    async function moveTo(chainId: number, connector: Listeners.Handlers) {
      let instance: MagicInstance<extensions>
      let accounts: readonly `0x${string}`[] | undefined
      try {
        instance = await client(chainId)
        const previous = listeners.provider
        if (previous && previous !== instance.rpcProvider) {
          accounts = await accountsOf(instance.rpcProvider)
          if (!accounts.length)
            throw new UnauthorizedProviderError(
              new Error('No account is logged in on this chain’s client.'),
            )
        }
      } catch (error) {
        throw new SwitchChainError(error as Error)
      }
      if (chainId === currentChainId && !accounts) return
      currentChainId = chainId
      if (accounts) listeners.attach(instance.rpcProvider, connector)
      config.emitter.emit('change', { chainId, ...(accounts && { accounts }) })
    }
  })
}

/**
 * A wagmi connector for the iframe wallet. It lazy-imports the client, keeps
 * one client per configured chain, logs in on `connect` (provider screens or
 * the app's own headless flow) and logs out on `disconnect`. On page load it
 * loads nothing unless the page holds the client's session marker.
 *
 * @example
 * ```ts
 * import { createConfig, http } from 'wagmi'
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

/** EIP-1193's 4901, for a chain the wagmi config does not list. */
function notConfigured(chainId: number | undefined): ChainDisconnectedError {
  return new ChainDisconnectedError(
    new Error(`Chain ${chainId ?? '(default)'} is not configured in wagmi.`),
  )
}

/**
 * EIP-1193's 4001, or the iframe wallet's "user rejected / cancelled". Its
 * codes load with the client (a rejection comes from it), not with the page.
 */
async function isUserRejection(error: unknown): Promise<boolean> {
  const code = (error as { code?: unknown } | undefined)?.code
  if (code === UserRejectedRequestError.code) return true
  const Codes = await import('../src/magic/wire/codes.js')
  return code === Codes.UserRejectedAction || code === Codes.RequestCancelled
}
