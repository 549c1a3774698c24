import {
  concat,
  type Hex,
  hashMessage,
  keccak256,
  numberToHex,
  slice,
  toHex,
  recoverAddress as viemRecoverAddress,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { recoverAddress } from './ecrecover.js'

const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

describe('recoverAddress', () => {
  test('behavior: recovers the signer of random keys and hashes, as viem (noble) does', async () => {
    for (let i = 0; i < 24; i++) {
      const account = privateKeyToAccount(generatePrivateKey())
      const hash = keccak256(toHex(`message ${i} ${Math.random()}`))
      const signature = await account.sign({ hash })
      expect(recoverAddress({ hash, signature })).toBe(account.address)
      expect(await viemRecoverAddress({ hash, signature })).toBe(
        account.address,
      )
    }
  })

  test('behavior: v 0/1 and 27/28 are the same signature', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const hash = hashMessage('hello')
    const signature = await account.sign({ hash })
    const v = Number(BigInt(slice(signature, 64, 65)))
    const zeroBased = concat([
      slice(signature, 0, 64),
      numberToHex(v - 27, { size: 1 }),
    ])
    expect(recoverAddress({ hash, signature: zeroBased })).toBe(account.address)
  })

  test('behavior: a high-s signature recovers as ecrecover does (the other parity)', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const hash = keccak256('0x01')
    const signature = await account.sign({ hash })
    const s = BigInt(slice(signature, 32, 64))
    const v = Number(BigInt(slice(signature, 64, 65)))
    const flipped = concat([
      slice(signature, 0, 32),
      numberToHex(n - s, { size: 32 }),
      numberToHex(v === 27 ? 28 : 27, { size: 1 }),
    ])
    expect(recoverAddress({ hash, signature: flipped })).toBe(account.address)
  })

  test('behavior: another hash gives another address', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const signature = await account.sign({ hash: keccak256('0x02') })
    const other = recoverAddress({ hash: keccak256('0x03'), signature })
    expect(other).not.toBe(account.address)
    expect(other).toBe(
      await viemRecoverAddress({ hash: keccak256('0x03'), signature }),
    )
  })

  test('error: malformed signatures', () => {
    const hash = keccak256('0x04')
    const rs = `0x${'11'.repeat(64)}` as Hex
    expect(() => recoverAddress({ hash, signature: rs })).toThrow(
      'Invalid signature length',
    )
    expect(() =>
      recoverAddress({ hash, signature: concat([rs, '0x05']) }),
    ).toThrow('Invalid yParityOrV value')
    expect(() =>
      recoverAddress({
        hash,
        signature: concat([`0x${'00'.repeat(32)}`, slice(rs, 32), '0x1b']),
      }),
    ).toThrow('Invalid signature: r or s out of range')
    // 5³ + 7 is not a square modulo p: no point has x = 5.
    expect(() =>
      recoverAddress({
        hash,
        signature: concat([
          numberToHex(5n, { size: 32 }),
          slice(rs, 32),
          '0x1b',
        ]),
      }),
    ).toThrow('Invalid signature: r is not on the curve')
  })
})
