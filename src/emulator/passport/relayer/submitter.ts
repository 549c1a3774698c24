/**
 * How the emulated relayer puts co-signed game-wallet transactions on chain.
 *
 * A player's client reserves consecutive nonces and may send many
 * transactions at once, and they can reach the relayer in any order. The
 * wallet accepts only its next nonce, so each wallet (and nonce space) has
 * a queue that submits in nonce order, one at a time, each after its
 * predecessor is mined. A transaction whose nonce is ahead of the wallet's
 * waits for its predecessors for a bounded time, then fails. The relayer's
 * own key sends for every wallet, so its sends are serialized per chain,
 * each with the next account nonce.
 *
 * The first transaction of a wallet that has no code yet goes through the
 * guest module as `[Factory.deploy, wallet.execute]`, so it deploys the
 * wallet; later ones call `execute` on the wallet.
 *
 * @packageDocumentation
 */
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  isHex,
  type PrivateKeyAccount,
  type PublicClient,
  type WalletClient,
} from 'viem'
import { anvil } from 'viem/chains'
import type { Status } from '../../../passport/wire/relayer.js'
import {
  decodeNonce,
  type Execute,
  encodeDeploy,
  encodeExecute,
  imageHash,
  type MetaTransaction,
  metaTransaction,
  playerWalletConfig,
} from '../../../passport/wire/sequence.js'
import { MainModule } from '../../chain/artifacts.generated.js'
import type { Contracts } from '../../chain/deploy.js'
import { revertMessage } from '../../chain/revert.js'

/** One relayed transaction, as `im_getTransactionByHash` reports it. */
export type Relayed = {
  readonly id: string
  readonly chainId: number
  readonly wallet: Address
  status: Status
  hash?: Hex | undefined
  statusMessage?: string | undefined
}

/** A co-signed transaction waiting in its wallet's queue. */
export type Job = {
  readonly relayed: Relayed
  /** The player's custody EOA (for the wallet's configuration). */
  readonly custody: Address
  /** `execute`'s arguments, with the full threshold-2 signature. */
  readonly execute: Execute
  /** Submit it so that it reverts on chain (a test asked for it). */
  readonly forceRevert: boolean
}

/** One chain the submitter sends to. */
export type SubmitterChain = {
  chainId: number
  nodeUrl: string
  contracts: Contracts
}

/** Limits and timings of a {@link createSubmitter}. */
export type SubmitterOptions = {
  chains: readonly SubmitterChain[]
  /** The key that sends and pays. */
  account: PrivateKeyAccount
  /** How long a transaction whose nonce is ahead waits for its predecessors. @default 30 s */
  holdMs?: number | undefined
  /** How long to wait for a receipt. @default 60 s */
  receiptTimeoutMs?: number | undefined
  /** Most jobs queued for one wallet. @default 100 */
  maxPerWallet?: number | undefined
  /** Most jobs queued over all wallets. @default 2000 */
  maxQueued?: number | undefined
  /** Called after a job's status or hash changes. */
  onChange?: ((relayed: Relayed) => void) | undefined
}

/** The gas limit when estimation fails: the transaction is sent and reverts on chain. */
const fallbackGas = 3_000_000n
/**
 * Headroom over the estimate. A CREATE2 that runs out of gas fails without
 * reverting `Factory.deploy`, and `execute` on an address without code
 * "succeeds", so an estimate can settle on a limit that deploys nothing.
 */
const deployHeadroom = 500_000n
const executeHeadroom = 100_000n

/** Puts jobs on chain in per-wallet nonce order. */
export type Submitter = {
  /**
   * Queues a job.
   *
   * @returns false when the queues are full (the job is not taken).
   */
  enqueue(job: Job): boolean
  /**
   * Resolves once the job with relayer id `id` has moved on: left
   * `PENDING` (it has a hash, or it failed), or found waiting for a
   * predecessor's nonce; at once for a job not in a queue; after
   * `timeoutMs` at the latest. The status route answers after it, so a
   * client's first poll, made right after the relayer took the
   * transaction, finds it submitted instead of waiting a whole polling
   * interval for what takes the node milliseconds.
   */
  progressed(id: string, timeoutMs: number): Promise<void>
  /** Stops: queued jobs are left as they are, nothing more is sent. */
  stop(): void
}

type Queue = {
  jobs: Job[]
  running: boolean
  /** Wakes the queue's loop when a job joins. */
  wake?: (() => void) | undefined
}

type ChainClients = {
  chain: SubmitterChain
  publicClient: PublicClient
  walletClient: WalletClient
  /** The tail of the relayer key's sends on this chain. */
  sending: Promise<unknown>
}

/** Creates a submitter. */
export function createSubmitter(options: SubmitterOptions): Submitter {
  const {
    account,
    holdMs = 30_000,
    receiptTimeoutMs = 60_000,
    maxPerWallet = 100,
    maxQueued = 2000,
    onChange,
  } = options
  const clients = new Map<number, ChainClients>()
  for (const chain of options.chains) {
    const viemChain: Chain = defineChain({
      ...anvil,
      id: chain.chainId,
      rpcUrls: { default: { http: [chain.nodeUrl] } },
    })
    const transport = http(chain.nodeUrl)
    clients.set(chain.chainId, {
      chain,
      publicClient: createPublicClient({
        chain: viemChain,
        transport,
        pollingInterval: 50,
      }),
      walletClient: createWalletClient({
        account,
        chain: viemChain,
        transport,
        pollingInterval: 50,
      }),
      sending: Promise.resolve(),
    })
  }
  const queues = new Map<string, Queue>()
  let queued = 0
  let stopped = false
  /**
   * Ids of the jobs in a queue or being submitted, each with the callers
   * waiting for it to move on (bounded: every job in it is queued, and the
   * queues are).
   */
  const watched = new Map<string, Set<() => void>>()
  const moved = (job: Job) => {
    const waiting = watched.get(job.relayed.id)
    if (!waiting) return
    for (const wake of waiting) wake()
    waiting.clear()
  }

  const settle = (job: Job, status: Status, statusMessage?: string) => {
    job.relayed.status = status
    if (statusMessage !== undefined) job.relayed.statusMessage = statusMessage
    onChange?.(job.relayed)
    moved(job)
  }

  /** The wallet's next nonce in `space` (0 while it has no code). */
  const readNonce = async (
    client: PublicClient,
    wallet: Address,
    space: bigint,
  ) => {
    // Both at once: the read of a wallet without code fails, and is then
    // not needed.
    const [code, read] = await Promise.all([
      client.getCode({ address: wallet }),
      client
        .readContract({
          address: wallet,
          abi: MainModule.abi,
          functionName: 'readNonce',
          args: [space],
        })
        .then(
          (nonce) => ({ nonce }),
          (error: unknown) => ({ error }),
        ),
    ])
    if (!code || code === '0x') return { deployed: false, nonce: 0n }
    if ('error' in read) throw read.error
    return { deployed: true, nonce: read.nonce }
  }

  /** Sends from the relayer key, one send at a time per chain. */
  const send = (
    c: ChainClients,
    request: { to: Address; data: Hex; gas: bigint },
  ) => {
    const sent = c.sending.then(async () => {
      const nonce = await c.publicClient.getTransactionCount({
        address: account.address,
        blockTag: 'pending',
      })
      return c.walletClient.sendTransaction({
        account,
        chain: c.walletClient.chain,
        ...request,
        nonce,
      })
    })
    c.sending = sent.catch(() => undefined)
    return sent
  }

  /** What the relayer sends for `job`: to the wallet, or through the guest module. */
  const requestOf = (c: ChainClients, job: Job, deployed: boolean) => {
    const { contracts } = c.chain
    const wallet = job.relayed.wallet
    const executeData = encodeExecute(job.execute)
    const batch: MetaTransaction[] = []
    if (!deployed)
      batch.push(
        metaTransaction({
          to: contracts.factory,
          data: encodeDeploy({
            mainModule: contracts.mainModule,
            imageHash: imageHash(
              playerWalletConfig({
                custody: job.custody,
                coSigner: contracts.coSigner,
              }),
            ),
          }),
        }),
      )
    batch.push(metaTransaction({ to: wallet, data: executeData }))
    // The factory has no fallback: calling it with an unknown selector
    // reverts, and the guest module reverts the whole batch with it.
    if (job.forceRevert)
      batch.push(metaTransaction({ to: contracts.factory, data: '0xdeadbeef' }))
    return batch.length === 1
      ? { to: wallet, data: executeData }
      : {
          to: contracts.guestModule,
          // The guest module's execute has the wallet's signature.
          data: encodeExecute({
            transactions: batch,
            nonce: 0n,
            signature: '0x',
          }),
        }
  }

  /** The gas to send `request` with (never rejects: a failed estimate falls back). */
  const gasOf = (
    c: ChainClients,
    request: { to: Address; data: Hex },
    deployed: boolean,
  ): Promise<bigint> =>
    c.publicClient
      .estimateGas({ account: account.address, ...request })
      .then(
        (estimate) => estimate + (deployed ? executeHeadroom : deployHeadroom),
      )
      .catch(() => fallbackGas)

  /**
   * Submits `job`. `estimated` is the gas of the deployed wallet's request,
   * estimated while its nonce was read (most jobs are for a deployed
   * wallet: the estimate need not wait for that read).
   */
  const submit = async (
    c: ChainClients,
    job: Job,
    deployed: boolean,
    estimated?: Promise<bigint> | undefined,
  ) => {
    const wallet = job.relayed.wallet
    const request = requestOf(c, job, deployed)
    const gas = await (estimated ?? gasOf(c, request, deployed))
    const hash = await send(c, { ...request, gas })
    job.relayed.hash = hash
    onChange?.(job.relayed)
    // A revert a test asked for stays PENDING until it is mined, then is
    // REVERTED: a client stops polling at SUBMITTED (it has a hash), so a
    // short SUBMITTED window would let it race past the failure it tests.
    if (!job.forceRevert) settle(job, 'SUBMITTED')
    const receipt = await c.publicClient.waitForTransactionReceipt({
      hash,
      timeout: receiptTimeoutMs,
    })
    if (receipt.status !== 'success') {
      settle(job, 'REVERTED', revertMessage(await revertDataOf(c, hash)))
      return
    }
    const { space, nonce } = decodeNonce(job.execute.nonce)
    const after = await readNonce(c.publicClient, wallet, space)
    if (after.nonce > nonce) settle(job, 'SUCCESSFUL')
    else
      settle(
        job,
        'FAILED',
        'The transaction was mined but the wallet did not execute it.',
      )
  }

  const drain = async (key: string, queue: Queue, c: ChainClients) => {
    queue.running = true
    const heldSince = new Map<Job, number>()
    try {
      while (queue.jobs.length > 0 && !stopped) {
        queue.jobs.sort((a, b) =>
          a.execute.nonce < b.execute.nonce
            ? -1
            : a.execute.nonce > b.execute.nonce
              ? 1
              : 0,
        )
        const job = queue.jobs[0]!
        const { space, nonce } = decodeNonce(job.execute.nonce)
        const take = () => {
          queue.jobs.shift()
          queued--
          heldSince.delete(job)
        }
        const drop = () => {
          take()
          watched.delete(job.relayed.id)
        }
        let state: { deployed: boolean; nonce: bigint }
        // Estimated beside the nonce read, as if deployed (nearly always).
        const estimated = job.forceRevert
          ? undefined
          : gasOf(c, requestOf(c, job, true), true)
        try {
          state = await readNonce(c.publicClient, job.relayed.wallet, space)
        } catch (error) {
          settle(
            job,
            'FAILED',
            `The chain could not be read: ${messageOf(error)}`,
          )
          drop()
          continue
        }
        if (nonce < state.nonce) {
          settle(job, 'FAILED', `The wallet's nonce ${nonce} is already used.`)
          drop()
          continue
        }
        if (nonce > state.nonce) {
          const since = heldSince.get(job) ?? Date.now()
          heldSince.set(job, since)
          moved(job)
          const left = since + holdMs - Date.now()
          if (left <= 0) {
            settle(
              job,
              'FAILED',
              `The wallet's nonce ${nonce} is ahead of its next nonce ${state.nonce}, whose transaction never came.`,
            )
            drop()
            continue
          }
          // Sleep until a job joins, the hold ends, or a short while passes
          // (a predecessor may be mined by someone else).
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(left, 250))
            queue.wake = () => {
              clearTimeout(timer)
              resolve()
            }
          })
          queue.wake = undefined
          continue
        }
        take()
        try {
          await submit(
            c,
            job,
            state.deployed,
            state.deployed ? estimated : undefined,
          )
        } catch (error) {
          settle(
            job,
            'FAILED',
            `The transaction could not be submitted: ${messageOf(error)}`,
          )
        } finally {
          moved(job)
          watched.delete(job.relayed.id)
        }
      }
    } finally {
      queue.running = false
      if (queue.jobs.length === 0) queues.delete(key)
    }
  }

  return {
    enqueue(job) {
      const c = clients.get(job.relayed.chainId)
      if (!c || stopped) return false
      const { space } = decodeNonce(job.execute.nonce)
      const key = `${job.relayed.chainId}:${job.relayed.wallet}:${space}`
      let queue = queues.get(key)
      if (queued >= maxQueued || (queue && queue.jobs.length >= maxPerWallet))
        return false
      if (!queue) {
        queue = { jobs: [], running: false }
        queues.set(key, queue)
      }
      queue.jobs.push(job)
      queued++
      watched.set(job.relayed.id, new Set())
      queue.wake?.()
      if (!queue.running) void drain(key, queue, c).catch(() => undefined)
      return true
    },
    progressed(id, timeoutMs) {
      const waiting = watched.get(id)
      if (!waiting || stopped) return Promise.resolve()
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          waiting.delete(wake)
          resolve()
        }
        const timer = setTimeout(wake, timeoutMs)
        waiting.add(wake)
      })
    },
    stop() {
      stopped = true
      for (const waiting of watched.values()) for (const wake of waiting) wake()
      watched.clear()
      for (const queue of queues.values()) queue.wake?.()
    },
  }
}

/**
 * The revert data of a mined transaction that reverted: the output of its
 * top call, from the node's call tracer (the services reach the node
 * itself, which answers debug methods). A wallet bubbles up the revert
 * data of the call that failed in it (Sequence's `revertOnError`), so this
 * is the failing contract's own error. `undefined` if the node cannot say.
 */
async function revertDataOf(
  c: ChainClients,
  hash: Hex,
): Promise<Hex | undefined> {
  try {
    const trace = await c.publicClient.request<{
      Method: 'debug_traceTransaction'
      Parameters: [Hex, { tracer: 'callTracer' }]
      ReturnType: { output?: unknown }
    }>({
      method: 'debug_traceTransaction',
      params: [hash, { tracer: 'callTracer' }],
    })
    const output = trace?.output
    return typeof output === 'string' && isHex(output, { strict: true })
      ? output
      : undefined
  } catch {
    return undefined
  }
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object' && 'shortMessage' in error)
    return String(error.shortMessage)
  return error instanceof Error ? error.message : String(error)
}
