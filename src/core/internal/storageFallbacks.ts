/**
 * The fallback backends of `Storage` (re-exported there): `local`
 * (localStorage, JSON or plain-string values), `memory`, and
 * `localOrMemory`, which picks one of them. `Storage.select` loads this
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
 * With `format: 'text'` values are strings stored as they are, for keys that
 * other code also reads and writes as plain strings; anything but a string
 * is refused, and `null` or `undefined` removes the key.
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
  const { prefix, format = 'json' } = options

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
      if (text === null || format === 'text') return text as value | null
      return JSON.parse(text) as value | null
    },
    async setItem(key, value) {
      if (format === 'text') {
        if (value === null || value === undefined)
          return backend().removeItem(prefix + key)
        if (typeof value !== 'string')
          throw new UnsupportedValueError({
            key,
            type: typeName(value),
            format,
          })
        return backend().setItem(prefix + key, value)
      }
      const unsupported = findUnsupported(value)
      if (unsupported)
        throw new UnsupportedValueError({ key, type: unsupported, format })
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
    /** How values are written: as JSON, or as plain strings. @default 'json' */
    format?: Format | undefined
  }
  type Format = 'json' | 'text'
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

/**
 * A store in `localStorage` where it can be used, else in memory (Node, SSR,
 * or a browser that forbids storage). The choice is made on first use, by
 * writing and removing a probe key, so creating the store touches no browser
 * global; it then holds for the store's life. Options as {@link local}.
 *
 * @example
 * ```ts
 * import { Storage } from 'embedded-wallets/core'
 *
 * // Plain keys and values another library also reads from localStorage:
 * const storage = Storage.localOrMemory({ prefix: '', format: 'text' })
 * await storage.getItem('pkce_state')
 * ```
 */
export function localOrMemory(options: local.Options): Storage {
  let selected: Storage | undefined
  const backend = () => {
    selected ??= isLocalUsable(options.prefix) ? local(options) : memory()
    return selected
  }
  return {
    getItem: <value>(key: string) => backend().getItem<value>(key),
    setItem: (key, value) => backend().setItem(key, value),
    removeItem: (key) => backend().removeItem(key),
    keys: () => backend().keys(),
    clear: () => backend().clear(),
  }
}

/**
 * Whether `localStorage` exists and accepts a write: a probe key under
 * `prefix` is written and removed (reading the global may itself throw where
 * storage is forbidden, and a full store refuses writes).
 */
export function isLocalUsable(prefix: string): boolean {
  try {
    const storage = globalThis.localStorage as globalThis.Storage | undefined
    if (!storage) return false
    storage.setItem(prefix + probeKey, '1')
    storage.removeItem(prefix + probeKey)
    return true
  } catch {
    return false
  }
}

const probeKey = '__probe__'

/**
 * Thrown when a value cannot be stored in localStorage: not JSON, or not a
 * string in a `format: 'text'` store.
 */
export class UnsupportedValueError extends BaseError {
  override readonly name = 'Storage.UnsupportedValueError'
  constructor({
    key,
    type,
    format = 'json',
  }: {
    key: string
    type: string
    format?: local.Format | undefined
  }) {
    super(`Cannot store a ${type} in localStorage (key "${key}").`, {
      details:
        format === 'text'
          ? 'This store keeps strings only, as they are.'
          : 'localStorage keeps JSON only; CryptoKeys and other structured-clone values need the IndexedDB storage.',
    })
  }
}

/** `typeof` of a value that is not `null`, with class instances named. */
function typeName(value: unknown): string {
  if (typeof value !== 'object' || value === null) return typeof value
  return (value.constructor as { name?: string } | undefined)?.name || 'object'
}
