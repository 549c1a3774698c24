/**
 * The connected external wallet of third-party wallet (3PW) mode, loaded
 * with `import()` by ./thirdPartyWallets.ts on the first `connect`: asks an
 * EIP-1193 provider for its accounts and chain, follows its
 * `accountsChanged`, `chainChanged` and `disconnect` events (EIP-1193), and
 * forwards requests to it.
 *
 * This module knows the wallet, not the SDK: routing, errors and the
 * `localStorage` mirror stay in ./thirdPartyWallets.ts. It imports nothing
 * at run time on purpose: esbuild's code splitting puts every module that
 * both the page's bundle and a lazily loaded one import into a chunk of its
 * own, which the page then loads as one more file, compressed alone.
 */

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

/**
 * Where the connection stands: `connected`; `disconnected` once the wallet
 * emitted `disconnect` or answered 4900 (its requests are denied until the
 * mode is reset); `ended` once it reported no accounts (the user took the
 * dApp's access back: the mode ends as if it never started).
 */
export type Status = 'connected' | 'disconnected' | 'ended'

/** A connected external wallet. */
export type Connection = {
  readonly name: string
  readonly status: Status
  readonly address: string | undefined
  /** Hex, as `eth_chainId` answers (a number answer is converted). */
  readonly chainId: string | undefined
  /**
   * Sends a request to the wallet. A rejection with code 4900 (EIP-1193:
   * disconnected from every chain) sets the status to `disconnected` before
   * it is passed on.
   */
  request(method: string, params: unknown): Promise<unknown>
  /** Stops following the wallet's events. */
  detach(): void
  /** What `magic_get_info` answers while the wallet is connected. */
  info(): Info
}

/** `magic_get_info`'s answer in 3PW mode, in the published SDK's shape. */
export type Info = {
  publicAddress: string | null
  issuer: string
  email: null
  phoneNumber: null
  isMfaEnabled: false
  recoveryFactors: []
  firstLoginAt: null
  walletType: string
  wallets: {
    ethereum: { publicAddress: string | null; subAccounts: [] }
  }
}

/**
 * Connects `external`: `eth_requestAccounts`, then `eth_chainId`, then its
 * events. `onChange` runs after every change the wallet reports (not for
 * the connection itself).
 */
export async function connect(
  external: ExternalProvider,
  name: string,
  onChange: () => void,
): Promise<Connection> {
  const accounts = (await external.request({
    method: 'eth_requestAccounts',
  })) as string[]
  const chain = await external.request({ method: 'eth_chainId' })
  let status: Status = 'connected'
  let address: string | undefined = accounts[0]
  let chainId: string | undefined =
    typeof chain === 'number' ? `0x${chain.toString(16)}` : String(chain)

  const end = (next: Status) => {
    if (status !== 'connected') return
    detach()
    status = next
    address = chainId = undefined
    onChange()
  }
  const listeners = {
    accountsChanged(next: readonly string[]) {
      if (!next.length) return end('ended')
      address = next[0]
      onChange()
    },
    chainChanged(next: string) {
      chainId = next
      onChange()
    },
    disconnect: () => end('disconnected'),
  } as Record<string, (...args: never[]) => void>
  for (const [event, listener] of Object.entries(listeners))
    external.on?.(event, listener)
  function detach() {
    for (const [event, listener] of Object.entries(listeners))
      external.removeListener?.(event, listener)
  }

  return {
    name,
    get status() {
      return status
    },
    get address() {
      return address
    },
    get chainId() {
      return chainId
    },
    async request(method, params) {
      try {
        return await external.request({ method, params })
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code === 4900)
          end('disconnected')
        throw error
      }
    },
    detach,
    info() {
      const publicAddress = address ?? null
      return {
        publicAddress,
        issuer: `did:ethr:${address}`,
        email: null,
        phoneNumber: null,
        isMfaEnabled: false,
        recoveryFactors: [],
        firstLoginAt: null,
        walletType: name,
        wallets: { ethereum: { publicAddress, subAccounts: [] } },
      }
    },
  }
}
