/**
 * The emulated StarkEx exchange's off-chain state: registered accounts
 * (Ethereum address ↔ Stark key), the assets it has seen, one vault per
 * (Stark key, asset id) holding a quantized balance, the nonces each Stark
 * key has spent, and the signable requests the exchange issued and has not
 * seen created yet. Every route module of the exchange reads and writes
 * through one {@link Ledger}; nothing here speaks HTTP.
 *
 * Balances move only through {@link Ledger.apply}, which checks every
 * movement of a request before changing any (a batch is all or nothing).
 * Every map is bounded: what holds funds or guards against replay
 * (accounts, vaults, spent nonces) refuses to grow past its cap with a
 * {@link LedgerFullError}; what can be asked again (pending signables) drops
 * its oldest entries.
 *
 * @packageDocumentation
 */
import { randomInt } from 'node:crypto'
import { type Address, getAddress } from 'viem'
import { BaseError } from '../../../core/Errors.js'
import { type Asset, assetId as computeAssetId } from './stark.js'

/** The most registered accounts. */
export const maxAccounts = 10_000
/** The most vaults, over all Stark keys. */
export const maxVaults = 100_000
/** The most assets the exchange describes (one per ERC721 token). */
export const maxAssets = 100_000
/** The most nonces one Stark key may spend. */
export const maxNoncesPerKey = 100_000
/** The most pending signables per Stark key; the oldest go first. */
export const maxPendingPerKey = 10_000
/** The most pending signables over all keys; the oldest go first. */
export const maxPending = 100_000

/** Vault ids are StarkEx's uint31. */
const vaultIdLimit = 2 ** 31

/** A registered StarkEx account. */
export type Account = {
  /** The checksummed Ethereum address (`imx_eth_address`). */
  readonly ethAddress: Address
  /** `0x` + 64 lowercase hex digits. */
  readonly starkKey: string
  /** The identity provider's subject of the player, if a Passport player. */
  readonly sub: string | undefined
  /** When it registered (ms since the epoch). */
  readonly createdAt: number
}

/** An asset the exchange knows, with what the answers describe it by. */
export type AssetInfo = Asset & {
  /** The asset id (vaults hold it; signed messages name it). */
  readonly id: bigint
  /** Decimals of a fungible token (0 for an ERC721). */
  readonly decimals: number
}

/** A vault: one Stark key's balance of one asset. */
export type Vault = {
  /** StarkEx vault id (uint31), from a counter. */
  readonly id: number
  readonly starkKey: string
  readonly assetId: bigint
  /** Quantized balance. */
  balance: bigint
  readonly createdAt: number
  /** When its balance last changed (ms since the epoch). */
  updatedAt: number
}

/**
 * A signable request the exchange answered: what its payload hash stands
 * for, so the create can check what it is sent against what was issued.
 */
export type Pending = {
  /** The payload hash, as {@link hashKey} prints it. */
  readonly hash: string
  /** What was asked for (`'transfer'`, `'exchangeTransfer'`, `'order'`, …). */
  readonly kind: string
  /** The signer. */
  readonly starkKey: string
  readonly nonce: number
  /** Hours since the epoch. */
  readonly expiration: number
  /**
   * The `signable_message` answered with it: what the signer's Ethereum
   * key signs in the `x-imx-eth-signature` header of the create.
   */
  readonly message: string
  /** Whatever the issuing route needs back at create time. */
  readonly details: unknown
}

/** One movement of a request: `amount` (quantized) from a vault to another of the same asset. */
export type Movement = {
  readonly from: number
  readonly to: number
  readonly amount: bigint
}

/** Why the ledger refused a change. */
export class LedgerError extends BaseError {
  override readonly name: string = 'LedgerError'
}

/** A cap of the ledger is reached: nothing was changed. */
export class LedgerFullError extends LedgerError {
  override readonly name = 'LedgerFullError'
}

/** A movement the ledger cannot make (unknown vault, other asset, short balance). */
export class InvalidMovementError extends LedgerError {
  override readonly name = 'InvalidMovementError'
}

/**
 * The base units one quantized unit of a token stands for: 10^8 wei for
 * ETH (as the hosted exchange registered ETH), 10^(decimals − 10) for an
 * ERC20 (1 below 11 decimals), 1 for an ERC721.
 */
export function quantumOf(type: Asset['type'], decimals: number): bigint {
  if (type === 'ETH') return ethQuantum
  if (type === 'ERC721') return 1n
  return 10n ** BigInt(Math.max(0, decimals - 10))
}

/** ETH's quantum on the exchange: 10^8 wei. */
export const ethQuantum = 10n ** 8n

/** A payload hash in the form pending signables are kept under (lowercase, no `0x`, no leading zeros). */
export function hashKey(hash: bigint | string): string {
  if (typeof hash === 'bigint') return hash.toString(16)
  const hex = hash.toLowerCase().replace(/^0x/, '').replace(/^0+/, '')
  return hex === '' ? '0' : hex
}

/** The exchange's state. */
export type Ledger = {
  // Accounts
  /**
   * Registers an account.
   *
   * @throws {LedgerError} If the address or the Stark key is registered already.
   * @throws {LedgerFullError} Past {@link maxAccounts}.
   */
  register(account: Omit<Account, 'createdAt'>): Account
  /** The account of an Ethereum address (any case). */
  accountOf(ethAddress: string): Account | undefined
  /** The account of a Stark key (normalised form). */
  accountOfKey(starkKey: string): Account | undefined
  /** Every account, oldest first. */
  accounts(): readonly Account[]

  // Assets
  /**
   * The asset's id, recording its description (decimals) the first time.
   *
   * @throws {LedgerError} If an ERC20 of that address is known with another quantum.
   * @throws {LedgerFullError} Past {@link maxAssets}.
   */
  learnAsset(asset: Asset, decimals: number): AssetInfo
  /** The asset with this id, if the exchange has seen it. */
  asset(id: bigint): AssetInfo | undefined
  /** The ERC20 the exchange knows at this address (any case). */
  erc20(tokenAddress: string): AssetInfo | undefined

  // Vaults
  /** The vault of a Stark key for an asset, if it exists. */
  vaultOf(starkKey: string, assetId: bigint): Vault | undefined
  /**
   * The vault of a Stark key for an asset, opened (empty) if needed.
   *
   * @throws {LedgerFullError} Past {@link maxVaults}.
   */
  openVault(starkKey: string, assetId: bigint): Vault
  /** The vault with this id. */
  vault(id: number): Vault | undefined
  /** A Stark key's vaults, oldest first. */
  vaultsOf(starkKey: string): readonly Vault[]
  /** Every vault holding this asset with a positive balance. */
  holders(assetId: bigint): readonly Vault[]
  /** Adds a quantized amount to a vault (a deposit or the dev mint). */
  credit(vaultId: number, amount: bigint): Vault
  /**
   * Applies movements all or nothing: every vault must exist, each pair hold
   * the same asset, and every source cover the sum it sends.
   *
   * @throws {InvalidMovementError} If any movement cannot be made (nothing moved).
   */
  apply(movements: readonly Movement[]): void

  /**
   * Spends a signed request's nonces and applies its movements, all or
   * nothing: what a create does once the signatures verified. Nothing
   * changes unless every nonce is unspent and every movement can be made.
   *
   * @throws {LedgerError} If a nonce is spent already (nothing changed).
   * @throws {InvalidMovementError} If a movement cannot be made (nothing changed).
   * @throws {LedgerFullError} Past {@link maxNoncesPerKey} (nothing changed).
   */
  commit(request: {
    starkKey: string
    nonces: readonly number[]
    movements: readonly Movement[]
  }): void

  // Nonces
  /** Whether a Stark key spent this nonce. */
  isNonceUsed(starkKey: string, nonce: number): boolean
  /**
   * Marks nonces spent (all or nothing).
   *
   * @throws {LedgerError} If one is spent already.
   * @throws {LedgerFullError} Past {@link maxNoncesPerKey}.
   */
  useNonces(starkKey: string, nonces: readonly number[]): void
  /** A random uint31 nonce the key has neither spent nor been issued. */
  freshNonce(starkKey: string): number

  // Pending signables
  /** Records an issued signable (replacing one under the same hash). */
  issue(pending: Pending): void
  /** The pending signable of a payload hash (any spelling). */
  pending(hash: bigint | string): Pending | undefined
  /** Forgets a pending signable (once created). */
  settle(hash: bigint | string): void
}

/**
 * Creates an empty ledger.
 *
 * @param options.now - The clock (ms since the epoch). @default Date.now
 */
export function createLedger(options: createLedger.Options = {}): Ledger {
  const { now = Date.now } = options
  const byAddress = new Map<Address, Account>()
  const byKey = new Map<string, Account>()
  const assets = new Map<bigint, AssetInfo>()
  const erc20s = new Map<string, AssetInfo>()
  const vaults = new Map<number, Vault>()
  const vaultIndex = new Map<string, number>()
  const vaultsByKey = new Map<string, number[]>()
  const nonces = new Map<string, Set<number>>()
  const pendings = new Map<string, Pending>()
  const pendingByKey = new Map<string, Set<string>>()
  let nextVaultId = 1

  const checksum = (address: string): Address | undefined => {
    try {
      return getAddress(address.toLowerCase())
    } catch {
      return undefined
    }
  }

  const forgetPending = (hash: string) => {
    const entry = pendings.get(hash)
    if (!entry) return
    pendings.delete(hash)
    const set = pendingByKey.get(entry.starkKey)
    set?.delete(hash)
    if (set?.size === 0) pendingByKey.delete(entry.starkKey)
  }

  const checkMovements = (movements: readonly Movement[]) => {
    const out = new Map<number, bigint>()
    for (const { from, to, amount } of movements) {
      const source = vaults.get(from)
      const target = vaults.get(to)
      if (!source) throw new InvalidMovementError(`No vault ${from}.`)
      if (!target) throw new InvalidMovementError(`No vault ${to}.`)
      if (source.assetId !== target.assetId)
        throw new InvalidMovementError(
          `Vaults ${from} and ${to} hold different assets.`,
        )
      if (amount <= 0n)
        throw new InvalidMovementError('An amount must be positive.')
      out.set(from, (out.get(from) ?? 0n) + amount)
    }
    for (const [id, sum] of out) {
      const vault = vaults.get(id)!
      if (vault.balance < sum)
        throw new InvalidMovementError(
          `Vault ${id} holds ${vault.balance} quantized units, less than the ${sum} it would send.`,
        )
    }
  }
  const runMovements = (movements: readonly Movement[]) => {
    const time = now()
    for (const { from, to, amount } of movements) {
      const source = vaults.get(from)!
      const target = vaults.get(to)!
      source.balance -= amount
      target.balance += amount
      source.updatedAt = time
      target.updatedAt = time
    }
  }
  const checkNonces = (starkKey: string, list: readonly number[]) => {
    const used = nonces.get(starkKey)
    if (new Set(list).size !== list.length)
      throw new LedgerError(
        `A nonce of Stark key ${starkKey} appears twice in one request.`,
      )
    for (const nonce of list)
      if (used?.has(nonce))
        throw new LedgerError(
          `Nonce ${nonce} of Stark key ${starkKey} was used already.`,
        )
    if ((used?.size ?? 0) + list.length > maxNoncesPerKey)
      throw new LedgerFullError(
        `Stark key ${starkKey} spent ${maxNoncesPerKey} nonces, the most the exchange keeps.`,
      )
  }
  const spendNonces = (starkKey: string, list: readonly number[]) => {
    const used = nonces.get(starkKey) ?? new Set<number>()
    for (const nonce of list) used.add(nonce)
    nonces.set(starkKey, used)
  }

  const ledger: Ledger = {
    register(account) {
      const ethAddress = getAddress(account.ethAddress)
      if (byAddress.has(ethAddress))
        throw new LedgerError(`${ethAddress} is registered already.`)
      if (byKey.has(account.starkKey))
        throw new LedgerError(
          `The Stark key ${account.starkKey} is registered already.`,
        )
      if (byAddress.size >= maxAccounts)
        throw new LedgerFullError(
          `The exchange holds ${maxAccounts} accounts, its most.`,
        )
      const entry: Account = { ...account, ethAddress, createdAt: now() }
      byAddress.set(ethAddress, entry)
      byKey.set(entry.starkKey, entry)
      return entry
    },
    accountOf(ethAddress) {
      const address = checksum(ethAddress)
      return address ? byAddress.get(address) : undefined
    },
    accountOfKey: (starkKey) => byKey.get(starkKey),
    accounts: () => [...byAddress.values()],

    learnAsset(asset, decimals) {
      const id = computeAssetId(asset)
      const known = assets.get(id)
      if (known) return known
      if (asset.type === 'ERC20') {
        const other = erc20s.get(asset.tokenAddress.toLowerCase())
        if (other)
          throw new LedgerError(
            `The ERC20 ${asset.tokenAddress} is known with ${other.decimals} decimals.`,
          )
      }
      if (assets.size >= maxAssets)
        throw new LedgerFullError(
          `The exchange knows ${maxAssets} assets, its most.`,
        )
      const info: AssetInfo = {
        ...asset,
        ...('tokenAddress' in asset
          ? { tokenAddress: asset.tokenAddress.toLowerCase() }
          : {}),
        id,
        decimals,
      }
      assets.set(id, info)
      if (info.type === 'ERC20') erc20s.set(info.tokenAddress, info)
      return info
    },
    asset: (id) => assets.get(id),
    erc20: (tokenAddress) => erc20s.get(tokenAddress.toLowerCase()),

    vaultOf(starkKey, assetId) {
      const id = vaultIndex.get(`${starkKey}:${assetId}`)
      return id === undefined ? undefined : vaults.get(id)
    },
    openVault(starkKey, assetId) {
      const existing = ledger.vaultOf(starkKey, assetId)
      if (existing) return existing
      if (vaults.size >= maxVaults || nextVaultId >= vaultIdLimit)
        throw new LedgerFullError(
          `The exchange holds ${maxVaults} vaults, its most.`,
        )
      const time = now()
      const vault: Vault = {
        id: nextVaultId++,
        starkKey,
        assetId,
        balance: 0n,
        createdAt: time,
        updatedAt: time,
      }
      vaults.set(vault.id, vault)
      vaultIndex.set(`${starkKey}:${assetId}`, vault.id)
      const list = vaultsByKey.get(starkKey) ?? []
      list.push(vault.id)
      vaultsByKey.set(starkKey, list)
      return vault
    },
    vault: (id) => vaults.get(id),
    vaultsOf: (starkKey) =>
      (vaultsByKey.get(starkKey) ?? []).map((id) => vaults.get(id)!),
    holders(assetId) {
      const found: Vault[] = []
      for (const vault of vaults.values())
        if (vault.assetId === assetId && vault.balance > 0n) found.push(vault)
      return found
    },
    credit(vaultId, amount) {
      const vault = vaults.get(vaultId)
      if (!vault) throw new InvalidMovementError(`No vault ${vaultId}.`)
      if (amount <= 0n)
        throw new InvalidMovementError('A credit must be positive.')
      vault.balance += amount
      vault.updatedAt = now()
      return vault
    },
    apply(movements) {
      checkMovements(movements)
      runMovements(movements)
    },
    commit({ starkKey, nonces: list, movements }) {
      checkNonces(starkKey, list)
      checkMovements(movements)
      spendNonces(starkKey, list)
      runMovements(movements)
    },

    isNonceUsed: (starkKey, nonce) => nonces.get(starkKey)?.has(nonce) ?? false,
    useNonces(starkKey, list) {
      checkNonces(starkKey, list)
      spendNonces(starkKey, list)
    },
    freshNonce(starkKey) {
      const used = nonces.get(starkKey)
      const issued = new Set(
        [...(pendingByKey.get(starkKey) ?? [])].map(
          (hash) => pendings.get(hash)?.nonce,
        ),
      )
      for (;;) {
        const nonce = randomInt(0, 2 ** 31 - 1)
        if (!used?.has(nonce) && !issued.has(nonce)) return nonce
      }
    },

    issue(pending) {
      const hash = hashKey(pending.hash)
      forgetPending(hash)
      const mine = pendingByKey.get(pending.starkKey) ?? new Set<string>()
      while (mine.size >= maxPendingPerKey)
        forgetPending(mine.values().next().value as string)
      while (pendings.size >= maxPending)
        forgetPending(pendings.keys().next().value as string)
      pendings.set(hash, { ...pending, hash })
      mine.add(hash)
      pendingByKey.set(pending.starkKey, mine)
    },
    pending: (hash) => pendings.get(hashKey(hash)),
    settle: (hash) => forgetPending(hashKey(hash)),
  }
  return ledger
}

export declare namespace createLedger {
  type Options = {
    /** The clock (ms since the epoch). @default Date.now */
    now?: (() => number) | undefined
  }
}
