/**
 * The smart-contract wallet's encodings, client side: meta-transactions,
 * `execute` calldata, the nonce, the digests the wallet signs over, the
 * Sequence v1 signature layout (threshold, then one part per signer), the
 * wallet's image hash and the ERC-6492 wrapper for a wallet not deployed
 * yet. Written from the public Sequence v1 contracts (`ModuleCalls`,
 * `ModuleAuth`, `SignatureValidator`, `Factory`) and ERC-6492.
 */
import {
  type Address,
  concat,
  decodeAbiParameters,
  encodeAbiParameters,
  encodePacked,
  getAddress,
  type Hex,
  hexToNumber,
  keccak256,
  numberToHex,
  size,
  slice,
  toBytes,
  toHex,
} from 'viem'
import { recoverAddress } from './ecrecover.js'

/** One call of the wallet's `execute` (Sequence `IModuleCalls.Transaction`). */
export type MetaTransaction = {
  delegateCall: boolean
  revertOnError: boolean
  gasLimit: bigint
  target: Address
  value: bigint
  data: Hex
}

/** The ABI of the wallet functions the client calls. */
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

/** The Sequence v1 `Factory.deploy(mainModule, salt)`. */
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

const metaTransactionsType = walletAbi[0].inputs[0]

/**
 * The selectors of the functions above (the first 4 bytes of the keccak256
 * of their canonical signatures; the tests check them against the ABI), so
 * that calldata is built without bundling an ABI lookup and formatter.
 */
export const selectors = {
  /** `execute((bool,bool,uint256,address,uint256,bytes)[],uint256,bytes)` */
  execute: '0x7a9a1628',
  /** `readNonce(uint256)` */
  readNonce: '0x8c3f5563',
  /** `deploy(address,bytes32)` */
  deploy: '0x32c02a14',
} as const satisfies Record<string, Hex>

/** `readNonce(space)` calldata. */
export function encodeReadNonce(space: bigint): Hex {
  return concat([
    selectors.readNonce,
    encodeAbiParameters(walletAbi[1].inputs, [space]),
  ])
}

/** The `uint256` that `readNonce` returns (the first 32-byte word). */
export function decodeReadNonce(data: Hex): bigint {
  if (size(data) < 32)
    throw new Error(
      `Data size of ${size(data)} bytes is too small for given parameters.`,
    )
  return BigInt(slice(data, 0, 32))
}

/**
 * A plain call as the published SDK builds it: no delegate call, the whole
 * batch reverts if it fails, no gas limit of its own.
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

/** `abi.encode(MetaTransaction[])`: the `data` of `im_getFeeOptions`. */
export function encodeMetaTransactions(
  transactions: readonly MetaTransaction[],
): Hex {
  return encodeAbiParameters([metaTransactionsType], [transactions])
}

/** A nonce in a nonce space: `space · 2^96 + nonce` (`ModuleCalls`). */
export function encodeNonce(space: bigint, nonce: bigint): bigint {
  return (space << 96n) + nonce
}

/** `keccak256(abi.encode(uint256 nonce, MetaTransaction[]))`. */
export function transactionsDigest(
  nonce: bigint,
  transactions: readonly MetaTransaction[],
): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, metaTransactionsType],
      [nonce, transactions],
    ),
  )
}

/**
 * `ModuleAuth._subDigest`: `keccak256("\x19\x01" ‖ chainId ‖ wallet ‖
 * digest)`, which binds any digest to one wallet on one chain.
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

/** `execute(transactions, nonce, signature)` calldata. */
export function encodeExecute(options: {
  transactions: readonly MetaTransaction[]
  nonce: bigint
  signature: Hex
}): Hex {
  return concat([
    selectors.execute,
    encodeAbiParameters(walletAbi[0].inputs, [
      options.transactions,
      options.nonce,
      options.signature,
    ]),
  ])
}

/** Sequence signature types of an EOA part (`SignatureValidator`). */
export const signatureType = { eip712: 1, ethSign: 2, wallet: 3 } as const

/**
 * Re-serialises a 65-byte `r ‖ s ‖ v` signature with `v` 27 or 28, as the
 * wallet's validator requires (some signers answer 0 or 1).
 */
export function normalizeV(signature: Hex): Hex {
  if (size(signature) !== 65) throw new Error('Invalid signature length')
  const v = hexToNumber(slice(signature, 64, 65))
  return concat([
    slice(signature, 0, 64),
    numberToHex(v < 27 ? v + 27 : v, { size: 1 }),
  ])
}

/** `r ‖ s ‖ v` with `v` 0 or 1 (the registration route's form). */
export function zeroBasedV(signature: Hex): Hex {
  const v = hexToNumber(slice(signature, 64, 65))
  return concat([
    slice(signature, 0, 64),
    numberToHex(v >= 27 ? v - 27 : v, { size: 1 }),
  ])
}

/** One part of a Sequence v1 signature. */
export type SignaturePart =
  | {
      type: 'eoa'
      weight: number
      /** `r ‖ s ‖ v ‖ signatureType`, 66 bytes. */
      signature: Hex
      /** The signer, when known (recovered for parts decoded from bytes). */
      address: Address
    }
  | { type: 'address'; weight: number; address: Address }
  | { type: 'dynamic'; weight: number; address: Address; signature: Hex }

/** Encodes one part: `00 w sig66`, `01 w addr` or `02 w addr len sig`. */
export function encodePart(part: SignaturePart): Hex {
  const weight = numberToHex(part.weight, { size: 1 })
  if (part.type === 'eoa') return concat(['0x00', weight, part.signature])
  if (part.type === 'address') return concat(['0x01', weight, part.address])
  return concat([
    '0x02',
    weight,
    part.address,
    numberToHex(size(part.signature), { size: 2 }),
    part.signature,
  ])
}

/** `uint16 threshold ‖ parts…` in the given order. */
export function encodeSignature(
  threshold: number,
  parts: readonly SignaturePart[],
): Hex {
  return concat([numberToHex(threshold, { size: 2 }), ...parts.map(encodePart)])
}

/**
 * Decodes a Sequence v1 signature (`uint16 threshold ‖ parts`). The signer
 * of an EOA part is recovered over `digest` (the sub-digest it signed), so
 * parts can be sorted by address.
 */
export async function decodeSignature(
  signature: Hex,
  digest: Hex,
): Promise<{ threshold: number; parts: SignaturePart[] }> {
  const bytes = toBytes(signature)
  const threshold = (bytes[0]! << 8) | bytes[1]!
  const parts: SignaturePart[] = []
  let i = 2
  const take = (n: number) => {
    if (i + n > bytes.length) throw new Error('Truncated signature part')
    const out = toHex(bytes.slice(i, i + n))
    i += n
    return out
  }
  while (i < bytes.length) {
    const flag = bytes[i++]
    const weight = hexToNumber(take(1))
    if (flag === 0) {
      const sig = take(66)
      const address = await recoverEoa(sig, digest)
      parts.push({ type: 'eoa', weight, signature: sig, address })
    } else if (flag === 1) {
      parts.push({ type: 'address', weight, address: getAddress(take(20)) })
    } else if (flag === 2) {
      const address = getAddress(take(20))
      const length = hexToNumber(take(2))
      parts.push({ type: 'dynamic', weight, address, signature: take(length) })
    } else throw new Error(`Unknown signature part type: ${flag}`)
  }
  return { threshold, parts }
}

/** The signer of a 66-byte EOA part (`r s v type`) over `digest`. */
async function recoverEoa(signature: Hex, digest: Hex): Promise<Address> {
  const type = hexToNumber(slice(signature, 65, 66))
  const hash =
    type === signatureType.ethSign
      ? keccak256(concat([toHex('\x19Ethereum Signed Message:\n32'), digest]))
      : digest
  return recoverAddress({ hash, signature: slice(signature, 0, 65) })
}

/** The user's part: the custody key's ETH_SIGN signature, weight 1. */
export function userPart(address: Address, signature: Hex): SignaturePart {
  return {
    type: 'eoa',
    weight: 1,
    address: getAddress(address),
    signature: concat([normalizeV(signature), '0x02']),
  }
}

/**
 * The signature a transaction is sent with: threshold 1 and the user's
 * part only (`0x0001 00 01 <r s v> 02`); the relayer completes the 2-of-2
 * with the co-signer's part before it submits.
 */
export function transactionSignature(address: Address, signature: Hex): Hex {
  return encodeSignature(1, [userPart(address, signature)])
}

/**
 * The full 2-of-2 message signature: the co-signer's parts (the relayer's
 * `im_sign` / `im_signTypedData` answer, bare hex: the parts without a
 * threshold) and the user's part, sorted ascending by address, the order the
 * wallet's image hash was built in, behind threshold 2.
 */
export async function mergeSignatures(options: {
  coSignerParts: string
  user: SignaturePart
  digest: Hex
}): Promise<Hex> {
  const hex = options.coSignerParts.replace(/^0x/, '')
  const { parts } = await decodeSignature(`0x0000${hex}`, options.digest)
  const all = [...parts, options.user].sort((a, b) => {
    const x = BigInt(a.address)
    const y = BigInt(b.address)
    return x < y ? -1 : x > y ? 1 : 0
  })
  return encodeSignature(2, all)
}

/** A signer of a wallet configuration. */
export type ConfigSigner = { weight: number; address: Address }

/**
 * The Sequence v1 image hash of a configuration (what the wallet stores and
 * its CREATE2 salt): `h = bytes32(threshold)`, then for each signer in
 * ascending address order `h = keccak256(abi.encode(h, uint8 weight,
 * address))`.
 */
export function imageHash(config: {
  threshold: number
  signers: readonly ConfigSigner[]
}): Hex {
  const signers = [...config.signers].sort((a, b) => {
    const x = BigInt(a.address)
    const y = BigInt(b.address)
    return x < y ? -1 : x > y ? 1 : 0
  })
  let hash = numberToHex(config.threshold, { size: 32 })
  for (const { weight, address } of signers)
    hash = keccak256(
      encodeAbiParameters(
        [{ type: 'bytes32' }, { type: 'uint8' }, { type: 'address' }],
        [hash, weight, getAddress(address)],
      ),
    )
  return hash
}

/** ERC-6492's magic suffix: 32 bytes of `0x6492` repeated. */
export const erc6492MagicBytes: Hex =
  '0x6492649264926492649264926492649264926492649264926492649264926492'

/**
 * Wraps the signature of a wallet not deployed yet per ERC-6492:
 * `abi.encode(factory, factoryCalldata, signature) ‖ magic`. A verifier
 * that sees the suffix deploys the wallet in a simulation
 * (`factory.deploy(mainModule, imageHash)`) and then asks it through
 * ERC-1271, so the signature verifies before the first transaction.
 */
export function wrapErc6492(options: {
  factory: Address
  mainModule: Address
  imageHash: Hex
  signature: Hex
}): Hex {
  const calldata = concat([
    selectors.deploy,
    encodeAbiParameters(factoryAbi[0].inputs, [
      options.mainModule,
      options.imageHash,
    ]),
  ])
  return concat([
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'bytes' }, { type: 'bytes' }],
      [options.factory, calldata, options.signature],
    ),
    erc6492MagicBytes,
  ])
}

/** Undoes {@link wrapErc6492}; `undefined` when `signature` is not wrapped. */
export function unwrapErc6492(
  signature: Hex,
): { factory: Address; calldata: Hex; signature: Hex } | undefined {
  if (size(signature) < 32 || slice(signature, -32) !== erc6492MagicBytes)
    return undefined
  const [factory, calldata, inner] = decodeAbiParameters(
    [{ type: 'address' }, { type: 'bytes' }, { type: 'bytes' }],
    slice(signature, 0, -32),
  )
  return { factory, calldata, signature: inner }
}
