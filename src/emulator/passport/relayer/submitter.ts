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
  defineChain,
  type Hex,
  http,
  isHex,
  type PrivateKeyAccount,
  type PublicClient,
} from 'viem'
import { anvil } from 'viem/chains'
import * as Transport from '../../../core/Transport.js'
import type { Status } from '../../../passport/wire/relayer.js'
import {
  decodeNonce,
  decodeReadNonce,
  type Execute,
  encodeDeploy,
  encodeExecute,
  encodeReadNonce,
  imageHash,
  type MetaTransaction,
  metaTransaction,
  playerWalletConfig,
} from '../../../passport/wire/sequence.js'
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
  /** Its reads, asked for ahead by {@link Submitter.prepare}. */
  prepared?: Prepared | undefined
}

/** Reads asked for ahead of a job (see {@link Submitter.prepare}). */
export type Prepared = { readonly reads: Reads; readonly queueKey: string }

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
   * Asks the node for what `job` needs before it is sent (the wallet's
   * state, the gas, the fees), ahead of queueing it, when its wallet's
   * queue is empty: a job queued behind others reads once they are done.
   * Queued with the job, the reads are used if the queue is still empty
   * then; otherwise they are dropped.
   */
  prepare(job: Job): Prepared | undefined
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

/** EIP-1559 fees per gas. */
type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

type ChainClients = {
  chain: SubmitterChain
  /** For waiting on receipts and tracing reverts. */
  publicClient: PublicClient
  /**
   * The node, for what a job reads before it is sent and for the send
   * itself. The reads go out as one batch the moment the job has asked for
   * all of them (`flush`): one request, where one per call kept the
   * emulator's event loop busy about as long again.
   */
  node: Transport.HttpTransport
  /** The tail of the relayer key's sends on this chain. */
  sending: Promise<unknown>
  /** Sends entered and not yet answered by the node. */
  inFlight: number
  /** Sends the node answered (accepted or not), ever. */
  answered: number
}

/** What a job reads before it is sent, asked for in one batch. */
export type Reads = {
  /** The wallet's code and next nonce in the job's space. */
  state: Promise<WalletState>
  /** The gas of the job's request as if the wallet is deployed (nearly always). */
  gas: Promise<bigint> | undefined
  fees: Promise<Fees>
  /**
   * The relayer key's next nonce, read while no send of the chain was on
   * its way; `answered` is the chain's count then. It is used only if no
   * send was answered since, when it is still the next.
   */
  relayerNonce: { value: Promise<bigint>; answered: number } | undefined
}

/** A wallet's code and next nonce in one space (0 while it has no code). */
type WalletState = { deployed: boolean; nonce: bigint }

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
    clients.set(chain.chainId, {
      chain,
      publicClient: createPublicClient({
        chain: viemChain,
        transport: http(chain.nodeUrl),
        pollingInterval: 50,
      }),
      node: Transport.http(chain.nodeUrl),
      sending: Promise.resolve(),
      inFlight: 0,
      answered: 0,
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

  const call = <result>(c: ChainClients, method: string, params: unknown[]) =>
    c.node.request<result>({ method, params })

  /**
   * The wallet's code and next nonce in `space`, both asked for (not sent:
   * the caller flushes). A wallet without code has used no nonce.
   */
  const walletState = (
    c: ChainClients,
    wallet: Address,
    space: bigint,
  ): Promise<WalletState> => {
    const code = call<Hex>(c, 'eth_getCode', [wallet, 'latest'])
    // Asked for beside the code: a wallet without code answers it with
    // nothing, and it is then not needed.
    const read = call<Hex>(c, 'eth_call', [
      { to: wallet, data: encodeReadNonce(space) },
      'latest',
    ]).then(
      (data) => ({ data }),
      (error: unknown) => ({ error }),
    )
    return Promise.all([code, read]).then(([code, read]) => {
      if (!code || code === '0x') return { deployed: false, nonce: 0n }
      if ('error' in read) throw read.error
      return { deployed: true, nonce: decodeReadNonce(read.data) }
    })
  }

  /**
   * What a send pays per gas (EIP-1559): the node's suggested tip, and at
   * most twice the latest block's base fee on top, as ethers and most
   * wallets cap it, so the transaction stays valid while the base fee
   * rises for a few blocks.
   */
  const feesOf = async (c: ChainClients): Promise<Fees> => {
    const [block, tip] = await Promise.all([
      call<{ baseFeePerGas?: Hex | null } | null>(c, 'eth_getBlockByNumber', [
        'latest',
        false,
      ]),
      call<Hex>(c, 'eth_maxPriorityFeePerGas', []),
    ])
    const maxPriorityFeePerGas = BigInt(tip)
    const baseFee = block?.baseFeePerGas ? BigInt(block.baseFeePerGas) : 0n
    return {
      maxFeePerGas: baseFee * 2n + maxPriorityFeePerGas,
      maxPriorityFeePerGas,
    }
  }

  /** The relayer key's next nonce, its sends waiting in the node included. */
  const relayerNonceOf = (c: ChainClients) =>
    call<Hex>(c, 'eth_getTransactionCount', [account.address, 'pending']).then(
      BigInt,
    )

  /**
   * Asks for everything `job` needs before it is sent, in one batch: the
   * wallet's state, the gas and the fees, and the relayer key's nonce when
   * no send is on its way (the count could not tell whether it is in it).
   */
  const readsOf = (c: ChainClients, job: Job, space: bigint): Reads => {
    const reads: Reads = {
      state: walletState(c, job.relayed.wallet, space),
      gas: job.forceRevert
        ? undefined
        : gasOf(c, requestOf(c, job, true), true),
      fees: feesOf(c),
      relayerNonce:
        c.inFlight === 0
          ? { value: relayerNonceOf(c), answered: c.answered }
          : undefined,
    }
    c.node.flush()
    // Not needed when the job is not sent now; a failure is the send's.
    reads.fees.catch(() => {})
    reads.relayerNonce?.value.catch(() => {})
    return reads
  }

  /**
   * Sends from the relayer key, one send at a time per chain, each with the
   * account's next nonce. The transaction is signed here and sent raw: its
   * chain, gas and fees are known already, where a wallet client's send
   * asks the node for them again (a round trip each, on every send).
   */
  const send = (
    c: ChainClients,
    request: { to: Address; data: Hex; gas: bigint },
    fees: Fees,
    read: Reads['relayerNonce'],
  ) => {
    c.inFlight++
    const sent = c.sending.then(async () => {
      try {
        const fresh = !read || read.answered !== c.answered
        const nonceP = fresh ? relayerNonceOf(c) : read.value
        if (fresh) c.node.flush()
        const nonce = await nonceP
        const serializedTransaction = await account.signTransaction({
          type: 'eip1559',
          chainId: c.chain.chainId,
          nonce: Number(nonce),
          ...request,
          ...fees,
        })
        const hash = call<Hex>(c, 'eth_sendRawTransaction', [
          serializedTransaction,
        ])
        c.node.flush()
        return await hash
      } finally {
        c.inFlight--
        c.answered++
      }
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

  /**
   * The gas to send `request` with (never rejects: a call that reverts
   * falls back, and is sent to revert on chain).
   *
   * A deployed wallet's request is run once (`eth_createAccessList`, which
   * answers the gas it used), with a quarter more and the headroom on top:
   * what one run does not show is covered, the gas a call must keep back
   * (63/64 of what is left goes to a callee, EIP-150) and the refund paid
   * at the end (at most a fifth of the gas used, EIP-3529). The node's
   * `eth_estimateGas` searches for the least gas that works, running it
   * a few times: that took as long as the rest of what the relayer reads
   * before sending, and each send waits on it. A deployment is estimated
   * that way all the same (see {@link deployHeadroom}).
   */
  const gasOf = (
    c: ChainClients,
    request: { to: Address; data: Hex },
    deployed: boolean,
  ): Promise<bigint> =>
    (deployed
      ? call<{ gasUsed?: Hex; error?: unknown }>(c, 'eth_createAccessList', [
          { from: account.address, ...request },
          'latest',
        ]).then(({ gasUsed, error }) => {
          if (error !== undefined || !gasUsed) throw error
          return (BigInt(gasUsed) * 5n) / 4n + executeHeadroom
        })
      : call<Hex>(c, 'eth_estimateGas', [
          { from: account.address, ...request },
        ]).then((estimate) => BigInt(estimate) + deployHeadroom)
    ).catch(() => fallbackGas)

  /**
   * Submits `job`, with what was read for it. The gas was estimated as if
   * the wallet is deployed; a wallet that is not is estimated again, with
   * its deployment.
   */
  const submit = async (
    c: ChainClients,
    job: Job,
    deployed: boolean,
    reads: Reads,
  ) => {
    const wallet = job.relayed.wallet
    const request = requestOf(c, job, deployed)
    let estimated = deployed ? reads.gas : undefined
    if (!estimated) {
      estimated = gasOf(c, request, deployed)
      c.node.flush()
    }
    const [gas, fees] = await Promise.all([estimated, reads.fees])
    const hash = await send(c, { ...request, gas }, fees, reads.relayerNonce)
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
    const read = walletState(c, wallet, space)
    c.node.flush()
    const after = await read
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
        let state: WalletState
        const reads = job.prepared?.reads ?? readsOf(c, job, space)
        // Read for the queue as it was: a second pass reads again.
        job.prepared = undefined
        try {
          state = await reads.state
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
          await submit(c, job, state.deployed, reads)
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

  const keyOf = (job: Job) =>
    `${job.relayed.chainId}:${job.relayed.wallet}:${decodeNonce(job.execute.nonce).space}`

  return {
    prepare(job) {
      const c = clients.get(job.relayed.chainId)
      const key = keyOf(job)
      if (!c || stopped || queues.has(key)) return undefined
      const reads = readsOf(c, job, decodeNonce(job.execute.nonce).space)
      // Dropped unused when the job is refused.
      reads.state.catch(() => {})
      return { reads, queueKey: key }
    },
    enqueue(job) {
      const c = clients.get(job.relayed.chainId)
      if (!c || stopped) return false
      const key = keyOf(job)
      let queue = queues.get(key)
      // Reads made before another job joined the queue may be stale.
      if (queue || job.prepared?.queueKey !== key) job.prepared = undefined
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
