/**
 * Sending from the smart-contract wallet: the calls become meta-transactions,
 * the relayer's IMX fee is appended, the nonce is reserved, the guardian
 * checks the batch while the custody key signs it, and the relayer submits
 * `execute(txs, nonce, signature)`; the provider then polls the relayer for
 * the chain's hash. The order is the published SDK's: chain id → (nonce ∥
 * fee) → (guardian ∥ signature) → relayer → polling.
 */
import {
  type Address,
  CallExecutionError,
  ContractFunctionRevertedError,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
} from 'viem'
import { feeTokenSymbol } from '../wire/relayer.js'
import type { Context } from './context.js'
import {
  invalidParams,
  JsonRpcError,
  messages,
  RpcErrorCode,
} from './errors.js'
import { checkTransaction } from './guardian.js'
import { RelayerStatusError } from './relayerClient.js'
import type { ConfirmationHandle } from './seams.js'
import {
  encodeExecute,
  encodeMetaTransactions,
  encodeNonce,
  type MetaTransaction,
  metaTransaction,
  subDigest,
  transactionSignature,
  transactionsDigest,
  walletAbi,
} from './walletSignature.js'

/** A call as `eth_sendTransaction` / `wallet_sendCalls` take it. */
export type Call = {
  to?: string | undefined
  data?: string | undefined
  value?: string | bigint | number | undefined
}

/** Nonce spaces: ordinary transactions and background session activity. */
export const nonceSpaces = { default: 0n, background: 1n } as const

/** Validates calls and turns them into meta-transactions ('to' is required: -32602). */
export function toMetaTransactions(calls: readonly Call[]): MetaTransaction[] {
  return calls.map((call) => {
    if (!call || typeof call.to !== 'string' || !call.to)
      throw invalidParams('Transaction requires a "to" field')
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
      throw new JsonRpcError(
        RpcErrorCode.INVALID_PARAMS,
        'Invalid transaction parameters',
        { cause },
      )
    }
  })
}

/**
 * The wallet's next nonce in `space` (not encoded). A wallet with no code
 * yet has used no nonce, whatever a node answers for a call to an empty
 * account, so it reads 0.
 */
export async function readNonce(
  context: Context,
  wallet: Address,
  space: bigint,
): Promise<bigint> {
  const code = await context.rpc.getCode({ address: wallet })
  if (!code || code === '0x') return 0n
  let data: { data?: Hex | undefined }
  try {
    data = await context.rpc.call({
      to: wallet,
      data: encodeFunctionData({
        abi: walletAbi,
        functionName: 'readNonce',
        args: [space],
      }),
    })
  } catch (error) {
    // A wallet whose call reverts has no nonce to read, as the published
    // SDK treats it; a node that cannot be reached is a real failure.
    if (
      error instanceof CallExecutionError &&
      error.walk(
        (e) =>
          e instanceof ContractFunctionRevertedError ||
          /revert/i.test((e as Error)?.message ?? ''),
      )
    )
      return 0n
    throw error
  }
  if (!data.data || data.data === '0x') return 0n
  return decodeFunctionResult({
    abi: walletAbi,
    functionName: 'readNonce',
    data: data.data,
  })
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
  if (!imx) throw new Error(messages.feesMissing)
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
): Promise<{ relayerId: string; chainId: number; release: () => void }> {
  const transactions = toMetaTransactions(calls)
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
    const signer = context.signer()
    const [, userSignature, custody] = await Promise.all([
      checkTransaction(context, {
        wallet,
        chainId,
        nonce: encodedNonce,
        transactions: withFees,
        handle: options.background ? undefined : options.handle,
      }),
      signer.signMessage({ raw: digest }),
      signer.getAddress(),
    ])
    const data = encodeExecute({
      transactions: withFees,
      nonce: encodedNonce,
      signature: transactionSignature(custody, userSignature),
    })
    const relayerId = await context.relayer.sendTransaction(
      wallet,
      data,
      chainId,
    )
    return {
      relayerId,
      chainId,
      release: () => context.nonces.release(wallet, space, nonce),
    }
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
  const { relayerId, release } = await relayTransactions(
    context,
    wallet,
    calls,
    options,
  )
  try {
    return await context.relayer.waitForHash(relayerId)
  } catch (error) {
    // Failed, cancelled or reverted: the wallet never used the nonce (it
    // moves only when `execute` succeeds). Given back, the next send takes
    // it; kept, the next send would wait behind a nonce nobody sends and
    // fail once the relayer gives up on it.
    if (error instanceof RelayerStatusError) release()
    throw error
  }
}
