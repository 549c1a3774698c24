/**
 * The client's own steps around the wallet's signatures; every encoding is
 * the codec's (`wire/sequence.ts`), shared with the emulator.
 */
import { type Address, concat, type Hex, numberToHex, slice } from 'viem'
import {
  decodeSignature,
  encodeSignedParts,
  InvalidWalletSignatureError,
  type SignedPart,
  signedDigest,
  splitEoaSignature,
} from '../wire/sequence.js'
import { recoverAddress } from './ecrecover.js'

/**
 * The full 2-of-2 message signature: the co-signer's parts (the relayer's
 * `im_sign` / `im_signTypedData` answer, bare hex: the parts without a
 * threshold) and the player's part, in the order the wallet's image hash
 * was built in, behind threshold 2. An EOA part of the co-signer is ordered
 * by the signer it recovers to over `digest` (the sub-digest it signed).
 *
 * @throws {InvalidWalletSignatureError} on parts that do not decode or an
 *   EOA part that does not recover.
 */
export function mergeSignatures(options: {
  coSignerParts: string
  user: SignedPart
  digest: Hex
}): Hex {
  const hex = options.coSignerParts.replace(/^0x/, '')
  const { parts } = decodeSignature(`0x0000${hex}`)
  const signed = parts.map(
    (part): SignedPart => ({
      address:
        part.type === 'eoa'
          ? recoverEoa(part.signature, options.digest)
          : part.address,
      part,
    }),
  )
  return encodeSignedParts(2, [...signed, options.user])
}

/** The signer of an EOA part's 66-byte signature over `digest`. */
function recoverEoa(signature: Hex, digest: Hex): Address {
  const split = splitEoaSignature(signature)
  const hash = signedDigest(digest, split.type)
  try {
    return recoverAddress({ hash, signature: split.signature })
  } catch (error) {
    throw new InvalidWalletSignatureError(
      "The co-signer's part does not recover.",
      { cause: error },
    )
  }
}

/**
 * `r ‖ s ‖ v` with `v` 0 or 1, the form the registration route takes
 * (signers answer 27 or 28).
 */
export function zeroBasedV(signature: Hex): Hex {
  const v = Number.parseInt(signature.slice(130, 132), 16)
  return concat([
    slice(signature, 0, 64),
    numberToHex(v >= 27 ? v - 27 : v, { size: 1 }),
  ])
}
