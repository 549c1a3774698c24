/**
 * The `thirdPartyWallets` module: third-party wallet (3PW) mode, in which a
 * connected external EIP-1193 provider answers most requests (see
 * ./externalWallet.ts). This file is the part every dApp loads: the module
 * object and a router that sends everything to the iframe until a wallet is
 * connected. The mode itself is loaded with `import()` on the first
 * `connect`, so dApps that never connect an external wallet do not
 * download it.
 */
import type * as Rpc from '../../core/Rpc.js'
import { MagicRPCError } from '../errors.js'
import * as Codes from '../wire/codes.js'

/** The `localStorage` keys of 3PW mode. */
export const storageKeys = {
  provider: 'magic_3pw_provider',
  address: 'magic_3pw_address',
  chainId: 'magic_3pw_chainId',
} as const

/** An external EIP-1193 provider (e.g. an injected wallet). */
export type ExternalProvider = {
  request(args: { method: string; params?: unknown }): Promise<unknown>
  on?:
    | ((event: string, listener: (...args: never[]) => void) => unknown)
    | undefined
  removeListener?:
    | ((event: string, listener: (...args: never[]) => void) => unknown)
    | undefined
}

/** What 3PW mode tells the SDK when the wallet's accounts or chain change. */
export type Update = {
  accounts: readonly string[]
  chainId: string | undefined
}

type CheckoutArgs =
  Parameters<Router['checkoutWithWallet']> extends [unknown, ...infer rest]
    ? rest
    : never

/** The `thirdPartyWallets` module. */
export type ThirdPartyWalletsModule = ReturnType<typeof create>['module']

type Router = typeof import('./externalWallet.js')
type Mode = ReturnType<Router['create']>

/**
 * Creates the 3PW module and its router. `route(request)` returns the
 * promise of the external wallet's answer, or `undefined` when the request
 * goes to the iframe.
 */
export function create(
  options: { onUpdate?: ((update: Update) => void) | undefined } = {},
) {
  let mode: Mode | undefined
  let router: Router | undefined

  function route(request: Rpc.Request): Promise<unknown> | undefined {
    return mode?.route(request)
  }

  function reset() {
    if (mode) return mode.reset()
    const storage = globalThis.localStorage as Storage | undefined
    for (const key of Object.values(storageKeys)) storage?.removeItem(key)
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
      return mode?.isConnected ?? false
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
      external: ExternalProvider,
      parameters: { name: string },
    ): Promise<Update> {
      router ??= await import('./externalWallet.js')
      mode ??= router.create(options)
      return mode.connect(external, parameters)
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
  function checkout(...args: CheckoutArgs) {
    if (router && mode) router.checkoutWithWallet(mode, ...args)
  }
  return { module, route, reset, checkout }
}
