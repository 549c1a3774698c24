import {
  concat,
  hashMessage,
  keccak256,
  recoverMessageAddress,
  slice,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { vectors } from '../wire/_test/sequenceVectors.js'
import {
  coSignerPart,
  custodyPart,
  decodeSignature,
  encodeSignaturePart,
  eoaSignature,
  InvalidWalletSignatureError,
  signatureTypes,
  subDigest,
} from '../wire/sequence.js'
import { mergeSignatures, zeroBasedV } from './walletSignature.js'

describe('mergeSignatures', () => {
  test("behavior: the relayer's co-signer part and the player's make the known 2-of-2 signature, in lowercase hex", async () => {
    const digest = subDigest({
      chainId: vectors.chainId,
      wallet: vectors.wallet,
      digest: hashMessage(vectors.message),
    })
    const sign = (key: `0x${string}`) =>
      privateKeyToAccount(key).signMessage({ message: { raw: digest } })
    // What the relayer answers im_sign with: its part, bare hex.
    const coSignerParts = encodeSignaturePart(
      coSignerPart({
        coSigner: vectors.contracts.coSigner,
        signature: eoaSignature(
          await sign(vectors.coSignerKey),
          signatureTypes.ethSign,
        ),
      }),
    ).slice(2)
    expect(
      mergeSignatures({
        coSignerParts,
        user: {
          address: vectors.custody,
          part: custodyPart(await sign(vectors.custodyKey)),
        },
        digest,
      }),
    ).toBe(vectors.messageSignature)
  })

  test('behavior: an EOA co-signer part is ordered by the signer it recovers to, behind threshold 2', async () => {
    const a = privateKeyToAccount(generatePrivateKey())
    const b = privateKeyToAccount(generatePrivateKey())
    const digest = keccak256('0x03')
    const sigA = await a.signMessage({ message: { raw: digest } })
    const sigB = await b.signMessage({ message: { raw: digest } })
    const coSignerParts = concat(['0x00', '0x01', sigB, '0x02']).slice(2)
    const merged = mergeSignatures({
      coSignerParts,
      user: { address: a.address, part: custodyPart(sigA) },
      digest,
    })
    const [low, high] =
      BigInt(a.address) < BigInt(b.address) ? [sigA, sigB] : [sigB, sigA]
    expect(merged).toBe(
      concat(['0x0002', '0x0001', low, '0x02', '0x0001', high, '0x02']),
    )
    const { parts } = decodeSignature(merged)
    const signers = await Promise.all(
      parts.map((part) =>
        recoverMessageAddress({
          message: { raw: digest },
          signature: slice(
            (part as { signature: `0x${string}` }).signature,
            0,
            65,
          ),
        }),
      ),
    )
    expect(signers).toEqual(
      [a.address, b.address].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1)),
    )
  })

  test('behavior: a dynamic co-signer part is kept and ordered by its address', async () => {
    const user = privateKeyToAccount(generatePrivateKey())
    const digest = keccak256('0x04')
    const sig = await user.signMessage({ message: { raw: digest } })
    const signer = '0x0000000000000000000000000000000000000001'
    const inner = `0x${'cd'.repeat(65)}0203` as const
    const dynamic = concat(['0x02', '0x01', signer, '0x0043', inner])
    const merged = mergeSignatures({
      coSignerParts: dynamic.slice(2),
      user: { address: user.address, part: custodyPart(sig) },
      digest,
    })
    expect(merged).toBe(concat(['0x0002', dynamic, '0x0001', sig, '0x02']))
  })

  test('error: an unknown part type, as the published SDK words it', () => {
    expect(() =>
      mergeSignatures({
        coSignerParts: '0x3000',
        user: {
          address: '0x1111111111111111111111111111111111111111',
          part: custodyPart(`0x${'11'.repeat(64)}1b`),
        },
        digest: keccak256('0x05'),
      }),
    ).toThrow(
      new InvalidWalletSignatureError('Unknown signature part type: 48'),
    )
  })

  test('error: an EOA co-signer part that recovers to no key', () => {
    // r = 5 is no point's x coordinate: nothing can have made it.
    const r = `0x${'00'.repeat(31)}05`
    expect(() =>
      mergeSignatures({
        coSignerParts: `0001${r.slice(2)}${'11'.repeat(32)}1b02`,
        user: {
          address: '0x1111111111111111111111111111111111111111',
          part: custodyPart(`0x${'11'.repeat(64)}1b`),
        },
        digest: keccak256('0x06'),
      }),
    ).toThrow(
      new InvalidWalletSignatureError("The co-signer's part does not recover."),
    )
  })
})

describe('zeroBasedV', () => {
  test('behavior: v 27/28 becomes 0/1, as the registration route takes it', () => {
    const rs = `0x${'ab'.repeat(64)}` as const
    expect(zeroBasedV(concat([rs, '0x1b']))).toBe(concat([rs, '0x00']))
    expect(zeroBasedV(concat([rs, '0x1c']))).toBe(concat([rs, '0x01']))
    expect(zeroBasedV(concat([rs, '0x01']))).toBe(concat([rs, '0x01']))
  })
})
