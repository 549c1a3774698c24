/**
 * Gasless transactions and EIP-7702: `eth_sendGaslessTransaction`,
 * `magic_wallet_sign_7702_authorization` and `eth_send7702Transaction`.
 *
 * A gasless transaction is honest on-chain: the user's address delegates
 * (EIP-7702) to the `SponsoredCallDelegate` contract, the user's custody key
 * signs the call (EIP-712 `Execute`, with the delegate's replay nonce and a
 * deadline), and the gas sponsor (Anvil account 9) submits a type-4
 * transaction calling `execute` on the user's address. The target sees the
 * user as `msg.sender`, `value` leaves the user's balance, the sponsor pays
 * the gas. The answer is `{ request_id, state, success }`: `request_id` is
 * the sponsor's transaction hash, `state` is `COMPLETED` once its receipt
 * shows the delegate's `Executed` event, else `FAILED`. A call that would
 * revert is refused before anything is sent (-32603, revert data in `data`).
 */
import {
  type Abi,
  type Address,
  BaseError,
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  encodeFunctionData,
  type Hex,
  http,
  isAddressEqual,
  type PublicClient,
  parseEventLogs,
  type SignedAuthorization,
  toHex,
} from 'viem'
import { recoverAuthorizationAddress } from 'viem/utils'
import { rpcCodes } from '../../../../magic/wire/codes.js'
import { methods } from '../../../../magic/wire/methods.js'
import { gasSponsor } from '../../../chain/accounts.js'
import {
  SponsoredCallDelegate,
  TestERC20,
  TestERC721,
  TestERC1155,
} from '../../../chain/artifacts.generated.js'
import { predictContracts } from '../../../chain/deploy.js'
import type { Context, Handler } from '../context.js'
import { failures, RpcFailure } from '../errors.js'
import { requireSigner } from '../session.js'
import { callChain, rpcUrlOf } from './eth.js'

const { abi } = SponsoredCallDelegate

/**
 * The delegate's ERC-7201 storage slot (`nonce` is its first field):
 * `keccak256(abi.encode(uint256(keccak256("embedded-wallets.SponsoredCallDelegate")) - 1)) & ~0xff`.
 */
const nonceSlot =
  '0x0eac6987a84cba3f185da5ad46d01800ac9b28f5e67669bdc50e03d0522c7d00'

/** How long a signed gasless call stays valid, in seconds. */
const deadlineSeconds = 3600n

/** Sends of the sponsor, one at a time (its nonce is shared). */
let sponsorQueue: Promise<unknown> = Promise.resolve()

const clientOf = (rpcUrl: string): PublicClient =>
  createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 })

/**
 * The delegate's address: the service's `tokens.sponsoredCallDelegate` when
 * given, else where the emulator's deployment puts it on a fresh chain.
 *
 * @throws {RpcFailure} -32603 when no contract is there.
 */
async function delegateOf(ctx: Context, client: PublicClient) {
  const delegate = (ctx.deps.tokens.sponsoredCallDelegate ??
    predictContracts().sponsoredCallDelegate) as Address
  const code = await client.getCode({ address: delegate })
  if (!code || code === '0x')
    throw failures.internal(
      `${ctx.method}: the sponsored-call delegate is not deployed at ${delegate} on this chain.`,
    )
  return delegate
}

const sendGaslessTransaction: Handler = async (ctx) => {
  const user = requireSigner(ctx)
  const [who, request] = ctx.params
  if (!isAddressEqual(address(ctx, who, 'address'), user.address))
    throw failures.invalidParams(
      `${ctx.method}: ${String(who)} is not the logged-in user's address.`,
    )
  if (typeof request !== 'object' || request === null)
    throw failures.invalidParams(`${ctx.method}: expected a transaction.`)
  const tx = request as Record<string, unknown>
  if (
    tx.from != null &&
    !isAddressEqual(address(ctx, tx.from, 'from'), user.address)
  )
    throw failures.invalidParams(
      `${ctx.method}: from must be the logged-in user's address.`,
    )
  if (tx.to == null)
    throw failures.invalidParams(
      `${ctx.method}: a gasless transaction needs a to address (contract creation cannot be sponsored).`,
    )
  const call = {
    to: address(ctx, tx.to, 'to'),
    value: quantity(ctx, tx.value, 'value') ?? 0n,
    data: hexData(ctx, tx.data, 'data'),
  }
  const rpcUrl = rpcUrlOf(ctx)
  const client = clientOf(rpcUrl)
  const chainId = await client.getChainId()
  const wanted = quantity(ctx, tx.chainId, 'chainId')
  if (wanted !== undefined && wanted !== BigInt(chainId))
    throw failures.invalidParams(
      `${ctx.method}: chainId ${wanted} is not this chain's (${chainId}).`,
    )
  const delegate = await delegateOf(ctx, client)
  const [code, stored, block] = await Promise.all([
    client.getCode({ address: user.address }),
    client.getStorageAt({ address: user.address, slot: nonceSlot }),
    client.getBlock(),
  ])
  const delegated =
    code?.toLowerCase() === `0xef0100${delegate.slice(2).toLowerCase()}`
  const authorizationList = delegated
    ? undefined
    : [
        await ctx.deps.registry.signAuthorization(user.id, {
          address: delegate,
          chainId,
          nonce: await client.getTransactionCount({
            address: user.address,
            blockTag: 'pending',
          }),
        }),
      ]
  const nonce = BigInt(stored ?? 0)
  const deadline = block.timestamp + deadlineSeconds
  const signature = await ctx.deps.registry.signTypedData(user.id, {
    domain: {
      name: 'SponsoredCallDelegate',
      version: '1',
      chainId,
      verifyingContract: user.address,
    },
    types: {
      Execute: [
        { name: 'calls', type: 'Call[]' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
      Call: [
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'data', type: 'bytes' },
      ],
    },
    primaryType: 'Execute',
    message: { calls: [call], nonce, deadline },
  })
  const wallet = createWalletClient({
    account: gasSponsor,
    transport: http(rpcUrl),
  })
  const send = sponsorQueue.then(() =>
    wallet.sendTransaction({
      chain: null,
      to: user.address,
      data: encodeFunctionData({
        abi,
        functionName: 'execute',
        args: [[call], nonce, deadline, signature],
      }),
      ...(authorizationList ? { authorizationList } : {}),
    }),
  )
  sponsorQueue = send.catch(() => undefined)
  let hash: Hex
  try {
    hash = await send
  } catch (error) {
    throw revertFailure(ctx, error)
  }
  const receipt = await client.waitForTransactionReceipt({ hash })
  // A skipped authorization leaves no code: the call would "succeed" doing
  // nothing. Only the delegate's event from the user's address counts.
  const executed = parseEventLogs({
    abi,
    eventName: 'Executed',
    logs: receipt.logs,
  }).some((log) => isAddressEqual(log.address, user.address))
  const success = receipt.status === 'success' && executed
  return { request_id: hash, state: success ? 'COMPLETED' : 'FAILED', success }
}

/**
 * Signs an EIP-7702 authorization with the user's key. `nonce` defaults to
 * the user's pending transaction count (right when someone else sends the
 * transaction; when the user sends it, pass that count + 1). `v` is the
 * signature's y-parity (0 or 1); `signature` is r ‖ s ‖ (27 + v).
 */
const sign7702Authorization: Handler = async (ctx) => {
  const user = requireSigner(ctx)
  const { contractAddress, chainId, nonce } = ctx.options
  const contract = address(ctx, contractAddress, 'contractAddress')
  const chain = Number(quantity(ctx, chainId, 'chainId') ?? -1n)
  if (chain < 0)
    throw failures.invalidParams(`${ctx.method}: expected a chainId.`)
  const given = quantity(ctx, nonce, 'nonce')
  const client = clientOf(rpcUrlOf(ctx))
  const signed = await ctx.deps.registry.signAuthorization(user.id, {
    address: contract,
    chainId: chain,
    nonce:
      given === undefined
        ? await client.getTransactionCount({
            address: user.address,
            blockTag: 'pending',
          })
        : Number(given),
  })
  const v = signed.yParity ?? 0
  return {
    contractAddress: contract,
    chainId: chain,
    nonce: signed.nonce,
    v,
    r: signed.r,
    s: signed.s,
    signature: `${signed.r}${signed.s.slice(2)}${toHex(27 + v).slice(2)}`,
  }
}

/**
 * Sends the user's own type-4 transaction (the user pays the gas) with the
 * given authorizations; answers `{ transactionHash }` once it is submitted.
 */
const send7702Transaction: Handler = async (ctx) => {
  const user = requireSigner(ctx)
  const tx = ctx.options
  const list = tx.authorizationList
  if (!Array.isArray(list) || list.length === 0)
    throw failures.invalidParams(
      `${ctx.method}: authorizationList must be a non-empty array.`,
    )
  const authorizationList = list.map((item, index) =>
    authorizationOf(ctx, item, index),
  )
  const rpcUrl = rpcUrlOf(ctx)
  const client = clientOf(rpcUrl)
  const base = {
    to: address(ctx, tx.to, 'to'),
    data: hexData(ctx, tx.data, 'data'),
    value: quantity(ctx, tx.value, 'value') ?? 0n,
    authorizationList,
  }
  const [chainId, nonce, fees] = await Promise.all([
    client.getChainId(),
    client.getTransactionCount({ address: user.address, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
  ])
  await checkSelfAuthorizations(ctx, authorizationList, user.address, nonce)
  let gas = quantity(ctx, tx.gas, 'gas')
  try {
    gas ??= await client.estimateGas({ account: user.address, ...base })
  } catch (error) {
    throw revertFailure(ctx, error)
  }
  const raw = await ctx.deps.registry.signTransaction(user.id, {
    ...base,
    type: 'eip7702',
    chainId,
    nonce,
    gas,
    maxFeePerGas:
      quantity(ctx, tx.maxFeePerGas, 'maxFeePerGas') ?? fees.maxFeePerGas,
    maxPriorityFeePerGas:
      quantity(ctx, tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas') ??
      fees.maxPriorityFeePerGas,
  })
  const transactionHash = await callChain(rpcUrl, 'eth_sendRawTransaction', [
    raw,
  ])
  return { transactionHash }
}

/** Gasless and EIP-7702 methods by name. */
export const sponsorHandlers: Record<string, Handler> = {
  [methods.sendGaslessTransaction]: sendGaslessTransaction,
  [methods.sign7702Authorization]: sign7702Authorization,
  [methods.send7702Transaction]: send7702Transaction,
}

/*
 * Parameters: addresses, hex data, numeric fields in every form a client
 * sends them, authorizations, and reverts.
 */

const hexPattern = /^0x[0-9a-fA-F]*$/
const decimalPattern = /^[0-9]+$/

/**
 * `value` as an address.
 *
 * @throws {RpcFailure} -32602 naming `field` when it is not one.
 */
export function address(ctx: Context, value: unknown, field: string): Address {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value))
    throw failures.invalidParams(`${ctx.method}: ${field} is not an address.`)
  return value as Address
}

/** `value` as hex data (`0x` when absent). @throws {RpcFailure} -32602 */
export function hexData(ctx: Context, value: unknown, field: string): Hex {
  if (value == null) return '0x'
  if (typeof value !== 'string' || !hexPattern.test(value) || value.length % 2)
    throw failures.invalidParams(`${ctx.method}: ${field} is not hex data.`)
  return value as Hex
}

/**
 * A non-negative integer field as a bigint, `undefined` when absent. Takes a
 * bigint (structured clone), a safe integer, a `0x` hex or decimal string
 * (bigints the iframe app turned to hex for JSON), or an ethers v5
 * BigNumber (`{ _hex }` cloned, `{ type: 'BigNumber', hex }` as JSON).
 *
 * @throws {RpcFailure} -32602 naming `field` for anything else.
 */
export function quantity(
  ctx: Context,
  value: unknown,
  field: string,
): bigint | undefined {
  if (value == null) return undefined
  let result: bigint | undefined
  if (typeof value === 'bigint') result = value
  else if (typeof value === 'number' && Number.isSafeInteger(value))
    result = BigInt(value)
  else if (
    typeof value === 'string' &&
    ((hexPattern.test(value) && value.length > 2) || decimalPattern.test(value))
  )
    result = BigInt(value)
  else if (typeof value === 'object') {
    const { _hex, hex } = value as { _hex?: unknown; hex?: unknown }
    const inner = _hex ?? hex
    if (typeof inner === 'string' && hexPattern.test(inner) && inner.length > 2)
      result = BigInt(inner)
  }
  if (result === undefined || result < 0n)
    throw failures.invalidParams(
      `${ctx.method}: ${field} is not a non-negative integer.`,
    )
  return result
}

/**
 * One entry of `authorizationList` (the client's
 * `Sign7702AuthorizationResponse`) as a viem signed authorization. `v` may
 * be the y-parity (0, 1) or 27, 28.
 *
 * @throws {RpcFailure} -32602 naming the entry when a field is missing.
 */
export function authorizationOf(
  ctx: Context,
  item: unknown,
  index: number,
): SignedAuthorization {
  const field = `authorizationList[${index}]`
  if (typeof item !== 'object' || item === null)
    throw failures.invalidParams(`${ctx.method}: ${field} is not an object.`)
  const entry = item as Record<string, unknown>
  const v = Number(quantity(ctx, entry.v ?? entry.yParity, `${field}.v`) ?? -1)
  const yParity = v >= 27 ? v - 27 : v
  if (yParity !== 0 && yParity !== 1)
    throw failures.invalidParams(`${ctx.method}: ${field}.v must be 0 or 1.`)
  const word = (key: 'r' | 's') => {
    const value = entry[key]
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value))
      throw failures.invalidParams(`${ctx.method}: ${field}.${key} is not hex.`)
    return value as Hex
  }
  const number = (key: 'chainId' | 'nonce') => {
    const value = quantity(ctx, entry[key], `${field}.${key}`)
    if (value === undefined)
      throw failures.invalidParams(`${ctx.method}: ${field}.${key} is missing.`)
    return Number(value)
  }
  return {
    address: address(
      ctx,
      entry.contractAddress ?? entry.address,
      `${field}.contractAddress`,
    ),
    chainId: number('chainId'),
    nonce: number('nonce'),
    r: word('r'),
    s: word('s'),
    yParity,
  }
}

/**
 * Refuses an authorization the sender signed itself with a nonce the chain
 * would skip: the sender's own transaction raises its nonce first, so its
 * authorization needs the account nonce + 1.
 *
 * @throws {RpcFailure} -32602 naming the entry.
 */
export async function checkSelfAuthorizations(
  ctx: Context,
  list: readonly SignedAuthorization[],
  sender: Address,
  accountNonce: number,
): Promise<void> {
  for (const [index, authorization] of list.entries()) {
    const authority = await recoverAuthorizationAddress({ authorization })
    if (
      isAddressEqual(authority, sender) &&
      authorization.nonce !== accountNonce + 1
    )
      throw failures.invalidParams(
        `${ctx.method}: authorizationList[${index}] is the sender's own with nonce ${authorization.nonce}; the sender's transaction uses nonce ${accountNonce}, so its authorization needs ${accountNonce + 1}.`,
      )
  }
}

/** Errors of our contracts, to name a revert. */
const errorsAbi = [
  ...SponsoredCallDelegate.abi,
  ...TestERC20.abi,
  ...TestERC721.abi,
  ...TestERC1155.abi,
].filter((item) => item.type === 'error') as Abi

/** `data` as `Name(args)`, or `undefined` when no known error matches. */
function describeRevert(data: Hex): string | undefined {
  try {
    const { errorName, args = [] } = decodeErrorResult({
      abi: errorsAbi,
      data,
    })
    if (errorName === 'CallFailed') {
      const [index, reason] = args as [bigint, Hex]
      return `call ${index} reverted: ${describeRevert(reason) ?? (reason === '0x' ? 'no reason' : reason)}`
    }
    return `${errorName}(${args.map(String).join(', ')})`
  } catch {
    return undefined
  }
}

/**
 * A viem send or estimate error as an RpcFailure (-32603): with revert data,
 * "the transaction reverts (<decoded error>); nothing was sent." and the
 * data in `data`; else the error's short message.
 */
export function revertFailure(ctx: Context, error: unknown): RpcFailure {
  if (error instanceof RpcFailure) return error
  let data: Hex | undefined
  if (error instanceof BaseError)
    error.walk((cause) => {
      const found = (cause as { data?: unknown }).data
      const hex =
        typeof found === 'object' && found !== null
          ? (found as { data?: unknown }).data
          : found
      if (typeof hex === 'string' && hexPattern.test(hex) && hex.length >= 10)
        data = hex as Hex
      return false
    })
  if (data === undefined)
    return failures.internal(
      `${ctx.method}: ${error instanceof BaseError ? error.shortMessage : String(error)}`,
    )
  return new RpcFailure(
    rpcCodes.InternalError,
    `${ctx.method}: the transaction reverts (${describeRevert(data) ?? data}); nothing was sent.`,
    data,
  )
}
