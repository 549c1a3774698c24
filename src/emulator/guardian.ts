/**
 * What the game wallet's emulated services share about the guardian: the
 * rules a test sets (when a player must confirm), and the verdicts on each
 * evaluated transaction and message. The platform API evaluates and records,
 * the confirmation pages on the passport domain approve or reject, and the
 * relayer co-signs only what a verdict allows. One instance per emulator,
 * handed to every service in its context; like the registry, it is state
 * the services share, so it lives beside them, not in any of them.
 *
 * A verdict is keyed by chain, wallet and digest: for a transaction the
 * Sequence v1 `keccak256(abi.encode(nonce, txs))` of `execute`, for a
 * personal_sign message its EIP-191 hash, for typed data its EIP-712 hash.
 * The relayer rebuilds the same digest from what it is asked to co-sign, so
 * a player's signature over anything the guardian did not pass is useless.
 *
 * @packageDocumentation
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { type Address, getAddress, type Hex, hashMessage } from 'viem'

/** The EIP-191 hash of a personal_sign text. */
export function erc191Digest(text: string): Hex {
  return hashMessage(text)
}

/**
 * What is being evaluated: a zkEVM transaction, an EIP-712 or ERC-191
 * message, or a StarkEx request (a payload the exchange returned to sign).
 */
export type Kind = 'transaction' | 'message' | 'erc191' | 'starkex'

/**
 * The chain id StarkEx verdicts are kept under: StarkEx requests are signed
 * off chain, for the exchange, on no chain of the emulator.
 */
export const starkExChainId = 0

/** The StarkEx requests the guardian evaluates (the published SDK's five guarded calls). */
export type StarkExType =
  | 'transfer'
  | 'batchNftTransfer'
  | 'order'
  | 'cancelOrder'
  | 'trade'

/** Every {@link StarkExType}, in the order the rules list them. */
export const starkExTypes: readonly StarkExType[] = [
  'transfer',
  'batchNftTransfer',
  'order',
  'cancelOrder',
  'trade',
]

/**
 * A StarkEx request the exchange handed a player to sign, as the guardian
 * sees it: registered by the exchange when it answers a signable-details
 * request made with the player's token, found by the guardian's routes by
 * its payload hash (`GET /guardian/v1/transactions/{payload_hash}?chainType=starkex`).
 */
export type StarkExTransaction = {
  /**
   * The payload hash the player signs (the first one of a batch), as the
   * exchange answers it: lowercase hex without `0x`, unpadded, as StarkEx's
   * own crypto library prints a Pedersen hash.
   */
  readonly payloadHash: string
  /** The player's StarkEx Ethereum address (`imx_eth_address`). */
  readonly wallet: Address
  readonly type: StarkExType
  /**
   * What the confirmation page shows: the request's tokens, amounts and
   * parties, as the exchange describes them (JSON).
   */
  readonly details: unknown
}

/** The most StarkEx requests kept; the oldest is forgotten past it. */
export const maxStarkExTransactions = 10_000

/**
 * A payload hash as StarkEx requests are kept under: lowercase, without
 * `0x` and leading zeros (a hash is a number; clients print it either way).
 */
export function starkExKey(payloadHash: string): string {
  const hex = payloadHash.toLowerCase().replace(/^0x/, '').replace(/^0+/, '')
  return hex === '' ? '0' : hex
}

/**
 * The digest a StarkEx request's verdict and allowance are kept under
 * (kind `'starkex'`, chain {@link starkExChainId}): its payload hash as
 * `0x` + {@link starkExKey}.
 */
export function starkExDigest(payloadHash: string): Hex {
  return `0x${starkExKey(payloadHash)}`
}

/** Where a verdict stands. */
export type State = 'allowed' | 'pending' | 'rejected'

/** One evaluation. */
export type Verdict = {
  /** The id the confirmation page is opened with. */
  readonly id: string
  readonly kind: Kind
  readonly chainId: number
  readonly wallet: Address
  readonly digest: Hex
  state: State
  /**
   * What the confirmation page shows, as received: a transaction's
   * evaluation body, a message's text or typed data.
   */
  readonly payload: unknown
}

/**
 * The guardian's rules: when a player must confirm in the popup. All off by
 * default, so nothing needs confirming.
 */
export type Rules = {
  /** Transactions moving more than this many wei (summed over the batch). */
  confirmAboveValue?: bigint | undefined
  /** Transactions calling a contract outside {@link Rules.knownContracts}. */
  confirmUnknownContracts?: boolean | undefined
  /** Contracts that never need confirming (checksummed or not). */
  knownContracts?: readonly Address[] | undefined
  /** Every EIP-712 message. */
  confirmTypedData?: boolean | undefined
  /** Every ERC-191 message. */
  confirmErc191?: boolean | undefined
  /**
   * The StarkEx requests of these types (none by default): their
   * evaluation asks the player to confirm on the confirmation page.
   */
  confirmStarkEx?: readonly StarkExType[] | undefined
  /** Evaluations answer 403 (the wallet shows the unavailable screen). */
  unavailable?: boolean | undefined
}

/** The most wallets with rules of their own; the oldest is forgotten past it. */
export const maxWalletRules = 1_000

/** The most verdicts kept; the oldest is forgotten past it. */
export const maxVerdicts = 10_000

/**
 * The most payload text kept over all verdicts, in characters of JSON: any
 * page can ask for evaluations, and 10,000 bodies of the largest size
 * accepted would hold gigabytes. The oldest verdicts go first.
 */
export const maxVerdictText = 32 * 1024 * 1024

/** The most allowances kept (digests the relayer may co-sign); the oldest go first. */
export const maxAllowances = 10_000

/** The guardian's shared state. */
export type Guardian = {
  /** The rules now in force (for wallets without rules of their own). */
  rules: Rules
  /**
   * Rules of one wallet, which replace {@link Guardian.rules} for it (tests
   * running side by side each steer their own player's wallet).
   */
  readonly walletRules: Map<Address, Rules>
  /** Sets (or with `null` removes) a wallet's own rules. */
  setWalletRules(wallet: Address, rules: Rules | null): void
  /** The rules in force for a wallet. */
  rulesFor(wallet: Address): Rules
  /**
   * Whether evaluations for a wallet answer 403: its rules say
   * `unavailable`, or the guardian is down for everyone (the
   * `guardian-unavailable` scenario).
   */
  unavailableFor(wallet: Address): boolean
  /** Records an evaluation and returns its verdict. */
  record(entry: Omit<Verdict, 'id' | 'state'> & { state: State }): Verdict
  /** The verdict with this id. */
  get(id: string): Verdict | undefined
  /** The newest `limit` verdicts, newest first. */
  recent(limit: number): readonly Verdict[]
  /**
   * The latest verdict on `digest` for `wallet` (of one of `kinds`, on
   * `chainId` when given): what the platform API's routes by payload hash
   * look up.
   */
  find(query: {
    wallet: Address
    digest: Hex
    kinds: readonly Kind[]
    chainId?: number | undefined
  }): Verdict | undefined
  /** Settles a pending verdict; false if there is none with this id. */
  settle(id: string, state: 'allowed' | 'rejected'): boolean
  /** Whether the guardian allowed this digest for this wallet on this chain. */
  isAllowed(query: { chainId: number; wallet: Address; digest: Hex }): boolean
  /**
   * The secret of the verdict `id`: what only its confirmation page holds
   * (the page carries it in its HTML, which no other origin can read), and
   * what settling a verdict that asks the player to confirm must show. An
   * HMAC of the id under a key made with the guardian: nothing to store.
   */
  secretOf(id: string): string
  /** Whether `secret` is the secret of the verdict `id`, in constant time. */
  isSecretOf(id: string, secret: unknown): boolean
  /**
   * Registers a StarkEx request for evaluation (the exchange does, when a
   * player's token asks for its signable details). Registering a payload
   * hash again replaces the entry.
   */
  registerStarkEx(transaction: StarkExTransaction): void
  /** The StarkEx request registered under this payload hash (any case). */
  starkExTransaction(payloadHash: string): StarkExTransaction | undefined
}

/**
 * Creates the guardian's state.
 *
 * @param options.down - Whether the guardian is down for every wallet (read
 *   on each evaluation). @default never
 * @param options.onChange - Called after a verdict is recorded or settled.
 */
export function createGuardian(
  options: {
    down?: (() => boolean) | undefined
    onChange?: (() => void) | undefined
  } = {},
): Guardian {
  const { down = () => false, onChange } = options
  const byId = new Map<string, Verdict>()
  /** Each kept verdict's payload size, and their sum. */
  const sizes = new Map<string, number>()
  let text = 0
  // A Map keeps insertion order: the first key is the oldest allowance.
  const allowed = new Map<string, true>()
  const key = (chainId: number, wallet: Address, digest: Hex) =>
    `${chainId}:${getAddress(wallet)}:${digest.toLowerCase()}`
  const allow = (verdict: Verdict) => {
    const entry = key(verdict.chainId, verdict.wallet, verdict.digest)
    allowed.delete(entry)
    if (allowed.size >= maxAllowances)
      allowed.delete(allowed.keys().next().value as string)
    allowed.set(entry, true)
  }
  const forgetOldest = () => {
    const oldest = byId.keys().next().value as string
    byId.delete(oldest)
    text -= sizes.get(oldest) ?? 0
    sizes.delete(oldest)
  }
  const walletRules = new Map<Address, Rules>()
  const starkEx = new Map<string, StarkExTransaction>()
  const secretKey = randomBytes(32)
  const secretOf = (id: string) =>
    createHmac('sha256', secretKey).update(id).digest('hex')
  const guardian: Guardian = {
    rules: {},
    walletRules,
    setWalletRules(wallet, rules) {
      const address = getAddress(wallet)
      walletRules.delete(address)
      if (!rules) return
      if (walletRules.size >= maxWalletRules) {
        const oldest = walletRules.keys().next().value as Address
        walletRules.delete(oldest)
      }
      walletRules.set(address, rules)
    },
    rulesFor: (wallet) => walletRules.get(getAddress(wallet)) ?? guardian.rules,
    unavailableFor: (wallet) =>
      down() || guardian.rulesFor(wallet).unavailable === true,
    record(entry) {
      const size = JSON.stringify(entry.payload ?? null).length
      while (
        byId.size > 0 &&
        (byId.size >= maxVerdicts || text + size > maxVerdictText)
      )
        forgetOldest()
      const verdict: Verdict = {
        ...entry,
        wallet: getAddress(entry.wallet),
        id: crypto.randomUUID(),
      }
      byId.set(verdict.id, verdict)
      sizes.set(verdict.id, size)
      text += size
      if (verdict.state === 'allowed') allow(verdict)
      onChange?.()
      return verdict
    },
    get: (id) => byId.get(id),
    recent(limit) {
      const newest: Verdict[] = []
      for (const verdict of [...byId.values()].reverse()) {
        if (newest.length >= limit) break
        newest.push(verdict)
      }
      return newest
    },
    find({ wallet, digest, kinds, chainId }) {
      const address = getAddress(wallet)
      const hash = digest.toLowerCase()
      // Newest first: a Map iterates in insertion order.
      for (const verdict of [...byId.values()].reverse())
        if (
          verdict.wallet === address &&
          verdict.digest.toLowerCase() === hash &&
          kinds.includes(verdict.kind) &&
          (chainId === undefined || verdict.chainId === chainId)
        )
          return verdict
      return undefined
    },
    settle(id, state) {
      const verdict = byId.get(id)
      if (verdict?.state !== 'pending') return false
      verdict.state = state
      if (state === 'allowed') allow(verdict)
      onChange?.()
      return true
    },
    isAllowed: ({ chainId, wallet, digest }) =>
      allowed.has(key(chainId, wallet, digest)),
    secretOf,
    isSecretOf(id, secret) {
      if (typeof secret !== 'string' || !/^[0-9a-f]{64}$/.test(secret))
        return false
      return timingSafeEqual(
        Buffer.from(secretOf(id), 'hex'),
        Buffer.from(secret, 'hex'),
      )
    },
    registerStarkEx(transaction) {
      const hash = starkExKey(transaction.payloadHash)
      starkEx.delete(hash)
      if (starkEx.size >= maxStarkExTransactions)
        starkEx.delete(starkEx.keys().next().value as string)
      starkEx.set(hash, {
        ...transaction,
        payloadHash: hash,
        wallet: getAddress(transaction.wallet),
      })
    },
    starkExTransaction: (payloadHash) => starkEx.get(starkExKey(payloadHash)),
  }
  return guardian
}
