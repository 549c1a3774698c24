import {
  concat,
  getAddress,
  type Hex,
  keccak256,
  numberToHex,
  slice,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  decodeSignature,
  InvalidWalletSignatureError,
  metaTransaction,
  playerWalletAddress,
  subDigest,
  transactionsDigest,
} from '../../passport/wire/sequence.js'
import { anvilPrivateKeys, coSignerKey } from './accounts.js'
import { predictContracts } from './deploy.js'
import { recoverSigner, signEthSign, signExecute } from './sequence.js'

const player = privateKeyToAccount(anvilPrivateKeys[3])
const contracts = predictContracts()
const transactions = [
  metaTransaction({
    to: getAddress('0x00000000000000000000000000000000000000aa'),
    value: 5n,
    data: '0xdeadbeef',
  }),
  metaTransaction({ to: player.address }),
]
/** secp256k1's group order. */
const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

describe('recoverSigner', () => {
  test('behavior: an eth_sign part recovers its signer, a type-1 part too', async () => {
    const hash = keccak256('0x1234')
    const signature = await signEthSign(player, hash)
    expect(signature).toMatch(/^0x[0-9a-f]{128}(1b|1c)02$/)
    expect(await recoverSigner(hash, signature)).toBe(player.address)
    expect(await recoverSigner(keccak256('0x99'), signature)).not.toBe(
      player.address,
    )
    const raw = await player.sign({ hash })
    expect(await recoverSigner(hash, concat([raw, '0x01']))).toBe(
      player.address,
    )
  })

  test('error: what SignatureValidator refuses (high s, bad v, unknown type, length)', async () => {
    const hash = keccak256('0x1234')
    const signature = await signEthSign(player, hash)
    const s = BigInt(slice(signature, 32, 64))
    const v = Number.parseInt(signature.slice(130, 132), 16)
    const twin = concat([
      slice(signature, 0, 32),
      numberToHex(n - s, { size: 32 }),
      numberToHex(v === 27 ? 28 : 27, { size: 1 }),
      '0x02',
    ])
    const refused = (bad: Hex, message: string) =>
      expect(recoverSigner(hash, bad)).rejects.toThrow(
        new InvalidWalletSignatureError(message),
      )
    await refused(twin, "The signature's s is high.")
    await refused(
      concat([slice(signature, 0, 64), '0x0002']),
      "The signature's v is 0.",
    )
    await refused(
      concat([slice(signature, 0, 65), '0x03']),
      'Unknown signature type 3.',
    )
    await refused(slice(signature, 0, 65), 'A signature is 66 bytes.')
  })
})

describe('signExecute', () => {
  test('behavior: signers with a key sign the sub-digest, the others are listed', async () => {
    const wallet = playerWalletAddress({ custody: player.address, contracts })
    const signature = await signExecute({
      chainId: 31337,
      wallet,
      nonce: 0n,
      transactions,
      threshold: 2,
      signers: [
        { weight: 1, address: player.address, account: player },
        { weight: 1, address: contracts.coSigner },
      ],
    })
    const { threshold, parts } = decodeSignature(signature)
    expect(threshold).toBe(2)
    const hash = subDigest({
      chainId: 31337,
      wallet,
      digest: transactionsDigest(0n, transactions),
    })
    const eoa = parts.find((part) => part.type === 'eoa')
    expect(eoa && (await recoverSigner(hash, eoa.signature))).toBe(
      player.address,
    )
    expect(parts.find((part) => part.type === 'address')).toEqual({
      type: 'address',
      weight: 1,
      address: contracts.coSigner,
    })
    expect(coSignerKey.address).not.toBe(player.address)
  })
})
