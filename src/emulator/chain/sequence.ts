/**
 * Sequence v1 meta-transactions and signatures, and the game wallet built on
 * them, for the emulator's services and the chain tests. Written from the
 * @0xsequence/wallet-contracts 1.10.0 sources:
 *
 * - `ModuleCalls.execute(txs, nonce, signature)` checks the signature over
 *   `_subDigest(keccak256(abi.encode(nonce, txs)))`;
 * - `ModuleAuth._subDigest(d)` is `keccak256("\x19\x01" ‖ chainId ‖ wallet ‖ d)`
 *   (EIP-191 version 1 bytes, with the wallet as the "validator");
 * - `ModuleAuth._signatureValidation` reads a `uint16` threshold, then parts
 *   flagged 0 (an EOA signature `r ‖ s ‖ v ‖ type`), 1 (an address only) or
 *   2 (a signer address, a `uint16` length and a signature checked through
 *   ERC-1271 when it ends in type 3), and rebuilds the image hash from them
 *   in the order given;
 * - `SignatureValidator` recovers type 1 over the hash itself and type 2
 *   over its `eth_sign` form, with `v` 27/28 and a low `s`.
 *
 * The game wallet (@imtbl/passport 2.x) is the configuration {player's
 * custody EOA weight 1, our `CoSigner` contract weight 1} with threshold 2.
 * The client signs only its own part (threshold 1, one EOA part); the
 * relayer adds the co-signer's part and submits.
 *
 * @packageDocumentation
 */
import {
  type Address,
  bytesToHex,
  concat,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getAddress,
  type Hex,
  hashMessage,
  hexToBytes,
  isHex,
  keccak256,
  type LocalAccount,
  numberToHex,
  recoverAddress,
  size,
  slice,
} from 'viem'
import { BaseError } from '../../core/Errors.js'
import { Factory, GuestModule, MainModule } from './artifacts.generated.js'
import {
  counterfactualAddress,
  imageHash,
  sortSigners,
  type WalletConfig,
} from './counterfactual.js'
import type { Contracts } from './deploy.js'

/** A Sequence v1 meta-transaction (`IModuleCalls.Transaction`). */
export type MetaTransaction = {
  delegateCall: boolean
  revertOnError: boolean
  gasLimit: bigint
  target: Address
  value: bigint
  data: Hex
}

/** The ABI of `IModuleCalls.Transaction[]`. */
export const metaTransactionsAbi = {
  type: 'tuple[]',
  components: [
    { name: 'delegateCall', type: 'bool' },
    { name: 'revertOnError', type: 'bool' },
    { name: 'gasLimit', type: 'uint256' },
    { name: 'target', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
} as const

/**
 * A plain call that reverts the whole batch if it fails, as the published
 * SDK builds every meta-transaction (no delegate call, gas limit 0 = all).
 */
export function call(
  target: Address,
  options: { value?: bigint | undefined; data?: Hex | undefined } = {},
): MetaTransaction {
  return {
    delegateCall: false,
    revertOnError: true,
    gasLimit: 0n,
    target,
    value: options.value ?? 0n,
    data: options.data ?? '0x',
  }
}

/** `keccak256(abi.encode(nonce, txs))`: what `execute` signs, before {@link subDigest}. */
export function transactionDigest(
  nonce: bigint,
  transactions: readonly MetaTransaction[],
): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, metaTransactionsAbi],
      [nonce, transactions],
    ),
  )
}

/**
 * `keccak256("\x19\x01" ‖ uint256 chainId ‖ wallet ‖ digest)`, what the
 * wallet's signers sign for `execute` (digest = {@link transactionDigest})
 * and for ERC-1271 (digest = the hash asked about).
 */
export function subDigest(options: {
  chainId: number | bigint
  wallet: Address
  digest: Hex
}): Hex {
  return keccak256(
    encodePacked(
      ['bytes2', 'uint256', 'address', 'bytes32'],
      ['0x1901', BigInt(options.chainId), options.wallet, options.digest],
    ),
  )
}

/** The bits of an encoded nonce below its space (`space · 2^96 + nonce`). */
const nonceBits = 96n

/** `space · 2^96 + nonce`, the nonce `execute` takes. */
export function encodeNonce(space: bigint, nonce: bigint): bigint {
  return (space << nonceBits) | nonce
}

/** Splits an encoded nonce into its space and its sequence number. */
export function decodeNonce(encoded: bigint): { space: bigint; nonce: bigint } {
  return {
    space: encoded >> nonceBits,
    nonce: encoded & ((1n << nonceBits) - 1n),
  }
}

/** `execute`'s selector, `execute((bool,bool,uint256,address,uint256,bytes)[],uint256,bytes)`. */
export const executeSelector = '0x7a9a1628'

/** The arguments of `execute`. */
export type Execute = {
  transactions: readonly MetaTransaction[]
  nonce: bigint
  signature: Hex
}

/** `execute(txs, nonce, signature)` calldata. */
export function encodeExecute(execute: Execute): Hex {
  return encodeFunctionData({
    abi: MainModule.abi,
    functionName: 'execute',
    args: [execute.transactions, execute.nonce, execute.signature],
  })
}

/**
 * Reads `execute(txs, nonce, signature)` calldata, with checksummed targets.
 *
 * @throws {InvalidExecuteError} when `data` is not such calldata.
 */
export function decodeExecute(data: Hex): Execute {
  if (!isHex(data, { strict: true }) || !data.startsWith(executeSelector))
    throw new InvalidExecuteError('The calldata is not a call to execute.')
  try {
    const { functionName, args } = decodeFunctionData({
      abi: MainModule.abi,
      data,
    })
    if (functionName !== 'execute')
      throw new InvalidExecuteError('The calldata is not a call to execute.')
    const [transactions, nonce, signature] = args
    return {
      transactions: transactions.map((tx) => ({
        ...tx,
        target: getAddress(tx.target),
      })),
      nonce,
      signature,
    }
  } catch (error) {
    if (error instanceof InvalidExecuteError) throw error
    throw new InvalidExecuteError(
      'The execute calldata does not decode.',
      error,
    )
  }
}

/** One part of a Sequence v1 signature. */
export type SignaturePart =
  | {
      /** Flag 0: an EOA's `r ‖ s ‖ v ‖ type` (66 bytes); the address is recovered. */
      type: 'eoa'
      weight: number
      signature: Hex
    }
  | {
      /** Flag 1: a signer that did not sign, by address. */
      type: 'address'
      weight: number
      address: Address
    }
  | {
      /** Flag 2: a signer's signature of any length; ending in type 3 it is checked with ERC-1271 on `address`. */
      type: 'dynamic'
      weight: number
      address: Address
      signature: Hex
    }

/** A Sequence v1 signature: a threshold and parts in image-hash order. */
export type WalletSignature = {
  threshold: number
  parts: readonly SignaturePart[]
}

const flags = { eoa: 0, address: 1, dynamic: 2 } as const

/** A part's bytes, as it appears after the threshold. */
export function encodeSignaturePart(part: SignaturePart): Hex {
  if (!Number.isInteger(part.weight) || part.weight < 0 || part.weight > 0xff)
    throw new InvalidWalletSignatureError(
      `The weight ${part.weight} is not an integer from 0 to 255.`,
    )
  const head = concat([
    numberToHex(flags[part.type], { size: 1 }),
    numberToHex(part.weight, { size: 1 }),
  ])
  if (part.type === 'eoa') {
    if (size(part.signature) !== 66)
      throw new InvalidWalletSignatureError(
        'An EOA part carries 66 bytes: r, s, v and a type.',
      )
    return concat([head, part.signature])
  }
  if (part.type === 'address') return concat([head, part.address])
  const length = size(part.signature)
  if (length > 0xffff)
    throw new InvalidWalletSignatureError('A dynamic part is too long.')
  return concat([
    head,
    part.address,
    numberToHex(length, { size: 2 }),
    part.signature,
  ])
}

/** `uint16 threshold ‖ parts`, the parts in the order given. */
export function encodeSignature(signature: WalletSignature): Hex {
  const { threshold, parts } = signature
  if (!Number.isInteger(threshold) || threshold < 0 || threshold > 0xffff)
    throw new InvalidWalletSignatureError(
      `The threshold ${threshold} is not an integer from 0 to 65535.`,
    )
  return concat([
    numberToHex(threshold, { size: 2 }),
    ...parts.map(encodeSignaturePart),
  ])
}

/**
 * Reads `uint16 threshold ‖ parts`, checksumming addresses.
 *
 * @throws {InvalidWalletSignatureError} on a truncated part or an unknown flag.
 */
export function decodeSignature(signature: Hex): WalletSignature {
  if (!isHex(signature, { strict: true }) || signature.length % 2 !== 0)
    throw new InvalidWalletSignatureError('The signature is not hex bytes.')
  const bytes = hexToBytes(signature)
  if (bytes.length < 2)
    throw new InvalidWalletSignatureError('The signature has no threshold.')
  const threshold = (bytes[0]! << 8) | bytes[1]!
  const parts: SignaturePart[] = []
  let index = 2
  const take = (count: number) => {
    if (index + count > bytes.length)
      throw new InvalidWalletSignatureError(
        `The signature ends inside a part (byte ${index} of ${bytes.length}).`,
      )
    const out = bytes.subarray(index, index + count)
    index += count
    return out
  }
  while (index < bytes.length) {
    const [flag, weight] = take(2) as unknown as [number, number]
    if (flag === flags.eoa)
      parts.push({ type: 'eoa', weight, signature: bytesToHex(take(66)) })
    else if (flag === flags.address)
      parts.push({
        type: 'address',
        weight,
        address: getAddress(bytesToHex(take(20))),
      })
    else if (flag === flags.dynamic) {
      const address = getAddress(bytesToHex(take(20)))
      const [high, low] = take(2) as unknown as [number, number]
      parts.push({
        type: 'dynamic',
        weight,
        address,
        signature: bytesToHex(take((high << 8) | low)),
      })
    } else
      throw new InvalidWalletSignatureError(
        `Unknown signature part flag ${flag}.`,
      )
  }
  return { threshold, parts }
}

/** Signature types of `SignatureValidator` (the last byte of a signature). */
export const signatureTypes = {
  /** Recovered over the hash itself. */
  eip712: 1,
  /** Recovered over `"\x19Ethereum Signed Message:\n32" ‖ hash`. */
  ethSign: 2,
  /** Checked with ERC-1271 on the signer (dynamic parts only). */
  erc1271: 3,
} as const

/** Half the secp256k1 group order: a larger `s` is refused (EIP-2). */
const halfOrder =
  0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

/**
 * `r ‖ s ‖ v ‖ 02`: `account` personal_signs the 32 raw bytes of `hash`, as
 * the published SDK has the player's key sign the sub-digest.
 */
export async function signEthSign(
  account: LocalAccount,
  hash: Hex,
): Promise<Hex> {
  const signature = await account.signMessage({ message: { raw: hash } })
  return concat([signature, numberToHex(signatureTypes.ethSign, { size: 1 })])
}

/**
 * The address that made a 66-byte `r ‖ s ‖ v ‖ type` signature over `hash`
 * (type 1 or 2), with the checks `SignatureValidator` makes on chain.
 *
 * @throws {InvalidWalletSignatureError} on a bad length, type, `v` or high `s`.
 */
export async function recoverSigner(
  hash: Hex,
  signature: Hex,
): Promise<Address> {
  if (!isHex(signature, { strict: true }) || size(signature) !== 66)
    throw new InvalidWalletSignatureError('A signature is 66 bytes.')
  const type = Number.parseInt(signature.slice(-2), 16)
  const v = Number.parseInt(signature.slice(130, 132), 16)
  const s = BigInt(slice(signature, 32, 64))
  if (v !== 27 && v !== 28)
    throw new InvalidWalletSignatureError(`The signature's v is ${v}.`)
  if (s > halfOrder)
    throw new InvalidWalletSignatureError("The signature's s is high.")
  if (type !== signatureTypes.eip712 && type !== signatureTypes.ethSign)
    throw new InvalidWalletSignatureError(`Unknown signature type ${type}.`)
  const digest =
    type === signatureTypes.ethSign ? hashMessage({ raw: hash }) : hash
  try {
    return await recoverAddress({
      hash: digest,
      signature: slice(signature, 0, 65),
    })
  } catch (error) {
    throw new InvalidWalletSignatureError(
      'The signature does not recover.',
      error,
    )
  }
}

/**
 * The co-signer's part: flag 2, weight 1, the `CoSigner` contract, and the
 * co-signing key's 66-byte signature followed by type 3 so that the wallet
 * asks the contract through ERC-1271.
 */
export function coSignerPart(options: {
  coSigner: Address
  signature: Hex
}): SignaturePart {
  return {
    type: 'dynamic',
    weight: 1,
    address: getAddress(options.coSigner),
    signature: concat([
      options.signature,
      numberToHex(signatureTypes.erc1271, { size: 1 }),
    ]),
  }
}

/** The game wallet's configuration: {custody w1, co-signer w1}, threshold 2. */
export function playerWalletConfig(options: {
  custody: Address
  coSigner: Address
}): WalletConfig {
  return {
    threshold: 2,
    signers: [
      { weight: 1, address: options.custody },
      { weight: 1, address: options.coSigner },
    ],
  }
}

/** The contracts a game wallet's address depends on. */
export type PlayerWalletContracts = Pick<
  Contracts,
  'factory' | 'mainModule' | 'coSigner'
>

/** The counterfactual address of `custody`'s game wallet. */
export function playerWalletAddress(options: {
  custody: Address
  contracts: PlayerWalletContracts
}): Address {
  const { custody, contracts } = options
  return counterfactualAddress({
    factory: contracts.factory,
    mainModule: contracts.mainModule,
    imageHash: imageHash(
      playerWalletConfig({ custody, coSigner: contracts.coSigner }),
    ),
  })
}

/**
 * The full threshold-2 signature of a game wallet: the player's EOA part and
 * the co-signer's part, in ascending address order (the order the image
 * hash was built in).
 */
export function playerWalletSignature(options: {
  custody: Address
  /** The player's 66-byte signature (type 1 or 2). */
  custodySignature: Hex
  coSigner: Address
  /** The co-signing key's 66-byte signature (type 1 or 2). */
  coSignature: Hex
}): Hex {
  const custody = getAddress(options.custody)
  const byAddress: Record<Address, SignaturePart> = {
    [custody]: { type: 'eoa', weight: 1, signature: options.custodySignature },
    [getAddress(options.coSigner)]: coSignerPart({
      coSigner: options.coSigner,
      signature: options.coSignature,
    }),
  }
  const order = sortSigners(
    playerWalletConfig({ custody, coSigner: options.coSigner }),
  )
  return encodeSignature({
    threshold: 2,
    parts: order.map(({ address }) => byAddress[address]!),
  })
}

/**
 * Signs `execute` for any wallet configuration: signers with an `account`
 * sign the sub-digest (eth_sign, an EOA part), the others are listed by
 * address. Parts go in ascending address order.
 */
export async function signExecute(options: {
  chainId: number
  wallet: Address
  nonce: bigint
  transactions: readonly MetaTransaction[]
  threshold: number
  signers: readonly {
    weight: number
    address: Address
    account?: LocalAccount | undefined
  }[]
}): Promise<Hex> {
  const { chainId, wallet, nonce, transactions, threshold, signers } = options
  const hash = subDigest({
    chainId,
    wallet,
    digest: transactionDigest(nonce, transactions),
  })
  const parts: SignaturePart[] = []
  for (const { weight, address } of sortSigners({ threshold, signers })) {
    const account = signers.find(
      (signer) => signer.address.toLowerCase() === address.toLowerCase(),
    )?.account
    parts.push(
      account
        ? { type: 'eoa', weight, signature: await signEthSign(account, hash) }
        : { type: 'address', weight, address },
    )
  }
  return encodeSignature({ threshold, parts })
}

/**
 * `GuestModule.execute([Factory.deploy(mainModule, imageHash), wallet.execute(…)], 0, 0x)`
 * calldata: one transaction that creates a counterfactual wallet and runs
 * its first `execute`. Send it to {@link Contracts.guestModule} with an
 * explicit gas limit: a CREATE2 that runs out of gas fails without reverting
 * `Factory.deploy`, so estimates can settle on too little.
 */
export function encodeDeployAndExecute(options: {
  contracts: Pick<Contracts, 'factory' | 'mainModule'>
  config: WalletConfig
  execute: Execute
}): Hex {
  const { contracts, config, execute } = options
  const salt = imageHash(config)
  const wallet = counterfactualAddress({
    factory: contracts.factory,
    mainModule: contracts.mainModule,
    imageHash: salt,
  })
  const batch = [
    call(contracts.factory, {
      data: encodeFunctionData({
        abi: Factory.abi,
        functionName: 'deploy',
        args: [contracts.mainModule, salt],
      }),
    }),
    call(wallet, { data: encodeExecute(execute) }),
  ]
  return encodeFunctionData({
    abi: GuestModule.abi,
    functionName: 'execute',
    args: [batch, 0n, '0x'],
  })
}

/** Calldata that is not `execute(txs, nonce, signature)`. */
export class InvalidExecuteError extends BaseError<Error | undefined> {
  override readonly name = 'Sequence.InvalidExecuteError'
  constructor(shortMessage: string, cause?: unknown) {
    super(shortMessage, { cause: cause instanceof Error ? cause : undefined })
  }
}

/** Bytes that are not a Sequence v1 signature, or a signature that does not recover. */
export class InvalidWalletSignatureError extends BaseError<Error | undefined> {
  override readonly name = 'Sequence.InvalidWalletSignatureError'
  constructor(shortMessage: string, cause?: unknown) {
    super(shortMessage, {
      cause: cause instanceof Error ? cause : undefined,
    })
  }
}
