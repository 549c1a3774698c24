/**
 * Crafting signatures (`x-immutable-api-key`, the game's backend):
 * `POST /v1/chains/{chain_name}/crafting/sign` `{ multi_caller: { address,
 * name, version }, reference_id, calls: [{ target_address,
 * function_signature, function_args }], expires_at }` answers `{
 * signer_address, signature }`: the emulator's crafting signer
 * ({@link craftingSigner}) signs the multicall for Immutable's
 * `GuardedMulticaller2` (@imtbl/contracts), whose `execute(signer,
 * reference, calls, deadline, signature)` checks it.
 *
 * What is signed is what that contract checks: its EIP-712 domain is the
 * request's `multi_caller` (`name`, `version`, the chain's id, the
 * contract's address as verifying contract), the reference is
 * `reference_id` as a 32-byte word, each call is `{ target,
 * functionSignature, data }` with `data` the ABI encoding of
 * `function_args` by the signature's parameter types (the contract
 * prepends the selector itself), and the deadline is `expires_at` in Unix
 * seconds. The contract hashes its structs with `abi.encode` of the
 * string, the bytes and the array of call hashes themselves rather than
 * with EIP-712's hashes of them, so a standard `eth_signTypedData` of the
 * same message would not verify: the digest is built here as the contract
 * builds it, and signed as a raw ECDSA digest (v 27 or 28, which
 * OpenZeppelin's `SignatureChecker` accepts).
 *
 * @packageDocumentation
 */
import type { Hono } from 'hono'
import {
  type AbiParameter,
  type Address,
  concat,
  domainSeparator,
  encodeAbiParameters,
  type Hex,
  isHex,
  keccak256,
  pad,
  parseAbiItem,
  serializeSignature,
  toBytes,
} from 'viem'
import { privateKeyToAccount, sign } from 'viem/accounts'
import { chainByName } from './chains.js'
import {
  type ApiEnv,
  addressOf,
  type Deps,
  fail,
  isRecord,
  readJson,
  requireApiKey,
} from './http.js'
import type { SignCraftingResult } from './schemas.js'

/** The route's path, as a Hono pattern. */
export const craftingPath = '/v1/chains/:chainName/crafting/sign'

/** The most calls one request may sign (the OpenAPI spec's bound). */
export const maxCraftingCalls = 100

/** The longest function signature, multicaller name or version. */
export const maxCraftingTextLength = 1_024

/**
 * The crafting signer's private key: `keccak256` of a label, so that it is
 * none of Anvil's funded accounts (it never sends; a contract only needs
 * its address). PUBLIC TEST KEY: everyone can derive it; it signs for
 * local chains only.
 */
export const craftingSignerKey: Hex = keccak256(
  toBytes('embedded-wallets emulator: crafting signer'),
)

/** The emulator's crafting signer (grant it `MULTICALL_SIGNER_ROLE`). */
export const craftingSigner = privateKeyToAccount(craftingSignerKey)

/** `GuardedMulticaller2`'s type hashes. */
export const multicallTypes = {
  call: keccak256(
    toBytes('Call(address target,string functionSignature,bytes data)'),
  ),
  multicall: keccak256(
    toBytes(
      'Multicall(bytes32 ref,Call[] calls,uint256 deadline)Call(address target,string functionSignature,bytes data)',
    ),
  ),
} as const

/** One call, as `GuardedMulticaller2` takes it. */
export type MulticallCall = {
  target: Address
  functionSignature: string
  data: Hex
}

/** What a crafting signature covers. */
export type Multicall = {
  multicaller: { address: Address; name: string; version: string }
  chainId: number
  reference: Hex
  calls: readonly MulticallCall[]
  deadline: bigint
}

/**
 * The digest `GuardedMulticaller2._hashTypedData` computes for a
 * multicall: `keccak256(0x1901 ‖ domainSeparator ‖ structHash)`.
 */
export function multicallDigest(multicall: Multicall): Hex {
  const callHashes = multicall.calls.map((call) =>
    keccak256(
      encodeAbiParameters(
        [
          { type: 'bytes32' },
          { type: 'address' },
          { type: 'string' },
          { type: 'bytes' },
        ],
        [multicallTypes.call, call.target, call.functionSignature, call.data],
      ),
    ),
  )
  const structHash = keccak256(
    encodeAbiParameters(
      [
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
      ],
      [
        multicallTypes.multicall,
        multicall.reference,
        keccak256(encodeAbiParameters([{ type: 'bytes32[]' }], [callHashes])),
        multicall.deadline,
      ],
    ),
  )
  const separator = domainSeparator({
    domain: {
      name: multicall.multicaller.name,
      version: multicall.multicaller.version,
      chainId: multicall.chainId,
      verifyingContract: multicall.multicaller.address,
    },
  })
  return keccak256(concat(['0x1901', separator, structHash]))
}

/** Signs a multicall with the crafting signer. */
export async function signMulticall(multicall: Multicall): Promise<Hex> {
  return serializeSignature(
    await sign({
      hash: multicallDigest(multicall),
      privateKey: craftingSignerKey,
    }),
  )
}

/** Adds the crafting route to `app`. */
export function craftingRoutes(app: Hono<ApiEnv>, deps: Deps): void {
  app.post(craftingPath, requireApiKey(), async (c) => {
    const name = c.req.param('chainName')
    const chain = chainByName(deps, name)
    if (!chain) return fail(c, 'notFound', `There is no chain named ${name}.`)
    const request = craftingRequestOf(await readJson(c), deps.now())
    if (typeof request === 'string') return fail(c, 'validation', request)
    const signature = await signMulticall({
      ...request,
      chainId: chain.chainId,
    })
    return c.json({
      signer_address: craftingSigner.address,
      signature,
    } satisfies SignCraftingResult)
  })
}

/** A checked crafting request, or why it is refused. */
export function craftingRequestOf(
  body: unknown,
  now: Date,
): Omit<Multicall, 'chainId'> | string {
  if (!isRecord(body))
    return 'Expected { multi_caller, reference_id, calls, expires_at }.'
  const caller = body.multi_caller
  const address = isRecord(caller) ? addressOf(caller.address) : undefined
  if (
    !isRecord(caller) ||
    !address ||
    !isText(caller.name) ||
    !isText(caller.version)
  )
    return `multi_caller must be { address, name, version } (an address and strings of 1 to ${maxCraftingTextLength} characters).`
  const reference = referenceOf(body.reference_id)
  if (!reference)
    return 'reference_id must be a nonzero hex string of at most 32 bytes.'
  const list = body.calls
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    list.length > maxCraftingCalls
  )
    return `calls must hold 1 to ${maxCraftingCalls} calls.`
  const calls: MulticallCall[] = []
  for (const [index, item] of list.entries()) {
    const call = callOf(item)
    if (typeof call === 'string') return `calls[${index}]: ${call}`
    calls.push(call)
  }
  const expires =
    typeof body.expires_at === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(
      body.expires_at,
    )
      ? Date.parse(body.expires_at)
      : Number.NaN
  if (Number.isNaN(expires))
    return 'expires_at must be an RFC 3339 date-time, e.g. 2030-01-01T00:00:00Z.'
  if (expires <= now.getTime()) return 'expires_at must be in the future.'
  return {
    multicaller: {
      address,
      name: caller.name as string,
      version: caller.version as string,
    },
    reference,
    calls,
    deadline: BigInt(Math.floor(expires / 1000)),
  }
}

function isText(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= maxCraftingTextLength
  )
}

/**
 * `reference_id` as the contract's `bytes32` reference: hex digits, with
 * or without `0x`, read as a number (left-padded, as go-ethereum's
 * `HexToHash` reads them); zero is refused, as the contract refuses it.
 */
function referenceOf(value: unknown): Hex | undefined {
  if (typeof value !== 'string') return undefined
  const digits = value.startsWith('0x') ? value.slice(2) : value
  if (!/^[0-9a-fA-F]{1,64}$/.test(digits) || /^0+$/.test(digits))
    return undefined
  return pad(`0x${digits.length % 2 ? `0${digits}` : digits}` as Hex, {
    size: 32,
  }).toLowerCase() as Hex
}

/** One call: its signature parsed, its arguments encoded; or why not. */
function callOf(item: unknown): MulticallCall | string {
  if (!isRecord(item))
    return 'expected { target_address, function_signature, function_args }.'
  const target = addressOf(item.target_address)
  if (!target) return 'target_address must be an address.'
  const signature = item.function_signature
  if (
    !isText(signature) ||
    !/^[A-Za-z_$][A-Za-z0-9_$]*\([A-Za-z0-9_$,[\]() ]*\)$/.test(signature)
  )
    return 'function_signature must be a function signature, e.g. mint(address,uint256).'
  let inputs: readonly AbiParameter[]
  try {
    const parsed = parseAbiItem(`function ${signature}`)
    if (parsed.type !== 'function') throw new Error('not a function')
    inputs = parsed.inputs
  } catch {
    return `function_signature ${signature} does not parse.`
  }
  const args = item.function_args
  if (
    !Array.isArray(args) ||
    args.some((arg) => typeof arg !== 'string') ||
    args.length !== inputs.length
  )
    return `function_args must be ${inputs.length} string${inputs.length === 1 ? '' : 's'}, one per parameter of ${signature}.`
  const values: unknown[] = []
  for (const [index, input] of inputs.entries()) {
    const value = argumentOf(input.type, args[index] as string)
    if (value === undefined)
      return `function_args[${index}] is not a ${input.type}.`
    values.push(value)
  }
  try {
    return {
      target,
      functionSignature: signature,
      data: encodeAbiParameters(inputs, values),
    }
  } catch {
    return `function_args do not fit the parameters of ${signature}.`
  }
}

/**
 * A string argument as a value of ABI `type`: addresses and hex bytes as
 * given, integers in decimal, booleans as `true`/`false`, strings as they
 * are, arrays as JSON arrays of such strings. Tuples are not taken.
 */
function argumentOf(type: string, text: string): unknown {
  const array = /^(.*)\[(\d*)\]$/.exec(type)
  if (array) {
    let items: unknown
    try {
      items = JSON.parse(text)
    } catch {
      return undefined
    }
    if (
      !Array.isArray(items) ||
      items.some((item) => typeof item !== 'string') ||
      (array[2] !== '' && items.length !== Number(array[2]))
    )
      return undefined
    const values = items.map((item) => argumentOf(array[1] as string, item))
    return values.includes(undefined) ? undefined : values
  }
  if (type === 'address') return addressOf(text)
  if (type === 'bool')
    return text === 'true' ? true : text === 'false' ? false : undefined
  if (type === 'string') return text
  if (/^u?int\d*$/.test(type))
    return /^-?(0|[1-9][0-9]{0,77})$/.test(text) ? BigInt(text) : undefined
  if (/^bytes\d*$/.test(type))
    return isHex(text, { strict: true }) && text.length % 2 === 0
      ? text
      : undefined
  return undefined
}
