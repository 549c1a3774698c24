/**
 * The state and dependencies every request handler of the provider shares:
 * the configuration it reads, the session, the backends, the custody signer,
 * the chain client (`chain.ts`), the seams, the wallet address and the
 * local nonce reservations.
 */
import type { Address, Hex } from 'viem'
import type { User } from '../auth/user.js'
import type { AccountStore } from './accountStore.js'
import type { ApiClient } from './apiClient.js'
import type { RpcClient } from './chain.js'
import type { CustodySigner } from './custodySigner.js'
import type { RelayerClient } from './relayerClient.js'
import type { Confirmation, SessionActivity } from './seams.js'

/** The wallet contracts used to make a not-yet-deployed wallet's signatures verifiable (ERC-6492). */
export type WalletContracts = {
  /** The Sequence v1 `Factory`. */
  factory: Address
  /** The implementation the factory deploys wallets with. */
  mainModule: Address
  /** The co-signer that holds the wallet's second key. */
  coSigner: Address
}

/** The configuration the provider reads. */
export type ProviderConfig = {
  /** The chain id when the environment fixes it; read from the node otherwise. */
  chainId?: number | undefined
  zkEvmRpcUrl: string
  relayerUrl: string
  indexerMrBasePath: string
  clientId: string
  crossSdkBridgeEnabled: boolean
  forceScwDeployBeforeMessageSignature: boolean
  /** Absent: signatures of an undeployed wallet are not ERC-6492-wrapped. */
  walletContracts?: WalletContracts | undefined
}

/** The session, as the provider uses it. */
export type ProviderSession = {
  /** The signed-in user, silently (refreshed when stale), else `null`. */
  getUser(): Promise<User | null>
  /** Signs in (popup when needed), else `null`. */
  login(): Promise<User | null>
  /** Refreshes now so new claims appear; `null` on failure. */
  forceRefresh(): Promise<User | null>
}

/** The events of the provider. */
export type ProviderEvents = {
  accountsChanged: (accounts: Address[]) => void
  chainChanged: (chainId: Hex) => void
  connect: (info: { chainId: Hex }) => void
  disconnect: (error: Error) => void
}

/** What every handler gets. */
export type Context = {
  config: ProviderConfig
  session: ProviderSession
  rpc: RpcClient
  relayer: RelayerClient
  api: ApiClient
  /** The custody key, made on first use. */
  signer: () => CustodySigner
  confirmation: Confirmation
  sessionActivity?: SessionActivity | undefined
  /** The chain id (configured, else the node's; read once). */
  chainId: () => Promise<number>
  /** Records the node's chain id; emits `chainChanged` when it moved. */
  observeChainId: (chainId: number) => void
  /** The registered wallet; the one place `accountsChanged` comes from. */
  accounts: AccountStore
  nonces: NonceReservations
  /** Starts session activity for the wallet (no-op without the seam). */
  startSessionActivity: (wallet: Address) => void
}

/** Per-wallet, per-space reservations of nonces. */
export type NonceReservations = ReturnType<typeof createNonceReservations>

/**
 * Hands out nonces so that parallel sends from one wallet get consecutive,
 * distinct values: reservations of a wallet's space run one at a time; each
 * takes the larger of the chain's next nonce and the one after the last
 * reservation (the relayer may not have mined the previous sends yet, and
 * it submits them in order). A reservation whose send did not run, or may
 * not have (refused before the relayer took it, given up by the relayer,
 * still pending after the last poll), is given back, so that no gap stalls
 * the later sends: the next nonce goes back to it once every reservation
 * above it was given back too (parallel sends queued behind a nonce the
 * wallet never reaches cannot run either, and end in turn), in whatever
 * order they end. Neither does a latest send that was mined but reverted:
 * a reverted wallet call leaves the wallet's nonce where it was, so when
 * the chain is behind and that send's receipt says reverted, the chain's
 * nonce is used again.
 */
export function createNonceReservations(
  read: (wallet: Address, space: bigint) => Promise<bigint>,
  reverted: (hash: Hex) => Promise<boolean> = async () => false,
) {
  const next = new Map<string, bigint>()
  /** Nonces given back while reservations above them were still out. */
  const givenBack = new Map<string, Set<bigint>>()
  const queues = new Map<string, Promise<unknown>>()
  /** The latest reservation's transaction, once the relayer gave its hash. */
  const lastSent = new Map<string, { nonce: bigint; hash: Hex }>()
  return {
    /** Reserves the next nonce (not yet space-encoded). */
    reserve(wallet: Address, space: bigint): Promise<bigint> {
      const key = `${wallet.toLowerCase()}:${space}`
      const run = (queues.get(key) ?? Promise.resolve())
        .catch(() => {})
        .then(async () => {
          const onChain = await read(wallet, space)
          let local = next.get(key) ?? 0n
          const last = lastSent.get(key)
          if (
            local > onChain &&
            last !== undefined &&
            last.nonce + 1n === local &&
            (await reverted(last.hash))
          )
            local = onChain
          const nonce = onChain > local ? onChain : local
          next.set(key, nonce + 1n)
          // Those the chain has passed are used; those from this one up are
          // handed out again.
          const back = givenBack.get(key)
          if (back) {
            for (const given of back)
              if (given < onChain || given >= nonce) back.delete(given)
            if (back.size === 0) givenBack.delete(key)
          }
          return nonce
        })
      queues.set(key, run)
      return run
    },
    /** Gives back a reservation whose send did not run. */
    release(wallet: Address, space: bigint, nonce: bigint) {
      const key = `${wallet.toLowerCase()}:${space}`
      const top = next.get(key)
      if (top === undefined || nonce >= top) return
      const back = givenBack.get(key) ?? new Set<bigint>()
      back.add(nonce)
      let first = top
      while (back.delete(first - 1n)) first--
      next.set(key, first)
      if (back.size > 0) givenBack.set(key, back)
      else givenBack.delete(key)
    },
    /** Records the chain transaction of a reservation. */
    sent(wallet: Address, space: bigint, nonce: bigint, hash: Hex) {
      const key = `${wallet.toLowerCase()}:${space}`
      if (next.get(key) === nonce + 1n) lastSent.set(key, { nonce, hash })
    },
    clear() {
      next.clear()
      givenBack.clear()
      lastSent.clear()
    },
  }
}
