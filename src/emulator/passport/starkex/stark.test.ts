import * as xClient from '@imtbl/x-client'
import { getStarkKey, pedersen, sign } from '@scure/starknet'
import { describe, expect, test } from 'vitest'
import vectors from './_test/starkware-vectors.json' with { type: 'json' }
import {
  type Asset,
  assetId,
  assetIdText,
  assetType,
  isOnCurve,
  limitOrderHash,
  normalizeStarkKey,
  parseStarkSignature,
  payloadHashText,
  registrationHash,
  StarkRangeError,
  transferHash,
  verifyStarkSignature,
} from './stark.js'

/**
 * The published x-client's utilities. Its type declarations reach them
 * through extensionless relative paths this project's module resolution
 * does not follow, so their shapes are spelled here.
 */
type StarkSigner = {
  getAddress(): Promise<string> | string
  signMessage(message: string): Promise<string>
}
const { createStarkSigner, generateStarkPrivateKey, signRegisterEthAddress } =
  xClient as unknown as {
    createStarkSigner(privateKey: string): StarkSigner
    generateStarkPrivateKey(): string
    signRegisterEthAddress(
      signer: StarkSigner,
      ethAddress: string,
      starkKey: string,
    ): Promise<string>
  }

const transfer = vectors.transfer_order
const transferMessage = {
  amount: BigInt(transfer.amount),
  nonce: BigInt(transfer.nonce),
  senderVaultId: BigInt(transfer.sender_vault_id),
  assetId: BigInt(transfer.token),
  receiverVaultId: BigInt(transfer.target_vault_id),
  receiverKey: BigInt(transfer.target_public_key),
  expiration: BigInt(transfer.expiration_timestamp),
}

const signatureText = (r: bigint, s: bigint) =>
  `0x${r.toString(16).padStart(64, '0')}${s.toString(16).padStart(64, '0')}`

describe('asset types and ids (StarkWare asset.js vectors)', () => {
  for (const vector of vectors.assets) {
    const asset: Asset =
      vector.type === 'ETH'
        ? { type: 'ETH', quantum: BigInt(vector.quantum ?? '1') }
        : vector.type === 'ERC20'
          ? {
              type: 'ERC20',
              tokenAddress: vector.token_address ?? '',
              quantum: BigInt(vector.quantum ?? '1'),
            }
          : {
              type: 'ERC721',
              tokenAddress: vector.token_address ?? '',
              tokenId: BigInt(vector.token_id ?? '0'),
            }
    test(`behavior: ${vector.type} ${vector.quantum ?? vector.token_id}`, () => {
      expect(assetType(asset)).toBe(BigInt(vector.asset_type))
      expect(assetId(asset)).toBe(BigInt(vector.asset_id))
    })
  }

  test('behavior: ETH at a quantum of 10^8 is the hosted exchange ETH asset id, padded to 64 digits', () => {
    expect(assetIdText(assetId({ type: 'ETH', quantum: 10n ** 8n }))).toBe(
      '0x02705737cd248ac819034b5de474c8f0368224f72a0fda9e031499d519992d9e',
    )
  })

  test('error: a token address that is not an address is a range error', () => {
    expect(() =>
      assetId({ type: 'ERC20', tokenAddress: '0xzz', quantum: 1n }),
    ).toThrow(StarkRangeError)
  })
})

describe('message hashes (StarkWare signature.js vectors)', () => {
  test('behavior: Pedersen of the published pair', () => {
    const { input_1, input_2, output } = vectors.pedersen_hash_data_1
    expect(BigInt(pedersen(BigInt(input_1), BigInt(input_2)))).toBe(
      BigInt(output),
    )
  })

  test('behavior: the transfer message hash', () => {
    expect(transferHash(transferMessage)).toBe(BigInt(transfer.message_hash))
  })

  test('behavior: the order vector signature verifies against its x-only key', () => {
    const order = vectors.party_a_order
    const signature = parseStarkSignature(
      signatureText(BigInt(order.signature.r), BigInt(order.signature.s)),
    )
    expect(signature).toBeDefined()
    const hash = BigInt(order.message_hash)
    expect(verifyStarkSignature(signature!, hash, order.public_key)).toBe(true)
    expect(verifyStarkSignature(signature!, hash + 1n, order.public_key)).toBe(
      false,
    )
  })

  test('behavior: the transfer vector key signs its hash for its Stark key', () => {
    expect(normalizeStarkKey(getStarkKey(transfer.private_key))).toBe(
      normalizeStarkKey(transfer.public_key),
    )
    const signed = sign(transfer.message_hash, transfer.private_key)
    expect(
      verifyStarkSignature(
        { r: signed.r, s: signed.s },
        BigInt(transfer.message_hash),
        transfer.public_key,
      ),
    ).toBe(true)
  })

  test('behavior: the limit order with fee message hash', () => {
    const order = vectors.party_a_order
    const fee = vectors.fee_info_user
    expect(
      limitOrderHash({
        vaultSell: BigInt(order.vault_id_sell),
        vaultBuy: BigInt(order.vault_id_buy),
        amountSell: BigInt(order.amount_sell),
        amountBuy: BigInt(order.amount_buy),
        assetSell: BigInt(order.token_sell),
        assetBuy: BigInt(order.token_buy),
        nonce: BigInt(order.nonce),
        expiration: BigInt(order.expiration_timestamp),
        feeAsset: BigInt(fee.token_id),
        feeVaultId: BigInt(fee.source_vault_id),
        feeLimit: BigInt(fee.fee_limit),
      }),
    ).toBe(BigInt(order.with_fee_message_hash))
  })

  test('error: fields out of range are refused with the field named', () => {
    expect(() =>
      transferHash({ ...transferMessage, amount: 1n << 63n }),
    ).toThrow(/amount must be a whole number below 2\^63/)
    expect(() => transferHash({ ...transferMessage, nonce: -1n })).toThrow(
      /nonce/,
    )
    expect(() =>
      transferHash({ ...transferMessage, expiration: 1n << 22n }),
    ).toThrow(/expiration_timestamp/)
    expect(() =>
      transferHash({ ...transferMessage, senderVaultId: 1n << 31n }),
    ).toThrow(/sender_vault_id/)
  })
})

describe('signatures against the published x-client 2.14.0', () => {
  test('behavior: its Stark signer signs what we verify, on a 63-digit and a short hash', async () => {
    const privateKey = generateStarkPrivateKey()
    const signer = createStarkSigner(privateKey)
    const key = normalizeStarkKey(await signer.getAddress())
    expect(key).toBe(normalizeStarkKey(getStarkKey(privateKey)))
    for (const hash of [transferHash(transferMessage), 0x1234abcdn]) {
      const sent = await signer.signMessage(payloadHashText(hash))
      const signature = parseStarkSignature(sent)
      expect(signature).toBeDefined()
      expect(verifyStarkSignature(signature!, hash, key!)).toBe(true)
      expect(verifyStarkSignature(signature!, hash + 1n, key!)).toBe(false)
    }
  })

  test('behavior: our registration hash is what its registration signature signs', async () => {
    const privateKey = generateStarkPrivateKey()
    const signer = createStarkSigner(privateKey)
    const key = normalizeStarkKey(await signer.getAddress())!
    const ether = '0x1234567890abcdef1234567890abcdef12345678'
    const packed = await signRegisterEthAddress(signer, ether, key)
    const signature = parseStarkSignature(packed.slice(0, 130))
    expect(
      verifyStarkSignature(
        signature!,
        registrationHash(ether, BigInt(key)),
        key,
      ),
    ).toBe(true)
  })

  test('behavior: a signature by @scure/starknet verifies, by another key does not', () => {
    const hash = transferHash(transferMessage)
    const one = '0x1234'
    const other = '0x5678'
    const signed = sign(`0x${hash.toString(16)}`, one)
    const signature = { r: signed.r, s: signed.s }
    expect(
      verifyStarkSignature(
        signature,
        hash,
        normalizeStarkKey(getStarkKey(one))!,
      ),
    ).toBe(true)
    expect(
      verifyStarkSignature(
        signature,
        hash,
        normalizeStarkKey(getStarkKey(other))!,
      ),
    ).toBe(false)
  })
})

describe('parsing', () => {
  test('behavior: Stark keys are normalised to 0x and 64 lowercase digits', () => {
    expect(normalizeStarkKey('0xABC')).toBe(`0x${'abc'.padStart(64, '0')}`)
    expect(normalizeStarkKey('abc')).toBe(`0x${'abc'.padStart(64, '0')}`)
    expect(normalizeStarkKey('0x')).toBeUndefined()
    expect(normalizeStarkKey('0x0')).toBeUndefined()
    expect(normalizeStarkKey(`0x${'f'.repeat(64)}`)).toBeUndefined()
    expect(normalizeStarkKey(12)).toBeUndefined()
  })

  test('behavior: a key off the curve is told apart', () => {
    expect(isOnCurve(transfer.public_key)).toBe(true)
    // x = 0 has no y on the Stark curve (b is not a square).
    expect(isOnCurve('0x0')).toBe(false)
  })

  test('error: malformed signatures are refused', () => {
    expect(parseStarkSignature('0x1234')).toBeUndefined()
    expect(parseStarkSignature(`0x${'0'.repeat(128)}`)).toBeUndefined()
    expect(parseStarkSignature(`0x${'f'.repeat(128)}`)).toBeUndefined()
    expect(parseStarkSignature(`0x${'1'.repeat(127)}g`)).toBeUndefined()
    expect(parseStarkSignature(null)).toBeUndefined()
    const part = `0${'1'.repeat(63)}`
    expect(parseStarkSignature(`0x${part}${part}1b`)).toEqual({
      r: BigInt(`0x${part}`),
      s: BigInt(`0x${part}`),
    })
  })
})
