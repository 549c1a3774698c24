/**
 * The custody key (the wallet's user-admin EOA): the iframe wallet's key,
 * reached through this package's own iframe-wallet client (`src/magic`)
 * logged in with the player's id token through its OIDC extension. The
 * client is imported on first signer use, so signing in alone never loads
 * it, and is dropped on logout.
 *
 * Its session (refresh token, device key, device share) is kept in a store
 * of its own ({@link custodyStore}), never in the one every iframe-wallet
 * client of the page shares by default: a dApp that also uses the iframe
 * wallet must never find the game wallet's custody key logged in there.
 */
import type { Address, Hex } from 'viem'
import { create as createStorage } from '../../core/internal/indexedDbStorage.js'
import * as RpcErrors from '../../core/RpcErrors.js'
import type * as Storage from '../../core/Storage.js'
import type { MagicOptions } from '../../magic/index.js'
import { describe, internalError, messages } from './errors.js'

/**
 * Where the custody client keeps its session: a database apart from the
 * iframe wallet's default one (`MagicAuthLocalStorageDB`, which a dApp's
 * own iframe-wallet clients use), with the same object store name.
 */
export const custodyStore = {
  database: 'PassportCustodyLocalStorageDB',
  store: 'MagicAuthLocalStorage',
} as const

/**
 * The custody client's store: IndexedDB, else localStorage (under the
 * database's own prefix), else memory.
 */
export function custodyStorage(): Storage.Storage {
  return createStorage(custodyStore)
}

/** The custody key as the provider uses it. */
export type CustodySigner = {
  /** The key's address. */
  getAddress(): Promise<Address>
  /**
   * EIP-191 `personal_sign`: a string is signed as UTF-8 text, `{ raw }`
   * as the bytes themselves. Resolves `r ‖ s ‖ v`.
   */
  signMessage(message: string | { raw: Hex }): Promise<Hex>
}

/** What {@link createMagicSigner} needs. */
export type MagicSignerOptions = {
  /** The key-custody provider's publishable key (`magicPublishableApiKey`). */
  publishableKey: string
  /** The OIDC provider id registered with it (`magicProviderId`). */
  providerId: string
  /** The iframe's origin (`overrides.magicEndpoint`); the client's default otherwise. */
  endpoint?: string | undefined
  /** The chain node the iframe is configured with. */
  rpcUrl: string
  getChainId: () => Promise<number>
  /** The player's current id token (refreshed when stale). */
  getIdToken: () => Promise<string | undefined>
  /**
   * Extra client options (tests inject a transport).
   * `storage` defaults to {@link custodyStorage}.
   */
  magicOptions?: Omit<Partial<MagicOptions>, 'extensions'> | undefined
}

/** A signer that can be dropped. */
export type DisposableSigner = CustodySigner & { destroy(): void }

/**
 * The custody signer backed by the iframe wallet.
 *
 * When the iframe's session expired or was revoked while the player is
 * still signed in, a signature fails once: the signer then logs in again
 * with a fresh id token and retries, once, without surfacing the first
 * error (the published SDK re-initialises its key session the same way).
 * A user's refusal is never retried.
 */
export function createMagicSigner(
  options: MagicSignerOptions,
): DisposableSigner {
  type Client = {
    magic: { destroy(): void; rpcProvider: { request(a: unknown): unknown } }
    login: () => Promise<Address>
  }
  let client: Promise<Client> | undefined
  let session: Promise<Address> | undefined
  let destroyed = false

  async function createClient(): Promise<Client> {
    const [{ Magic, OpenIdExtension }, chainId] = await Promise.all([
      import('../../magic/index.js'),
      options.getChainId(),
    ])
    const storage = options.magicOptions?.storage ?? custodyStorage()
    const magic = new Magic(options.publishableKey, {
      ...options.magicOptions,
      storage,
      extensions: [new OpenIdExtension()],
      network: { rpcUrl: options.rpcUrl, chainId },
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      // The smart-contract wallet is the provider dapps see; the custody
      // key's own provider must not show up in wallet pickers.
      announceProvider: false,
    })
    return {
      magic,
      async login() {
        const jwt = await options.getIdToken()
        if (!jwt) throw internalError(messages.noIdToken)
        try {
          await magic.openid.loginWithOIDC({
            jwt,
            providerId: options.providerId,
          })
          const accounts = (await magic.rpcProvider.request({
            method: 'eth_accounts',
          })) as Address[]
          if (!accounts?.[0]) throw internalError(messages.signerFailed)
          const origin: SessionOrigin = {
            publishableKey: options.publishableKey,
            endpoint: magic.endpoint,
          }
          await storage.setItem(sessionOriginKey, origin).catch(() => {})
          return accounts[0]
        } catch (error) {
          throw proxyError(error)
        }
      },
    }
  }

  function connect(
    fresh = false,
  ): Promise<{ client: Client; address: Address }> {
    if (destroyed) return Promise.reject(internalError(messages.signerFailed))
    client ??= createClient()
    const current = client
    if (fresh || !session) {
      session = current.then((c) => c.login())
      session.catch(() => {
        // A failed login is not cached: the next call tries again.
        session = undefined
      })
    }
    const address = session
    return Promise.all([current, address]).then(([client, address]) => ({
      client,
      address,
    }))
  }

  async function sign(
    message: string | { raw: Hex },
    fresh: boolean,
  ): Promise<Hex> {
    const { client, address } = await connect(fresh)
    const data = typeof message === 'string' ? message : (message.raw as string)
    try {
      return (await client.magic.rpcProvider.request({
        method: 'personal_sign',
        params: [data, address],
      })) as Hex
    } catch (error) {
      throw proxyError(error)
    }
  }

  return {
    async getAddress() {
      return (await connect()).address
    },
    async signMessage(message) {
      try {
        return await sign(message, false)
      } catch (error) {
        if (isRefusal(error) || destroyed) throw error
        return sign(message, true)
      }
    },
    destroy() {
      destroyed = true
      client?.then((c) => c.magic.destroy()).catch(() => {})
      client = undefined
      session = undefined
    },
  }
}

/**
 * Errors of the custody client, prefixed as the published proxy does, as
 * the core error of the iframe's code (a refusal stays a refusal), else
 * -32603.
 */
function proxyError(error: unknown): RpcErrors.RpcError {
  const message = describe(error)
  if (
    error instanceof RpcErrors.RpcError &&
    (message === messages.noIdToken || message.startsWith('ProviderProxy: '))
  )
    return error
  const code = (error as { code?: unknown })?.code
  return RpcErrors.fromCode(
    Number.isInteger(code) ? (code as number) : RpcErrors.InternalError.code,
    { message: `ProviderProxy: ${message}`, cause: error },
  )
}

/** The player refused (EIP-1193 4001, or the iframe's own refusal code). */
function isRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code
  return code === 4001 || code === -10012
}

/** What {@link logoutCustody} needs: the custody client's settings. */
export type CustodyLogoutOptions = Pick<
  MagicSignerOptions,
  'publishableKey' | 'endpoint' | 'rpcUrl' | 'magicOptions'
> & {
  /** The chain, when known (the signer's iframe is then reused). */
  chainId?: number | undefined
  /** How long the provider may take to answer, ms. @default 10_000 */
  timeoutMs?: number | undefined
}

/**
 * The store key under which the signer notes whose session the store holds
 * (the key and the provider it logged in with), so that a logout ends it
 * where it was opened, even after the game's configuration changed.
 */
const sessionOriginKey = 'passport_custody_session'

/** What {@link sessionOriginKey} holds. */
type SessionOrigin = { publishableKey: string; endpoint: string }

/**
 * The store keys of a custody session: the refresh token, the device
 * shares and its origin (the device key stays, as after any logout).
 */
const isSessionKey = (key: string) =>
  key === 'rt' || key === sessionOriginKey || key.startsWith('ds_')

/**
 * Logs the custody key's session out with the player, as the published
 * SDK logs its custody client out: the provider revokes the session (the
 * logout request carries its refresh token), and the refresh token and
 * device shares leave the custody store. The iframe-wallet client loads
 * only when the store holds a session. Never rejects: when the provider
 * cannot be reached within `timeoutMs`, the session is still forgotten
 * here (the provider's copy then lapses on its own).
 *
 * @example
 * ```ts
 * await logoutCustody({ publishableKey, endpoint, rpcUrl, chainId })
 * ```
 */
export async function logoutCustody(
  options: CustodyLogoutOptions,
): Promise<void> {
  const { timeoutMs = 10_000 } = options
  const storage = options.magicOptions?.storage ?? custodyStorage()
  const held = async () =>
    (await storage.keys().catch(() => [] as string[])).filter(isSessionKey)
  if ((await held()).length === 0) return
  let magic: { destroy(): void } | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const origin = await storage
      .getItem<Partial<SessionOrigin>>(sessionOriginKey)
      .catch(() => null)
    const publishableKey =
      typeof origin?.publishableKey === 'string'
        ? origin.publishableKey
        : options.publishableKey
    const endpoint =
      typeof origin?.endpoint === 'string' ? origin.endpoint : options.endpoint
    const { Magic, OpenIdExtension } = await import('../../magic/index.js')
    const client = new Magic(publishableKey, {
      ...options.magicOptions,
      storage,
      // The signer's extensions and network: the same iframe parameters,
      // so a signer's iframe still on the page serves this request too.
      extensions: [new OpenIdExtension()],
      network: { rpcUrl: options.rpcUrl, chainId: options.chainId },
      ...(endpoint ? { endpoint } : {}),
      announceProvider: false,
    })
    magic = client
    await Promise.race([
      client.user.logout(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs)
      }),
    ])
  } catch {
    // Whatever failed, the session is forgotten below.
  } finally {
    clearTimeout(timer)
    magic?.destroy()
    await Promise.allSettled(
      (await held()).map((key) => storage.removeItem(key)),
    )
  }
}
