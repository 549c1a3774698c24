/**
 * Calls as a developer reads them on the emulator's UI: the contract by the
 * name the emulator deployed it under, the function and its arguments, and
 * a Sequence wallet's `execute` opened into the calls of its batch. Decoded
 * with the ABIs the emulator has: the wallet's (the game wallet's wire),
 * the test tokens', the platform's contracts' (collections, order book,
 * allowlist), and the ERC-20, ERC-721 and ERC-1155 standards'.
 *
 * @packageDocumentation
 */
import {
  type Abi,
  type Address,
  decodeFunctionData,
  erc20Abi,
  erc721Abi,
  erc1155Abi,
  getAddress,
  type Hex,
  isAddress,
} from 'viem'
import {
  decodeExecute,
  factoryAbi,
  selectors,
} from '../../passport/wire/sequence.js'
import {
  TestERC20,
  TestERC721,
  TestERC1155,
} from '../chain/artifacts.generated.js'
import type { Contracts } from '../chain/deploy.js'
import {
  ImmutableERC721V2,
  ImmutableERC1155,
  ImmutableSeaport,
  ImmutableSignedZoneV2,
  OperatorAllowlistUpgradeable,
} from '../chain/platformArtifacts.generated.js'

/** A call, decoded as far as the known ABIs go. */
export type DecodedCall = {
  /** The target's checksummed address, `undefined` for a contract creation. */
  readonly to: Address | undefined
  /** The deployed contract's name (`erc20`, `mainModule`, …), if it is one. */
  readonly contract?: string | undefined
  /** Wei sent, as a decimal string. */
  readonly value: string
  /** The function's name, when an ABI knows the selector. */
  readonly function?: string | undefined
  /** Its arguments, as text. */
  readonly args?: readonly string[] | undefined
  /** The selector, when no ABI knows it; `undefined` for a plain transfer. */
  readonly selector?: Hex | undefined
  /** A wallet's `execute`: the calls of its batch. */
  readonly calls?: readonly DecodedCall[] | undefined
  /** A batch call's delegate-call flag. */
  readonly delegateCall?: boolean | undefined
}

/** The ABIs tried in turn (the test tokens extend the standards). */
const abis: readonly Abi[] = [
  factoryAbi,
  TestERC20.abi as Abi,
  TestERC721.abi as Abi,
  TestERC1155.abi as Abi,
  ImmutableERC721V2.abi as Abi,
  ImmutableERC1155.abi as Abi,
  ImmutableSeaport.abi as Abi,
  ImmutableSignedZoneV2.abi as Abi,
  OperatorAllowlistUpgradeable.abi as Abi,
  erc20Abi,
  erc721Abi,
  erc1155Abi,
]

/** How deep `execute` batches are opened (a batch may call a wallet's `execute`). */
const maxDepth = 3

/**
 * Decodes a call to `to` with `data` and `value`.
 *
 * @example
 * ```ts
 * decodeCall({ to: contracts.erc20, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [bob, 5n] }), value: 0n }, contracts)
 * // { to: '0x…', contract: 'erc20', value: '0', function: 'transfer', args: ['0xBob…', '5'] }
 * ```
 */
export function decodeCall(
  call: { to: Address | null | undefined; data: Hex; value: bigint },
  contracts: Contracts,
  depth = 0,
): DecodedCall {
  const to = call.to ? getAddress(call.to) : undefined
  const base = {
    to,
    contract: to === undefined ? undefined : nameOf(to, contracts),
    value: call.value.toString(),
  }
  // A creation's data is the contract's code, not a call.
  if (to === undefined) return { ...base, function: 'create' }
  if (call.data === '0x' || call.data.length < 10) return base
  const selector = call.data.slice(0, 10).toLowerCase() as Hex
  if (selector === selectors.execute && depth < maxDepth)
    try {
      const { transactions, nonce } = decodeExecute(call.data)
      return {
        ...base,
        function: 'execute',
        args: [`nonce ${nonce}`],
        calls: transactions.map((tx) => ({
          ...decodeCall(
            { to: tx.target, data: tx.data, value: tx.value },
            contracts,
            depth + 1,
          ),
          delegateCall: tx.delegateCall,
        })),
      }
    } catch {
      // Not a well-formed batch: shown by its selector below.
    }
  for (const abi of abis)
    try {
      const { functionName, args = [] } = decodeFunctionData({
        abi,
        data: call.data,
      })
      return { ...base, function: functionName, args: args.map(text) }
    } catch {
      // Not this ABI's; try the next.
    }
  return { ...base, selector }
}

/** The name of the emulator's contract at `address`. */
function nameOf(address: Address, contracts: Contracts): string | undefined {
  for (const [name, value] of Object.entries(contracts))
    if (
      typeof value === 'string' &&
      value.toLowerCase() === address.toLowerCase()
    )
      return name
  return undefined
}

/** An argument as text: numbers in decimal, addresses checksummed. */
function text(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'string')
    return isAddress(value, { strict: false }) ? getAddress(value) : value
  if (Array.isArray(value)) return `[${value.map(text).join(', ')}]`
  if (typeof value === 'object' && value !== null)
    return JSON.stringify(value, (_, inner) =>
      typeof inner === 'bigint' ? inner.toString() : inner,
    )
  return String(value)
}
