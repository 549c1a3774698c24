/**
 * The public facade: `new Magic(apiKey, options)` with the `auth`, `user`,
 * `wallet`, `nft`, `rpcProvider` and `thirdPartyWallets` modules and the
 * mounted extensions.
 */
import * as Announce from '../core/Announce.js'
// `create` from the internal module, not the `Storage` namespace: the
// namespace also re-exports the fallback stores, which must stay out of the
// page's bundle until IndexedDB fails.
import { create as createStorage } from '../core/internal/indexedDbStorage.js'
import type * as Storage from '../core/Storage.js'
import {
  createIncompatibleExtensionsError,
  createMissingApiKeyError,
} from './errors.js'
import { type AnyExtension, isCompatible } from './extensions/Extension.js'
import * as Auth from './modules/auth.js'
import * as Nft from './modules/nft.js'
import * as RpcProvider from './modules/rpcProvider.js'
import * as ThirdParty from './modules/thirdPartyWallets.js'
import * as User from './modules/user.js'
import * as Wallet from './modules/wallet.js'
import { providerInfo } from './providerInfo.js'
import { type Client, register } from './request.js'
import * as SessionMarker from './sessionMarker.js'
import { create as createTransport, type Transport } from './transport/index.js'
import { encodeParams, type Network, type Params } from './wire/messages.js'

/**
 * The SDK version sent to the iframe: this client speaks the iframe protocol
 * of the published magic-sdk 29.0.6, so it reports that release.
 */
export const version = '29.0.6'

/** The provider's default endpoint. */
export const defaultEndpoint = 'https://auth.magic.link/'

/** The `extensions` option: a list, or a map of mount names. */
export type ExtensionsOption =
  | readonly AnyExtension[]
  | { readonly [name: string]: AnyExtension }

/** Options of `new Magic(apiKey, options)`. */
export type MagicOptions<
  extensions extends ExtensionsOption = ExtensionsOption,
> = {
  /** Chain name (e.g. `'sepolia'`) or a custom node. @default mainnet */
  network?: Network | undefined
  /** The provider's origin (any path is dropped). @default 'https://auth.magic.link/' */
  endpoint?: string | undefined
  /** @default 'en_US' */
  locale?: string | undefined
  /** Sends the test-mode method names. @default false */
  testMode?: boolean | undefined
  /** Answers `isLoggedIn` from a stored flag first. @default false */
  useStorageCache?: boolean | undefined
  /** Skips creating the iframe at construction. @default false */
  deferPreload?: boolean | undefined
  extensions?: extensions | undefined
  meta?: unknown
  authConfig?: { skipDIDToken: boolean } | undefined
  /**
   * EIP-6963 announcement of `rpcProvider` (in a browser): `false` turns it
   * off, an object overrides the name, icon, rdns or uuid. @default true
   */
  announceProvider?: boolean | Partial<Announce.Info> | undefined
  /** A transport to use instead of the iframe (tests, advanced use). */
  transport?: Transport | undefined
  /** The key-value store. @default IndexedDB → localStorage → memory */
  storage?: Storage.Storage | undefined
}

/**
 * The `<apiKey>_…` suffix of the key under which a device share is stored
 * (`ds_<networkHash>`): one share per API key and network, or per extension
 * configuration when there is one, as the published SDK keys them, so that a
 * share is never sent to the iframe of another network.
 */
export function networkHash(
  apiKey: string,
  network: Network | undefined,
  ext: Record<string, unknown> | undefined,
): string {
  if (ext) return `${apiKey}_${JSON.stringify(ext)}`
  if (!network) return `${apiKey}_eth_mainnet`
  if (typeof network === 'string') return `${apiKey}_eth_${network}`
  return `${apiKey}_${network.rpcUrl}_${network.chainId}_${network.chainType}`
}

/**
 * The Magic SDK instance type (without extensions). Build one with
 * {@link Magic}.
 */
export class MagicSDK {
  readonly apiKey: string
  readonly testMode: boolean
  readonly useStorageCache: boolean
  /** The endpoint's origin. */
  readonly endpoint: string
  /** The iframe parameters. */
  readonly params: Params
  /** The encoded iframe parameters (`/send?params=`). */
  readonly parameters: string
  readonly networkHash: string
  /** Login flows. */
  readonly auth: Auth.AuthModule
  /** User info, session, settings, MFA. */
  readonly user: User.UserModule
  /** Wallet UI. */
  readonly wallet: Wallet.WalletModule
  /** NFT purchase, checkout, transfer. */
  readonly nft: Nft.NFTModule
  /** External wallet mode. */
  readonly thirdPartyWallets: ThirdParty.ThirdPartyWalletsModule
  /** The EIP-1193 provider. */
  readonly rpcProvider: RpcProvider.RPCProviderModule
  readonly #client: Client
  #transport: Transport | undefined
  #unannounce = () => {}

  constructor(apiKey: string, options: MagicOptions = {}) {
    if (!apiKey) throw createMissingApiKeyError()
    this.apiKey = apiKey
    this.testMode = Boolean(options.testMode)
    this.useStorageCache = Boolean(options.useStorageCache)
    this.endpoint = new URL(options.endpoint ?? defaultEndpoint).origin
    const store = RpcProvider.createState()
    const thirdParty = ThirdParty.create({ onUpdate: store.set })
    const storage =
      options.storage ??
      createStorage({
        database: 'MagicAuthLocalStorageDB',
        store: 'MagicAuthLocalStorage',
      })
    const client: Client = {
      testMode: this.testMode,
      useStorageCache: this.useStorageCache,
      storage,
      transport: () => this.#connect(options.transport),
      route: thirdParty.route,
      onResult(method, result) {
        const patch = RpcProvider.learn(method, result)
        if (patch) store.set(patch)
        SessionMarker.note(apiKey, method, result)
        return User.rememberLogin(client, method)
      },
    }
    this.#client = client
    register(this, client)
    this.thirdPartyWallets = thirdParty.module
    this.auth = Auth.create(client)
    this.user = User.create(client)
    this.wallet = Wallet.create(client, thirdParty.module)
    this.nft = Nft.create(client, {
      get isConnected() {
        return thirdParty.module.isConnected
      },
      checkout: thirdParty.checkout,
    })
    this.rpcProvider = RpcProvider.create(client, store)
    const ext = mountExtensions(this, options.extensions)
    this.params = {
      API_KEY: apiKey,
      DOMAIN_ORIGIN: globalThis.location?.origin ?? '',
      ETH_NETWORK: options.network,
      host: new URL(this.endpoint).host,
      sdk: 'magic-sdk',
      version,
      ext,
      locale: options.locale || 'en_US',
      authConfig: options.authConfig ? { ...options.authConfig } : undefined,
      meta: options.meta,
    }
    this.parameters = encodeParams(this.params)
    this.networkHash = networkHash(apiKey, options.network, ext)
    this.#announce(options.announceProvider)
    if (!options.deferPreload) this.preload().catch(() => {})
  }

  /**
   * Creates the iframe now and resolves once it is ready, so that the
   * first request is fast.
   */
  async preload(): Promise<void> {
    await this.#client.transport().preload()
  }

  /**
   * Stops announcing the provider and releases the transport (the iframe
   * goes when no other instance with the same parameters uses it).
   */
  destroy(): void {
    this.#unannounce()
    this.#transport?.destroy()
    this.#transport = undefined
  }

  /** The transport: the injected one, else the iframe's, made on first use. */
  #connect(injected: Transport | undefined): Transport {
    this.#transport ??=
      injected ??
      createTransport({
        endpoint: this.endpoint,
        params: this.params,
        storage: this.#client.storage,
        networkHash: this.networkHash,
      })
    return this.#transport
  }

  #announce(option: MagicOptions['announceProvider']) {
    if (option === false || typeof window === 'undefined') return
    const overrides = typeof option === 'object' ? option : {}
    this.#unannounce = Announce.announce({
      provider: this.rpcProvider,
      info: { ...providerInfo, ...overrides },
    })
  }
}

/** Extension members hidden from `magic[name]`'s type. */
type Hidden = 'name' | 'init' | 'config' | 'compat'

/** The extensions of an `extensions` option, by mount name. */
export type Mounted<extensions extends ExtensionsOption> =
  extensions extends readonly (infer item)[]
    ? {
        [name in Extract<item, AnyExtension>['name']]: Omit<
          Extract<item, { name: name }>,
          Hidden
        >
      }
    : { [name in keyof extensions]: Omit<extensions[name], Hidden> }

/** A Magic SDK instance with its extensions mounted. */
export type Magic<extensions extends ExtensionsOption = []> = MagicSDK &
  Mounted<extensions>

/**
 * Creates a Magic SDK instance: `new Magic(apiKey, options)`. Throws
 * `MISSING_API_KEY` without an API key and `INCOMPATIBLE_EXTENSIONS` when
 * an extension does not support this SDK.
 *
 * @example
 * ```ts
 * import { Magic } from 'embedded-wallets/magic'
 *
 * const magic = new Magic('pk_live_…', { network: 'sepolia' })
 * const didToken = await magic.auth.loginWithEmailOTP({ email })
 * const accounts = await magic.rpcProvider.request({ method: 'eth_accounts' })
 * ```
 */
export const Magic = MagicSDK as unknown as {
  new <const extensions extends ExtensionsOption = []>(
    apiKey: string,
    options?: MagicOptions<extensions>,
  ): Magic<extensions>
  readonly prototype: MagicSDK
}

/** Mounts the extensions; returns the non-empty configs for `ext`. */
function mountExtensions(
  sdk: MagicSDK,
  extensions: ExtensionsOption | undefined,
): Record<string, unknown> | undefined {
  const entries: [string, AnyExtension][] = Array.isArray(extensions)
    ? extensions.map((extension) => [extension.name, extension])
    : Object.entries(extensions ?? {})
  const configs: Record<string, unknown> = {}
  const incompatible: AnyExtension[] = []
  for (const [mount, extension] of entries) {
    if (!isCompatible(extension, version)) {
      incompatible.push(extension)
      continue
    }
    extension.init(sdk)
    if (mount) (sdk as unknown as Record<string, unknown>)[mount] = extension
    if (!isEmpty(extension.config)) configs[extension.name] = extension.config
  }
  if (incompatible.length)
    throw createIncompatibleExtensionsError(incompatible, version)
  return isEmpty(configs) ? undefined : configs
}

function isEmpty(value: unknown): boolean {
  if (!value) return true
  return typeof value === 'object' && Object.keys(value).length === 0
}
