/**
 * Ethereum methods: accounts, signing with the user's custody key,
 * transactions filled from the chain, and a proxy to the chain RPC for
 * the other standard methods.
 */
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  isAddressEqual,
  type TransactionSerializable,
} from 'viem'
import { rpcCodes } from '../../../../magic/wire/codes.js'
import { isPublicMethod } from '../../../chain/gateway.js'
import type { Context, Handler } from '../context.js'
import { failures, RpcFailure } from '../errors.js'
import { requireSigner } from '../session.js'
import { parseTypedData } from '../typedData.js'

/**
 * The node a request's network resolves to: the emulator's main chain for a
 * named network (the emulator has one chain per id, not mainnet), or the
 * chain whose public `rpcUrl` a custom network names. Any other URL is
 * refused: the emulator must not become a way for a web page to send
 * requests to arbitrary hosts or ports.
 *
 * @throws {RpcFailure} -32602 for an `rpcUrl` that is not one of the
 *   emulator's chains.
 */
export function rpcUrlOf(ctx: Context): string {
  const { network } = ctx
  if (typeof network !== 'object' || network === null)
    return ctx.deps.chain.rpcUrl
  const wanted = normalizeUrl(network.rpcUrl)
  const chain = ctx.deps.chains.find(
    (chain) => wanted !== undefined && normalizeUrl(chain.rpcUrl) === wanted,
  )
  if (!chain)
    throw failures.invalidParams(
      `The network rpcUrl must be one of the emulator's chains (${ctx.deps.chains.map((chain) => chain.rpcUrl).join(', ')}).`,
    )
  return chain.nodeUrl
}

/** A URL without a trailing slash on an empty path, or undefined. */
function normalizeUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const url = URL.parse(value)
  if (url === null) return undefined
  return url.pathname === '/' && url.search === ''
    ? url.origin
    : `${url.origin}${url.pathname}${url.search}`
}

/** Sends one JSON-RPC call to the chain and returns its result. */
export async function callChain(
  rpcUrl: string,
  method: string,
  params: unknown,
): Promise<unknown> {
  let body: {
    result?: unknown
    error?: { code: number; message: string; data?: unknown }
  }
  let request: string
  try {
    request = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
  } catch {
    throw failures.invalidParams(
      `${method}: the params cannot be sent as JSON (nested too deep?).`,
    )
  }
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: request,
    })
    body = (await response.json()) as typeof body
  } catch (error) {
    throw failures.internal(
      `The chain at ${rpcUrl} did not answer: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  if (body.error)
    throw new RpcFailure(body.error.code, body.error.message, body.error.data)
  return body.result
}

function checkAddress(
  ctx: Context,
  address: unknown,
  user: { address: Address },
) {
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address))
    throw failures.invalidParams(`${ctx.method}: expected an address.`)
  if (!isAddressEqual(address as Address, user.address))
    throw failures.invalidParams(
      `${ctx.method}: ${address} is not the logged-in user's address.`,
    )
}

const accounts: Handler = async (ctx) => (ctx.user ? [ctx.user.address] : [])

const personalSign: Handler = async (ctx) => {
  const user = requireSigner(ctx)
  const [message, address] = ctx.params
  checkAddress(ctx, address, user)
  if (typeof message !== 'string')
    throw failures.invalidParams('personal_sign: expected a message string.')
  return ctx.deps.registry.signMessage(
    user.id,
    /^0x[0-9a-fA-F]*$/.test(message) ? { raw: message as Hex } : message,
  )
}

/** `eth_sign` as geth does it: the personal-message prefix over the data. */
const ethSign: Handler = async (ctx) => {
  const user = requireSigner(ctx)
  const [address, data] = ctx.params
  checkAddress(ctx, address, user)
  if (typeof data !== 'string' || !/^0x[0-9a-fA-F]*$/.test(data))
    throw failures.invalidParams('eth_sign: expected hex data.')
  return ctx.deps.registry.signMessage(user.id, { raw: data as Hex })
}

const signTypedData: Handler = async (ctx) => {
  const user = requireSigner(ctx)
  const [address, data] = ctx.params
  checkAddress(ctx, address, user)
  const typed = parseTypedData(data)
  try {
    return await ctx.deps.registry.signTypedData(user.id, typed as never)
  } catch (error) {
    throw failures.invalidParams(
      `The typed data cannot be signed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    )
  }
}

type TxParams = {
  from?: string
  to?: string
  value?: string
  data?: string
  input?: string
  gas?: string
  nonce?: string
  gasPrice?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
}

/** Fills a transaction from the chain (nonce, gas, fees, chain id). */
export async function prepareTransaction(
  rpcUrl: string,
  from: Address,
  tx: TxParams,
): Promise<TransactionSerializable> {
  const client = createPublicClient({ transport: http(rpcUrl) })
  const big = (value: string | undefined) =>
    value === undefined ? undefined : BigInt(value)
  const data = (tx.data ?? tx.input) as Hex | undefined
  const to = tx.to as Address | undefined
  const value = big(tx.value)
  const [chainId, nonce, gas, fees] = await Promise.all([
    client.getChainId(),
    tx.nonce === undefined
      ? client.getTransactionCount({ address: from, blockTag: 'pending' })
      : Number(BigInt(tx.nonce)),
    tx.gas === undefined
      ? client.estimateGas({ account: from, to, data, value })
      : BigInt(tx.gas),
    tx.gasPrice === undefined && tx.maxFeePerGas === undefined
      ? client.estimateFeesPerGas()
      : undefined,
  ])
  const base = { chainId, nonce, gas, to, data, value }
  if (tx.gasPrice !== undefined)
    return { ...base, type: 'legacy', gasPrice: BigInt(tx.gasPrice) }
  return {
    ...base,
    type: 'eip1559',
    maxFeePerGas: big(tx.maxFeePerGas) ?? fees?.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas:
      big(tx.maxPriorityFeePerGas) ?? fees?.maxPriorityFeePerGas ?? 0n,
  }
}

async function signed(ctx: Context): Promise<Hex> {
  const user = requireSigner(ctx)
  const tx = ctx.params[0] as TxParams | undefined
  if (typeof tx !== 'object' || tx === null)
    throw failures.invalidParams(
      `${ctx.method}: expected a transaction object.`,
    )
  if (tx.from !== undefined) checkAddress(ctx, tx.from, user)
  let prepared: TransactionSerializable
  try {
    prepared = await prepareTransaction(rpcUrlOf(ctx), user.address, tx)
  } catch (error) {
    if (error instanceof RpcFailure) throw error
    throw failures.invalidParams(
      `${ctx.method}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    )
  }
  return ctx.deps.registry.signTransaction(user.id, prepared)
}

const signTransaction: Handler = signed

const sendTransaction: Handler = async (ctx) => {
  const raw = await signed(ctx)
  return callChain(rpcUrlOf(ctx), 'eth_sendRawTransaction', [raw])
}

/**
 * Any other method: forwarded to the chain as is, if it is a standard
 * Ethereum method a public node answers (see the chain gateway). The
 * provider serves any page that embeds it, so Anvil's admin methods
 * (`anvil_setBalance`, `evm_revert`, …) must not be reachable through it;
 * a real provider's node does not answer them either.
 */
export const proxy: Handler = async (ctx) => {
  if (!isPublicMethod(ctx.method))
    throw new RpcFailure(
      rpcCodes.MethodNotFound,
      `The method ${ctx.method} does not exist / is not available.`,
    )
  return callChain(rpcUrlOf(ctx), ctx.method, ctx.request.params ?? [])
}

/** Ethereum methods by name (anything else goes to {@link proxy}). */
export const ethHandlers: Record<string, Handler> = {
  eth_accounts: accounts,
  personal_sign: personalSign,
  eth_sign: ethSign,
  eth_signTypedData_v3: signTypedData,
  eth_signTypedData_v4: signTypedData,
  eth_signTransaction: signTransaction,
  eth_sendTransaction: sendTransaction,
}
