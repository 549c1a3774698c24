/**
 * The emulator's side of the game wallet's Sequence v1 signatures: checking
 * a signer as the contracts do, and signing with keys the emulator holds
 * (the relayer's co-signing key, the tests' players). Every encoding comes
 * from the codec the client uses too (`src/passport/wire/sequence.ts`), so
 * the two sides cannot drift apart.
 *
 * @packageDocumentation
 */
import {
  type Address,
  type Hex,
  type LocalAccount,
  recoverAddress,
  slice,
} from 'viem'
import {
  encodeSignature,
  eoaSignature,
  InvalidWalletSignatureError,
  type MetaTransaction,
  type SignaturePart,
  signatureTypes,
  signedDigest,
  sortSigners,
  splitEoaSignature,
  subDigest,
  transactionsDigest,
} from '../../passport/wire/sequence.js'

/** Half the secp256k1 group order: a larger `s` is refused (EIP-2). */
const halfOrder =
  0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

/**
 * `r ‖ s ‖ v ‖ 02`: `account` personal_signs the 32 raw bytes of `hash`, as
 * the published SDK has the player's key sign the sub-digest, and as the
 * relayer's co-signing key signs.
 */
export async function signEthSign(
  account: LocalAccount,
  hash: Hex,
): Promise<Hex> {
  return eoaSignature(
    await account.signMessage({ message: { raw: hash } }),
    signatureTypes.ethSign,
  )
}

/**
 * The address that made a 66-byte `r ‖ s ‖ v ‖ type` signature over `hash`
 * (type 1 or 2), with the checks `SignatureValidator` makes on chain: `v`
 * 27 or 28 and a low `s`.
 *
 * @throws {InvalidWalletSignatureError} on a bad length, type, `v` or high `s`.
 */
export async function recoverSigner(
  hash: Hex,
  signature: Hex,
): Promise<Address> {
  const { signature: rsv, type } = splitEoaSignature(signature)
  const v = Number.parseInt(rsv.slice(130, 132), 16)
  if (v !== 27 && v !== 28)
    throw new InvalidWalletSignatureError(`The signature's v is ${v}.`)
  if (BigInt(slice(rsv, 32, 64)) > halfOrder)
    throw new InvalidWalletSignatureError("The signature's s is high.")
  const digest = signedDigest(hash, type)
  try {
    return await recoverAddress({ hash: digest, signature: rsv })
  } catch (error) {
    throw new InvalidWalletSignatureError('The signature does not recover.', {
      cause: error,
    })
  }
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
    digest: transactionsDigest(nonce, transactions),
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
