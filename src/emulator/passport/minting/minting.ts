/**
 * The emulated minting backend: mint requests of the platform's collections
 * (the ERC-721 and ERC-1155 presets of `@imtbl/contracts` the emulator
 * deploys), minted for real by the minter account, one transaction per
 * call of a request, their metadata handed to the indexer.
 *
 * A request's assets become records, `pending` until their transaction is
 * mined: `succeeded` with the transaction hash, the token id (assigned by
 * the ERC-721 preset's by-quantity mint when the request left it out) and
 * the indexer's mint activity, or `failed` with the revert's message. The
 * minter sends one transaction at a time per chain, so its nonces never
 * race.
 *
 * How a request becomes transactions, as the hosted Minting API documents
 * it: ERC-721 assets with a `token_id` go to `mintBatch` (by id), those
 * without to `mintBatchByQuantity` (ids from 2^128 up, each owner's run of
 * ids consecutive, read back from the `Transfer` events); ERC-1155 assets
 * go to `safeMintBatch`, one call per owner (the preset has no
 * several-owners batch). Before sending, each call is simulated; when it
 * would revert, each of its assets is simulated alone, those that revert
 * fail with their error and the others are sent together.
 *
 * @packageDocumentation
 */
import {
  type Abi,
  type Address,
  BaseError,
  type Chain,
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  defineChain,
  ExecutionRevertedError,
  encodeFunctionData,
  type Hex,
  http,
  isHex,
  type PrivateKeyAccount,
  type PublicClient,
  parseEventLogs,
  RawContractError,
  type TransactionReceipt,
  type WalletClient,
  zeroAddress,
} from 'viem'
import { anvil } from 'viem/chains'
import type { components } from '../../../api/wire/mr/schema.generated.js'
import { minter as defaultMinter } from '../../chain/accounts.js'
import {
  ImmutableERC721V2,
  ImmutableERC1155,
} from '../../chain/platformArtifacts.generated.js'
import { chainNameOf } from '../api/chains.js'

/** A mint request's record, as the API answers it. */
export type MintRecordView = components['schemas']['GetMintRequestResult']

/** The metadata a mint request gives an NFT (`NFTMetadataRequest`). */
export type MintMetadata = components['schemas']['NFTMetadataRequest']

/** A mint request's status. */
export type MintStatus = components['schemas']['MintRequestStatus']

/** A collection the backend mints on. */
export type MintCollection = {
  /** The collection's address. */
  readonly address: Address
  /** Which preset it is: `ImmutableERC721V2` or `ImmutableERC1155`. */
  readonly standard: 'ERC721' | 'ERC1155'
}

/** A chain the backend mints on. */
export type MintingChain = {
  readonly chainId: number
  /** The node's own JSON-RPC URL. */
  readonly nodeUrl: string
  /** The collections whose minter role the minter holds. */
  readonly collections: readonly MintCollection[]
}

/** A mint the indexer recorded: one NFT (or ERC-1155 amount) minted to `to`. */
export type IndexedMint = {
  /** The mint activity's id. */
  readonly id: string
  /** Lowercase. */
  readonly contract: Address
  readonly tokenId: bigint
  /** Lowercase. */
  readonly to: Address
}

/** What the minting backend needs of the indexer. */
export type MintingIndexer = {
  /**
   * Gives an NFT the request's metadata (it wins over the token URI).
   *
   * @throws When the indexer refuses it (its bound on given metadata).
   */
  setMetadata(
    chainId: number,
    contract: Address,
    tokenId: bigint,
    metadata: MintMetadata,
  ): void
  /** Indexes the chain up to its head (bounded in time). */
  sync(chainId: number): Promise<void>
  /** The mints a transaction made, in log order, as indexed so far. */
  mintsOf(chainId: number, txHash: Hex): readonly IndexedMint[]
}

/** One asset of a request, checked. */
export type PlannedAsset = {
  readonly referenceId: string
  /** Lowercase. */
  readonly owner: Address
  /** `undefined`: the ERC-721 preset assigns it. */
  readonly tokenId: bigint | undefined
  /** ERC-1155 only; 1 for ERC-721. */
  readonly amount: bigint
  readonly metadata: MintMetadata | undefined
}

/** A mint request's record. */
export type MintRecord = {
  readonly seq: number
  readonly chainId: number
  /** Lowercase. */
  readonly collection: Address
  readonly standard: 'ERC721' | 'ERC1155'
  readonly referenceId: string
  readonly owner: Address
  tokenId: bigint | undefined
  readonly amount: bigint
  /**
   * The request's metadata until the record settles (the indexer keeps it
   * from then on): a settled record holds none.
   */
  metadata: MintMetadata | undefined
  status: MintStatus
  transactionHash: Hex | undefined
  activityId: string | undefined
  error: string | undefined
  readonly createdAt: Date
  updatedAt: Date
}

/** Why a request was not taken. */
export type Refused =
  | { readonly refused: 'conflict'; readonly message: string }
  | { readonly refused: 'full'; readonly message: string }

/** The minting backend. */
export type Minting = {
  /** The chains it mints on. */
  readonly chains: readonly MintingChain[]
  /** The account it mints from (the API's `minter_address` of its chains). */
  readonly minter: Address
  readonly now: () => Date
  /** The collection of `address` on `chainId`, if the backend mints on it. */
  collection(chainId: number, address: Address): MintCollection | undefined
  /**
   * Takes a request's assets: records them `pending` and queues their
   * mint. A reference id already used in the collection (unless it failed)
   * or twice in the request is a conflict, as is an ERC-721 token id given
   * twice; nothing is taken then.
   */
  submit(
    chainId: number,
    collection: MintCollection,
    assets: readonly PlannedAsset[],
  ): readonly MintRecord[] | Refused
  /** The collection's records in creation order. */
  records(chainId: number, collection: Address): readonly MintRecord[]
  /** The record of a reference id. */
  record(
    chainId: number,
    collection: Address,
    referenceId: string,
  ): MintRecord | undefined
  /** Fills in the activity ids the indexer has found since. */
  refresh(records: readonly MintRecord[]): void
  /** Resolves once every queued mint is settled (for tests and shutdown). */
  idle(): Promise<void>
  /** Stops sending; queued records stay `pending`. Idempotent. */
  stop(): Promise<void>
}

/** The most records the backend keeps per chain (failed ones replaced on reuse). */
export const maxMintRecords = 100_000

/** How long a mint's receipt is waited for. */
const receiptTimeoutMs = 60_000

/** Headroom over a call's gas estimate. */
const gasHeadroom = 100_000n

/** Creates the minting backend. */
export function createMinting(options: createMinting.Options): Minting {
  const {
    indexer,
    minter = defaultMinter,
    now = () => new Date(),
    maxRecords = maxMintRecords,
  } = options
  type Lane = {
    chain: MintingChain
    publicClient: PublicClient
    walletClient: WalletClient
    /** The collection's records by reference id, by collection. */
    byCollection: Map<Address, Map<string, MintRecord>>
    count: number
    /** The tail of this chain's sends. */
    tail: Promise<void>
  }
  const lanes = new Map<number, Lane>()
  for (const chain of options.chains) {
    const viemChain: Chain = defineChain({
      ...anvil,
      id: chain.chainId,
      rpcUrls: { default: { http: [chain.nodeUrl] } },
    })
    const transport = http(chain.nodeUrl, { retryCount: 0 })
    lanes.set(chain.chainId, {
      chain,
      publicClient: createPublicClient({ chain: viemChain, transport }),
      walletClient: createWalletClient({
        account: minter,
        chain: viemChain,
        transport,
      }),
      byCollection: new Map(),
      count: 0,
      tail: Promise.resolve(),
    })
  }
  let seq = 0
  let stopped = false

  const touch = (record: MintRecord) => {
    record.updatedAt = now()
  }
  const fail = (records: readonly MintRecord[], message: string) => {
    for (const record of records) {
      record.status = 'failed'
      record.error = message
      record.metadata = undefined
      touch(record)
    }
  }

  const refresh = (records: readonly MintRecord[]) => {
    const byTx = new Map<string, MintRecord[]>()
    for (const record of records)
      if (
        record.status === 'succeeded' &&
        record.activityId === undefined &&
        record.transactionHash !== undefined
      ) {
        const key = `${record.chainId}:${record.transactionHash}`
        byTx.set(key, [...(byTx.get(key) ?? []), record])
      }
    for (const group of byTx.values()) {
      const first = group[0]!
      assignActivities(
        indexer.mintsOf(first.chainId, first.transactionHash!),
        group,
      )
    }
  }

  /** Runs one call of a request: simulate, send, wait, settle. */
  const run = async (lane: Lane, call: Call) => {
    let records = call.records
    const simulate = async (subset: readonly MintRecord[]) => {
      try {
        await lane.publicClient.call({
          account: minter.address,
          to: call.collection,
          data: encodeCall(call.standard, subset),
        })
        return undefined
      } catch (error) {
        // Only a revert fails the assets; a node that cannot be reached
        // fails the call below, as not sent.
        if (!isRevert(error)) throw error
        return revertMessageOf(error)
      }
    }
    const whole = await simulate(records)
    if (whole !== undefined) {
      if (records.length === 1) {
        fail(records, whole)
        return
      }
      const passing: MintRecord[] = []
      for (const record of records) {
        const alone = await simulate([record])
        if (alone === undefined) passing.push(record)
        else fail([record], alone)
      }
      if (passing.length === 0) return
      const together = await simulate(passing)
      if (together !== undefined) {
        fail(passing, together)
        return
      }
      records = passing
    }
    if (stopped) return
    const data = encodeCall(call.standard, records)
    const gas = await lane.publicClient
      .estimateGas({ account: minter.address, to: call.collection, data })
      .then((estimate) => estimate + gasHeadroom)
    const nonce = await lane.publicClient.getTransactionCount({
      address: minter.address,
      blockTag: 'pending',
    })
    const hash = await lane.walletClient.sendTransaction({
      account: minter,
      chain: lane.walletClient.chain,
      to: call.collection,
      data,
      gas,
      nonce,
    })
    for (const record of records) {
      record.transactionHash = hash
      touch(record)
    }
    const receipt = await waitForReceipt(lane.publicClient, hash, () => stopped)
    if (!receipt) {
      if (!stopped) fail(records, 'The mint transaction was not mined in time.')
      return
    }
    if (receipt.status !== 'success') {
      fail(records, 'The mint transaction reverted on chain.')
      return
    }
    const minted = mintedIds(call, records, receipt)
    if (typeof minted === 'string') {
      fail(records, minted)
      return
    }
    for (const [i, record] of records.entries()) {
      record.tokenId = minted[i]
      if (record.metadata !== undefined)
        try {
          indexer.setMetadata(
            record.chainId,
            record.collection,
            record.tokenId!,
            record.metadata,
          )
        } catch {
          // The mint stands; only its metadata was refused (the indexer's
          // bound), and the NFT keeps what its token URI says.
        }
    }
    await indexer.sync(lane.chain.chainId).catch(() => undefined)
    assignActivities(indexer.mintsOf(lane.chain.chainId, hash), records)
    for (const record of records) {
      record.status = 'succeeded'
      record.metadata = undefined
      touch(record)
    }
  }

  const enqueue = (lane: Lane, calls: readonly Call[]) => {
    lane.tail = lane.tail.then(async () => {
      for (const call of calls) {
        if (stopped) return
        try {
          await run(lane, call)
        } catch (error) {
          fail(
            call.records.filter((record) => record.status === 'pending'),
            `The mint could not be sent: ${shortMessageOf(error)}`,
          )
        }
      }
    })
  }

  return {
    chains: options.chains,
    minter: minter.address,
    now,
    collection(chainId, address) {
      const lower = address.toLowerCase()
      return lanes
        .get(chainId)
        ?.chain.collections.find(
          (collection) => collection.address.toLowerCase() === lower,
        )
    },
    submit(chainId, collection, assets) {
      const lane = lanes.get(chainId)
      if (!lane || stopped)
        return { refused: 'full', message: 'The minting backend is stopped.' }
      const address = collection.address.toLowerCase() as Address
      const records = lane.byCollection.get(address) ?? new Map()
      const references = new Set<string>()
      const ids = new Set<bigint>()
      let replaced = 0
      for (const [i, asset] of assets.entries()) {
        if (references.has(asset.referenceId))
          return {
            refused: 'conflict',
            message: `assets[${i}].reference_id ${asset.referenceId} is given to another asset of this request.`,
          }
        references.add(asset.referenceId)
        const existing = records.get(asset.referenceId)
        if (existing && existing.status !== 'failed')
          return {
            refused: 'conflict',
            message: `The reference_id ${asset.referenceId} is ${existing.status === 'pending' ? 'already being minted' : 'already minted'} in this collection.`,
          }
        if (existing) replaced++
        if (collection.standard === 'ERC721' && asset.tokenId !== undefined) {
          if (ids.has(asset.tokenId))
            return {
              refused: 'conflict',
              message: `assets[${i}].token_id ${asset.tokenId} is given to another asset of this request.`,
            }
          ids.add(asset.tokenId)
        }
      }
      if (lane.count - replaced + assets.length > maxRecords)
        return {
          refused: 'full',
          message: `The emulator holds ${maxRecords} mint requests on this chain, its most.`,
        }
      const at = now()
      const created = assets.map(
        (asset): MintRecord => ({
          seq: seq++,
          chainId,
          collection: address,
          standard: collection.standard,
          referenceId: asset.referenceId,
          owner: asset.owner,
          tokenId: asset.tokenId,
          amount: asset.amount,
          metadata: asset.metadata,
          status: 'pending',
          transactionHash: undefined,
          activityId: undefined,
          error: undefined,
          createdAt: at,
          updatedAt: at,
        }),
      )
      for (const record of created) {
        // A failed reference id is reused: the new record takes its place.
        if (records.delete(record.referenceId)) lane.count--
        records.set(record.referenceId, record)
        lane.count++
      }
      lane.byCollection.set(address, records)
      enqueue(lane, planCalls(address, collection.standard, created))
      return created
    },
    records(chainId, collection) {
      const records = lanes
        .get(chainId)
        ?.byCollection.get(collection.toLowerCase() as Address)
      return records ? [...records.values()].sort((a, b) => a.seq - b.seq) : []
    },
    record(chainId, collection, referenceId) {
      return lanes
        .get(chainId)
        ?.byCollection.get(collection.toLowerCase() as Address)
        ?.get(referenceId)
    },
    refresh,
    async idle() {
      for (;;) {
        const tails = [...lanes.values()].map((lane) => lane.tail)
        await Promise.all(tails)
        if ([...lanes.values()].every((lane, i) => lane.tail === tails[i]))
          return
      }
    },
    async stop() {
      stopped = true
    },
  }
}

export declare namespace createMinting {
  type Options = {
    /** The chains and their collections, the main one first. */
    chains: readonly MintingChain[]
    /** Where the metadata goes and the mint activities come from. */
    indexer: MintingIndexer
    /**
     * The account that mints (holds the collections' minter role).
     * @default Anvil account 6, the emulator's minter
     */
    minter?: PrivateKeyAccount | undefined
    /** The clock of `created_at` and `updated_at`. @default () => new Date() */
    now?: (() => Date) | undefined
    /** The most records per chain. @default {@link maxMintRecords} */
    maxRecords?: number | undefined
  }
}

/** A record as the API answers it. */
export function viewOf(record: MintRecord): MintRecordView {
  return {
    chain: {
      id: `eip155:${record.chainId}`,
      name: chainNameOf(record.chainId),
    },
    collection_address: record.collection,
    reference_id: record.referenceId,
    owner_address: record.owner,
    token_id: record.tokenId === undefined ? null : record.tokenId.toString(),
    amount: record.standard === 'ERC1155' ? record.amount.toString() : null,
    activity_id: record.activityId ?? null,
    transaction_hash: record.transactionHash ?? null,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
    error: record.error === undefined ? null : { message: record.error },
    status: record.status,
  }
}

/** One transaction's worth of a request: one preset function's call. */
type Call = {
  collection: Address
  standard: 'ERC721 by id' | 'ERC721 by quantity' | 'ERC1155'
  records: readonly MintRecord[]
}

/**
 * The calls of a request: ERC-721 by id and by quantity (each one call for
 * every owner), ERC-1155 one call per owner.
 */
function planCalls(
  collection: Address,
  standard: 'ERC721' | 'ERC1155',
  records: readonly MintRecord[],
): Call[] {
  if (standard === 'ERC721') {
    const byId = records.filter((record) => record.tokenId !== undefined)
    const byQuantity = records.filter((record) => record.tokenId === undefined)
    return [
      ...(byId.length > 0
        ? [{ collection, standard: 'ERC721 by id' as const, records: byId }]
        : []),
      ...(byQuantity.length > 0
        ? [
            {
              collection,
              standard: 'ERC721 by quantity' as const,
              records: byOwner(byQuantity).flat(),
            },
          ]
        : []),
    ]
  }
  return byOwner(records).map((group) => ({
    collection,
    standard: 'ERC1155' as const,
    records: group,
  }))
}

/** Records grouped by owner, in the order each owner first appears. */
function byOwner(records: readonly MintRecord[]): MintRecord[][] {
  const groups = new Map<Address, MintRecord[]>()
  for (const record of records)
    groups.set(record.owner, [...(groups.get(record.owner) ?? []), record])
  return [...groups.values()]
}

/** The call data of a call of `records`. */
function encodeCall(
  standard: Call['standard'],
  records: readonly MintRecord[],
): Hex {
  if (standard === 'ERC721 by id')
    return encodeFunctionData({
      abi: ImmutableERC721V2.abi,
      functionName: 'mintBatch',
      args: [
        byOwner(records).map((group) => ({
          to: group[0]!.owner,
          tokenIds: group.map((record) => record.tokenId!),
        })),
      ],
    })
  if (standard === 'ERC721 by quantity')
    return encodeFunctionData({
      abi: ImmutableERC721V2.abi,
      functionName: 'mintBatchByQuantity',
      args: [
        byOwner(records).map((group) => ({
          to: group[0]!.owner,
          quantity: BigInt(group.length),
        })),
      ],
    })
  const owner = records[0]!.owner
  return encodeFunctionData({
    abi: ImmutableERC1155.abi,
    functionName: 'safeMintBatch',
    args: [
      owner,
      records.map((record) => record.tokenId!),
      records.map((record) => record.amount),
      '0x',
    ],
  })
}

/**
 * The token id each record got, from the receipt's mint events of the
 * collection (a by-quantity call mints each owner's run in order); a
 * message when the events do not match the call.
 */
function mintedIds(
  call: Call,
  records: readonly MintRecord[],
  receipt: TransactionReceipt,
): bigint[] | string {
  if (call.standard !== 'ERC721 by quantity')
    return records.map((record) => record.tokenId!)
  const transfers = parseEventLogs({
    abi: ImmutableERC721V2.abi as Abi,
    eventName: 'Transfer',
    logs: receipt.logs.filter(
      (log) => log.address.toLowerCase() === call.collection,
    ),
  }) as unknown as {
    args: { from: Address; to: Address; tokenId: bigint }
  }[]
  const mints = transfers.filter((event) => event.args.from === zeroAddress)
  if (mints.length !== records.length)
    return `The mint transaction minted ${mints.length} tokens for ${records.length} assets.`
  const ids: bigint[] = []
  for (const [i, record] of records.entries()) {
    const mint = mints[i]!
    if (mint.args.to.toLowerCase() !== record.owner)
      return 'The mint transaction minted to another owner than asked.'
    ids.push(mint.args.tokenId)
  }
  return ids
}

/**
 * Gives each record the id of its mint activity: the first unused indexed
 * mint of its token to its owner.
 */
function assignActivities(
  mints: readonly IndexedMint[],
  records: readonly MintRecord[],
): void {
  const used = new Set<string>()
  for (const record of records) {
    if (record.activityId !== undefined) {
      used.add(record.activityId)
      continue
    }
    const mint = mints.find(
      (candidate) =>
        !used.has(candidate.id) &&
        candidate.contract === record.collection &&
        candidate.tokenId === record.tokenId &&
        candidate.to === record.owner,
    )
    if (mint) {
      used.add(mint.id)
      record.activityId = mint.id
    }
  }
}

/** Polls for a receipt until it comes, `stop()` says so, or the time-out. */
async function waitForReceipt(
  client: PublicClient,
  hash: Hex,
  stop: () => boolean,
): Promise<TransactionReceipt | undefined> {
  const deadline = Date.now() + receiptTimeoutMs
  while (!stop() && Date.now() < deadline) {
    const receipt = await client
      .getTransactionReceipt({ hash })
      .catch(() => undefined)
    if (receipt) return receipt
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return undefined
}

const presetErrors = [
  ...ImmutableERC721V2.abi,
  ...ImmutableERC1155.abi,
] as unknown as Abi

/**
 * A revert's message: the preset's custom error (`Name(args)`), the
 * `Error(string)` reason, or the node's short message.
 */
export function revertMessageOf(error: unknown): string {
  const data = revertDataOf(error)
  if (data !== undefined && data !== '0x')
    try {
      const decoded = decodeErrorResult({ abi: presetErrors, data })
      const args = (decoded.args ?? []).map(String).join(', ')
      return decoded.errorName === 'Error'
        ? `The mint reverted: ${args}`
        : `The mint reverted: ${decoded.errorName}(${args})`
    } catch {
      return `The mint reverted with ${data.slice(0, 138)}.`
    }
  return `The mint reverted: ${shortMessageOf(error)}`
}

/** Whether a call failed because the EVM reverted (not the transport). */
function isRevert(error: unknown): boolean {
  if (revertDataOf(error) !== undefined) return true
  return (
    error instanceof BaseError &&
    error.walk(
      (inner) =>
        inner instanceof ExecutionRevertedError ||
        inner instanceof RawContractError,
    ) !== null
  )
}

/** The revert data viem found in a call's error, if any. */
function revertDataOf(error: unknown): Hex | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 10 && current; depth++) {
    if (typeof current === 'object' && current !== null) {
      const data = (current as { data?: unknown }).data
      if (typeof data === 'string' && isHex(data)) return data
      if (
        typeof data === 'object' &&
        data !== null &&
        typeof (data as { data?: unknown }).data === 'string'
      ) {
        const inner = (data as { data: string }).data
        if (isHex(inner)) return inner
      }
      current = (current as { cause?: unknown }).cause
    } else return undefined
  }
  return undefined
}

function shortMessageOf(error: unknown): string {
  if (error && typeof error === 'object' && 'shortMessage' in error)
    return String(error.shortMessage)
  return error instanceof Error ? error.message : String(error)
}
