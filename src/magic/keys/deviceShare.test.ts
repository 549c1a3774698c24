import { describe, expect, test } from 'vitest'
import * as Storage from '../../core/Storage.js'
import * as Base64 from '../wire/base64.js'
import * as DeviceShare from './deviceShare.js'
import * as Session from './session.js'

const share = Base64.fromBytes(new TextEncoder().encode('device-share-bytes'))

describe('DeviceShare.encrypt', () => {
  test('default: stores base64(iv ‖ ciphertext) that decrypts to the share', async () => {
    const storage = Storage.memory()
    await DeviceShare.encrypt(storage, 'pk_X_eth_mainnet', share)
    expect((await storage.keys()).sort()).toEqual(['ds_pk_X_eth_mainnet', 'ek'])
    const stored = await storage.getItem<string>('ds_pk_X_eth_mainnet')
    // 12-byte IV + 18-byte share + 16-byte tag.
    expect(Base64.toBytes(stored as string).length).toBe(46)
    expect(await DeviceShare.decrypt(storage, 'pk_X_eth_mainnet')).toBe(share)
    expect(await DeviceShare.decrypt(storage, 'pk_X_eth_goerli')).toBe(
      undefined,
    )
  })

  test('behavior: each encryption uses a fresh IV', async () => {
    const storage = Storage.memory()
    await DeviceShare.encrypt(storage, 'a', share)
    await DeviceShare.encrypt(storage, 'b', share)
    const a = Base64.toBytes((await storage.getItem<string>('ds_a')) as string)
    const b = Base64.toBytes((await storage.getItem<string>('ds_b')) as string)
    expect(a.subarray(0, 12)).not.toEqual(b.subarray(0, 12))
    expect(a.subarray(12)).not.toEqual(b.subarray(12))
  })
})

describe('DeviceShare.decrypt', () => {
  test('behavior: a value in the published format is dropped, not thrown', async () => {
    const storage = Storage.memory()
    await DeviceShare.encrypt(storage, 'a', share)
    // The published SDK stores the bare ciphertext and a separate `iv`.
    await storage.setItem('ds_b', Base64.fromBytes(new Uint8Array(34)))
    await storage.setItem('ds_c', 'not base64!')
    await storage.setItem('ds_d', { not: 'a string' })
    for (const hash of ['b', 'c', 'd'])
      expect(await DeviceShare.decrypt(storage, hash)).toBe(undefined)
    expect((await storage.keys()).sort()).toEqual(['ds_a', 'ek'])
  })

  test('behavior: a share whose key is gone is dropped', async () => {
    const storage = Storage.memory()
    await DeviceShare.encrypt(storage, 'a', share)
    await storage.removeItem('ek')
    // As another client would after that removal: read storage again.
    Session.drop(Session.of(storage), 'session')
    expect(await DeviceShare.decrypt(storage, 'a')).toBe(undefined)
    expect(await storage.keys()).toEqual([])
  })
})

describe('DeviceShare.clearAll', () => {
  test('default: removes every ds_ entry and nothing else', async () => {
    const storage = Storage.memory()
    await DeviceShare.encrypt(storage, 'a', share)
    await DeviceShare.encrypt(storage, 'b', share)
    await storage.setItem('rt', 'token')
    await DeviceShare.clearAll(storage)
    expect((await storage.keys()).sort()).toEqual(['ek', 'rt'])
  })
})
