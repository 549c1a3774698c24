import {
  concat,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  encodeFunctionResult,
  keccak256,
  parseErc6492Signature,
  recoverMessageAddress,
  slice,
  toFunctionSelector,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { imageHash as emulatorImageHash } from '../../emulator/chain/counterfactual.js'
import {
  decodeReadNonce,
  decodeSignature,
  encodeExecute,
  encodeNonce,
  encodeReadNonce,
  erc6492MagicBytes,
  factoryAbi,
  imageHash,
  mergeSignatures,
  metaTransaction,
  normalizeV,
  selectors,
  subDigest,
  transactionSignature,
  transactionsDigest,
  unwrapErc6492,
  userPart,
  walletAbi,
  wrapErc6492,
  zeroBasedV,
} from './walletSignature.js'

const wallet = '0x1111111111111111111111111111111111111111'

describe('walletSignature', () => {
  test('default: the selectors are those of the ABI', () => {
    expect(selectors).toEqual({
      execute: toFunctionSelector(walletAbi[0]),
      readNonce: toFunctionSelector(walletAbi[1]),
      deploy: toFunctionSelector(factoryAbi[0]),
    })
  })

  test('behavior: execute and readNonce calldata are the ABI encoding', () => {
    const transactions = [
      metaTransaction({ to: wallet, value: 5n, data: '0x1234' }),
      metaTransaction({ to: wallet }),
    ]
    expect(
      encodeExecute({ transactions, nonce: 7n, signature: '0xabcdef' }),
    ).toBe(
      encodeFunctionData({
        abi: walletAbi,
        functionName: 'execute',
        args: [transactions, 7n, '0xabcdef'],
      }),
    )
    expect(encodeReadNonce(1n)).toBe(
      encodeFunctionData({
        abi: walletAbi,
        functionName: 'readNonce',
        args: [1n],
      }),
    )
    const answer = encodeFunctionResult({
      abi: walletAbi,
      functionName: 'readNonce',
      result: 2n ** 96n + 3n,
    })
    expect(decodeReadNonce(answer)).toBe(
      decodeFunctionResult({
        abi: walletAbi,
        functionName: 'readNonce',
        data: answer,
      }),
    )
    expect(() => decodeReadNonce('0x01')).toThrow(
      'Data size of 1 bytes is too small for given parameters.',
    )
  })

  test('default: a nonce in space 1 is 2^96 + n', () => {
    expect(encodeNonce(1n, 5n)).toBe(0x1000000000000000000000005n)
    expect(encodeNonce(0n, 7n)).toBe(7n)
  })

  test('behavior: the sub-digest is keccak256(0x1901 ‖ chainId ‖ wallet ‖ digest)', () => {
    const digest = keccak256('0x01')
    const expected = keccak256(
      concat([
        '0x1901',
        `0x${(13473).toString(16).padStart(64, '0')}`,
        wallet,
        digest,
      ]),
    )
    expect(subDigest({ chainId: 13473, wallet, digest })).toBe(expected)
  })

  test('behavior: the transaction digest is keccak256(abi.encode(nonce, txs))', () => {
    const tx = metaTransaction({ to: wallet, value: 3n, data: '0xabcd' })
    expect(tx).toEqual({
      delegateCall: false,
      revertOnError: true,
      gasLimit: 0n,
      target: wallet,
      value: 3n,
      data: '0xabcd',
    })
    const encoded = encodeAbiParameters(
      [
        { type: 'uint256' },
        {
          type: 'tuple[]',
          components: [
            { type: 'bool' },
            { type: 'bool' },
            { type: 'uint256' },
            { type: 'address' },
            { type: 'uint256' },
            { type: 'bytes' },
          ],
        },
      ],
      [9n, [[false, true, 0n, wallet, 3n, '0xabcd']]],
    )
    expect(transactionsDigest(9n, [tx])).toBe(keccak256(encoded))
  })

  test('behavior: a transaction signature is 0x0001 00 01 <r s v> 02 and recovers to the custody key', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const digest = subDigest({ chainId: 1, wallet, digest: keccak256('0x02') })
    const signature = await account.signMessage({ message: { raw: digest } })
    const encoded = transactionSignature(account.address, signature)
    expect(encoded).toBe(concat(['0x0001', '0x00', '0x01', signature, '0x02']))
    expect(
      await recoverMessageAddress({
        message: { raw: digest },
        signature: slice(encoded, 4, 69),
      }),
    ).toBe(account.address)
  })

  test('behavior: v 0/1 becomes 27/28 and back', () => {
    const rs = `0x${'ab'.repeat(64)}` as const
    expect(normalizeV(concat([rs, '0x00']))).toBe(concat([rs, '0x1b']))
    expect(normalizeV(concat([rs, '0x1c']))).toBe(concat([rs, '0x1c']))
    expect(zeroBasedV(concat([rs, '0x1b']))).toBe(concat([rs, '0x00']))
  })

  test('behavior: message parts are merged ascending by address behind threshold 2', async () => {
    const a = privateKeyToAccount(generatePrivateKey())
    const b = privateKeyToAccount(generatePrivateKey())
    const digest = keccak256('0x03')
    const sigA = await a.signMessage({ message: { raw: digest } })
    const sigB = await b.signMessage({ message: { raw: digest } })
    const coSignerParts = concat(['0x00', '0x01', sigB, '0x02']).slice(2)
    const merged = await mergeSignatures({
      coSignerParts,
      user: userPart(a.address, sigA),
      digest,
    })
    const [low, high] =
      BigInt(a.address) < BigInt(b.address) ? [sigA, sigB] : [sigB, sigA]
    expect(merged).toBe(
      concat(['0x0002', '0x0001', low, '0x02', '0x0001', high, '0x02']),
    )
    const decoded = await decodeSignature(merged, digest)
    expect(decoded.threshold).toBe(2)
    expect(decoded.parts.map((p) => p.address)).toEqual(
      [a.address, b.address].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1)),
    )
  })

  test('behavior: a dynamic co-signer part is kept and sorted by its address', async () => {
    const user = privateKeyToAccount(generatePrivateKey())
    const digest = keccak256('0x04')
    const sig = await user.signMessage({ message: { raw: digest } })
    const signer = '0x0000000000000000000000000000000000000001'
    const inner = `0x${'cd'.repeat(65)}0203` as const
    const dynamic = concat(['0x02', '0x01', signer, '0x0043', inner])
    const merged = await mergeSignatures({
      coSignerParts: dynamic.slice(2),
      user: userPart(user.address, sig),
      digest,
    })
    expect(merged).toBe(concat(['0x0002', dynamic, '0x0001', sig, '0x02']))
  })

  test('error: an unknown part type', async () => {
    await expect(
      mergeSignatures({
        coSignerParts: '0x3000',
        user: userPart(wallet, `0x${'11'.repeat(64)}1b`),
        digest: keccak256('0x05'),
      }),
    ).rejects.toThrow('Unknown signature part type: 48')
  })

  test('behavior: the image hash matches the emulator’s independent implementation', () => {
    const config = {
      threshold: 2,
      signers: [
        {
          weight: 1,
          address: privateKeyToAccount(generatePrivateKey()).address,
        },
        {
          weight: 1,
          address: privateKeyToAccount(generatePrivateKey()).address,
        },
      ],
    }
    expect(imageHash(config)).toBe(emulatorImageHash(config))
  })

  test('behavior: ERC-6492 wrapping as viem parses it', () => {
    const factory = '0x2222222222222222222222222222222222222222'
    const mainModule = '0x3333333333333333333333333333333333333333'
    const salt = keccak256('0x06')
    const signature = '0x0002abcdef' as const
    const wrapped = wrapErc6492({
      factory,
      mainModule,
      imageHash: salt,
      signature,
    })
    expect(slice(wrapped, -32)).toBe(erc6492MagicBytes)
    const calldata = encodeFunctionData({
      abi: factoryAbi,
      functionName: 'deploy',
      args: [mainModule, salt],
    })
    expect(parseErc6492Signature(wrapped)).toEqual({
      address: factory,
      data: calldata,
      signature,
    })
    expect(unwrapErc6492(wrapped)).toEqual({
      factory,
      calldata,
      signature,
    })
    expect(unwrapErc6492(signature)).toBeUndefined()
  })
})
