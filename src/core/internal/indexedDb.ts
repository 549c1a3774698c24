/**
 * IndexedDB plumbing for `Storage.indexedDb`. Touches `indexedDB` only when
 * called.
 */

/** Opens `database`, adding `store` with a version upgrade if it is missing. */
export function openDatabase(
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
export function transact<result>(
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
