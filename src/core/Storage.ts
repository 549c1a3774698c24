/**
 * Key-value storage for both wallets: IndexedDB, else localStorage, else
 * memory, picked on first use (or localStorage, else memory, for keys
 * another library also reads from localStorage).
 *
 * @packageDocumentation
 */

export {
  create,
  indexedDb,
  select,
  UnavailableError,
} from './internal/indexedDbStorage.js'
export {
  local,
  localOrMemory,
  memory,
  UnsupportedValueError,
} from './internal/storageFallbacks.js'

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

/** The kinds of backend `select` can pick. */
export type Driver = 'indexedDb' | 'local' | 'memory'
