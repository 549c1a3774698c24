/**
 * The fallback backends of `Storage` (re-exported there): `local`
 * (localStorage, JSON values) and `memory`. `Storage.select` loads this
 * module with `import()` only when IndexedDB is unavailable, so that pages
 * where IndexedDB works never download it.
 */

import { BaseError } from '../Errors.js'
import type { Storage } from '../Storage.js'
import { UnavailableError } from './indexedDbStorage.js'

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
 * const storage = Storage.local({ prefix: 'WalletDB/WalletStore/' })
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
    /** Prefix of every key, e.g. `'WalletDB/WalletStore/'`. */
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

/** Names the first value in `value` that JSON cannot round-trip. */
function findUnsupported(
  value: unknown,
  seen = new Set<object>(),
): string | undefined {
  if (value === null || value === undefined) return
  if (typeof value === 'string' || typeof value === 'boolean') return
  if (typeof value === 'number')
    return Number.isFinite(value) ? undefined : String(value)
  if (typeof value !== 'object') return typeof value
  if (seen.has(value)) return 'circular object'
  seen.add(value)
  const prototype = Object.getPrototypeOf(value)
  if (
    !Array.isArray(value) &&
    prototype !== Object.prototype &&
    prototype !== null
  )
    return (
      (value.constructor as { name?: string } | undefined)?.name || 'object'
    )
  for (const item of Object.values(value)) {
    const unsupported = findUnsupported(item, seen)
    if (unsupported) return unsupported
  }
  seen.delete(value)
}

/** Thrown when a value cannot be stored as JSON in localStorage. */
export class UnsupportedValueError extends BaseError {
  override readonly name = 'Storage.UnsupportedValueError'
  constructor({ key, type }: { key: string; type: string }) {
    super(`Cannot store a ${type} in localStorage (key "${key}").`, {
      details:
        'localStorage keeps JSON only; CryptoKeys and other structured-clone values need the IndexedDB storage.',
    })
  }
}
