/**
 * The IndexedDB store and the backend selection of `Storage` (re-exported
 * there): what every page loads. Kept apart from the public namespace
 * module, which also re-exports the fallbacks, so that importing `create`
 * does not statically reach them: `select` loads them with `import()` only
 * when IndexedDB is unavailable.
 */

import { BaseError } from '../Errors.js'
import type { Driver, Storage } from '../Storage.js'

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
 *   database: 'WalletDB',
 *   store: 'WalletStore',
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
    /** IndexedDB database name, e.g. `'WalletDB'`. */
    database: string
    /** Object store name, e.g. `'WalletStore'`. */
    store: string
  }
  type ErrorType = UnavailableError
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
 *   database: 'WalletDB',
 *   store: 'WalletStore',
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
  // The fallbacks load only when IndexedDB fails.
  const { isLocalUsable, local, memory } = await import('./storageFallbacks.js')
  if (isLocalUsable(prefix))
    return { driver: 'local', storage: local({ prefix }) }
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
 * A wallet's store: a {@link Storage} that runs {@link select} on first
 * use (IndexedDB → localStorage → memory) and then delegates to the backend
 * it picked. Creating it touches no browser global, so it is SSR-safe.
 *
 * @example
 * ```ts
 * import { Storage } from 'embedded-wallets/core'
 *
 * const storage = Storage.create({
 *   database: 'WalletDB',
 *   store: 'WalletStore',
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

/** Opens `database`, adding `store` with a version upgrade if it is missing. */
function openDatabase(
  database: string,
  store: string,
  version?: number,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const factory = globalThis.indexedDB as IDBFactory | undefined
    if (!factory) throw new Error('indexedDB is not defined.')
    const request = version
      ? factory.open(database, version)
      : factory.open(database)
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(store))
        request.result.createObjectStore(store)
    }
    request.onsuccess = () => {
      const db = request.result
      if (db.objectStoreNames.contains(store)) return resolve(db)
      db.close()
      openDatabase(database, store, db.version + 1).then(resolve, reject)
    }
    request.onerror = () => reject(request.error)
  })
}

/** Runs one request in its own transaction; resolves once it commits. */
function transact<result>(
  db: IDBDatabase,
  store: string,
  mode: IDBTransactionMode,
  action: (objectStore: IDBObjectStore) => IDBRequest<result>,
): Promise<result> {
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(store, mode)
    const request = action(transaction.objectStore(store))
    transaction.oncomplete = () => resolve(request.result)
    transaction.onabort = transaction.onerror = () =>
      reject(transaction.error ?? request.error)
  })
}

/** Thrown when a storage backend cannot be used here. */
export class UnavailableError extends BaseError {
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
