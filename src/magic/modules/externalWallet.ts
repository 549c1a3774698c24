/**
 * Third-party wallet (3PW) mode, loaded with `import()` by
 * ./thirdPartyWallets.ts on the first `connect`. While an external EIP-1193 provider is
 * connected with `magic.thirdPartyWallets.connect(provider, { name })`,
 * requests other than `magic_intermediary_event`, `magic_nft_checkout` and
 * `mc_login` are overridden: Ethereum JSON-RPC goes to that provider,
 * `magic_get_info` and `magic_is_logged_in` are answered from its state,
 * `mc_login` and logout reset the mode. Once the wallet disconnects, its
 * requests are denied with `User denied account access.` until that reset.
 * The state is mirrored in
 * `localStorage` under the published SDK's keys.
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
import {
  type ExternalProvider,
  storageKeys,
  type Update,
} from './thirdPartyWallets.js'

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

/**
 * Creates the 3PW state and router. `route(request)` returns the promise of
 * the external wallet's answer, or `undefined` when the request goes to the
 * iframe.
 */
export function create(
  options: { onUpdate?: ((update: Update) => void) | undefined } = {},
) {
  const { onUpdate } = options
  let provider: ExternalProvider | undefined
  let walletType = ''
  let address: string | undefined
  let chainId: string | undefined
  /** The wallet emitted `disconnect` (or answered 4900): deny until reset. */
  let disconnected = false
  let detach = () => {}

  function save() {
    const storage = globalThis.localStorage as Storage | undefined
    if (!storage) return
    if (!provider || disconnected) {
      for (const key of Object.values(storageKeys)) storage.removeItem(key)
      return
    }
    storage.setItem(storageKeys.provider, walletType)
    storage.setItem(storageKeys.address, address ?? '')
    storage.setItem(storageKeys.chainId, chainId ?? '')
  }

  function update() {
    save()
    onUpdate?.({ accounts: address ? [address] : [], chainId })
  }

  function reset() {
    const wasConnected = provider !== undefined
    detach()
    detach = () => {}
    provider = undefined
    disconnected = false
    address = undefined
    chainId = undefined
    save()
    if (wasConnected) onUpdate?.({ accounts: [], chainId: undefined })
  }

  /**
   * The external wallet disconnected: its requests are denied with
   * `User denied account access.` until `mc_login`, logout or a reset.
   */
  function disconnect() {
    if (!provider || disconnected) return
    detach()
    detach = () => {}
    disconnected = true
    address = undefined
    chainId = undefined
    update()
  }

  function denied() {
    return new MagicRPCError({
      code: Codes.AccessDeniedToUser,
      message: Codes.userDeniedAccountAccess,
    })
  }

  async function forward(request: Rpc.Request, method: string) {
    const external = provider as ExternalProvider
    try {
      return await external.request({ method, params: request.params })
    } catch (error) {
      const { code, data, message } = (error ?? {}) as Partial<Rpc.ErrorObject>
      if (code === 4900) {
        disconnect()
        throw denied()
      }
      throw new MagicRPCError(
        { code: code ?? Codes.InternalError, data, message: message ?? '' },
        { cause: error instanceof Error ? error : undefined },
      )
    }
  }

  function route(request: Rpc.Request): Promise<unknown> | undefined {
    if (!provider) return undefined
    const method = Methods.fromTestMode(request.method) ?? request.method
    if (method === Methods.login) reset()
    if (!provider || iframeMethods.includes(method)) return undefined
    if (method === Methods.logout) {
      reset()
      return undefined
    }
    if (method === Methods.isLoggedIn) return Promise.resolve(!disconnected)
    if (disconnected && (method === Methods.getInfo || isWalletMethod(method)))
      return Promise.reject(denied())
    if (method === Methods.getInfo)
      return Promise.resolve({
        publicAddress: address ?? null,
        issuer: `did:ethr:${address}`,
        email: null,
        phoneNumber: null,
        isMfaEnabled: false,
        recoveryFactors: [],
        firstLoginAt: null,
        walletType,
        wallets: {
          ethereum: { publicAddress: address ?? null, subAccounts: [] },
        },
      })
    if (isWalletMethod(method)) return forward(request, method)
    return undefined
  }

  return {
    route,
    reset,
    /** Whether an external wallet answers the requests now. */
    get isConnected(): boolean {
      return provider !== undefined && !disconnected
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
      reset()
      const accounts = (await external.request({
        method: 'eth_requestAccounts',
      })) as string[]
      const chain = await external.request({ method: 'eth_chainId' })
      provider = external
      walletType = parameters.name
      address = accounts[0]
      chainId =
        typeof chain === 'number' ? `0x${chain.toString(16)}` : String(chain)
      const onAccounts = (next: readonly string[]) => {
        if (!next.length) return reset()
        address = next[0]
        update()
      }
      const onChain = (next: string) => {
        chainId = next
        update()
      }
      const listeners = {
        accountsChanged: onAccounts,
        chainChanged: onChain,
        disconnect: () => disconnect(),
      } as Record<string, (...args: never[]) => void>
      for (const [event, listener] of Object.entries(listeners))
        external.on?.(event, listener)
      detach = () => {
        for (const [event, listener] of Object.entries(listeners))
          external.removeListener?.(event, listener)
      }
      update()
      return { accounts: address ? [address] : [], chainId }
    },
  }
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
