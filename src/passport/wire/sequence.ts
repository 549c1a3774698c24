/**
 * The game wallet's Sequence v1 encodings, one copy for both sides: the
 * client that signs and sends, and the emulator that checks, co-signs and
 * submits. A leaf: it imports only viem.
 *
 * Written from the @0xsequence/wallet-contracts 1.10.0 sources and ERC-6492:
 *
 * - `ModuleCalls.execute(txs, nonce, signature)` checks the signature over
 *   `_subDigest(keccak256(abi.encode(nonce, txs)))`; the nonce's top bits
 *   name a nonce space, each with its own counter (`readNonce(space)`);
 * - `ModuleAuth._subDigest(d)` is `keccak256("\x19\x01" ‖ chainId ‖ wallet ‖ d)`,
 *   which binds any digest to one wallet on one chain (ERC-1271 too);
 * - a signature is a `uint16` threshold, then parts flagged 0 (an EOA's
 *   `r ‖ s ‖ v ‖ type`), 1 (an address that did not sign) or 2 (an address,
 *   a `uint16` length and a signature, checked through ERC-1271 when it ends
 *   in type 3); the contract rebuilds the image hash from the parts in the
 *   order given, so they go in the order the image hash was built in;
 * - `Factory.deploy(mainModule, imageHash)` creates the wallet with CREATE2,
 *   the image hash being the salt, so a wallet's address is known before it
 *   exists, and ERC-6492 lets its signatures verify before that.
 *
 * The game wallet (@imtbl/passport 2.x) is the configuration {the player's
 * custody key, weight 1; the co-signer contract, weight 1}, threshold 2. The
 * client signs its own part; the relayer adds the co-signer's.
 *
 * @packageDocumentation
 */
import {
  type Address,
  bytesToHex,
  concat,
  decodeAbiParameters,
  encodeAbiParameters,
  encodePacked,
  getAddress,
  getContractAddress,
  type Hex,
  hashMessage,
  hashTypedData,
  hexToBytes,
  isAddress,
  isHex,
  keccak256,
  numberToHex,
  pad,
  size,
  slice,
  type TypedDataDefinition,
} from 'viem'

/** One call of the wallet's `execute` (`IModuleCalls.Transaction`). */
export type MetaTransaction = {
  delegateCall: boolean
  revertOnError: boolean
  /** 0: all the gas left. */
  gasLimit: bigint
  target: Address
  value: bigint
  data: Hex
}

/** The wallet functions both sides call (`ModuleCalls`). */
export const walletAbi = [
  {
    type: 'function',
    name: 'execute',
    stateMutability: 'nonpayable',
    inputs: [
      {
        name: '_txs',
        type: 'tuple[]',
        components: [
          { name: 'delegateCall', type: 'bool' },
          { name: 'revertOnError', type: 'bool' },
          { name: 'gasLimit', type: 'uint256' },
          { name: 'target', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'data', type: 'bytes' },
        ],
      },
      { name: '_nonce', type: 'uint256' },
      { name: '_signature', type: 'bytes' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'readNonce',
    stateMutability: 'view',
    inputs: [{ name: '_space', type: 'uint256' }],
    outputs: [{ type: 'uint256' }],
  },
] as const

/** `Factory.deploy(mainModule, salt)`. */
export const factoryAbi = [
  {
    type: 'function',
    name: 'deploy',
    stateMutability: 'payable',
    inputs: [
      { name: '_mainModule', type: 'address' },
      { name: '_salt', type: 'bytes32' },
    ],
    outputs: [{ name: '_contract', type: 'address' }],
  },
] as const

/** The ABI type of `IModuleCalls.Transaction[]`. */
export const metaTransactionsAbi = walletAbi[0].inputs[0]

/**
 * The selectors of the functions above (first 4 bytes of the keccak256 of
 * their signatures; the tests check them), so that calldata is built with
 * no ABI lookup in the client's bundle.
 */
export const selectors = {
  /** `execute((bool,bool,uint256,address,uint256,bytes)[],uint256,bytes)`; the guest module's `execute` too. */
  execute: '0x7a9a1628',
  /** `readNonce(uint256)` */
  readNonce: '0x8c3f5563',
  /** `deploy(address,bytes32)` */
  deploy: '0x32c02a14',
} as const satisfies Record<string, Hex>

/**
 * A plain call as the published SDK builds every meta-transaction: no
 * delegate call, the whole batch reverts if it fails, no gas limit of its
 * own.
 *
 * @throws viem's `InvalidAddressError` when `to` is not an address.
 */
export function metaTransaction(call: {
  to: Address
  value?: bigint | undefined
  data?: Hex | undefined
}): MetaTransaction {
  return {
    delegateCall: false,
    revertOnError: true,
    gasLimit: 0n,
    target: getAddress(call.to),
    value: call.value ?? 0n,
    data: call.data ?? '0x',
  }
}

/** `abi.encode(MetaTransaction[])`, the `data` of the relayer's `im_getFeeOptions`. */
export function encodeMetaTransactions(
  transactions: readonly MetaTransaction[],
): Hex {
  return encodeAbiParameters([metaTransactionsAbi], [transactions])
}

/** The arguments of `execute`. */
export type Execute = {
  transactions: readonly MetaTransaction[]
  nonce: bigint
  signature: Hex
}

/** `execute(transactions, nonce, signature)` calldata. */
export function encodeExecute(execute: Execute): Hex {
  return concat([
    selectors.execute,
    encodeAbiParameters(walletAbi[0].inputs, [
      execute.transactions,
      execute.nonce,
      execute.signature,
    ]),
  ])
}

/**
 * Reads `execute(transactions, nonce, signature)` calldata, with
 * checksummed targets.
 *
 * @throws {InvalidExecuteError} when `data` is not such calldata.
 */
export function decodeExecute(data: Hex): Execute {
  if (
    !isHex(data, { strict: true }) ||
    data.length % 2 !== 0 ||
    data.slice(0, 10).toLowerCase() !== selectors.execute
  )
    throw new InvalidExecuteError('The calldata is not a call to execute.')
  try {
    // viem checksums the addresses it decodes.
    const [transactions, nonce, signature] = decodeAbiParameters(
      walletAbi[0].inputs,
      slice(data, 4),
    )
    return { transactions, nonce, signature }
  } catch (error) {
    throw new InvalidExecuteError('The execute calldata does not decode.', {
      cause: error,
    })
  }
}

/** `readNonce(space)` calldata. */
export function encodeReadNonce(space: bigint): Hex {
  return concat([
    selectors.readNonce,
    encodeAbiParameters(walletAbi[1].inputs, [space]),
  ])
}

/**
 * The `uint256` a `readNonce` call returns (its first 32-byte word).
 *
 * @throws {InvalidNonceError} on fewer than 32 bytes.
 */
export function decodeReadNonce(data: Hex): bigint {
  if (size(data) < 32)
    throw new InvalidNonceError(
      `Data size of ${size(data)} bytes is too small for given parameters.`,
    )
  return BigInt(slice(data, 0, 32))
}

/**
 * The nonce spaces the published SDK uses: ordinary sends, and background
 * session activity, so that the two never wait on each other's nonce.
 */
export const nonceSpaces = { default: 0n, background: 1n } as const

/** The bits of an encoded nonce below its space. */
const nonceBits = 96n

/**
 * `space · 2^96 + nonce`, the nonce `execute` takes (`ModuleCalls`).
 *
 * @throws {InvalidNonceError} when either part is out of range.
 */
export function encodeNonce(space: bigint, nonce: bigint): bigint {
  if (space < 0n || space >> 160n !== 0n)
    throw new InvalidNonceError(`The nonce space ${space} is not a uint160.`)
  if (nonce < 0n || nonce >> nonceBits !== 0n)
    throw new InvalidNonceError(`The nonce ${nonce} is not a uint96.`)
  return (space << nonceBits) | nonce
}

/** Splits an encoded nonce into its space and its counter. */
export function decodeNonce(encoded: bigint): { space: bigint; nonce: bigint } {
  return {
    space: encoded >> nonceBits,
    nonce: encoded & ((1n << nonceBits) - 1n),
  }
}

/**
 * `keccak256(abi.encode(uint256 nonce, MetaTransaction[]))`: the digest of
 * a batch, which `execute` then passes through {@link subDigest}.
 */
export function transactionsDigest(
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
 * `keccak256("\x19\x01" ‖ uint256 chainId ‖ wallet ‖ digest)`
 * (`ModuleAuth._subDigest`): what the wallet's signers sign, for `execute`
 * (digest = {@link transactionsDigest}) and for ERC-1271 (digest = the hash
 * asked about).
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

/**
 * The EIP-712 hash of typed data as the published SDK signs it: a caller's
 * `EIP712Domain` type is dropped and rebuilt from the keys present in
 * `domain` (viem does so when none is given), so that client, guardian,
 * relayer and verifier hash the same thing.
 *
 * @throws viem's errors on malformed typed data.
 */
export function typedDataDigest(typedData: TypedDataDefinition): Hex {
  const { EIP712Domain: _, ...types } = typedData.types as Record<
    string,
    unknown
  >
  return hashTypedData({ ...typedData, types } as TypedDataDefinition)
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

/**
 * A 65-byte `r ‖ s ‖ v` signature with `v` 27 or 28, as
 * `SignatureValidator` requires (some signers answer 0 or 1).
 *
 * @throws {InvalidWalletSignatureError} unless `signature` is 65 bytes.
 */
export function normalizeV(signature: Hex): Hex {
  if (!isHex(signature, { strict: true }) || size(signature) !== 65)
    throw new InvalidWalletSignatureError('Invalid signature length')
  const v = Number.parseInt(signature.slice(130, 132), 16)
  return concat([
    slice(signature, 0, 64),
    numberToHex(v < 27 ? v + 27 : v, { size: 1 }),
  ])
}

/**
 * An EOA's 66-byte signature as the wallet reads it:
 * `r ‖ s ‖ v (27/28) ‖ type`.
 */
export function eoaSignature(
  signature: Hex,
  type: (typeof signatureTypes)['eip712' | 'ethSign'],
): Hex {
  return concat([normalizeV(signature), numberToHex(type, { size: 1 })])
}

/**
 * Splits an EOA's 66-byte signature into `r ‖ s ‖ v` and its type.
 *
 * @throws {InvalidWalletSignatureError} unless it is 66 bytes.
 */
export function splitEoaSignature(signature: Hex): {
  signature: Hex
  type: number
} {
  if (!isHex(signature, { strict: true }) || size(signature) !== 66)
    throw new InvalidWalletSignatureError('A signature is 66 bytes.')
  return {
    signature: slice(signature, 0, 65),
    type: Number.parseInt(signature.slice(-2), 16),
  }
}

/**
 * What an EOA's key signed to sign `digest` with a signature of `type`:
 * the digest itself (type 1) or its `eth_sign` form (type 2).
 *
 * @throws {InvalidWalletSignatureError} for any other type.
 */
export function signedDigest(digest: Hex, type: number): Hex {
  if (type === signatureTypes.eip712) return digest
  if (type === signatureTypes.ethSign) return hashMessage({ raw: digest })
  throw new InvalidWalletSignatureError(`Unknown signature type ${type}.`)
}

/** One part of a Sequence v1 signature. */
export type SignaturePart =
  | {
      /** Flag 0: an EOA's 66-byte `r ‖ s ‖ v ‖ type`; the wallet recovers the signer. */
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
      /** Flag 2: a signer's signature of any length; ending in type 3, checked with ERC-1271 on `address`. */
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

/**
 * A part's bytes as they follow the threshold: `00 w sig66`,
 * `01 w address` or `02 w address len sig`.
 *
 * @throws {InvalidWalletSignatureError} on a weight above 255, an EOA
 *   signature of another length than 66 bytes or a dynamic one over 65535.
 */
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
    if (!isHex(part.signature, { strict: true }) || size(part.signature) !== 66)
      throw new InvalidWalletSignatureError(
        'An EOA part carries 66 bytes: r, s, v and a type.',
      )
    return concat([head, part.signature]).toLowerCase() as Hex
  }
  if (part.type === 'address')
    return concat([head, part.address]).toLowerCase() as Hex
  const length = size(part.signature)
  if (length > 0xffff)
    throw new InvalidWalletSignatureError('A dynamic part is too long.')
  // Hex bytes in lowercase: a checksummed address would mix cases.
  return concat([
    head,
    part.address,
    numberToHex(length, { size: 2 }),
    part.signature,
  ]).toLowerCase() as Hex
}

/**
 * `uint16 threshold ‖ parts`, the parts in the order given.
 *
 * @throws {InvalidWalletSignatureError} on a threshold above 65535 or a
 *   part {@link encodeSignaturePart} refuses.
 */
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
 * Reads `uint16 threshold ‖ parts`, checksumming addresses. EOA parts are
 * not recovered here: the side that needs their signers recovers them.
 *
 * @throws {InvalidWalletSignatureError} on bytes that are not hex, a
 *   missing threshold, a truncated part or an unknown flag.
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
    }
    // The published SDK's text (the Sequence decoder's), which a relayer
    // answer with a `0x` prefix meets as type 48.
    else
      throw new InvalidWalletSignatureError(
        `Unknown signature part type: ${flag}`,
      )
  }
  return { threshold, parts }
}

/** A part with the address of its signer, for ordering. */
export type SignedPart = { address: Address; part: SignaturePart }

/**
 * `uint16 threshold ‖ parts` with the parts in ascending signer order,
 * the order {@link imageHash} hashes the signers in, which the wallet
 * rebuilds from the signature.
 */
export function encodeSignedParts(
  threshold: number,
  signed: readonly SignedPart[],
): Hex {
  return encodeSignature({
    threshold,
    parts: sortByAddress(signed).map(({ part }) => part),
  })
}

/**
 * The player's part: the custody key's `personal_sign` of the 32 raw bytes
 * of a sub-digest (`r ‖ s ‖ v`), typed ETH_SIGN, weight 1.
 */
export function custodyPart(signature: Hex): SignaturePart {
  return {
    type: 'eoa',
    weight: 1,
    signature: eoaSignature(signature, signatureTypes.ethSign),
  }
}

/**
 * The co-signer's part: flag 2, weight 1, the co-signer contract, and the
 * co-signing key's 66-byte signature followed by type 3, so that the
 * wallet asks the contract through ERC-1271.
 */
export function coSignerPart(options: {
  coSigner: Address
  /** The co-signing key's 66-byte `r ‖ s ‖ v ‖ type`. */
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

/**
 * The signature a transaction is sent to the relayer with: threshold 1 and
 * the player's part only, `0x0001 00 01 <r s v> 02`, from the custody
 * key's `personal_sign` of the sub-digest. The relayer completes the 2-of-2.
 */
export function transactionSignature(custodySignature: Hex): Hex {
  return encodeSignature({
    threshold: 1,
    parts: [custodyPart(custodySignature)],
  })
}

/**
 * The game wallet's full signature: the player's part and the co-signer's
 * part behind threshold 2, in ascending address order.
 */
export function playerWalletSignature(options: {
  custody: Address
  /** The player's 66-byte signature (type 1 or 2). */
  custodySignature: Hex
  coSigner: Address
  /** The co-signing key's 66-byte signature (type 1 or 2). */
  coSignature: Hex
}): Hex {
  return encodeSignedParts(2, [
    {
      address: getAddress(options.custody),
      part: { type: 'eoa', weight: 1, signature: options.custodySignature },
    },
    {
      address: getAddress(options.coSigner),
      part: coSignerPart({
        coSigner: options.coSigner,
        signature: options.coSignature,
      }),
    },
  ])
}

/** One member of a wallet configuration. */
export type Signer = {
  /** Its weight, an integer from 0 to 255 (uint8). */
  weight: number
  /** Its address, any case. */
  address: Address
}

/** A Sequence v1 wallet configuration: a weighted multisig. */
export type WalletConfig = {
  /** The weight needed to sign, an integer from 1 to 65535 (uint16). */
  threshold: number
  /** The signers, in any order. */
  signers: readonly Signer[]
}

/**
 * `items` in ascending order of their addresses read as numbers: the order
 * of the signers in an image hash, and so of the parts in a signature.
 */
export function sortByAddress<item extends { readonly address: Address }>(
  items: readonly item[],
): item[] {
  return [...items].sort((a, b) => {
    const x = BigInt(a.address)
    const y = BigInt(b.address)
    return x < y ? -1 : x > y ? 1 : 0
  })
}

/**
 * Checks a configuration and returns its signers, checksummed, in
 * ascending address order.
 *
 * @throws {InvalidWalletConfigError} on a threshold out of range, no
 *   signers, a bad address or weight, a signer twice, or weights that cannot
 *   reach the threshold.
 */
export function sortSigners(config: WalletConfig): Signer[] {
  const { threshold, signers } = config
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > 0xffff)
    throw new InvalidWalletConfigError(
      `The threshold ${threshold} is not an integer from 1 to 65535.`,
    )
  if (signers.length === 0)
    throw new InvalidWalletConfigError(
      'A wallet configuration needs at least one signer.',
    )
  const sorted = sortByAddress(
    signers.map(({ weight, address }) => {
      if (!isAddress(address, { strict: false }))
        throw new InvalidWalletConfigError(`${address} is not an address.`)
      if (!Number.isInteger(weight) || weight < 0 || weight > 0xff)
        throw new InvalidWalletConfigError(
          `The weight of ${address} is ${weight}, not an integer from 0 to 255.`,
        )
      return { weight, address: getAddress(address) }
    }),
  )
  let total = 0
  sorted.forEach(({ weight, address }, i) => {
    if (address === sorted[i - 1]?.address)
      throw new InvalidWalletConfigError(`${address} is a signer twice.`)
    total += weight
  })
  if (total < threshold)
    throw new InvalidWalletConfigError(
      `The signers' weights add up to ${total}, below the threshold ${threshold}.`,
    )
  return sorted
}

/**
 * The image hash of a configuration, as `ModuleAuth` rebuilds it from a
 * signature: `h = bytes32(threshold)`, then for each signer in ascending
 * address order `h = keccak256(abi.encode(h, uint8 weight, address))`. The
 * wallet's CREATE2 salt.
 *
 * @throws {InvalidWalletConfigError} as {@link sortSigners}.
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

/**
 * The Sequence v1 wallet proxy's creation code (`Wallet.creationCode` of
 * @0xsequence/wallet-contracts 1.10.0), which `Factory.deploy` appends the
 * main module to.
 */
export const walletCreationCode: Hex =
  '0x603a600e3d39601a805130553df3363d3d373d3d3d363d30545af43d82803e903d91601857fd5bf3'

/** A wallet proxy's init code: `walletCreationCode ‖ uint256(mainModule)`. */
export function walletInitCode(mainModule: Address): Hex {
  return concat([
    walletCreationCode,
    pad(mainModule.toLowerCase() as Hex, { size: 32 }),
  ])
}

/** The contracts a wallet's address and deployment depend on. */
export type WalletContracts = {
  /** The Sequence v1 `Factory`. */
  factory: Address
  /** The `MainModule` the wallet delegates to. */
  mainModule: Address
}

/**
 * The address `Factory.deploy(mainModule, imageHash)` creates: CREATE2
 * from the factory, the image hash as salt, {@link walletInitCode}.
 */
export function counterfactualAddress(
  options: WalletContracts & { imageHash: Hex },
): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: options.factory,
    salt: options.imageHash,
    bytecode: walletInitCode(options.mainModule),
  })
}

/** The contracts a game wallet depends on: the co-signer besides. */
export type PlayerWalletContracts = WalletContracts & {
  /** The co-signer contract, the wallet's second signer. */
  coSigner: Address
}

/** The counterfactual address of `custody`'s game wallet. */
export function playerWalletAddress(options: {
  custody: Address
  contracts: PlayerWalletContracts
}): Address {
  const { custody, contracts } = options
  return counterfactualAddress({
    ...contracts,
    imageHash: imageHash(
      playerWalletConfig({ custody, coSigner: contracts.coSigner }),
    ),
  })
}

/** `Factory.deploy(mainModule, imageHash)` calldata. */
export function encodeDeploy(options: {
  mainModule: Address
  imageHash: Hex
}): Hex {
  return concat([
    selectors.deploy,
    encodeAbiParameters(factoryAbi[0].inputs, [
      options.mainModule,
      options.imageHash,
    ]),
  ])
}

/**
 * `GuestModule.execute([Factory.deploy(mainModule, imageHash),
 * wallet.execute(…)], 0, 0x)` calldata: one transaction that creates a
 * wallet and runs its first `execute`. Send it to the guest module with an
 * explicit gas limit: a CREATE2 that runs out of gas fails without
 * reverting `Factory.deploy`, so estimates can settle on too little.
 */
export function encodeDeployAndExecute(options: {
  contracts: WalletContracts
  config: WalletConfig
  execute: Execute
}): Hex {
  const { contracts, config, execute } = options
  const salt = imageHash(config)
  return encodeExecute({
    transactions: [
      metaTransaction({
        to: contracts.factory,
        data: encodeDeploy({
          mainModule: contracts.mainModule,
          imageHash: salt,
        }),
      }),
      metaTransaction({
        to: counterfactualAddress({ ...contracts, imageHash: salt }),
        data: encodeExecute(execute),
      }),
    ],
    nonce: 0n,
    signature: '0x',
  })
}

/** ERC-6492's magic suffix: 32 bytes of `0x6492` repeated. */
export const erc6492MagicBytes: Hex =
  '0x6492649264926492649264926492649264926492649264926492649264926492'

/**
 * Wraps the signature of a wallet not deployed yet per ERC-6492:
 * `abi.encode(factory, deploy calldata, signature) ‖ magic`. A verifier that
 * sees the suffix deploys the wallet in a simulation and then asks it
 * through ERC-1271.
 */
export function wrapErc6492(
  options: WalletContracts & { imageHash: Hex; signature: Hex },
): Hex {
  return concat([
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'bytes' }, { type: 'bytes' }],
      [options.factory, encodeDeploy(options), options.signature],
    ),
    erc6492MagicBytes,
  ])
}

/**
 * Undoes {@link wrapErc6492}: the factory, its calldata and the inner
 * signature; `undefined` when `signature` has no ERC-6492 suffix.
 *
 * @throws {InvalidWalletSignatureError} when the suffix is there but the
 *   rest does not decode.
 */
export function unwrapErc6492(
  signature: Hex,
): { factory: Address; calldata: Hex; signature: Hex } | undefined {
  if (
    !isHex(signature, { strict: true }) ||
    signature.length % 2 !== 0 ||
    size(signature) < 32 ||
    slice(signature, -32).toLowerCase() !== erc6492MagicBytes
  )
    return undefined
  try {
    const [factory, calldata, inner] = decodeAbiParameters(
      [{ type: 'address' }, { type: 'bytes' }, { type: 'bytes' }],
      slice(signature, 0, -32),
    )
    return { factory, calldata, signature: inner }
  } catch (error) {
    throw new InvalidWalletSignatureError(
      'The ERC-6492 signature does not decode.',
      { cause: error },
    )
  }
}

/** Calldata that is not `execute(transactions, nonce, signature)`. */
export class InvalidExecuteError extends Error {
  override readonly name = 'Sequence.InvalidExecuteError'
}

/** Bytes that are not a Sequence v1 signature or one of its parts. */
export class InvalidWalletSignatureError extends Error {
  override readonly name = 'Sequence.InvalidWalletSignatureError'
}

/** A wallet configuration the contracts could not use. */
export class InvalidWalletConfigError extends Error {
  override readonly name = 'Sequence.InvalidWalletConfigError'
}

/** A nonce out of range, or a `readNonce` answer too short to hold one. */
export class InvalidNonceError extends Error {
  override readonly name = 'Sequence.InvalidNonceError'
}
