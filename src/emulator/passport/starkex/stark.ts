/**
 * StarkEx's crypto as the emulated exchange needs it: asset types and ids,
 * the message hashes of the requests players sign (transfers, limit
 * orders), the off-chain registration's hash and text, and Stark signature
 * checks. Curve arithmetic and Pedersen hashes are @scure/starknet's; what
 * is here is StarkEx's packing of a request into field elements, as
 * StarkWare's reference library (`starkware-crypto-utils`, `asset.js` and
 * `signature.js`) computes it.
 *
 * @packageDocumentation
 */
import {
  CURVE,
  ProjectivePoint,
  pedersen,
  Signature,
  verify,
} from '@scure/starknet'
import { encodePacked, getAddress, isAddress, keccak256, toBytes } from 'viem'
import { BaseError } from '../../../core/Errors.js'

/** The Stark curve's field prime, 2^251 + 17·2^192 + 1. */
export const starkPrime = BigInt(
  '0x800000000000011000000000000000000000000000000000000000000000001',
)

/** The Stark curve's order: signatures and registration hashes live below it. */
export const starkOrder: bigint = CURVE.n

/** Message hashes and signature parts must be below 2^251. */
const maxEcdsaValue = 1n << 251n

/** Asset types and ids keep the low 250 bits of their Keccak hash. */
const assetMask = (1n << 250n) - 1n

/** Why StarkEx cannot sign a message: a field is out of its range. */
export class StarkRangeError extends BaseError {
  override readonly name = 'StarkRangeError'
  /** The field that is out of range. */
  readonly field: string
  constructor(field: string, bound: string) {
    super(`${field} must be a whole number below ${bound}.`)
    this.field = field
  }
}

/** Throws a {@link StarkRangeError} unless `0 <= value < bound`. */
function inRange(field: string, value: bigint, bound: bigint, text: string) {
  if (value < 0n || value >= bound) throw new StarkRangeError(field, text)
}

/**
 * An asset as StarkEx identifies it: ETH or an ERC20 with its quantum (the
 * base units one quantized unit stands for), or one ERC721 token.
 */
export type Asset =
  | { readonly type: 'ETH'; readonly quantum: bigint }
  | {
      readonly type: 'ERC20'
      readonly tokenAddress: string
      readonly quantum: bigint
    }
  | {
      readonly type: 'ERC721'
      readonly tokenAddress: string
      readonly tokenId: bigint
    }

/** The first four bytes of the Keccak hash of each asset kind's signature. */
const selectors = {
  ETH: 'ETH()',
  ERC20: 'ERC20Token(address)',
  ERC721: 'ERC721Token(address,uint256)',
} as const

function selectorOf(type: Asset['type']): bigint {
  return BigInt(keccak256(toBytes(selectors[type])).slice(0, 10))
}

/** A whole number as `bytes` big-endian bytes, in hex without `0x`. */
function word(value: bigint, bytes = 32): string {
  return value.toString(16).padStart(bytes * 2, '0')
}

/**
 * The asset type StarkEx registers an asset under: the Keccak hash of the
 * kind's selector, the token address (none for ETH) and the quantum (1 for
 * an ERC721), each packed in 32 bytes after the 4-byte selector, masked to
 * 250 bits (`getAssetType` of StarkWare's `asset.js`).
 */
export function assetType(asset: Asset): bigint {
  const quantum = asset.type === 'ERC721' ? 1n : asset.quantum
  inRange('quantum', quantum, 1n << 256n, '2^256')
  let packed = word(selectorOf(asset.type), 4)
  if (asset.type !== 'ETH') packed += word(addressNumber(asset.tokenAddress))
  packed += word(quantum)
  return BigInt(keccak256(`0x${packed}`)) & assetMask
}

/**
 * The asset id vaults hold: the asset type for ETH and ERC20; for an
 * ERC721, the Keccak hash of `NFT:`, the asset type and the token id, masked
 * to 250 bits (`getAssetId` of StarkWare's `asset.js`).
 */
export function assetId(asset: Asset): bigint {
  const type = assetType(asset)
  if (asset.type !== 'ERC721') return type
  inRange('token_id', asset.tokenId, 1n << 256n, '2^256')
  const prefix = Buffer.from('NFT:').toString('hex')
  const packed = prefix + word(type) + word(asset.tokenId)
  return BigInt(keccak256(`0x${packed}`)) & assetMask
}

function addressNumber(address: string): bigint {
  if (!isAddress(address, { strict: false }))
    throw new StarkRangeError('token_address', '2^160 (a 0x-hex address)')
  return BigInt(address)
}

/** What a transfer's signer commits to (StarkEx instruction 1). */
export type TransferMessage = {
  /** Quantized amount, below 2^63. */
  readonly amount: bigint
  /** The sender's nonce, below 2^31. */
  readonly nonce: bigint
  /** Below 2^31. */
  readonly senderVaultId: bigint
  /** The asset id moved. */
  readonly assetId: bigint
  /** Below 2^31. */
  readonly receiverVaultId: bigint
  /** The receiver's Stark key. */
  readonly receiverKey: bigint
  /** Hours since the Unix epoch, below 2^22. */
  readonly expiration: bigint
}

/**
 * The hash a transfer is signed over (`getTransferMsgHash` of StarkWare's
 * `signature.js`, without a condition): instruction type 1, the vaults, the
 * amount, a zero, the nonce and the expiration packed into one number,
 * hashed as `pedersen(pedersen(asset, receiverKey), packed)`.
 *
 * @throws {StarkRangeError} If a field is out of its range.
 */
export function transferHash(message: TransferMessage): bigint {
  const { amount, nonce, senderVaultId, receiverVaultId } = message
  inRange('amount', amount, 1n << 63n, '2^63')
  inRange('nonce', nonce, 1n << 31n, '2^31')
  inRange('sender_vault_id', senderVaultId, 1n << 31n, '2^31')
  inRange('asset_id', message.assetId, starkPrime, 'the Stark prime')
  inRange('receiver_vault_id', receiverVaultId, 1n << 31n, '2^31')
  inRange(
    'receiver_stark_key',
    message.receiverKey,
    starkPrime,
    'the Stark prime',
  )
  inRange('expiration_timestamp', message.expiration, 1n << 22n, '2^22')
  return packedHash(
    [
      [1n, 0],
      [senderVaultId, 31],
      [receiverVaultId, 31],
      [amount, 63],
      [0n, 63],
      [nonce, 31],
      [message.expiration, 22],
    ],
    [message.assetId, message.receiverKey],
  )
}

/** What a limit order's signer commits to, with its fee (StarkEx instruction 3). */
export type LimitOrderMessage = {
  readonly vaultSell: bigint
  readonly vaultBuy: bigint
  /** Quantized, below 2^63. */
  readonly amountSell: bigint
  /** Quantized, below 2^63. */
  readonly amountBuy: bigint
  readonly assetSell: bigint
  readonly assetBuy: bigint
  readonly nonce: bigint
  /** Hours since the Unix epoch, below 2^22. */
  readonly expiration: bigint
  /** The asset the fee is paid in. */
  readonly feeAsset: bigint
  /** The vault the fee is paid from. */
  readonly feeVaultId: bigint
  /** The most fee the order may pay, quantized, below 2^63. */
  readonly feeLimit: bigint
}

/**
 * The hash a limit order with a fee is signed over
 * (`getLimitOrderMsgHashWithFee` of StarkWare's `signature.js`):
 * `pedersen(pedersen(pedersen(pedersen(sell, buy), feeAsset), packed1), packed2)`
 * with the amounts, fee limit and nonce in the first packed word and the
 * instruction type 3, the vaults and the expiration in the second.
 *
 * @throws {StarkRangeError} If a field is out of its range.
 */
export function limitOrderHash(message: LimitOrderMessage): bigint {
  const m = message
  inRange('vault_id_sell', m.vaultSell, 1n << 31n, '2^31')
  inRange('vault_id_buy', m.vaultBuy, 1n << 31n, '2^31')
  inRange('amount_sell', m.amountSell, 1n << 63n, '2^63')
  inRange('amount_buy', m.amountBuy, 1n << 63n, '2^63')
  inRange('asset_id_sell', m.assetSell, starkPrime, 'the Stark prime')
  inRange('asset_id_buy', m.assetBuy, starkPrime, 'the Stark prime')
  inRange('nonce', m.nonce, 1n << 31n, '2^31')
  inRange('expiration_timestamp', m.expiration, 1n << 22n, '2^22')
  inRange('fee_token', m.feeAsset, starkPrime, 'the Stark prime')
  inRange('fee_vault_id', m.feeVaultId, 1n << 31n, '2^31')
  inRange('fee_limit', m.feeLimit, 1n << 63n, '2^63')
  const packed1 = pack([
    [m.amountSell, 0],
    [m.amountBuy, 64],
    [m.feeLimit, 64],
    [m.nonce, 32],
  ])
  const packed2 = pack([
    [3n, 0],
    [m.feeVaultId, 64],
    [m.vaultSell, 64],
    [m.vaultBuy, 64],
    [m.expiration, 32],
    [0n, 17],
  ])
  const assets = hash(hash(m.assetSell, m.assetBuy), m.feeAsset)
  return checked(hash(hash(assets, packed1), packed2))
}

/** Packs `[value, bits]` pairs, each shifted in after the ones before. */
function pack(fields: readonly (readonly [bigint, number])[]): bigint {
  let packed = 0n
  for (const [value, bits] of fields) packed = (packed << BigInt(bits)) + value
  return packed
}

function hash(x: bigint, y: bigint): bigint {
  return BigInt(pedersen(x, y))
}

function packedHash(
  fields: readonly (readonly [bigint, number])[],
  [left, right]: readonly [bigint, bigint],
): bigint {
  return checked(hash(hash(left, right), pack(fields)))
}

/** StarkEx refuses to sign a hash of 2^251 or more. */
function checked(messageHash: bigint): bigint {
  inRange('message hash', messageHash, maxEcdsaValue, '2^251')
  return messageHash
}

/**
 * The hash the Stark key signs to register off chain: Keccak-256 of the
 * packed `'UserRegistration:'`, the Ethereum address and the Stark key,
 * reduced modulo the curve order — the hash StarkEx's registration contract
 * has a Stark key sign (the published x-client signs the same for an
 * on-chain registration), so the emulator's payload is one StarkEx knows.
 */
export function registrationHash(etherKey: string, starkKey: bigint): bigint {
  const packed = encodePacked(
    ['string', 'address', 'uint256'],
    ['UserRegistration:', getAddress(etherKey), starkKey],
  )
  return BigInt(keccak256(packed)) % starkOrder
}

/**
 * The text the Ethereum key signs (EIP-191) to link a Stark key to it off
 * chain. The hosted exchange's wording is not public; this names both keys
 * so the player sees what is linked.
 */
export function registrationMessage(
  etherKey: string,
  starkKey: string,
): string {
  return [
    'Only sign this key linking request from Immutable X',
    '',
    `Ethereum address: ${getAddress(etherKey).toLowerCase()}`,
    `Stark key: ${starkKey}`,
  ].join('\n')
}

/**
 * An asset id as the exchange answers it (`asset_id`): `0x` and 64
 * lowercase hex digits, as the hosted exchange printed them.
 */
export function assetIdText(value: bigint): string {
  return `0x${word(value)}`
}

/**
 * A payload hash as StarkEx's JS library prints it and the exchange answers
 * it: lowercase hex, no `0x`, no leading zeros.
 */
export function payloadHashText(value: bigint): string {
  return value.toString(16)
}

/**
 * A Stark key as the exchange stores and answers it (`0x` and 64 lowercase
 * hex digits), from any spelling a request sends (with or without `0x`,
 * unpadded, any case); `undefined` if it is not hex or not below the field
 * prime.
 */
export function normalizeStarkKey(key: unknown): string | undefined {
  if (typeof key !== 'string') return undefined
  const match = /^(?:0x)?([0-9a-fA-F]{1,64})$/.exec(key)
  if (!match) return undefined
  const value = BigInt(`0x${match[1]}`)
  if (value === 0n || value >= starkPrime) return undefined
  return `0x${word(value)}`
}

/**
 * Whether a Stark key is the x-coordinate of a point of the curve (a key
 * someone can hold the private key of).
 */
export function isOnCurve(starkKey: string): boolean {
  try {
    ProjectivePoint.fromHex(`02${word(BigInt(starkKey))}`)
    return true
  } catch {
    return false
  }
}

/** A Stark signature's parts. */
export type StarkSignature = { readonly r: bigint; readonly s: bigint }

/**
 * Reads a Stark signature as clients send it: `0x` + r + s, 64 hex digits
 * each (a trailing recovery byte, which some signers append, is ignored);
 * `undefined` if it is not that shape or a part is out of range.
 */
export function parseStarkSignature(
  signature: unknown,
): StarkSignature | undefined {
  if (typeof signature !== 'string') return undefined
  const match =
    /^0x([0-9a-fA-F]{64})([0-9a-fA-F]{64})(?:[0-9a-fA-F]{2})?$/.exec(signature)
  if (!match) return undefined
  const r = BigInt(`0x${match[1]}`)
  const s = BigInt(`0x${match[2]}`)
  if (r === 0n || s === 0n || r >= maxEcdsaValue || s >= maxEcdsaValue)
    return undefined
  return { r, s }
}

/**
 * Whether `signature` signs `messageHash` for the Stark key `starkKey`. A
 * Stark key is only the public point's x-coordinate, so both points with
 * that x are tried; either one verifying is a valid signature (StarkEx
 * itself checks against x alone).
 */
export function verifyStarkSignature(
  signature: StarkSignature,
  messageHash: bigint,
  starkKey: string,
): boolean {
  const x = word(BigInt(starkKey))
  const hashHex = `0x${messageHash.toString(16)}`
  for (const prefix of ['02', '03'])
    try {
      if (
        verify(
          new Signature(signature.r, signature.s),
          hashHex,
          `${prefix}${x}`,
        )
      )
        return true
    } catch {
      // Not a point of the curve, or a part out of range: not valid.
    }
  return false
}
