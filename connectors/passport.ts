import {
  ChainNotConfiguredError,
  ConnectorNotConnectedError,
  createConnector,
  ProviderNotFoundError,
} from '@wagmi/core'
import {
  type EIP1193Provider,
  getAddress,
  SwitchChainError,
  UserRejectedRequestError,
} from 'viem'
import type {
  Passport,
  PassportModuleConfiguration,
} from '../src/passport/index.js'

/**
 * Options of `passport.connectEvm(options)`. `announceProvider` is left out:
 * the connector lists the wallet itself, and announcing it through EIP-6963
 * too would show it twice in wagmi.
 */
export type ConnectEvmOptions = { announceProvider?: boolean | undefined }

/** The provider's EIP-1193 events (the connector listens to all but `connect`). */
type PassportEvents = {
  accountsChanged(accounts: string[]): void
  chainChanged(chainId: string): void
  connect(info: { chainId: string }): void
  disconnect(error: Error): void
}

/**
 * The game wallet's zkEVM provider, as `connectEvm` answers it: EIP-1193
 * requests and events. Narrower than viem's `EIP1193Provider`, whose `on`
 * also takes `message`: our client's provider does not emit it (the
 * published SDK's emits only `accountsChanged`), and with it our `Passport`
 * could not be passed to the connector without a cast.
 */
export type PassportProvider = {
  request: EIP1193Provider['request']
  on<event extends keyof PassportEvents>(
    event: event,
    listener: PassportEvents[event],
  ): void
  removeListener<event extends keyof PassportEvents>(
    event: event,
    listener: PassportEvents[event],
  ): void
  readonly isPassport: true
}

/**
 * What the connector uses of the game wallet's client: its zkEVM provider
 * and a logout. A type-only import of `Passport`, so the client still loads
 * on the first use of the connector, not with it.
 */
export type PassportInstance = Pick<Passport, 'logout'> & {
  connectEvm(options?: ConnectEvmOptions): Promise<PassportProvider>
  /** Ours: a local logout that answers the provider's logout URL. */
  logoutDeviceFlow?: (() => Promise<string>) | undefined
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
export const rdns = 'com.immutable.passport'

const icon =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCA0OCA0OCI+PGNpcmNsZSBjeD0iMjQiIGN5PSIyNCIgcj0iMjQiIGZpbGw9IiMxMzE4MzYiLz48cGF0aCBkPSJNMTggMzVWMTNoOGE3IDcgMCAwIDEgMCAxNGgtOCIgc3Ryb2tlPSIjZmZmIiBzdHJva2Utd2lkdGg9IjQiIGZpbGw9Im5vbmUiLz48L3N2Zz4='

type Handlers = {
  onAccountsChanged(accounts: string[]): void
  onChainChanged(chainId: string): void
  onDisconnect(): void
}

/** Builds the connector; exported as {@link passport}, with its `type`. */
function passportConnector(parameters: PassportParameters) {
  let instance: Promise<PassportInstance> | undefined
  let provider: Promise<PassportProvider> | undefined
  let listeners:
    | {
        provider: PassportProvider
        accountsChanged: (accounts: string[]) => void
        chainChanged: (chainId: string) => void
        disconnect: () => void
      }
    | undefined

  const client = () => {
    instance ??= parameters.passport
      ? Promise.resolve(parameters.passport).then(walletOf)
      : import('../src/passport/index.js').then(({ Passport }) =>
          walletOf(new Passport(parameters.config)),
        )
    return instance
  }

  return createConnector<PassportProvider>((config) => ({
    id: rdns,
    name: 'Immutable Passport',
    type: 'passport',
    icon,
    rdns,

    async connect({ isReconnecting, withCapabilities } = {}) {
      try {
        const wallet = await this.getProvider()
        const accounts = isReconnecting
          ? await this.getAccounts()
          : await accountsOf(wallet, 'eth_requestAccounts')
        if (!accounts.length) throw new ConnectorNotConnectedError()
        // The wallet serves one chain: a `chainId` asked for is not switched
        // to (as wagmi's injected connector, which connects on the current
        // chain when a switch fails).
        const chainId = await this.getChainId()
        if (!config.chains.some((chain) => chain.id === chainId))
          throw new ChainNotConfiguredError()
        attach(wallet, this)
        return {
          accounts: (withCapabilities
            ? accounts.map((address) => ({ address, capabilities: {} }))
            : accounts) as never,
          chainId,
        }
      } catch (error) {
        if ((error as { code?: unknown }).code === 4001)
          throw new UserRejectedRequestError(error as Error)
        throw error
      }
    },

    async disconnect() {
      detach()
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

    async getProvider() {
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
    },

    async isAuthorized() {
      try {
        return (await this.getAccounts()).length > 0
      } catch {
        return false
      }
    },

    async switchChain({ chainId }) {
      const chain = config.chains.find((chain) => chain.id === chainId)
      if (!chain) throw new SwitchChainError(new ChainNotConfiguredError())
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
      detach()
      config.emitter.emit('disconnect')
    },
  }))

  /** Listens as wagmi's `injected` does: to the connector's own handlers. */
  function attach(wallet: PassportProvider, connector: Handlers) {
    if (listeners?.provider === wallet) return
    detach()
    listeners = {
      provider: wallet,
      accountsChanged: (accounts) => connector.onAccountsChanged(accounts),
      chainChanged: (chainId) => connector.onChainChanged(chainId),
      disconnect: () => connector.onDisconnect(),
    }
    wallet.on('accountsChanged', listeners.accountsChanged)
    wallet.on('chainChanged', listeners.chainChanged)
    wallet.on('disconnect', listeners.disconnect)
  }

  function detach() {
    if (!listeners) return
    const { provider: wallet } = listeners
    wallet.removeListener('accountsChanged', listeners.accountsChanged)
    wallet.removeListener('chainChanged', listeners.chainChanged)
    wallet.removeListener('disconnect', listeners.disconnect)
    listeners = undefined
  }
}

/**
 * A wagmi connector for the game wallet: its zkEVM provider
 * (`passport.connectEvm()`), on the one chain it serves. `connect` asks for
 * the accounts (`eth_requestAccounts`: the login popup when nobody is
 * signed in, and the wallet's registration the first time);
 * `isAuthorized` and reconnecting only read them (`eth_accounts`), so they
 * never open a popup.
 *
 * @example
 * ```ts
 * import { createConfig, http } from '@wagmi/core'
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
 * The client as the connector uses it. Until the client has its zkEVM
 * provider, a `Passport` without `connectEvm` cannot back the connector.
 */
function walletOf(client: object): PassportInstance {
  if (typeof (client as Partial<PassportInstance>).connectEvm !== 'function')
    throw new ProviderNotFoundError()
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
