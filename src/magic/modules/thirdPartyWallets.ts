/**
 * The `thirdPartyWallets` module: third-party wallet (3PW) mode. While an
 * external EIP-1193 provider is connected with
 * `magic.thirdPartyWallets.connect(provider, { name })`, requests other
 * than `magic_intermediary_event`, `magic_nft_checkout` and `mc_login` are
 * overridden: Ethereum JSON-RPC goes to that provider, `magic_get_info` and
 * `magic_is_logged_in` are answered from its state, `mc_login` and logout
 * reset the mode. Once the wallet disconnects, its requests are denied with
 * `User denied account access.` until that reset. The state is mirrored in
 * `localStorage` under the published SDK's keys.
 *
 * This file is the part every dApp loads: the module, the routing and the
 * errors. The connection itself (./externalWallet.ts) is loaded with
 * `import()` on the first `connect`, so dApps that never connect an
 * external wallet do not download it.
 */
import * as Rpc from '../../core/Rpc.js'
import { MagicRPCError } from '../errors.js'
import {
  type Client,
  intermediary,
  type Listener,
  request,
} from '../request.js'
import * as Codes from '../wire/codes.js'
import * as Methods from '../wire/methods.js'
import type * as ExternalWallet from './externalWallet.js'

export type { ExternalProvider } from './externalWallet.js'

/** The `localStorage` keys of 3PW mode. */
export const storageKeys = {
  provider: 'magic_3pw_provider',
  address: 'magic_3pw_address',
  chainId: 'magic_3pw_chainId',
} as const

/** What 3PW mode tells the SDK when the wallet's accounts or chain change. */
export type Update = {
  accounts: readonly string[]
  chainId: string | undefined
}

/** Methods that always go to the iframe. */
export const iframeMethods: readonly string[] = [
  Methods.intermediaryEvent,
  Methods.nftCheckout,
  Methods.login,
]

/**
 * Whether the external wallet answers `method`: Ethereum JSON-RPC
 * (`eth_`, `wallet_`, `net_`, `web3_`, `personal_sign`), as the published
 * SDK's wallet-kit path does. Other methods (the provider's own `magic_*`
 * screens and flows) still go to the iframe.
 */
export function isWalletMethod(method: string): boolean {
  return /^(eth|wallet|net|web3)_/.test(method) || method === 'personal_sign'
}

/** The `thirdPartyWallets` module. */
export type ThirdPartyWalletsModule = ReturnType<typeof create>['module']

/**
 * Creates the 3PW module and its router. `route(request)` returns the
 * promise of the external wallet's answer, or `undefined` when the request
 * goes to the iframe.
 */
export function create(
  options: { onUpdate?: ((update: Update) => void) | undefined } = {},
) {
  const { onUpdate } = options
  let wallet: ExternalWallet.Connection | undefined
  /** Bumped by every reset, so a `connect` that was overtaken can tell. */
  let attempts = 0

  function save() {
    const storage = globalThis.localStorage as Storage | undefined
    if (!storage) return
    if (wallet?.status !== 'connected') {
      for (const key of Object.values(storageKeys)) storage.removeItem(key)
      return
    }
    storage.setItem(storageKeys.provider, wallet.name)
    storage.setItem(storageKeys.address, wallet.address ?? '')
    storage.setItem(storageKeys.chainId, wallet.chainId ?? '')
  }

  function current(): Update {
    const address = wallet?.address
    return { accounts: address ? [address] : [], chainId: wallet?.chainId }
  }

  /** The wallet reported a change (or the end of the connection). */
  function changed() {
    if (wallet?.status === 'ended') return reset()
    save()
    onUpdate?.(current())
  }

  function reset() {
    attempts++
    const was = wallet
    was?.detach()
    wallet = undefined
    save()
    if (was) onUpdate?.({ accounts: [], chainId: undefined })
  }

  function denied() {
    return new MagicRPCError({
      code: Codes.AccessDeniedToUser,
      message: Codes.userDeniedAccountAccess,
    })
  }

  async function forward(
    connection: ExternalWallet.Connection,
    request: Rpc.Request,
    method: string,
  ) {
    try {
      return await connection.request(method, request.params)
    } catch (error) {
      if (connection.status === 'disconnected') throw denied()
      const { code, data, message } = (error ?? {}) as Partial<Rpc.ErrorObject>
      throw new MagicRPCError(
        { code: code ?? Codes.InternalError, data, message: message ?? '' },
        { cause: error instanceof Error ? error : undefined },
      )
    }
  }

  function route(request: Rpc.Request): Promise<unknown> | undefined {
    if (!wallet) return undefined
    const method = Methods.fromTestMode(request.method) ?? request.method
    if (method === Methods.login) reset()
    if (!wallet || iframeMethods.includes(method)) return undefined
    if (method === Methods.logout) {
      reset()
      return undefined
    }
    const disconnected = wallet.status === 'disconnected'
    if (method === Methods.isLoggedIn) return Promise.resolve(!disconnected)
    if (disconnected && (method === Methods.getInfo || isWalletMethod(method)))
      return Promise.reject(denied())
    if (method === Methods.getInfo) return Promise.resolve(wallet.info())
    if (isWalletMethod(method)) return forward(wallet, request, method)
    return undefined
  }

  const module = {
    /** Callbacks run on `connectWithUI` events, with the request id. */
    eventListeners: [] as {
      event: string
      callback: (payloadId: number | string) => unknown
    }[],
    /** Sent as `enabledWallets` with `connectWithUI`. */
    enabledWallets: {} as Record<string, boolean>,
    /** Whether an external wallet answers the requests now. */
    get isConnected(): boolean {
      return wallet?.status === 'connected'
    },
    /**
     * Connects an external EIP-1193 wallet: asks it for its accounts and
     * chain, stores them, and routes requests to it until `mc_login` or
     * `logout` runs, or {@link resetThirdPartyWalletState}. After it emits
     * `disconnect`, those requests reject with `User denied account access.`
     *
     * @example
     * ```ts
     * await magic.thirdPartyWallets.connect(window.ethereum, { name: 'metamask' })
     * await magic.user.getInfo() // { publicAddress, walletType: 'metamask', … }
     * ```
     */
    async connect(
      external: ExternalWallet.ExternalProvider,
      parameters: { name: string },
    ): Promise<Update> {
      reset()
      const attempt = attempts
      const mode = await import('./externalWallet.js')
      // Declared before the wallet is asked: a wallet may call a listener
      // as soon as it is added.
      let connection: ExternalWallet.Connection | undefined
      connection = await mode.connect(external, parameters.name, () => {
        if (connection && wallet === connection) changed()
      })
      if (attempt !== attempts) {
        // A reset (or another connect) came while this one waited for
        // the wallet: the later call wins.
        connection.detach()
        return current()
      }
      wallet = connection
      changed()
      return current()
    },
    /** Forgets the external wallet; requests go to the iframe again. */
    resetThirdPartyWalletState: reset as () => void,
    /** Answers a request with the external wallet (as the router does). */
    requestOverride(request: Rpc.Request): Promise<unknown> {
      const answer = route(request)
      if (answer) return answer
      return Promise.reject(
        new MagicRPCError({
          code: Codes.InternalError,
          message: 'Not a third-party wallet request.',
        }),
      )
    },
  }

  /** NFT checkout with the wallet; only called while one is connected. */
  function checkout(
    client: Client,
    payloadId: number | string,
    on: (event: string, listener: Listener) => unknown,
  ) {
    checkoutWithWallet({ reset }, client, payloadId, on)
  }
  return { module, route, reset, checkout }
}

/**
 * NFT checkout in 3PW mode: on `nft-checkout-initiated` the connected
 * wallet sends the transaction, and the flow is answered with
 * `nft-checkout-success` (its hash) or `nft-checkout-failure`; the
 * iframe's `disconnect` resets the mode.
 */
export function checkoutWithWallet(
  mode: { reset(): void },
  client: Client,
  payloadId: number | string,
  on: (event: string, listener: Listener) => unknown,
): void {
  on('nft-checkout-initiated', async (rawTransaction: unknown) => {
    try {
      const hash = await request(
        client,
        Rpc.createRequest('eth_sendTransaction', [rawTransaction]),
      )
      intermediary(client, payloadId, 'nft-checkout-success', hash)
    } catch {
      intermediary(client, payloadId, 'nft-checkout-failure')
    }
  })
  on('disconnect', () => mode.reset())
}
