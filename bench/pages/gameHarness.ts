/**
 * The measuring side of the game wallet's dApp pages (bench/gameWallet.ts
 * drives it through `window.game`). Ours and the published @imtbl/passport
 * install the same harness with their `Passport` class, so that the
 * requests, the clock, the receipt check and the baselines around them (a
 * plain EOA send through viem, and viem's http transport straight to the
 * node) are the same code for each.
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  type EIP1193Provider,
  type Hex,
  http,
  type PublicClient,
  toHex,
  type WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { callbackOverrides } from '../../test/browser/fixtures/publishedPassport.js'

/** What the runner passes to the page. */
export type GameConfig = {
  /** The emulated identity provider's origin. */
  authenticationDomain: string
  clientId: string
  /** The emulator's `passport.overrides` (its JSON line). */
  overrides: Record<string, unknown>
  /** The chain's public JSON-RPC endpoint (the emulator's gateway). */
  rpcUrl: string
  chainId: number
  /** A funded key of the chain for the EOA baseline (a public test key). */
  eoaKey: Hex
  /**
   * The game bridge mode (`crossSdkBridgeEnabled`), in which no
   * confirmation popup ever opens.
   */
  bridge?: boolean | undefined
  /**
   * The confirmation popup only when the guardian asks
   * (`confirmationPopup: 'on-demand'`, our SDK's option).
   */
  onDemand?: boolean | undefined
}

/** The published `Passport`'s surface the bench uses (ours has the same). */
export type PassportLike = {
  login(): Promise<unknown>
  loginCallback(): Promise<void>
  connectEvm(options?: { announceProvider?: boolean }): Promise<EIP1193Provider>
}

export type PassportClass = new (configuration: never) => PassportLike

/** When one traced send ran: epoch milliseconds (the network's clock). */
export type Span = { start: number; end: number }

/** What the runner calls, through `page.evaluate`. */
export type GameBench = {
  /** Makes the Passport and the baselines' clients. */
  start(config: GameConfig): void
  /**
   * `login()`, `connectEvm()` and `eth_requestAccounts` (the runner signs
   * in in the popup): the wallet's address.
   */
  connect(): Promise<Address>
  /**
   * `count` value transfers one after another through the wallet's
   * `eth_sendTransaction`, each timed from the request to its receipt.
   */
  send(count: number, to: Address, value: string): Promise<number[]>
  /** The same through the EOA (viem's wallet client with a local key). */
  sendEoa(count: number, to: Address, value: string): Promise<number[]>
  /**
   * Sends through the wallet, one after another: when each ran, for the
   * runner to match the page's requests to it.
   */
  traceSend(count: number, to: Address, value: string): Promise<Span[]>
  /** `count` `personal_sign` one after another through the wallet. */
  sign(count: number): Promise<number[]>
  /**
   * `rounds` times `count` `eth_getBalance` of the wallet at once, through
   * the wallet's provider or viem's http transport to the node (its
   * defaults, or with batching on): each round's milliseconds.
   */
  reads(count: number, rounds: number, via: ReadsVia): Promise<number[]>
}

/** How reads go: the wallet's provider, or viem straight to the node. */
export type ReadsVia = 'wallet' | 'direct' | 'batched'

declare global {
  interface Window {
    game: GameBench
  }
}

/** The query the login callback page carries (its redirect URI's). */
const callbackParam = 'callback'

/** This page's address as the login callback (the redirect URI). */
function redirectUri(config: { auth: string; client: string }): string {
  const query = new URLSearchParams({
    [callbackParam]: '1',
    auth: config.auth,
    client: config.client,
  })
  return `${location.origin}${location.pathname}?${query}`
}

/**
 * Both SDKs' configuration: the published SDK names the scope and the
 * audience (it has no default), and skips the embedded login prompt (a
 * hosted page the emulator does not serve) with its documented option.
 */
function configuration(
  auth: string,
  client: string,
  overrides: Record<string, unknown>,
  bridge = false,
  onDemand = false,
) {
  return {
    ...(bridge ? { crossSdkBridgeEnabled: true } : {}),
    ...(onDemand ? { confirmationPopup: 'on-demand' } : {}),
    baseConfig: { environment: 'sandbox' },
    clientId: client,
    redirectUri: redirectUri({ auth, client }),
    scope: 'openid profile email offline_access transact',
    audience: 'platform_api',
    logoutMode: 'silent',
    popupOverlayOptions: { disableHeadlessLoginPromptOverlay: true },
    overrides,
  }
}

/** Waits until `hash` has a receipt: asked at once, then every 10 ms. */
async function receipt(client: PublicClient, hash: Hex): Promise<void> {
  for (;;) {
    const found = await client.request({
      method: 'eth_getTransactionReceipt',
      params: [hash],
    })
    if (found) {
      if (found.status !== '0x1') throw new Error(`${hash} reverted.`)
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/**
 * Installs the harness, or, on the login callback page (the redirect URI),
 * finishes the sign-in with the same `Passport` class.
 */
export function installGame(Passport: PassportClass): void {
  const query = new URLSearchParams(location.search)
  if (query.has(callbackParam)) {
    const auth = query.get('auth') ?? ''
    const client = query.get('client') ?? ''
    const passport = new Passport(
      configuration(auth, client, callbackOverrides(auth)) as never,
    )
    void passport.loginCallback()
    return
  }

  let state:
    | {
        passport: PassportLike
        provider?: EIP1193Provider | undefined
        wallet?: Address | undefined
        chain: PublicClient
        /** The same, with viem's JSON-RPC batching on (`batch: true`). */
        batched: PublicClient
        eoa: WalletClient
      }
    | undefined
  const current = () => {
    if (!state) throw new Error('game.start() was not called.')
    return state
  }
  const connected = () => {
    const { provider, wallet, chain, batched } = current()
    if (!provider || !wallet) throw new Error('game.connect() was not called.')
    return { provider, wallet, chain, batched }
  }
  const timed = async (count: number, one: () => Promise<unknown>) => {
    const samples: number[] = []
    for (let i = 0; i < count; i++) {
      const started = performance.now()
      await one()
      samples.push(performance.now() - started)
    }
    return samples
  }
  const sendOnce = async (to: Address, value: string) => {
    const { provider, wallet, chain } = connected()
    const hash = (await provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: wallet, to, value: toHex(BigInt(value)) }],
    })) as Hex
    await receipt(chain, hash)
  }

  window.game = {
    start(config) {
      const chainDefinition = defineChain({
        id: config.chainId,
        name: 'emulator',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [config.rpcUrl] } },
      })
      state = {
        passport: new Passport(
          configuration(
            config.authenticationDomain,
            config.clientId,
            config.overrides,
            config.bridge,
            config.onDemand,
          ) as never,
        ),
        chain: createPublicClient({
          chain: chainDefinition,
          transport: http(config.rpcUrl),
        }),
        batched: createPublicClient({
          chain: chainDefinition,
          transport: http(config.rpcUrl, { batch: true }),
        }),
        eoa: createWalletClient({
          account: privateKeyToAccount(config.eoaKey),
          chain: chainDefinition,
          transport: http(config.rpcUrl),
        }),
      }
    },
    async connect() {
      const session = current()
      await session.passport.login()
      const provider = await session.passport.connectEvm({
        announceProvider: false,
      })
      const [wallet] = (await provider.request({
        method: 'eth_requestAccounts',
      })) as Address[]
      if (!wallet) throw new Error('eth_requestAccounts answered no wallet.')
      session.provider = provider
      session.wallet = wallet
      return wallet
    },
    send: (count, to, value) => timed(count, () => sendOnce(to, value)),
    sendEoa(count, to, value) {
      const { eoa, chain } = current()
      return timed(count, async () => {
        const hash = await eoa.sendTransaction({
          account: eoa.account ?? null,
          chain: eoa.chain,
          to,
          value: BigInt(value),
        })
        await receipt(chain, hash)
      })
    },
    async traceSend(count, to, value) {
      const now = () => performance.timeOrigin + performance.now()
      const spans: Span[] = []
      for (let i = 0; i < count; i++) {
        const start = now()
        await sendOnce(to, value)
        spans.push({ start, end: now() })
      }
      return spans
    },
    sign(count) {
      const { provider, wallet } = connected()
      const message = toHex('bench: personal_sign')
      return timed(count, () =>
        provider.request({
          method: 'personal_sign',
          params: [message, wallet],
        }),
      )
    },
    async reads(count, rounds, via) {
      const { provider, wallet, chain, batched } = connected()
      // viem's http transport straight to the node: a client of its own,
      // as a dApp makes it (viem's defaults: no batching), or with
      // `batch: true`, as the wallet's provider batches.
      const direct =
        via === 'direct' ? chain : via === 'batched' ? batched : undefined
      const read = direct
        ? () =>
            direct.request({
              method: 'eth_getBalance',
              params: [wallet, 'latest'],
            })
        : () =>
            provider.request({
              method: 'eth_getBalance',
              params: [wallet, 'latest'],
            })
      const times: number[] = []
      for (let round = 0; round < rounds; round++) {
        const started = performance.now()
        await Promise.all(Array.from({ length: count }, read))
        times.push(performance.now() - started)
      }
      return times
    },
  }
}
