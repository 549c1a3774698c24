import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Storage from './Storage.js'

const databases: string[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  localStorage.clear()
  for (const name of databases.splice(0))
    await new Promise((resolve, reject) => {
      const request = indexedDB.deleteDatabase(name)
      request.onsuccess = resolve
      request.onerror = () => reject(request.error)
      request.onblocked = () => reject(new Error(`${name} stayed open`))
    })
})

/** A database name unique to the test, deleted afterwards. */
function database() {
  const name = `TestDB-${crypto.randomUUID()}`
  databases.push(name)
  return name
}

const sign = { name: 'ECDSA', hash: 'SHA-256' } as const
const data = new TextEncoder().encode('iat=1700000000')

describe('Storage.indexedDb', () => {
  test('default: a non-extractable P-256 key round-trips and signs', async () => {
    const names = { database: database(), store: 'WalletStore' }
    const { privateKey, publicKey } = await crypto.subtle.generateKey(
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['sign', 'verify'],
    )
    await Storage.indexedDb(names).setItem('STORE_KEY_PRIVATE_KEY', privateKey)

    // A second instance opens its own connection: the key comes from disk.
    const read = await Storage.indexedDb(names).getItem<CryptoKey>(
      'STORE_KEY_PRIVATE_KEY',
    )
    expect(read).toBeInstanceOf(CryptoKey)
    expect(read).not.toBe(privateKey)
    expect(read?.extractable).toBe(false)
    expect(read?.type).toBe('private')
    expect(read?.usages).toEqual(['sign'])
    expect(read?.algorithm).toEqual({ name: 'ECDSA', namedCurve: 'P-256' })
    await expect(
      crypto.subtle.exportKey('pkcs8', read as CryptoKey),
    ).rejects.toThrow()

    const signature = await crypto.subtle.sign(sign, read as CryptoKey, data)
    expect(signature.byteLength).toBe(64)
    expect(await crypto.subtle.verify(sign, publicKey, signature, data)).toBe(
      true,
    )
  })

  test('behavior: missing keys read as null; values are structured clones', async () => {
    const storage = Storage.indexedDb({ database: database(), store: 's' })
    expect(await storage.getItem('missing')).toBe(null)
    const value = { at: new Date(0), bytes: new Uint8Array([1, 2]) }
    await storage.setItem('v', value)
    expect(await storage.getItem('v')).toEqual(value)
    await storage.removeItem('v')
    expect(await storage.getItem('v')).toBe(null)
  })

  test('behavior: keys and clear are scoped to the object store', async () => {
    const name = database()
    const ours = Storage.indexedDb({ database: name, store: 'ours' })
    const theirs = Storage.indexedDb({ database: name, store: 'theirs' })
    await ours.setItem('rt', 'token')
    await ours.setItem('ds_abc', 'share')
    // Adding a second store to the same database upgrades it.
    await theirs.setItem('other', 1)
    expect((await ours.keys()).sort()).toEqual(['ds_abc', 'rt'])
    await ours.clear()
    expect(await ours.keys()).toEqual([])
    expect(await theirs.keys()).toEqual(['other'])
  })
})

describe('Storage.local', () => {
  test('behavior: keys and clear are scoped to the prefix', async () => {
    localStorage.setItem('other_app_key', '0x1')
    localStorage.setItem('Other/Store/rt', '"x"')
    const storage = Storage.local({ prefix: 'DB/Store/' })
    await storage.setItem('rt', 'token')
    await storage.setItem('iv', [1, 2, 3])
    expect(localStorage.getItem('DB/Store/iv')).toBe('[1,2,3]')
    expect((await storage.keys()).sort()).toEqual(['iv', 'rt'])
    await storage.clear()
    expect(await storage.keys()).toEqual([])
    expect(localStorage.getItem('other_app_key')).toBe('0x1')
    expect(localStorage.getItem('Other/Store/rt')).toBe('"x"')
  })

  test('error: a real CryptoKey is refused', async () => {
    const key = await crypto.subtle.generateKey(
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    )
    await expect(
      Storage.local({ prefix: 'p/' }).setItem('ek', key),
    ).rejects.toThrow(Storage.UnsupportedValueError)
    expect(localStorage.length).toBe(0)
  })
})

describe('Storage.localOrMemory', () => {
  test('default: the real localStorage, plain keys and string values', async () => {
    localStorage.setItem('pkce_state', 'written-elsewhere')
    const storage = Storage.localOrMemory({ prefix: '', format: 'text' })
    expect(await storage.getItem('pkce_state')).toBe('written-elsewhere')
    await storage.setItem('oidc.user:a:b', '{"access_token":"t"}')
    expect(localStorage.getItem('oidc.user:a:b')).toBe('{"access_token":"t"}')
    expect((await storage.keys()).sort()).toEqual([
      'oidc.user:a:b',
      'pkce_state',
    ])
  })
})

describe('Storage.select', () => {
  test('default: IndexedDB in Chromium', async () => {
    const names = { database: database(), store: 'store' }
    const { driver, storage } = await Storage.select(names)
    expect(driver).toBe('indexedDb')
    await storage.setItem('k', 'v')
    expect(localStorage.length).toBe(0)
    expect(await Storage.indexedDb(names).getItem('k')).toBe('v')
  })

  test('behavior: localStorage when indexedDB.open throws', async () => {
    const open = vi.spyOn(indexedDB, 'open').mockImplementation(() => {
      throw new DOMException('Private mode', 'InvalidStateError')
    })
    const names = {
      database: 'WalletDB',
      store: 'WalletStore',
    }
    expect((await Storage.select(names)).driver).toBe('local')

    const storage = Storage.create(names)
    await storage.setItem('rt', 'refresh-token')
    expect(localStorage.getItem('WalletDB/WalletStore/rt')).toBe(
      '"refresh-token"',
    )
    expect(await storage.getItem('rt')).toBe('refresh-token')
    expect(open).toHaveBeenCalledWith('WalletDB')
  })

  test('behavior: localStorage when opening fails with an error event', async () => {
    vi.spyOn(indexedDB, 'open').mockImplementation(() => {
      const request = {} as IDBOpenDBRequest
      queueMicrotask(() => {
        Object.defineProperty(request, 'error', {
          value: new DOMException('denied', 'UnknownError'),
        })
        request.onerror?.(new Event('error'))
      })
      return request
    })
    const { driver } = await Storage.select({ database: 'd', store: 's' })
    expect(driver).toBe('local')
  })
})
