import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Storage from './Storage.js'

const names = { database: 'TestDB', store: 'TestStore' }

/** A Web Storage stand-in for Node, which has no localStorage. */
function fakeLocalStorage(entries: Record<string, string> = {}) {
  const map = new Map(Object.entries(entries))
  return {
    get length() {
      return map.size
    },
    key: (index: number) => [...map.keys()][index] ?? null,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
    clear: () => map.clear(),
    map,
  }
}

/** An IndexedDB factory whose open throws, as in some private modes. */
const brokenIndexedDb = {
  open() {
    throw new DOMException('The user denied permission.', 'InvalidStateError')
  },
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('Storage.memory', () => {
  test('default: set, get, remove', async () => {
    const storage = Storage.memory()
    expect(await storage.getItem('missing')).toBe(null)
    await storage.setItem('rt', { token: 'abc' })
    expect(await storage.getItem('rt')).toEqual({ token: 'abc' })
    await storage.removeItem('rt')
    expect(await storage.getItem('rt')).toBe(null)
  })

  test('behavior: keys and clear', async () => {
    const storage = Storage.memory()
    await storage.setItem('a', 1)
    await storage.setItem('b', 2)
    expect(await storage.keys()).toEqual(['a', 'b'])
    await storage.clear()
    expect(await storage.keys()).toEqual([])
  })

  test('behavior: undefined reads back as null, falsy values as themselves', async () => {
    const storage = Storage.memory()
    await storage.setItem('u', undefined)
    await storage.setItem('zero', 0)
    await storage.setItem('no', false)
    expect(await storage.getItem('u')).toBe(null)
    expect(await storage.getItem('zero')).toBe(0)
    expect(await storage.getItem('no')).toBe(false)
  })

  test('behavior: keeps a CryptoKey as is', async () => {
    const storage = Storage.memory()
    const key = await crypto.subtle.generateKey(
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt'],
    )
    await storage.setItem('ek', key)
    expect(await storage.getItem('ek')).toBe(key)
  })
})

describe('Storage.local', () => {
  test('default: stores JSON under the prefix', async () => {
    const backend = fakeLocalStorage()
    vi.stubGlobal('localStorage', backend)
    const storage = Storage.local({ prefix: 'DB/Store/' })
    await storage.setItem('user', { id: 1, roles: ['a'] })
    expect(backend.map.get('DB/Store/user')).toBe('{"id":1,"roles":["a"]}')
    expect(await storage.getItem('user')).toEqual({ id: 1, roles: ['a'] })
    await storage.removeItem('user')
    expect(backend.map.size).toBe(0)
  })

  test('behavior: keys and clear only touch the prefix', async () => {
    const backend = fakeLocalStorage({ other_app_key: '0x1' })
    vi.stubGlobal('localStorage', backend)
    const storage = Storage.local({ prefix: 'DB/Store/' })
    await storage.setItem('a', 1)
    await storage.setItem('b', 2)
    expect(await storage.keys()).toEqual(['a', 'b'])
    await storage.clear()
    expect([...backend.map.entries()]).toEqual([['other_app_key', '0x1']])
  })

  test('error: a CryptoKey cannot be stored', async () => {
    const backend = fakeLocalStorage()
    vi.stubGlobal('localStorage', backend)
    const storage = Storage.local({ prefix: 'p/' })
    const key = await crypto.subtle.generateKey(
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt'],
    )
    await expect(
      storage.setItem('ek', key),
    ).rejects.toThrowErrorMatchingInlineSnapshot(`
      [Storage.UnsupportedValueError: Cannot store a CryptoKey in localStorage (key "ek").

      Details: localStorage keeps JSON only; CryptoKeys and other structured-clone values need the IndexedDB storage.]
    `)
    await expect(storage.setItem('nested', { keys: [key] })).rejects.toThrow(
      Storage.UnsupportedValueError,
    )
    expect(backend.map.size).toBe(0)
  })

  test('error: other values JSON would change are refused', async () => {
    vi.stubGlobal('localStorage', fakeLocalStorage())
    const storage = Storage.local({ prefix: 'p/' })
    const circular: Record<string, unknown> = {}
    circular.self = circular
    const refused = async (value: unknown) =>
      storage.setItem('k', value).then(
        () => 'stored',
        (error: Storage.UnsupportedValueError) => error.shortMessage,
      )
    expect(await refused(new Uint8Array(2))).toBe(
      'Cannot store a Uint8Array in localStorage (key "k").',
    )
    expect(await refused(new Map())).toBe(
      'Cannot store a Map in localStorage (key "k").',
    )
    expect(await refused(10n)).toBe(
      'Cannot store a bigint in localStorage (key "k").',
    )
    expect(await refused(Number.NaN)).toBe(
      'Cannot store a NaN in localStorage (key "k").',
    )
    expect(await refused(circular)).toBe(
      'Cannot store a circular object in localStorage (key "k").',
    )
    expect(await refused({ shared: [1], again: [2] })).toBe('stored')
  })

  test('param: format text keeps strings as they are', async () => {
    const backend = fakeLocalStorage({ pkce_state: 'abc' })
    vi.stubGlobal('localStorage', backend)
    const storage = Storage.local({ prefix: '', format: 'text' })
    expect(await storage.getItem('pkce_state')).toBe('abc')
    await storage.setItem('user', '{"id":1}')
    expect(backend.map.get('user')).toBe('{"id":1}')
    expect(await storage.getItem('user')).toBe('{"id":1}')
    await storage.setItem('user', undefined)
    await storage.setItem('pkce_state', null)
    expect(backend.map.size).toBe(0)
    expect(await storage.getItem('user')).toBe(null)
  })

  test('error: format text refuses anything but a string', async () => {
    const backend = fakeLocalStorage()
    vi.stubGlobal('localStorage', backend)
    const storage = Storage.local({ prefix: 'p/', format: 'text' })
    await expect(
      storage.setItem('n', 1),
    ).rejects.toThrowErrorMatchingInlineSnapshot(`
      [Storage.UnsupportedValueError: Cannot store a number in localStorage (key "n").

      Details: This store keeps strings only, as they are.]
    `)
    const refused = async (value: unknown) =>
      storage.setItem('k', value).then(
        () => 'stored',
        (error: Storage.UnsupportedValueError) => error.shortMessage,
      )
    expect(await refused({ id: 1 })).toBe(
      'Cannot store a Object in localStorage (key "k").',
    )
    expect(await refused(new Uint8Array(2))).toBe(
      'Cannot store a Uint8Array in localStorage (key "k").',
    )
    expect(await refused(true)).toBe(
      'Cannot store a boolean in localStorage (key "k").',
    )
    expect(backend.map.size).toBe(0)
  })

  test('error: no localStorage', async () => {
    await expect(
      Storage.local({ prefix: 'p/' }).getItem('k'),
    ).rejects.toThrowErrorMatchingInlineSnapshot(
      `[Storage.UnavailableError: localStorage is unavailable.]`,
    )
  })
})

describe('Storage.localOrMemory', () => {
  test('default: localStorage where it works, chosen on first use', async () => {
    const backend = fakeLocalStorage({ pkce_state: 'abc' })
    const reads = vi.fn(() => backend)
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get: reads,
    })
    try {
      const storage = Storage.localOrMemory({ prefix: '', format: 'text' })
      expect(reads).toHaveBeenCalledTimes(0)
      expect(await storage.getItem('pkce_state')).toBe('abc')
      await storage.setItem('pkce_verifier', 'v')
      expect(await storage.keys()).toEqual(['pkce_state', 'pkce_verifier'])
      await storage.removeItem('pkce_state')
      expect([...backend.map.entries()]).toEqual([['pkce_verifier', 'v']])
      await storage.clear()
      expect(backend.map.size).toBe(0)
    } finally {
      Reflect.deleteProperty(globalThis, 'localStorage')
    }
  })

  test('behavior: memory in Node, where there is no localStorage', async () => {
    const storage = Storage.localOrMemory({ prefix: 'p/' })
    await storage.setItem('k', { id: 1 })
    expect(await storage.getItem('k')).toEqual({ id: 1 })
    expect(await storage.keys()).toEqual(['k'])
  })

  test('behavior: memory where reading localStorage throws', async () => {
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError')
      },
    })
    try {
      const storage = Storage.localOrMemory({ prefix: '' })
      await storage.setItem('k', 'v')
      expect(await storage.getItem('k')).toBe('v')
    } finally {
      Reflect.deleteProperty(globalThis, 'localStorage')
    }
  })

  test('behavior: memory where localStorage refuses writes, and it stays memory', async () => {
    const backend = fakeLocalStorage()
    const write = backend.setItem
    backend.setItem = () => {
      throw new DOMException('Quota exceeded', 'QuotaExceededError')
    }
    vi.stubGlobal('localStorage', backend)
    const storage = Storage.localOrMemory({ prefix: '' })
    await storage.setItem('k', 'v')
    backend.setItem = write
    await storage.setItem('later', 'w')
    expect(await storage.getItem('k')).toBe('v')
    expect(backend.map.size).toBe(0)
  })
})

describe('Storage.indexedDb', () => {
  test('error: no indexedDB', async () => {
    await expect(
      Storage.indexedDb(names).getItem('k'),
    ).rejects.toThrowErrorMatchingInlineSnapshot(`
      [Storage.UnavailableError: IndexedDB is unavailable.

      Details: indexedDB is not defined.]
    `)
  })
})

describe('Storage.select', () => {
  test('default: memory in Node, where neither browser store exists', async () => {
    const { driver, storage } = await Storage.select(names)
    expect(driver).toBe('memory')
    await storage.setItem('k', 'v')
    expect(await storage.getItem('k')).toBe('v')
  })

  test('behavior: localStorage when IndexedDB fails to open', async () => {
    const backend = fakeLocalStorage()
    vi.stubGlobal('indexedDB', brokenIndexedDb)
    vi.stubGlobal('localStorage', backend)
    const { driver, storage } = await Storage.select(names)
    expect(driver).toBe('local')
    expect(backend.map.size).toBe(0)
    await storage.setItem('k', 'v')
    expect([...backend.map.entries()]).toEqual([['TestDB/TestStore/k', '"v"']])
  })

  test('param: prefix', async () => {
    const backend = fakeLocalStorage()
    vi.stubGlobal('localStorage', backend)
    const { storage } = await Storage.select({ ...names, prefix: 'custom:' })
    await storage.setItem('k', 1)
    expect([...backend.map.keys()]).toEqual(['custom:k'])
  })

  test('behavior: memory when localStorage cannot be written', async () => {
    const backend = fakeLocalStorage()
    backend.setItem = () => {
      throw new DOMException('Quota exceeded', 'QuotaExceededError')
    }
    vi.stubGlobal('indexedDB', brokenIndexedDb)
    vi.stubGlobal('localStorage', backend)
    expect((await Storage.select(names)).driver).toBe('memory')
  })
})

describe('Storage.create', () => {
  test('default: selects on first use, not on creation', async () => {
    const reads = vi.fn(() => undefined)
    Object.defineProperty(globalThis, 'indexedDB', {
      configurable: true,
      get: reads,
    })
    try {
      const storage = Storage.create(names)
      expect(reads).toHaveBeenCalledTimes(0)
      await storage.setItem('k', 'v')
      expect(reads).toHaveBeenCalledTimes(1)
      expect(await storage.getItem('k')).toBe('v')
      expect(await storage.keys()).toEqual(['k'])
      await storage.removeItem('k')
      await storage.setItem('other', 1)
      await storage.clear()
      expect(await storage.keys()).toEqual([])
      expect(reads).toHaveBeenCalledTimes(1)
    } finally {
      Reflect.deleteProperty(globalThis, 'indexedDB')
    }
  })
})
