/**
 * Key-value storage: IndexedDB → localStorage → memory, picked on first use
 * (or localStorage → memory, for keys shared with other code).
 *
 * @packageDocumentation
 */

export { create, indexedDb, select } from './internal/storage.js'
export { UnavailableError } from './internal/storageErrors.js'
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
