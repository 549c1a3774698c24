/**
 * Parameter parsing and error mapping for the gasless and EIP-7702 methods
 * (flows/sponsor.ts): addresses, hex data, numeric fields in every form a
 * client sends them, authorizations, and reverts.
 */
import {
  type Abi,
  type Address,
  BaseError,
  decodeErrorResult,
  type Hex,
  isAddressEqual,
  type SignedAuthorization,
} from 'viem'
import { recoverAuthorizationAddress } from 'viem/utils'
import { rpcCodes } from '../../../magic/wire/codes.js'
import {
  SponsoredCallDelegate,
  TestERC20,
  TestERC721,
  TestERC1155,
} from '../../chain/artifacts.generated.js'
import type { Context } from '../context.js'
import { failures, RpcFailure } from '../errors.js'

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
