import * as Errors from './Errors.js'
import { openDatabase, transact } from './internal/indexedDb.js'
import { findUnsupported } from './internal/json.js'

/**
 * An async key-value store. A missing key reads as `null`, and so does a key
 * set to `undefined`.
 */
export type Storage = {
  getItem<value = unknown>(key: string): Promise<value | null>
  setItem(key: string, value: unknown): Promise<void>
  removeItem(key: string): Promise<void>
  /** The keys of this store only (its IndexedDB store, or its prefix). */
  keys(): Promise<string[]>
  /** Removes this store's keys only. */
  clear(): Promise<void>
}

/** The kinds of backend {@link select} can pick. */
export type Driver = 'indexedDb' | 'local' | 'memory'

/**
 * A store in an IndexedDB object store. Values are structured-cloned, so a
 * non-extractable `CryptoKey` can be stored and used after reading it back.
 * The database is opened on first use; a missing object store is added with a
 * version upgrade.
 *
 * @example
 * ```ts
 * import { Storage } from 'embedded-wallets/core'
 *
 * const storage = Storage.indexedDb({
 *   database: 'MagicAuthLocalStorageDB',
 *   store: 'MagicAuthLocalStorage',
 * })
 * await storage.setItem('rt', 'refresh-token')
 * ```
 */
export function indexedDb(options: indexedDb.Options): Storage {
  const { database, store } = options
  let connection: Promise<IDBDatabase> | undefined

  function connect() {
    connection ??= openDatabase(database, store).then(
      (db) => {
        // Let other tabs upgrade; the next call reopens.
        db.onversionchange = db.onclose = () => {
          db.close()
          connection = undefined
        }
        return db
      },
      (error) => {
        connection = undefined
        throw new UnavailableError({ cause: error, driver: 'indexedDb' })
      },
    )
    return connection
  }

  async function run<result>(
    mode: IDBTransactionMode,
    action: (objectStore: IDBObjectStore) => IDBRequest<result>,
  ): Promise<result> {
    return transact(await connect(), store, mode, action)
  }

  return {
    async getItem<value>(key: string) {
      const value = await run('readonly', (s) => s.get(key))
      return (value ?? null) as value | null
    },
    async setItem(key, value) {
      await run('readwrite', (s) => s.put(value, key))
    },
    async removeItem(key) {
      await run('readwrite', (s) => s.delete(key))
    },
    async keys() {
      const keys = await run('readonly', (s) => s.getAllKeys())
      return keys.filter((key): key is string => typeof key === 'string')
    },
    async clear() {
      await run('readwrite', (s) => s.clear())
    },
  }
}

export declare namespace indexedDb {
  type Options = {
    /** IndexedDB database name, e.g. `'MagicAuthLocalStorageDB'`. */
    database: string
    /** Object store name, e.g. `'MagicAuthLocalStorage'`. */
    store: string
  }
  type ErrorType = UnavailableError
}

/**
 * A store in `localStorage`, under a key prefix. Values are stored as JSON,
 * so only JSON values round-trip: a `CryptoKey` (or any other class instance,
 * `bigint`, `NaN`…) cannot go there, and `setItem` throws
 * {@link UnsupportedValueError} rather than storing `{}`.
 *
 * @example
 * ```ts
 * import { Storage } from 'embedded-wallets/core'
 *
 * const storage = Storage.local({
 *   prefix: 'MagicAuthLocalStorageDB/MagicAuthLocalStorage/',
 * })
 * await storage.setItem('rt', 'refresh-token')
 * ```
 */
export function local(options: local.Options): Storage {
  const { prefix } = options

  function backend(): globalThis.Storage {
    const storage = globalThis.localStorage as globalThis.Storage | undefined
    if (!storage) throw new UnavailableError({ driver: 'local' })
    return storage
  }

  function ownKeys(storage: globalThis.Storage) {
    const keys: string[] = []
    for (let index = 0; index < storage.length; index++) {
      const key = storage.key(index)
      if (key?.startsWith(prefix)) keys.push(key)
    }
    return keys
  }

  return {
    async getItem<value>(key: string) {
      const text = backend().getItem(prefix + key)
      return text === null ? null : (JSON.parse(text) as value | null)
    },
    async setItem(key, value) {
      const unsupported = findUnsupported(value)
      if (unsupported)
        throw new UnsupportedValueError({ key, type: unsupported })
      backend().setItem(prefix + key, JSON.stringify(value ?? null))
    },
    async removeItem(key) {
      backend().removeItem(prefix + key)
    },
    async keys() {
      return ownKeys(backend()).map((key) => key.slice(prefix.length))
    },
    async clear() {
      const storage = backend()
      for (const key of ownKeys(storage)) storage.removeItem(key)
    },
  }
}

export declare namespace local {
  type Options = {
    /** Prefix of every key, e.g. `'MagicAuthLocalStorageDB/MagicAuthLocalStorage/'`. */
    prefix: string
  }
  type ErrorType = UnavailableError | UnsupportedValueError
}

/**
 * A store in memory, for one page session. Values are kept as they are (not
 * copied).
 *
 * @example
 * ```ts
 * import { Storage } from 'embedded-wallets/core'
 *
 * const storage = Storage.memory()
 * ```
 */
export function memory(): Storage {
  const map = new Map<string, unknown>()
  return {
    async getItem<value>(key: string) {
      return (map.get(key) ?? null) as value | null
    },
    async setItem(key, value) {
      map.set(key, value)
    },
    async removeItem(key) {
      map.delete(key)
    },
    async keys() {
      return [...map.keys()]
    },
    async clear() {
      map.clear()
    },
  }
}

/**
 * Picks the first backend that works, in order: IndexedDB (the database opens
 * and a read succeeds; this fails e.g. in private modes that forbid it), then
 * localStorage (a probe key can be written and removed), then memory. In Node
 * or during SSR neither browser store exists, so memory is picked.
 *
 * @example
 * ```ts
 * import { Storage } from 'embedded-wallets/core'
 *
 * const { driver, storage } = await Storage.select({
 *   database: 'MagicAuthLocalStorageDB',
 *   store: 'MagicAuthLocalStorage',
 * })
 * ```
 */
export async function select(
  options: select.Options,
): Promise<select.ReturnType> {
  const { database, store, prefix = `${database}/${store}/` } = options
  const idb = indexedDb({ database, store })
  try {
    await idb.keys()
    return { driver: 'indexedDb', storage: idb }
  } catch {}
  const storage = local({ prefix })
  try {
    await storage.setItem(probeKey, true)
    await storage.removeItem(probeKey)
    return { driver: 'local', storage }
  } catch {}
  return { driver: 'memory', storage: memory() }
}

export declare namespace select {
  type Options = indexedDb.Options & {
    /** localStorage key prefix. @default `${database}/${store}/` */
    prefix?: string | undefined
  }
  type ReturnType = { driver: Driver; storage: Storage }
}

/**
 * The product's store: a {@link Storage} that runs {@link select} on first
 * use (IndexedDB → localStorage → memory) and then delegates to the backend
 * it picked. Creating it touches no browser global, so it is SSR-safe.
 *
 * @example
 * ```ts
 * import { Storage } from 'embedded-wallets/core'
 *
 * const storage = Storage.create({
 *   database: 'MagicAuthLocalStorageDB',
 *   store: 'MagicAuthLocalStorage',
 * })
 * await storage.setItem('rt', 'refresh-token')
 * ```
 */
export function create(options: create.Options): Storage {
  let selected: Promise<Storage> | undefined
  const backend = () => {
    selected ??= select(options).then(({ storage }) => storage)
    return selected
  }
  return {
    getItem: async <value>(key: string) =>
      (await backend()).getItem<value>(key),
    setItem: async (key, value) => (await backend()).setItem(key, value),
    removeItem: async (key) => (await backend()).removeItem(key),
    keys: async () => (await backend()).keys(),
    clear: async () => (await backend()).clear(),
  }
}

export declare namespace create {
  type Options = select.Options
}

const probeKey = '__probe__'

/** Thrown when a storage backend cannot be used here. */
export class UnavailableError extends Errors.BaseError {
  override readonly name = 'Storage.UnavailableError'
  constructor({ cause, driver }: { cause?: unknown; driver: Driver }) {
    super(
      `${driver === 'local' ? 'localStorage' : 'IndexedDB'} is unavailable.`,
      {
        cause: cause instanceof Error ? cause : undefined,
      },
    )
  }
}

/** Thrown when a value cannot be stored as JSON in localStorage. */
export class UnsupportedValueError extends Errors.BaseError {
  override readonly name = 'Storage.UnsupportedValueError'
  constructor({ key, type }: { key: string; type: string }) {
    super(`Cannot store a ${type} in localStorage (key "${key}").`, {
      details:
        'localStorage keeps JSON only; CryptoKeys and other structured-clone values need the IndexedDB storage.',
    })
  }
}
