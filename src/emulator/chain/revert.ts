/**
 * Why a relayed transaction reverted, in words a developer can act on: the
 * revert data decoded as Solidity's `Error(string)` or `Panic(uint256)`, or
 * as a custom error of a contract the emulator deployed (by its ABI), else
 * the raw data. The relayer's status answer carries it as `statusMessage`,
 * and the emulator's UI shows it beside a reverted transaction.
 *
 * @packageDocumentation
 */
import {
  type Abi,
  decodeErrorResult,
  getAddress,
  type Hex,
  isAddress,
} from 'viem'
import * as Artifacts from './artifacts.generated.js'

/** One error of an ABI. */
type AbiError = Extract<Abi[number], { type: 'error' }>

/**
 * The custom errors of every contract the emulator deploys (the wallet's,
 * the test tokens', the co-signer's, the gas sponsor's delegate).
 */
export const deployedErrors: readonly AbiError[] = Object.values(Artifacts)
  .flatMap((artifact) =>
    typeof artifact === 'object' && artifact !== null && 'abi' in artifact
      ? (artifact.abi as Abi)
      : [],
  )
  .filter((item): item is AbiError => item.type === 'error')

/**
 * What `Panic(uint256)` codes mean, as the Solidity documentation lists
 * them ("Panic via assert and Error via require").
 */
const panics: Record<number, string> = {
  0: 'generic compiler panic',
  1: 'assert failed',
  17: 'arithmetic underflow or overflow',
  18: 'division or modulo by zero',
  33: 'conversion to an enum out of range',
  34: 'incorrectly encoded storage byte array',
  49: 'pop on an empty array',
  50: 'array index out of bounds',
  65: 'too much memory allocated',
  81: 'call to a zero-initialized function',
}

/**
 * The status message of a transaction that reverted on chain with `data`.
 *
 * @example
 * ```ts
 * revertMessage('0x4e487b710000000000000000000000000000000000000000000000000000000000000011')
 * // 'The transaction reverted on chain: Panic(0x11): arithmetic underflow or overflow.'
 * ```
 */
export function revertMessage(data: Hex | undefined): string {
  const reason = data === undefined ? undefined : revertReason(data)
  return reason === undefined
    ? 'The transaction reverted on chain without a reason.'
    : `The transaction reverted on chain: ${reason}.`
}

/**
 * The revert data as words: `Error(string)`'s text, `Panic(0x11): …`, a
 * custom error with its arguments (`ERC20InsufficientBalance(0x…, 0, 1)`),
 * or `data 0x…` when no known error decodes it; `undefined` when there is
 * no data at all.
 */
export function revertReason(data: Hex): string | undefined {
  if (data === '0x') return undefined
  try {
    const { errorName, args = [] } = decodeErrorResult({
      abi: deployedErrors,
      data,
    })
    if (errorName === 'Error') return String(args[0])
    if (errorName === 'Panic') {
      const code = Number(args[0])
      const meaning = panics[code] ?? 'unknown panic code'
      return `Panic(0x${code.toString(16).padStart(2, '0')}): ${meaning}`
    }
    return `${errorName}(${args.map(argumentText).join(', ')})`
  } catch {
    return `data ${data}`
  }
}

/** An error argument as a developer reads it. */
function argumentText(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'string')
    return isAddress(value, { strict: false })
      ? getAddress(value)
      : value.startsWith('0x')
        ? value
        : JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(argumentText).join(', ')}]`
  return String(value)
}
