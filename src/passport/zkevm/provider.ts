/**
 * The zkEVM EIP-1193 provider of the game wallet: `request` routes each
 * method to its group (accounts, transactions, signing, read-only
 * pass-through, EIP-5792), `on` / `removeListener` expose the events, and
 * the provider announces itself through EIP-6963.
 *
 * Events:
 * - `accountsChanged`: whenever the accounts change, and only then (see
 *   `accountStore.ts`): `[wallet]` once `eth_requestAccounts` or a sign-in
 *   finds a wallet other than the last, `[]` on logout.
 * - `connect` `{ chainId }`: once the chain id is known (at start), and
 *   again on the first sign-in after a logout.
 * - `disconnect` (4900): on logout. Read-only methods keep working; account
 *   methods answer 4100 until the player signs in again.
 * - `chainChanged`: when the node reports another chain id than before.
 */
import type { Address, EIP1193Provider } from 'viem'
import { numberToHex } from 'viem'
import * as Announce from '../../core/Announce.js'
import * as Emitter from '../../core/Emitter.js'
import * as RpcErrors from '../../core/RpcErrors.js'
import type { User } from '../auth/user.js'
import * as AccountStore from './accountStore.js'
import { createApiClient } from './apiClient.js'
import { createRpcClient, getChainId, getTransactionReceipt } from './chain.js'
import {
  type Context,
  createNonceReservations,
  type ProviderConfig,
  type ProviderEvents,
  type ProviderSession,
} from './context.js'
import type { CustodySigner, DisposableSigner } from './custodySigner.js'
import {
  describe,
  internalError,
  messages,
  toRpcError,
  unauthorised,
  unsupportedMethod,
  withType,
} from './errors.js'
import { accountRoutes } from './methods/accounts.js'
import { readOnlyRoutes } from './methods/readOnly.js'
import type { Route, Routes } from './methods/route.js'
import { signingRoutes } from './methods/signing.js'
import { transactionRoutes } from './methods/transactions.js'
import { walletRoutes } from './methods/wallet.js'
import { providerInfo } from './providerInfo.js'
import { isZkEvmUser, registeredWallet } from './registration.js'
import { createRelayerClient } from './relayerClient.js'
import {
  type Confirmation,
  headlessConfirmation,
  type SessionActivity,
} from './seams.js'
import { readNonce, sendTransactions } from './transactions.js'

/** The routes, by method. */
const routes: Routes = {
  ...accountRoutes,
  ...transactionRoutes,
  ...signingRoutes,
  ...readOnlyRoutes,
  ...walletRoutes,
}

/** The provider dapps get. */
export type ZkEvmProvider = {
  request: EIP1193Provider['request']
  on<event extends keyof ProviderEvents>(
    event: event,
    listener: ProviderEvents[event],
  ): void
  removeListener<event extends keyof ProviderEvents>(
    event: event,
    listener: ProviderEvents[event],
  ): void
  readonly isPassport: true
}

/** What {@link createProvider} needs. */
export type CreateProviderOptions = {
  config: ProviderConfig
  session: ProviderSession
  /** The session's events: `loggedIn` and `loggedOut` drive the provider's. */
  sessionEvents: {
    on(event: 'loggedIn', listener: (user: User) => void): unknown
    on(event: 'loggedOut', listener: () => void): unknown
    off(event: 'loggedIn', listener: (user: User) => void): unknown
    off(event: 'loggedOut', listener: () => void): unknown
  }
  /** Makes the custody signer (on first use; again after logout). */
  createSigner: () => CustodySigner | DisposableSigner
  confirmation?: Confirmation | undefined
  sessionActivity?: SessionActivity | undefined
  /** Announce through EIP-6963 (in a browser). @default true */
  announceProvider?: boolean | undefined
  /** Relayer polling, ms. @default 1000 */
  pollInterval?: number | undefined
}

/**
 * Creates the provider.
 *
 * @example
 * ```ts
 * const provider = passport.connectEvm()
 * const [wallet] = await provider.request({ method: 'eth_requestAccounts' })
 * ```
 */
export function createProvider(
  options: CreateProviderOptions,
): ZkEvmProvider & { destroy(): void } {
  const { config, session } = options
  const emitter = Emitter.create<ProviderEvents>({
    onError: () => {},
  })
  const getAccessToken = async () => {
    const user = await session.getUser()
    if (!user) throw unauthorised()
    return user.accessToken
  }
  // The relayer and the guardian act for a registered player only; a
  // session without the wallet's claims gets the published text.
  const getZkEvmAccessToken = async () => {
    const user = await session.getUser()
    if (!isZkEvmUser(user)) throw internalError(messages.zkEvmUserMissing)
    return user.accessToken
  }
  const rpc = createRpcClient(config.zkEvmRpcUrl)
  let signer: CustodySigner | DisposableSigner | undefined
  let chainId: Promise<number> | undefined
  let knownChainId: number | undefined
  let connected = false

  const context: Context = {
    config,
    session,
    rpc,
    relayer: createRelayerClient({
      relayerUrl: config.relayerUrl,
      getAccessToken: getZkEvmAccessToken,
      pollInterval: options.pollInterval,
    }),
    api: createApiClient({
      basePath: config.indexerMrBasePath,
      getAccessToken,
      getZkEvmAccessToken,
    }),
    signer: () => {
      signer ??= options.createSigner()
      return connectionTyped(signer)
    },
    confirmation: options.confirmation ?? headlessConfirmation,
    sessionActivity: options.sessionActivity,
    chainId() {
      chainId ??= (
        config.chainId !== undefined
          ? Promise.resolve(config.chainId)
          : getChainId(rpc)
      ).then(
        (id) => {
          context.observeChainId(id)
          return id
        },
        (error) => {
          chainId = undefined
          throw error
        },
      )
      return chainId
    },
    observeChainId(id) {
      const previous = knownChainId
      knownChainId = id
      if (previous === undefined) {
        if (!connected) connect()
      } else if (previous !== id) {
        chainId = Promise.resolve(id)
        emitter.emit('chainChanged', numberToHex(id))
      }
    },
    accounts: AccountStore.create({
      wallet: async () => registeredWallet(await session.getUser()),
      onChange: (accounts) => emitter.emit('accountsChanged', accounts),
    }),
    nonces: createNonceReservations(
      (wallet, space) => readNonce(context, wallet, space),
      // No receipt yet (or none to read): not known to have reverted.
      (hash) =>
        getTransactionReceipt(rpc, hash).then(
          (receipt) => receipt?.status === '0x0',
          () => false,
        ),
    ),
    startSessionActivity(wallet) {
      options.sessionActivity?.({
        wallet,
        clientId: config.clientId,
        sendTransaction: (call) =>
          sendTransactions(context, wallet, [call], { background: true }),
      })
    },
  }

  function connect() {
    if (knownChainId === undefined) return
    connected = true
    emitter.emit('connect', { chainId: numberToHex(knownChainId) })
  }

  const onLoggedIn = (user: User) => {
    if (!connected) connect()
    // Another player signed in without a wallet yet: no accounts either.
    context.accounts.set(registeredWallet(user))
  }
  const onLoggedOut = () => {
    context.accounts.set(undefined)
    if (signer && 'destroy' in signer) signer.destroy()
    signer = undefined
    context.nonces.clear()
    if (connected) {
      connected = false
      emitter.emit(
        'disconnect',
        new RpcErrors.DisconnectedError({ message: 'Logged out' }),
      )
    }
  }
  options.sessionEvents.on('loggedIn', onLoggedIn)
  options.sessionEvents.on('loggedOut', onLoggedOut)

  // Learn the chain (for `connect`) and, for a player already registered,
  // the wallet and its session activity, without any prompt. The chain is
  // learnt on a later task: with a configured chain id it is known at once,
  // and `connect` would fire before the dApp, which gets the provider from
  // `await connectEvm()`, could listen for it (EIP-1193 has the provider
  // emit `connect` for its consumer to hear).
  setTimeout(() => context.chainId().catch(() => {}), 0)
  session.getUser().then(
    (user) => {
      const wallet = registeredWallet(user)
      context.accounts.start(wallet)
      if (wallet) context.startSessionActivity(wallet)
    },
    () => {},
  )

  async function route(
    entry: Route,
    params: unknown,
    opened: ReturnType<Confirmation['open']> | undefined,
  ) {
    let handle = opened
    try {
      let wallet: Address | undefined
      if (entry.account) {
        wallet = await context.accounts.read()
        if (!wallet) throw unauthorised()
        if (entry.popup && !handle && !config.crossSdkBridgeEnabled)
          handle = context.confirmation.open()
      }
      return await entry.handler(context, {
        params,
        wallet: wallet as Address,
        handle,
      })
    } catch (error) {
      throw toRpcError(error)
    } finally {
      handle?.close()
    }
  }

  const request = ((args: { method: string; params?: unknown }) => {
    const method = args?.method
    const entry = typeof method === 'string' ? routes[method] : undefined
    if (!entry || !Object.hasOwn(routes, method))
      return Promise.reject(unsupportedMethod(String(method)))
    // Opened now, before any await, so that popup blockers count the
    // dapp's click; known wallets only, so a 4100 never flashes a popup.
    const handle =
      entry.popup && context.accounts.address && !config.crossSdkBridgeEnabled
        ? context.confirmation.open()
        : undefined
    return route(entry, args.params, handle)
  }) as EIP1193Provider['request']

  const provider = {
    request,
    on(event, listener) {
      emitter.on(event, listener)
    },
    removeListener(event, listener) {
      emitter.off(event, listener)
    },
    isPassport: true,
  } satisfies ZkEvmProvider as ZkEvmProvider

  const unannounce =
    options.announceProvider === false
      ? () => {}
      : Announce.announce({
          provider,
          // No uuid: core gives one random UUIDv4 per rdns per page
          // session, as EIP-6963 asks (the published SDK's is fixed), from
          // crypto.randomUUID where the page is a secure context.
          info: providerInfo,
        })

  return Object.assign(provider, {
    destroy() {
      unannounce()
      options.sessionEvents.off('loggedIn', onLoggedIn)
      options.sessionEvents.off('loggedOut', onLoggedOut)
      emitter.removeAllListeners()
    },
  })
}

/**
 * The custody key with its connection failures typed as the published SDK
 * types them: the key not reached (the custody login failed) is -32603
 * with `WALLET_CONNECTION_ERROR`; a failure to sign once connected is the
 * signer's own. An error that already has a code and a type (the player
 * logged out meanwhile) passes unchanged.
 */
function connectionTyped(signer: CustodySigner): CustodySigner {
  const getAddress = () =>
    signer.getAddress().catch((error: unknown) => {
      if (error instanceof RpcErrors.RpcError && 'type' in error) throw error
      throw withType(
        internalError(describe(error) || messages.signerFailed, {
          cause: error,
        }),
        'WALLET_CONNECTION_ERROR',
      )
    })
  return {
    getAddress,
    async signMessage(message) {
      await getAddress()
      return signer.signMessage(message)
    },
  }
}
