/**
 * The player's Stark key, derived from the custody key as the published
 * @imtbl/passport 2.14.0 derives it (through @imtbl/x-client 2.14.0's
 * `generateLegacyStarkPrivateKey`), and the signer of StarkEx payload
 * hashes. Curve, BIP32 and hashing come from @scure/starknet, @scure/bip32
 * and viem; nothing here is curve arithmetic of its own.
 *
 * The derivation: the custody EOA `personal_sign`s {@link starkKeyMessage};
 * the signature's `s` seeds a BIP32 master key; the key at the EIP-2645
 * path of the address is ground into the Stark curve's order. A player's
 * Stark key is their identity on the exchange, so every step must match
 * the published SDK bit for bit, legacy grinds included.
 */
import { HDKey } from '@scure/bip32'
import * as Stark from '@scure/starknet'
import {
  bytesToHex,
  concat,
  type Hex,
  hexToBytes,
  numberToHex,
  sha256,
} from 'viem'
import { starkKeyMessage, starkKeyPath } from '../wire/starkex.js'

/** The Stark curve's order (N). */
const curveOrder =
  0x800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2fn
/** secp256k1's order: the limit of the oldest grind (see {@link legacyGrindSecp256k1}). */
const secp256k1Order =
  0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const twoTo256 = 1n << 256n
/** The largest multiple of N below 2^256: a hash under it is uniform mod N. */
const grindLimit = twoTo256 - (twoTo256 % curveOrder)

/** The exact texts of the published x-client. */
export const messages = {
  lookupFailed: 'Error fetching stark public key from IMX',
  noMatchingKey:
    'Can not deterministically generate stark private key - please contact support',
} as const

/** The custody key as the derivation uses it (an EIP-191 signer). */
export type MessageSigner = {
  getAddress(): Promise<string>
  /** `personal_sign` of UTF-8 text; resolves `r ‖ s ‖ v`. */
  signMessage(message: string): Promise<Hex>
}

/**
 * The exchange's record of an address (`GET /v1/users/{address}`): its
 * registered Stark key, or `undefined` when it answers `account_not_found`.
 * Any other failure rejects.
 */
export type StarkKeyLookup = (address: string) => Promise<string | undefined>

/** A Stark key pair's signing side, as the provider uses it. */
export type StarkSigner = {
  /** The Stark key: `0x` + the public key's x-coordinate, 64 hex digits. */
  getAddress(): Promise<string>
  /** The public key's y-coordinate, `0x` + 64 hex digits. */
  getYCoordinate(): Promise<string>
  /**
   * Signs a payload hash (hex, with or without `0x`, as the exchange
   * answers it): `0x` + r (64 hex) + s (64 hex).
   */
  signMessage(payloadHash: string): Promise<Hex>
}

/**
 * The BIP32 path of an address:
 * `m/2645'/{sha256(layer) & 2^31-1}'/{sha256(application) & 2^31-1}'/{addr & 2^31-1}'/{(addr >> 31) & 2^31-1}'/{index}`
 * (EIP-2645, with the lowercase address as a number).
 */
export function starkKeyDerivationPath(address: string): string {
  const low31 = (value: bigint) => value & 0x7fffffffn
  const hashOf = (text: string) =>
    BigInt(sha256(new TextEncoder().encode(text)))
  const addr = BigInt(address.toLowerCase())
  const { purpose, layer, application, index } = starkKeyPath
  return `m/${purpose}'/${low31(hashOf(layer))}'/${low31(hashOf(application))}'/${low31(addr)}'/${low31(addr >> 31n)}'/${index}`
}

/** `sha256(key ‖ i)`, i as the fewest whole bytes (at least one). */
function hashWithIndex(key: Hex, index: number): bigint {
  return BigInt(
    sha256(concat([key, numberToHex(index, { size: byteLength(index) })])),
  )
}

function byteLength(value: number): number {
  let bytes = 1
  while (value >= 256 ** bytes) bytes++
  return bytes
}

const hex32 = (value: bigint): Hex => numberToHex(value, { size: 32 })

/**
 * The standard grind: `sha256(pk ‖ 00)`, then `sha256(previous ‖ i)` for
 * i = 1, 2, … while the hash is at or over the limit; the key is the hash
 * mod N.
 */
function grind(privateKey: bigint): bigint {
  let key = hashWithIndex(hex32(privateKey), 0)
  for (let i = 1; key >= grindLimit; i++) key = hashWithIndex(hex32(key), i)
  return key % curveOrder
}

/**
 * The grind of accounts registered before x-client fixed its counter: the
 * first retry hashes with 0 again, then 1, 2, …
 */
function legacyGrindRepeatedZero(privateKey: bigint): bigint {
  let key = hashWithIndex(hex32(privateKey), 0)
  for (let i = 0; key >= grindLimit; i++) key = hashWithIndex(hex32(key), i)
  return key % curveOrder
}

/**
 * The oldest grind: against secp256k1's order instead of the Stark
 * curve's, its counter never advancing past 0.
 */
function legacyGrindSecp256k1(privateKey: bigint): bigint {
  const limit = secp256k1Order - (secp256k1Order % curveOrder)
  let key = hashWithIndex(hex32(privateKey), 0)
  while (key >= limit) key = hashWithIndex(hex32(key), 0)
  return key % curveOrder
}

/**
 * The grinds from an account's BIP32 key to a Stark private key: the
 * standard one, the two legacy ones, and whether the first hash is over
 * the limit (only then can the legacy ones differ from the standard one).
 */
export const grinds = {
  standard: grind,
  repeatedZero: legacyGrindRepeatedZero,
  secp256k1: legacyGrindSecp256k1,
  overLimit: (privateKey: bigint) =>
    hashWithIndex(hex32(privateKey), 0) >= grindLimit,
} as const

/**
 * The account's BIP32 private key: the custody signature's `s` (bytes
 * 32..64) as the master seed, derived along {@link starkKeyDerivationPath}.
 */
export function accountKey(signature: Hex, address: string): bigint {
  const bytes = hexToBytes(signature)
  if (bytes.length !== 65)
    throw new Error(
      `The custody signature is ${bytes.length} bytes long; 65 expected.`,
    )
  const child = HDKey.fromMasterSeed(bytes.slice(32, 64)).derive(
    starkKeyDerivationPath(address),
  )
  if (!child.privateKey) throw new Error('The BIP32 key has no private key.')
  return BigInt(bytesToHex(child.privateKey))
}

/** The Stark key (x-coordinate) of a private key, as a number. */
function starkKeyOf(privateKey: bigint): bigint {
  return BigInt(Stark.getStarkKey(hex32(privateKey)))
}

/**
 * The player's Stark private key, 64 hex digits without `0x`, exactly as
 * x-client 2.14.0's `generateLegacyStarkPrivateKey` derives it.
 *
 * Only when the first grinding hash is over the limit (about 1 key in 32)
 * does the result depend on history: the exchange is asked which Stark key
 * the address registered, and of the standard and the two legacy grinds
 * the one that produced it wins; an unknown address keeps the standard one.
 *
 * @throws {Error} {@link messages}`.lookupFailed` when the lookup fails,
 *   {@link messages}`.noMatchingKey` when no grind gives the registered key.
 */
export async function deriveStarkPrivateKey(
  signer: MessageSigner,
  lookup: StarkKeyLookup,
): Promise<string> {
  const address = (await signer.getAddress()).toLowerCase()
  const signature = await signer.signMessage(starkKeyMessage)
  const privateKey = accountKey(signature, address)
  const standard = grinds.standard(privateKey)
  const pad = (key: bigint) => key.toString(16).padStart(64, '0')
  if (!grinds.overLimit(privateKey)) return pad(standard)

  let registered: string | undefined
  try {
    registered = await lookup(address)
  } catch (error) {
    throw new Error(messages.lookupFailed, { cause: error })
  }
  if (registered === undefined) return pad(standard)
  const wanted = BigInt(registered)
  for (const candidate of [
    standard,
    grinds.repeatedZero(privateKey),
    grinds.secp256k1(privateKey),
  ])
    if (starkKeyOf(candidate) === wanted) return pad(candidate)
  throw new Error(messages.noMatchingKey)
}

/**
 * The signer of a Stark private key (hex, with or without `0x`).
 *
 * @example
 * ```ts
 * const stark = createStarkSigner(await deriveStarkPrivateKey(custody, lookup))
 * const stark_signature = await stark.signMessage(payload_hash)
 * ```
 */
export function createStarkSigner(privateKey: string): StarkSigner {
  const key = privateKey.replace(/^0x/i, '').padStart(64, '0')
  const point = Stark.getPublicKey(key, false)
  const x = bytesToHex(point.slice(1, 33))
  const y = bytesToHex(point.slice(33, 65))
  return {
    async getAddress() {
      return x
    },
    async getYCoordinate() {
      return y
    },
    async signMessage(payloadHash) {
      // @scure/starknet applies StarkEx's rule for 63-digit hashes.
      const { r, s } = Stark.sign(payloadHash.replace(/^0x/i, ''), key)
      return `0x${r.toString(16).padStart(64, '0')}${s.toString(16).padStart(64, '0')}`
    },
  }
}

/**
 * Derives the player's Stark key from the custody key and returns its
 * signer (see {@link deriveStarkPrivateKey}).
 */
export async function deriveStarkSigner(
  signer: MessageSigner,
  lookup: StarkKeyLookup,
): Promise<StarkSigner> {
  return createStarkSigner(await deriveStarkPrivateKey(signer, lookup))
}
