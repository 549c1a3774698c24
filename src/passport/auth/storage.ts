/**
 * A synchronous key-value store with the Web Storage shape, used for the
 * keys the published SDK keeps in `localStorage` (the OIDC user, PKCE state).
 * `browser()` touches `localStorage` only when a method is called, so
 * importing and creating it is SSR-safe; without `localStorage` it keeps the
 * values in memory.
 */

/** The Web Storage methods the sign-in modules use, and the key list. */
export type KeyValueStore = {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
  /** Every key held now. */
  keys(): string[]
}

/**
 * A store in memory.
 *
 * @example
 * ```ts
 * const store = memory()
 * store.setItem('pkce_state', 'abc')
 * ```
 */
export function memory(): KeyValueStore {
  const map = new Map<string, string>()
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    keys: () => [...map.keys()],
  }
}

/**
 * `localStorage` when the page has one (checked on each call), else a
 * memory store (Node, SSR, or a browser that forbids storage).
 *
 * @example
 * ```ts
 * const store = browser()
 * store.getItem('pkce_verifier')
 * ```
 */
export function browser(): KeyValueStore {
  const fallback = memory()
  const backend = (): Storage | KeyValueStore => {
    try {
      const storage = globalThis.localStorage as Storage | undefined
      if (storage) return storage
    } catch {}
    return fallback
  }
  return {
    getItem: (key) => backend().getItem(key),
    setItem: (key, value) => backend().setItem(key, value),
    removeItem: (key) => backend().removeItem(key),
    keys() {
      const store = backend()
      if ('keys' in store) return store.keys()
      return Array.from({ length: store.length }, (_, index) =>
        store.key(index),
      ).filter((key) => key !== null)
    },
  }
}
