/**
 * Sending from the smart-contract wallet: the calls become meta-transactions,
 * the relayer's IMX fee is appended, the nonce is reserved, the guardian
 * checks the batch while the custody key signs it, and the relayer submits
 * `execute(txs, nonce, signature)`; the provider then polls the relayer for
 * the chain's hash. The order is the published SDK's: chain id → (nonce ∥
 * fee) → (guardian ∥ signature) → relayer → polling.
 */
import type { Address, Hex } from 'viem'
import * as RpcErrors from '../../core/RpcErrors.js'
import { feeTokenSymbol } from '../wire/relayer.js'
import {
  decodeReadNonce,
  encodeExecute,
  encodeMetaTransactions,
  encodeNonce,
  encodeReadNonce,
  type MetaTransaction,
  metaTransaction,
  nonceSpaces,
  subDigest,
  transactionSignature,
  transactionsDigest,
} from '../wire/sequence.js'
import { getCode } from './chain.js'
import type { Context } from './context.js'
import { internalError, invalidParams, messages } from './errors.js'
import { checkTransaction } from './guardian.js'
import type { ConfirmationHandle } from './seams.js'

/** A call as `eth_sendTransaction` / `wallet_sendCalls` take it. */
export type Call = {
  to?: string | undefined
  data?: string | undefined
  value?: string | bigint | number | undefined
}

/**
 * Validates calls and turns them into meta-transactions: each needs a `to`
 * (-32602 '<method> requires a "to" field', the published text for
 * `eth_sendTransaction`).
 */
export function toMetaTransactions(
  calls: readonly Call[],
  method = 'eth_sendTransaction',
): MetaTransaction[] {
  return calls.map((call) => {
    if (!call || typeof call.to !== 'string' || !call.to)
      throw invalidParams(`${method} requires a "to" field`)
    try {
      return metaTransaction({
        to: call.to as Address,
        value:
          call.value === undefined || call.value === null
            ? 0n
            : BigInt(call.value),
        data: (call.data ?? '0x') as Hex,
      })
    } catch (cause) {
      throw invalidParams('Invalid transaction parameters', { cause })
    }
  })
}

/**
 * The wallet's next nonce in `space` (not encoded). A wallet with no code
 * yet has used no nonce, whatever a node answers for a call to an empty
 * account, so it reads 0.
 *
 * The code and the nonce are asked for together, in one batch sent at
 * once: asking for the nonce only once the code is known took a second
 * round trip on every send, and the chain client's batch window (10 ms,
 * the published SDK's) is there to gather a dApp's reads made close
 * together, while a send waiting on these two has nothing more to add.
 */
export async function readNonce(
  context: Context,
  wallet: Address,
  space: bigint,
): Promise<bigint> {
  const code = getCode(context.rpc, wallet)
  const call = context.rpc
    .request<Hex>({
      method: 'eth_call',
      params: [{ to: wallet, data: encodeReadNonce(space) }, 'latest'],
    })
    .then(
      (data) => ({ data }),
      (error: unknown) => ({ error }),
    )
  context.rpc.flush()
  const [bytecode, answer] = await Promise.all([code, call])
  if (!bytecode || bytecode === '0x') return 0n
  if ('error' in answer) {
    const { error } = answer
    // A wallet whose call reverts has no nonce to read, as the published
    // SDK treats it; a node that cannot be reached is a real failure. A
    // revert is the node's JSON-RPC error: code 3 with the revert data
    // (EIP-1474's execution error), or a message saying so (older nodes).
    if (
      error instanceof RpcErrors.RpcError &&
      (error.code === 3 || /revert/i.test(error.shortMessage))
    )
      return 0n
    throw error
  }
  const { data } = answer
  if (!data || data === '0x') return 0n
  return decodeReadNonce(data)
}

/** The transactions with the relayer's IMX fee appended when it is not zero. */
export async function withFee(
  context: Context,
  wallet: Address,
  chainId: number,
  transactions: readonly MetaTransaction[],
): Promise<MetaTransaction[]> {
  const options = await context.relayer.getFeeOptions(
    wallet,
    encodeMetaTransactions(transactions),
    chainId,
  )
  const imx = Array.isArray(options)
    ? options.find((option) => option.tokenSymbol === feeTokenSymbol)
    : undefined
  if (!imx) throw internalError(messages.feesMissing)
  const price = BigInt(imx.tokenPrice)
  if (price <= 0n) return [...transactions]
  return [
    ...transactions,
    metaTransaction({ to: imx.recipientAddress as Address, value: price }),
  ]
}

/** Options of {@link sendTransactions}. */
export type SendOptions = {
  /** The confirmation popup, opened by the router; absent in the background. */
  handle?: ConfirmationHandle | undefined
  /** Session activity: nonce space 1, no popup. */
  background?: boolean | undefined
  /** The method sending, named in its errors. @default 'eth_sendTransaction' */
  method?: string | undefined
}

/**
 * Sends one meta-transaction batch and resolves the relayer's id once the
 * relayer accepted it.
 */
export async function relayTransactions(
  context: Context,
  wallet: Address,
  calls: readonly Call[],
  options: SendOptions = {},
): Promise<{
  relayerId: string
  chainId: number
  /** The nonce signed (not space-encoded), and its space. */
  nonce: bigint
  space: bigint
}> {
  const transactions = toMetaTransactions(calls, options.method)
  const chainId = await context.chainId()
  const space = options.background
    ? nonceSpaces.background
    : nonceSpaces.default
  const [nonce, withFees] = await Promise.all([
    context.nonces.reserve(wallet, space),
    withFee(context, wallet, chainId, transactions),
  ])
  try {
    const encodedNonce = encodeNonce(space, nonce)
    const digest = subDigest({
      chainId,
      wallet,
      digest: transactionsDigest(encodedNonce, withFees),
    })
    const signature = context.signer().signMessage({ raw: digest })
    const [, userSignature] = await Promise.all([
      checkTransaction(context, {
        wallet,
        chainId,
        nonce: encodedNonce,
        transactions: withFees,
        handle: options.background ? undefined : options.handle,
        inFlight: signature,
      }),
      signature,
    ])
    const data = encodeExecute({
      transactions: withFees,
      nonce: encodedNonce,
      signature: transactionSignature(userSignature),
    })
    const relayerId = await context.relayer.sendTransaction(
      wallet,
      data,
      chainId,
    )
    return { relayerId, chainId, nonce, space }
  } catch (error) {
    context.nonces.release(wallet, space, nonce)
    throw error
  }
}

/** Sends and waits for the chain's transaction hash. */
export async function sendTransactions(
  context: Context,
  wallet: Address,
  calls: readonly Call[],
  options: SendOptions = {},
): Promise<Hex> {
  return settle(
    context,
    wallet,
    await relayTransactions(context, wallet, calls, options),
  )
}

/**
 * Waits for the chain's hash of a batch the relayer took, and settles its
 * nonce: recorded as sent with the hash, or given back.
 */
export async function settle(
  context: Context,
  wallet: Address,
  relayed: { relayerId: string; nonce: bigint; space: bigint },
): Promise<Hex> {
  const { relayerId, nonce, space } = relayed
  try {
    const hash = await context.relayer.waitForHash(relayerId)
    context.nonces.sent(wallet, space, nonce, hash)
    return hash
  } catch (error) {
    // The relayer gave up on it (not submitted, or reverted as a whole):
    // the nonce is still the wallet's next. Kept reserved, every later send
    // would be signed for the nonce after it, which the wallet never reaches.
    //
    // A send whose fate is unknown (still pending after the last poll, or
    // the polling itself failed) may yet land, and its nonce is given back
    // all the same. The wallet accepts each nonce once, so the next send
    // (typically the dapp's retry) and the late one exclude each other: one
    // of them runs, never both, as with a replacement transaction on
    // Ethereum. Kept reserved instead, a send that never lands would leave
    // every later one signed for a nonce the wallet never reaches, and one
    // that lands late would let a retry run twice. If it has landed by the
    // next reservation, the chain's nonce is ahead and is taken; if it
    // lands later, the next send fails on its nonce and gives it back.
    context.nonces.release(wallet, space, nonce)
    throw error
  }
}
