import {
  ChainDisconnectedError,
  getAddress,
  SwitchChainError,
  UnauthorizedProviderError,
  UnsupportedProviderMethodError,
  UserRejectedRequestError,
} from 'viem'
import * as SessionMarker from '../src/passport/auth/sessionMarker.js'
import type {
  ConnectEvmOptions,
  Passport,
  PassportModuleConfiguration,
  ZkEvmProvider,
} from '../src/passport/index.js'
import { providerInfo } from '../src/passport/zkevm/providerInfo.js'
import { createConnector } from './createConnector.js'
import { deferred } from './deferred.js'
import * as Listeners from './listeners.js'
import type { CreateConnectorFn } from './wagmi.js'

export type { ConnectEvmOptions }

/** The game wallet's zkEVM provider, as `passport.connectEvm()` answers it. */
export type PassportProvider = ZkEvmProvider

/**
 * What the connector uses of the game wallet's client: its zkEVM provider
 * and a logout. A type-only import of `Passport`, so the client still loads
 * on the first use of the connector, not with it.
 */
export type PassportInstance = Pick<Passport, 'logout' | 'connectEvm'> & {
  /** Ours: a local logout that answers the provider's logout URL. */
  logoutDeviceFlow?: Passport['logoutDeviceFlow'] | undefined
  /** The published SDK's name for the same. */
  getLogoutUrl?: (() => Promise<string | undefined>) | undefined
}

export type PassportParameters = (
  | {
      /**
       * A `Passport` the app made (its sign-in, events and tokens shared with
       * the rest of the app).
       */
      passport: PassportInstance
      config?: undefined
    }
  | {
      /** The configuration of a `Passport` the connector makes on first use. */
      config: PassportModuleConfiguration
      passport?: undefined
    }
) & {
  /** Options of `connectEvm` (`announceProvider` is always `false`). */
  connectEvm?: Omit<ConnectEvmOptions, 'announceProvider'> | undefined
  /**
   * How `disconnect` logs the player out. By default locally, without
   * leaving the page: the stored session is removed (`loggedOut` fires,
   * the provider reports no accounts) and the identity provider's session
   * is left as it is (a redirect-mode `logout()` would navigate the dApp
   * away, which a wagmi `disconnect` must not do). Pass
   * `(passport) => passport.logout()` with `logoutMode: 'silent'` to also
   * revoke the refresh token and end the provider's session in a hidden
   * frame.
   */
  logout?: ((passport: PassportInstance) => Promise<unknown>) | undefined
}

/** Reverse-DNS id of the game wallet, shared with its EIP-6963 info. */
export const rdns = providerInfo.rdns

/** Builds the connector; exported as {@link passport}, with its `type`. */
function passportConnector(
  parameters: PassportParameters,
): CreateConnectorFn<PassportProvider> {
  let instance: Promise<PassportInstance> | undefined
  let provider: Promise<PassportProvider> | undefined
  const listeners = Listeners.create<PassportProvider>()

  const client = () => {
    instance ??= parameters.passport
      ? Promise.resolve(parameters.passport).then(walletOf)
      : import('../src/passport/index.js').then(({ Passport }) =>
          walletOf(new Passport(parameters.config)),
        )
    return instance
  }

  /** The zkEVM provider, made on first use (again after a failure). */
  const load = () => {
    provider ??= client()
      .then((wallet) =>
        wallet.connectEvm({
          ...parameters.connectEvm,
          announceProvider: false,
        }),
      )
      .catch((error: unknown) => {
        // Not kept: the next call tries again.
        provider = undefined
        throw error
      })
    return provider
  }

  /** Stands in for the provider until it is made (see `getProvider`). */
  const standIn: PassportProvider = Object.assign(deferred(load), {
    isPassport: true as const,
  })

  return createConnector<PassportProvider>((config) => ({
    id: rdns,
    name: providerInfo.name,
    type: 'passport',
    icon: providerInfo.icon,
    rdns,

    async connect({ isReconnecting, withCapabilities } = {}) {
      try {
        const wallet = await load()
        const accounts = isReconnecting
          ? await accountsOf(wallet, 'eth_accounts')
          : await accountsOf(wallet, 'eth_requestAccounts')
        if (!accounts.length)
          throw new UnauthorizedProviderError(
            new Error('No player is signed in.'),
          )
        // The wallet serves one chain: a `chainId` asked for is not switched
        // to (as wagmi's injected connector, which connects on the current
        // chain when a switch fails).
        const chainId = Number(await wallet.request({ method: 'eth_chainId' }))
        if (!config.chains.some((chain) => chain.id === chainId))
          throw new ChainDisconnectedError(
            new Error(`The wallet's chain ${chainId} is not configured.`),
          )
        listeners.attach(wallet, this)
        return {
          accounts: (withCapabilities
            ? accounts.map((address) => ({ address, capabilities: {} }))
            : accounts) as never,
          chainId,
        }
      } catch (error) {
        if (
          (error as { code?: unknown }).code === UserRejectedRequestError.code
        )
          throw new UserRejectedRequestError(error as Error)
        throw error
      }
    },

    async disconnect() {
      listeners.detach()
      const wallet = await client()
      if (parameters.logout) await parameters.logout(wallet)
      else if (wallet.logoutDeviceFlow) await wallet.logoutDeviceFlow()
      else if (wallet.getLogoutUrl) await wallet.getLogoutUrl()
    },

    async getAccounts() {
      return accountsOf(await this.getProvider(), 'eth_accounts')
    },

    async getChainId() {
      const wallet = await this.getProvider()
      return Number(await wallet.request({ method: 'eth_chainId' }))
    },

    /**
     * The zkEVM provider once made; until then a stand-in that makes it on
     * first use, so that wagmi's `reconnect` loads nothing on a page
     * without a session.
     */
    async getProvider() {
      return provider ?? standIn
    },

    /**
     * Answered from the page's stored user first: without one, `false`
     * with nothing loaded; with one, the provider's `eth_accounts`.
     */
    async isAuthorized() {
      if (!SessionMarker.mayExist(parameters.config?.clientId)) return false
      try {
        return (await accountsOf(await load(), 'eth_accounts')).length > 0
      } catch {
        return false
      }
    },

    async switchChain({ chainId }) {
      const chain = config.chains.find((chain) => chain.id === chainId)
      if (!chain)
        throw new SwitchChainError(
          new ChainDisconnectedError(
            new Error(`Chain ${chainId} is not configured.`),
          ),
        )
      const current = await this.getChainId()
      if (chainId !== current)
        throw new SwitchChainError(
          new Error(`The game wallet serves chain ${current} only.`),
        )
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
  }))
}

/**
 * A wagmi connector for the game wallet: its zkEVM provider
 * (`passport.connectEvm()`), on the one chain it serves. `connect` asks for
 * the accounts (`eth_requestAccounts`: the login popup when nobody is
 * signed in, and the wallet's registration the first time);
 * `isAuthorized` and reconnecting only read them (`eth_accounts`), so they
 * never open a popup, and on a page without a stored user they load
 * nothing.
 *
 * @example
 * ```ts
 * import { createConfig, http } from 'wagmi'
 * import { passport } from 'embedded-wallets/connectors'
 *
 * const config = createConfig({
 *   chains: [immutableZkEvmTestnet],
 *   connectors: [passport({ config: { baseConfig, clientId, redirectUri } })],
 *   transports: { [immutableZkEvmTestnet.id]: http() },
 * })
 * ```
 */
export const passport = /* @__PURE__ */ Object.assign(passportConnector, {
  // A property set by a statement would keep every connector in a bundle
  // that imports one: bundlers cannot tell the statement has no effect.
  type: 'passport' as const,
})

/**
 * The client as the connector uses it. A client without `connectEvm` (one
 * that predates the zkEVM provider) cannot back the connector.
 */
function walletOf(client: object): PassportInstance {
  if (typeof (client as Partial<PassportInstance>).connectEvm !== 'function')
    throw new UnsupportedProviderMethodError(
      new Error('The game wallet client has no connectEvm.'),
    )
  return client as PassportInstance
}

/** The provider's accounts, checksummed. */
async function accountsOf(
  wallet: PassportProvider,
  method: 'eth_accounts' | 'eth_requestAccounts',
) {
  const accounts = (await wallet.request({ method })) as readonly string[]
  return accounts.map((account) => getAddress(account))
}
