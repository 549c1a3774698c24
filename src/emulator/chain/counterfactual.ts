import {
  type Address,
  concat,
  encodeAbiParameters,
  getAddress,
  getContractAddress,
  type Hex,
  isAddress,
  keccak256,
  numberToHex,
  pad,
} from 'viem'
import { BaseError } from '../../core/Errors.js'
import { walletCreationCode } from './artifacts.generated.js'

/** One member of a Sequence v1 wallet configuration. */
export type Signer = {
  /** Weight of the signer's signature, an integer from 0 to 255 (uint8). */
  weight: number
  /** The signer's address (any case). */
  address: Address
}

/** A Sequence v1 wallet configuration: a weighted multisig. */
export type WalletConfig = {
  /** Total weight needed to sign, an integer from 1 to 65535 (uint16). */
  threshold: number
  /** The signers, in any order (see {@link sortSigners}). */
  signers: readonly Signer[]
}

/**
 * Checks a configuration and returns its signers with checksummed addresses
 * in ascending numeric address order. The contracts hash the signers in the
 * order a signature lists them; this package's convention is ascending
 * order, so a signature must list its parts in this same order.
 *
 * @throws {InvalidThresholdError | EmptySignersError | InvalidSignerError |
 *   DuplicateSignerError | UnreachableThresholdError} on an invalid config.
 */
export function sortSigners(config: WalletConfig): Signer[] {
  const { threshold, signers } = config
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > 0xffff)
    throw new InvalidThresholdError(threshold)
  if (signers.length === 0) throw new EmptySignersError()
  const sorted = signers
    .map(({ weight, address }) => {
      if (!isAddress(address, { strict: false }))
        throw new InvalidSignerError(`${address} is not an address.`)
      if (!Number.isInteger(weight) || weight < 0 || weight > 0xff)
        throw new InvalidSignerError(
          `The weight of ${address} is ${weight}, not an integer from 0 to 255.`,
        )
      return { weight, address: getAddress(address) }
    })
    .sort((a, b) => {
      const x = BigInt(a.address)
      const y = BigInt(b.address)
      return x < y ? -1 : x > y ? 1 : 0
    })
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i]!.address === sorted[i - 1]!.address)
      throw new DuplicateSignerError(sorted[i]!.address)
  const total = sorted.reduce((sum, { weight }) => sum + weight, 0)
  if (total < threshold) throw new UnreachableThresholdError(threshold, total)
  return sorted
}

/**
 * The Sequence v1 image hash of a configuration, as `ModuleAuth` rebuilds it
 * from a signature: `h = bytes32(uint256(threshold))`, then for each signer
 * in ascending address order `h = keccak256(abi.encode(h, weight, address))`.
 * It is the CREATE2 salt of the wallet.
 *
 * @throws the errors of {@link sortSigners}.
 */
export function imageHash(config: WalletConfig): Hex {
  const signers = sortSigners(config)
  let hash = numberToHex(config.threshold, { size: 32 })
  for (const { weight, address } of signers)
    hash = keccak256(
      encodeAbiParameters(
        [{ type: 'bytes32' }, { type: 'uint8' }, { type: 'address' }],
        [hash, weight, address],
      ),
    )
  return hash
}

/**
 * Init code of a Sequence v1 wallet proxy:
 * `walletCreationCode ‖ uint256(mainModule)`, as `Factory.deploy` builds it.
 */
export function walletInitCode(mainModule: Address): Hex {
  return concat([
    walletCreationCode,
    pad(mainModule.toLowerCase() as Hex, { size: 32 }),
  ])
}

/**
 * The address `Factory.deploy(mainModule, imageHash)` creates: CREATE2 from
 * the factory with the image hash as salt and {@link walletInitCode}.
 *
 * @example
 * const address = counterfactualAddress({
 *   factory: contracts.factory,
 *   mainModule: contracts.mainModule,
 *   imageHash: imageHash({ threshold: 1, signers: [{ weight: 1, address }] }),
 * })
 */
export function counterfactualAddress(
  options: counterfactualAddress.Options,
): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: options.factory,
    salt: options.imageHash,
    bytecode: walletInitCode(options.mainModule),
  })
}

export declare namespace counterfactualAddress {
  type Options = {
    /** The Sequence v1 `Factory`. */
    factory: Address
    /** The `MainModule` the wallet delegates to. */
    mainModule: Address
    /** The configuration's {@link imageHash}, used as the CREATE2 salt. */
    imageHash: Hex
  }
}

/** The threshold is not an integer from 1 to 65535. */
export class InvalidThresholdError extends BaseError {
  override readonly name = 'Counterfactual.InvalidThresholdError'
  constructor(threshold: number) {
    super('Invalid wallet threshold.', {
      details: `The threshold is ${threshold}; it must be an integer from 1 to 65535.`,
    })
  }
}

/** The configuration has no signers. */
export class EmptySignersError extends BaseError {
  override readonly name = 'Counterfactual.EmptySignersError'
  constructor() {
    super('A wallet configuration needs at least one signer.')
  }
}

/** A signer has an invalid address or weight. */
export class InvalidSignerError extends BaseError {
  override readonly name = 'Counterfactual.InvalidSignerError'
  constructor(details: string) {
    super('Invalid wallet signer.', { details })
  }
}

/** The same address appears twice among the signers. */
export class DuplicateSignerError extends BaseError {
  override readonly name = 'Counterfactual.DuplicateSignerError'
  /** The repeated address, checksummed. */
  readonly address: Address
  constructor(address: Address) {
    super('Duplicate wallet signer.', {
      details: `${address} appears more than once.`,
    })
    this.address = address
  }
}

/** The signers' weights add up to less than the threshold. */
export class UnreachableThresholdError extends BaseError {
  override readonly name = 'Counterfactual.UnreachableThresholdError'
  constructor(threshold: number, total: number) {
    super('The wallet threshold cannot be reached.', {
      details: `The signers' weights add up to ${total}, below the threshold ${threshold}.`,
    })
  }
}
