/**
 * The game wallet's emulated relayer: the JSON-RPC endpoint the published
 * @imtbl/passport 2.x sends transactions and signing requests to.
 *
 * It acts for one wallet per access token: the zkEVM wallet registered for
 * the token's player. A request about any other wallet (a send to it, its
 * status, its fees, a co-signature for it) is refused with 4100
 * (EIP-1193's unauthorized), whatever the signatures in it: a page holding
 * one player's token must not spend or sign for another's wallet.
 *
 * The client signs only its own part of the 2-of-2 wallet. The relayer
 * checks that part (it recovers the player's custody key, whose
 * counterfactual wallet must be the one addressed), checks that the
 * guardian allowed exactly this digest for this wallet and chain, then
 * adds the co-signer's part and submits from its own funded key. It never
 * co-signs what the guardian did not allow. Messages (`im_sign`,
 * `im_signTypedData`) get the co-signer's part back for the client to
 * combine with its own.
 *
 * Tests steer it through loopback-only routes under `/dev/`: the fee price,
 * and the outcome of the next sends (failed, reverted, stalled, cancelled).
 *
 * @packageDocumentation
 */
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import {
  type Address,
  getAddress,
  type Hex,
  isAddress,
  isHex,
  type TypedDataDefinition,
} from 'viem'
import * as RpcErrors from '../../../core/RpcErrors.js'
import {
  caip2,
  errorCodes,
  type FeeOption,
  feeTokenSymbol,
  methods,
  path,
  type RelayerTransaction,
  statuses,
} from '../../../passport/wire/relayer.js'
import {
  coSignerPart,
  decodeExecute,
  decodeSignature,
  type Execute,
  encodeSignaturePart,
  InvalidExecuteError,
  InvalidWalletSignatureError,
  type MetaTransaction,
  playerWalletAddress,
  playerWalletSignature,
  subDigest,
  transactionsDigest,
  typedDataDigest,
} from '../../../passport/wire/sequence.js'
import { coSignerKey, relayerSubmitter } from '../../chain/accounts.js'
import type { Contracts } from '../../chain/deploy.js'
import { recoverSigner, signEthSign } from '../../chain/sequence.js'
import { erc191Digest, type Guardian } from '../../guardian.js'
import * as Inspect from '../../inspect.js'
import type { Registry } from '../../registry/index.js'
import { relayerOutcome } from '../../scenarios.js'
import { createApp, startServer } from '../../server.js'
import { defineService } from '../../service.js'
import { createVerifier, type Verifier } from '../bearer.js'
import {
  createSubmitter,
  type Relayed,
  type SubmitterChain,
} from './submitter.js'

/** The most relayed transactions remembered; the oldest are forgotten past it. */
export const maxTransactions = 10_000

/** The most outcomes a test may queue for the next sends. */
export const maxOutcomes = 1000

/** The longest message and payload accepted, in characters of JSON. */
const maxMessageLength = 64 * 1024

/**
 * The longest a status request waits for a transaction on its way to the
 * node (one polling interval of the published SDK's), in ms.
 */
const statusWaitMs = 1_000

/** What a test can make the next sends do. */
export type Outcome = 'fail' | 'revert' | 'stall' | 'cancel'

const outcomes: readonly Outcome[] = ['fail', 'revert', 'stall', 'cancel']

/** The relayer's test controls (also reachable under `/dev/`). */
export type Controls = {
  /** Sets the IMX fee's price, wei as a decimal string. */
  setFee(tokenPrice: bigint): void
  /**
   * Makes the next `count` sends end as `outcome`: the next sends to
   * `wallet` only when given (so tests running side by side, each with its
   * own wallet, do not take each other's outcomes), else the next sends of
   * any wallet without outcomes of its own. `message` is the status
   * message of a failed or cancelled send; a reverted one is really
   * reverted on chain, and its message is the chain's reason.
   */
  next(
    outcome: Outcome,
    count?: number,
    message?: string,
    wallet?: Address,
  ): void
  /** Back to defaults: fee 0, no queued outcomes. */
  reset(): void
}

/** A relayer: its fetch handler and controls. */
export type Relayer = {
  fetch: (request: Request) => Response | Promise<Response>
  controls: Controls
  /** Stops its submissions. */
  stop(): void
}

/** The address fee options name for the native token (IMX on Immutable zkEVM). */
export const nativeTokenAddress = '0x0000000000000000000000000000000000000000'

/**
 * Whether a batch holds a plain transfer of at least `fee` wei to the
 * relayer: value sent by a call, not by a delegate call, with no calldata.
 */
function paysFee(transactions: readonly MetaTransaction[], fee: bigint) {
  return transactions.some(
    (tx) =>
      !tx.delegateCall &&
      tx.data === '0x' &&
      tx.value >= fee &&
      tx.target.toLowerCase() === relayerSubmitter.address.toLowerCase(),
  )
}

/**
 * Creates the relayer's handler.
 *
 * @param options.issuer - The identity provider whose access tokens it accepts.
 * @param options.registry - The players, whose registered wallets it acts for.
 * @param options.chains - The chains it relays to (node URL and contracts).
 * @param options.guardian - The shared guardian state it asks before co-signing.
 */
export function createRelayer(options: createRelayer.Options): Relayer {
  const { chains, guardian, registry } = options
  const verify: Verifier =
    options.verify ??
    createVerifier({
      issuer: options.issuer,
      advancedSince: options.advancedSince,
    })
  const byChain = new Map(chains.map((chain) => [chain.chainId, chain]))
  const { inspect } = options
  const changed = () => inspect?.changed(Inspect.sources.relayer)
  const submitter = createSubmitter({
    chains,
    account: relayerSubmitter,
    holdMs: options.holdMs,
    receiptTimeoutMs: options.receiptTimeoutMs,
    onChange: changed,
  })
  const transactions = new Map<string, Relayed>()
  /** The calls of each relayed batch, for the UI. */
  const calls = new WeakMap<Relayed, readonly MetaTransaction[]>()
  let fee = 0n
  type Plan = { outcome: Outcome; message?: string | undefined }
  const planned: Plan[] = []
  /** Outcomes planned for one wallet; at most {@link maxOutcomes} in all. */
  const plannedFor = new Map<Address, Plan[]>()
  const plannedCount = () => {
    let count = planned.length
    for (const plans of plannedFor.values()) count += plans.length
    return count
  }
  const nextPlan = (wallet: Address): Plan | undefined => {
    const own = plannedFor.get(wallet)
    if (!own) return planned.shift()
    const plan = own.shift()
    if (own.length === 0) plannedFor.delete(wallet)
    return plan
  }

  const controls: Controls = {
    setFee(tokenPrice) {
      fee = tokenPrice
    },
    next(outcome, count = 1, message, wallet) {
      const queue = wallet ? (plannedFor.get(wallet) ?? []) : planned
      for (let i = 0; i < count && plannedCount() < maxOutcomes; i++)
        queue.push({ outcome, message })
      if (wallet && queue.length > 0) plannedFor.set(wallet, queue)
    },
    reset() {
      fee = 0n
      planned.length = 0
      plannedFor.clear()
    },
  }

  // What the UI shows: the newest transactions with their status and
  // calls, and the outcomes planned for the next sends.
  inspect?.register(Inspect.sources.relayer, {
    snapshot: () => ({
      fee: fee.toString(),
      planned: plannedCount(),
      transactions: [...transactions.values()]
        .reverse()
        // Fewer than other lists: each holds its calls' data.
        .slice(0, 50)
        .map((relayed) => ({
          ...relayed,
          calls: (calls.get(relayed) ?? []).map((call) => ({
            ...call,
            value: call.value.toString(),
            gasLimit: call.gasLimit.toString(),
          })),
        })),
    }),
  })

  const remember = (relayed: Relayed) => {
    if (transactions.size >= maxTransactions) {
      const oldest = transactions.keys().next().value as string
      transactions.delete(oldest)
    }
    transactions.set(relayed.id, relayed)
    changed()
  }

  const chainOf = (value: unknown): SubmitterChain => {
    const match =
      typeof value === 'string' ? /^eip155:([1-9]\d{0,15})$/.exec(value) : null
    const chain = match ? byChain.get(Number(match[1])) : undefined
    if (!chain)
      throw invalidParams(
        `chainId must be one of ${[...byChain.keys()].map(caip2).join(', ')}.`,
      )
    return chain
  }

  const coSign = (chainId: number, wallet: Address, digest: Hex) =>
    signEthSign(coSignerKey, subDigest({ chainId, wallet, digest }))

  /**
   * The zkEVM wallet registered for the token's player (the platform API
   * records it once the player's custody key proved itself: the
   * counterfactual address of that key's 2-of-2 wallet).
   */
  const walletOfPlayer = (sub: string): Address | undefined => {
    const player = registry.get(sub)
    // A player is an identity provider's user, keyed by email: a custody
    // key's user id must not pass for one.
    if (!player || player.oidc !== undefined) return undefined
    return player.passport.zkevmEthAddress
  }

  async function sendTransaction(
    params: unknown,
    own: Address,
    ownCustody: Address | undefined,
  ): Promise<string> {
    const { to, data, chainId } = objectParam(params, ['to', 'data', 'chainId'])
    const chain = chainOf(chainId)
    const wallet = ownWallet(addressParam(to, 'to'), own, 'to')
    if (!isHex(data, { strict: true }) || data.length > 2 * 128 * 1024)
      throw invalidParams('data must be execute calldata as hex.')
    let execute: Execute
    let userPart: Hex
    try {
      execute = decodeExecute(data)
      const { parts } = decodeSignature(execute.signature)
      const [part, ...others] = parts
      if (part?.type !== 'eoa' || others.length > 0)
        throw invalidParams(
          "The signature must hold the player's part only (one EOA part).",
        )
      userPart = part.signature
    } catch (error) {
      rethrowAsInvalidParams(error)
    }
    const digest = transactionsDigest(execute.nonce, execute.transactions)
    const coSignature = await coSign(chain.chainId, wallet, digest)
    const signatureOf = (custody: Address) =>
      playerWalletSignature({
        custody,
        custodySignature: userPart,
        coSigner: chain.contracts.coSigner,
        coSignature,
      })
    const relayed: Relayed = {
      id: crypto.randomUUID(),
      chainId: chain.chainId,
      wallet,
      status: statuses.pending,
    }
    // What the submission reads from the node (the wallet's nonce, the
    // gas, the fees) is asked for before the player's signature is checked,
    // with the signature put together for the custody key the player
    // registered, so that the node works while this process recovers the
    // key (milliseconds of CPU). It is used only if the signature is that
    // key's and the send goes through.
    const prepared =
      ownCustody &&
      (fee === 0n || paysFee(execute.transactions, fee)) &&
      guardian.isAllowed({ chainId: chain.chainId, wallet, digest }) &&
      options.standing?.() === undefined &&
      plannedCount() === 0
        ? submitter.prepare({
            relayed,
            custody: ownCustody,
            execute: { ...execute, signature: signatureOf(ownCustody) },
            forceRevert: false,
          })
        : undefined
    // Lets the node's request leave before the CPU-bound recovery.
    if (prepared) await new Promise((resolve) => setImmediate(resolve))
    let custody: Address
    try {
      custody = await recoverSigner(
        subDigest({ chainId: chain.chainId, wallet, digest }),
        userPart,
      )
    } catch (error) {
      rethrowAsInvalidParams(error)
    }
    if (playerWalletAddress({ custody, contracts: chain.contracts }) !== wallet)
      throw invalidParams(
        `The signature is not from the player of ${wallet} (it recovers ${custody}).`,
      )
    // A relayer pays the gas, so it relays only a batch that pays its
    // price back: the fee option's transfer to its recipient, which the
    // published SDK appends when the price is above zero.
    if (fee > 0n && !paysFee(execute.transactions, fee))
      throw invalidParams(
        `The transaction must pay the relayer's fee: a transfer of at least ${fee} wei to ${relayerSubmitter.address}.`,
      )
    if (!guardian.isAllowed({ chainId: chain.chainId, wallet, digest }))
      throw new RpcErrors.TransactionRejectedError({
        message: 'The guardian has not allowed this transaction.',
      })
    const signature = signatureOf(custody)

    // A standing outcome (a relayer scenario) comes before the planned
    // ones, which stay queued for after it.
    const standing = options.standing?.()
    const plan: Plan | undefined = standing
      ? { outcome: standing }
      : nextPlan(wallet)
    if (plan?.outcome === 'fail' || plan?.outcome === 'cancel') {
      relayed.status =
        plan.outcome === 'fail' ? statuses.failed : statuses.cancelled
      relayed.statusMessage =
        plan.message ??
        (plan.outcome === 'fail'
          ? 'The relayer failed to submit the transaction.'
          : 'The transaction was cancelled.')
    } else if (plan?.outcome !== 'stall') {
      const taken = submitter.enqueue({
        relayed,
        custody,
        execute: { ...execute, signature },
        forceRevert: plan?.outcome === 'revert',
        prepared: custody === ownCustody ? prepared : undefined,
      })
      if (!taken)
        throw new RpcErrors.LimitExceededError({
          message: 'The relayer has too many transactions queued; retry later.',
        })
    }
    calls.set(relayed, execute.transactions)
    remember(relayed)
    return relayed.id
  }

  async function getTransactionByHash(
    params: unknown,
    own: Address,
  ): Promise<RelayerTransaction> {
    if (!Array.isArray(params) || params.length !== 1)
      throw invalidParams('params must be [relayerId].')
    const [id] = params
    const relayed = typeof id === 'string' ? transactions.get(id) : undefined
    if (!relayed) throw invalidParams('No relayed transaction has this id.')
    if (relayed.wallet !== own)
      throw new RpcErrors.UnauthorizedError({
        message: `The relayed transaction is for ${relayed.wallet}, not the wallet of the access token's player.`,
      })
    // A transaction on its way to the node is answered once it is there
    // (at most a polling interval later): the published SDK polls at once,
    // then every second, and the submission takes the node milliseconds.
    await submitter.progressed(relayed.id, statusWaitMs)
    return {
      status: relayed.status,
      chainId: caip2(relayed.chainId),
      relayerId: relayed.id,
      ...(relayed.hash === undefined ? {} : { hash: relayed.hash }),
      ...(relayed.statusMessage === undefined
        ? {}
        : { statusMessage: relayed.statusMessage }),
    }
  }

  function getFeeOptions(params: unknown, own: Address): FeeOption[] {
    const { userAddress, data, chainId } = objectParam(params, [
      'userAddress',
      'data',
      'chainId',
    ])
    chainOf(chainId)
    ownWallet(addressParam(userAddress, 'userAddress'), own, 'userAddress')
    if (!isHex(data, { strict: true }))
      throw invalidParams('data must be ABI-encoded meta-transactions as hex.')
    return [
      {
        tokenPrice: fee.toString(),
        tokenSymbol: feeTokenSymbol,
        tokenDecimals: 18,
        tokenAddress: nativeTokenAddress,
        recipientAddress: relayerSubmitter.address,
      },
    ]
  }

  async function signMessage(
    params: unknown,
    own: Address,
    kind: 'erc191' | 'eip712',
  ): Promise<string> {
    const payloadKey = kind === 'erc191' ? 'message' : 'eip712Payload'
    const fields = objectParam(params, ['chainId', 'address', payloadKey])
    const chain = chainOf(fields.chainId)
    const wallet = ownWallet(
      addressParam(fields.address, 'address'),
      own,
      'address',
    )
    const payload = fields[payloadKey]
    if (JSON.stringify(payload ?? null).length > maxMessageLength)
      throw invalidParams(`${payloadKey} is too long.`)
    let digest: Hex
    if (kind === 'erc191') {
      if (typeof payload !== 'string')
        throw invalidParams('message must be a string.')
      digest = erc191Digest(payload)
    } else {
      if (!payload || typeof payload !== 'object')
        throw invalidParams('eip712Payload must be typed data.')
      try {
        digest = typedDataDigest(payload as TypedDataDefinition)
      } catch {
        throw invalidParams('eip712Payload is not valid EIP-712 typed data.')
      }
    }
    if (!guardian.isAllowed({ chainId: chain.chainId, wallet, digest }))
      throw new RpcErrors.TransactionRejectedError({
        message: 'The guardian has not allowed this message.',
      })
    const part = coSignerPart({
      coSigner: chain.contracts.coSigner,
      signature: await coSign(chain.chainId, wallet, digest),
    })
    // The published SDK prefixes the answer with `0x0000` itself.
    return encodeSignaturePart(part).slice(2)
  }

  /** Each method, with the wallet of the token's player it may act for. */
  const handlers: Record<
    string,
    (params: unknown, own: Address, ownCustody: Address | undefined) => unknown
  > = {
    [methods.sendTransaction]: sendTransaction,
    [methods.getTransactionByHash]: getTransactionByHash,
    [methods.getFeeOptions]: getFeeOptions,
    [methods.sign]: (params, own) => signMessage(params, own, 'erc191'),
    [methods.signTypedData]: (params, own) =>
      signMessage(params, own, 'eip712'),
  }

  const app = createApp()
  app.get('/health', (c) => c.json({ ok: true }))
  // The real relayer is called from any dApp's page.
  app.use(
    path,
    cors({
      origin: '*',
      allowMethods: ['POST'],
      allowHeaders: ['Authorization', 'Content-Type', 'x-sdk-version'],
      // As the emulator's other services: without it a browser asks again
      // (a preflight round trip) for a send made 5 s after the last.
      maxAge: 600,
    }),
  )
  app.post(path, async (c) => {
    const bearer = await verify(c.req.header('authorization'))
    if (!bearer.ok) {
      c.header(
        'WWW-Authenticate',
        `Bearer error="invalid_token", error_description="${bearer.description}"`,
      )
      return c.json({ error: bearer.description }, 401)
    }
    let body: unknown
    try {
      body = await c.req.json()
    } catch {
      return c.json(
        rpcError(null, errorCodes.parse, 'The body is not JSON.'),
        400,
      )
    }
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return c.json(
        rpcError(
          null,
          errorCodes.invalidRequest,
          'The body must be one JSON-RPC request.',
        ),
        400,
      )
    const request = body as Record<string, unknown>
    const id = isRpcId(request.id) ? request.id : null
    if (request.jsonrpc !== '2.0' || typeof request.method !== 'string')
      return c.json(
        rpcError(
          id,
          errorCodes.invalidRequest,
          'A JSON-RPC 2.0 request with a method is required.',
        ),
        400,
      )
    const handler = Object.hasOwn(handlers, request.method)
      ? handlers[request.method]
      : undefined
    if (!handler)
      return c.json(
        rpcError(
          id,
          errorCodes.methodNotFound,
          `The relayer has no method ${request.method.slice(0, 64)}.`,
        ),
      )
    const own = walletOfPlayer(bearer.sub)
    if (!own)
      return c.json(
        rpcError(
          id,
          RpcErrors.UnauthorizedError.code,
          "The access token's player has no zkEVM wallet yet: register it first.",
        ),
      )
    try {
      const result = await handler(
        request.params,
        own,
        registry.get(bearer.sub)?.passport.zkevmUserAdminAddress,
      )
      return c.json({ jsonrpc: '2.0', id, result })
    } catch (error) {
      if (error instanceof RpcErrors.RpcError)
        return c.json({ jsonrpc: '2.0', id, error: error.toObject() })
      throw error
    }
  })

  const dev = new Hono()
  dev.post('/fee', async (c) => {
    const body = await jsonObject(c.req.raw)
    const price = body.tokenPrice
    if (typeof price !== 'string' || !/^\d{1,78}$/.test(price))
      return c.json(
        { error: 'tokenPrice must be wei as a decimal string.' },
        400,
      )
    controls.setFee(BigInt(price))
    return c.json({ tokenPrice: fee.toString() })
  })
  dev.post('/next', async (c) => {
    const body = await jsonObject(c.req.raw)
    const { outcome, count = 1, message, wallet } = body
    if (!outcomes.includes(outcome as Outcome))
      return c.json(
        { error: `outcome must be one of ${outcomes.join(', ')}.` },
        400,
      )
    if (
      !Number.isInteger(count) ||
      (count as number) < 1 ||
      (count as number) > maxOutcomes
    )
      return c.json(
        { error: `count must be an integer from 1 to ${maxOutcomes}.` },
        400,
      )
    if (
      message !== undefined &&
      (typeof message !== 'string' || message.length > 1000)
    )
      return c.json(
        { error: 'message must be a string of at most 1000 characters.' },
        400,
      )
    if (
      wallet !== undefined &&
      (typeof wallet !== 'string' || !isAddress(wallet, { strict: false }))
    )
      return c.json({ error: 'wallet must be an address.' }, 400)
    controls.next(
      outcome as Outcome,
      count as number,
      message as string | undefined,
      wallet === undefined ? undefined : getAddress(wallet as string),
    )
    return c.json({ planned: plannedCount() })
  })
  dev.post('/reset', (c) => {
    controls.reset()
    return c.json({ ok: true })
  })
  app.route('/dev', dev)

  return { fetch: app.fetch, controls, stop: () => submitter.stop() }
}

export declare namespace createRelayer {
  type Options = {
    /** The identity provider's origin (the tokens' issuer). */
    issuer: string
    /** The players: the relayer acts for the wallet registered for each. */
    registry: Registry
    chains: readonly {
      chainId: number
      nodeUrl: string
      contracts: Contracts
    }[]
    guardian: Guardian
    /** How long a transaction whose nonce is ahead waits. @default 30 s */
    holdMs?: number | undefined
    /** How long to wait for a receipt. @default 60 s */
    receiptTimeoutMs?: number | undefined
    /** A token check other than the issuer's (tests). */
    verify?: Verifier | undefined
    /**
     * The outcome every send takes while it returns one (read on each
     * send), before any planned with `next`. @default none
     */
    standing?: (() => Outcome | undefined) | undefined
    /**
     * How far the services' clock has moved since a wall-clock time (see
     * clock.ts), for the tokens' lifetimes. @default never moved
     */
    advancedSince?: ((at: number) => number) | undefined
    /** The observation hub its transactions are shown on. */
    inspect?: Inspect.Hub | undefined
  }
}

/** The relayer as an emulated service (slot `relayer`). */
export const service = defineService({
  name: 'relayer',
  async start(context) {
    const issuer = context.origins.identity
    if (!issuer) throw new Error('The relayer needs the identity provider.')
    const relayer = createRelayer({
      issuer,
      registry: context.registry,
      chains: context.chains,
      guardian: context.passport.guardian,
      standing: () => relayerOutcome(context.scenarios),
      advancedSince: context.clock.advancedSince,
      inspect: context.inspect,
    })
    const server = await startServer({
      fetch: relayer.fetch,
      ...context.listen,
      localOnly: ['/dev/'],
    })
    return {
      url: server.url,
      info: { passport: { relayerUrl: server.url } },
      async stop() {
        relayer.stop()
        await server.stop()
      },
    }
  },
})

function invalidParams(message: string) {
  return new RpcErrors.InvalidParamsError({ message })
}

/**
 * `wallet` when it is `own`, the wallet of the token's player; else the
 * request is refused, naming the parameter.
 */
/**
 * A malformed execute or signature is the caller's mistake: -32602 with
 * its text. Anything else is thrown as it is.
 */
function rethrowAsInvalidParams(error: unknown): never {
  if (
    error instanceof InvalidExecuteError ||
    error instanceof InvalidWalletSignatureError
  )
    throw invalidParams(error.message)
  throw error
}

function ownWallet(wallet: Address, own: Address, name: string): Address {
  if (wallet !== own)
    throw new RpcErrors.UnauthorizedError({
      message: `${name} ${wallet} is not the wallet of the access token's player.`,
    })
  return wallet
}

function rpcError(id: unknown, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } }
}

function isRpcId(value: unknown): value is string | number | null {
  return (
    value === null ||
    (typeof value === 'string' && value.length <= 100) ||
    (typeof value === 'number' && Number.isFinite(value))
  )
}

/** `params` as the SDK sends it, `[ { ...fields } ]`, with these fields present. */
function objectParam<const key extends string>(
  params: unknown,
  keys: readonly key[],
): Record<key, unknown> {
  const [first] = Array.isArray(params) ? params : []
  if (
    !Array.isArray(params) ||
    params.length !== 1 ||
    !first ||
    typeof first !== 'object' ||
    Array.isArray(first)
  )
    throw invalidParams(`params must be [{ ${keys.join(', ')} }].`)
  const object = first as Record<string, unknown>
  for (const key of keys)
    if (object[key] === undefined) throw invalidParams(`${key} is required.`)
  return object as Record<key, unknown>
}

function addressParam(value: unknown, name: string): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false }))
    throw invalidParams(`${name} must be an address.`)
  return getAddress(value)
}

/** A JSON object body, or an empty object. */
async function jsonObject(request: Request): Promise<Record<string, unknown>> {
  const body: unknown = await request.json().catch(() => undefined)
  return body && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {}
}
