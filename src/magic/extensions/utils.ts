/**
 * The helpers behind an extension's `this.utils` that are not core
 * functions as they are: base64 JSON, the in-place payload standardizer of
 * the published SDK, and the SDK storage with the published method set.
 * Only extensions import this file, so a bundle that never defines one
 * leaves it out.
 */
import * as Rpc from '../../core/Rpc.js'
import type * as Storage from '../../core/Storage.js'
import * as Base64 from '../wire/base64.js'

/**
 * Standard base64 of the UTF-8 bytes of `JSON.stringify(value)`, as the
 * published `encodeJSON` (its `encodeURIComponent` → bytes → `btoa` trick
 * yields the same UTF-8 bytes).
 *
 * @example
 * ```ts
 * encodeJSON({ a: 'é' }) // 'eyJhIjoiw6kifQ=='
 * ```
 */
export function encodeJSON(value: unknown): string {
  // `String` keeps the published output for `undefined`: base64 of "undefined".
  return Base64.fromBytes(
    new TextEncoder().encode(String(JSON.stringify(value))),
  )
}

/**
 * Reverses {@link encodeJSON}: parses the UTF-8 JSON in standard base64
 * `encoded`. Throws on text that is not base64, not UTF-8 or not JSON.
 */
export function decodeJSON<value = unknown>(encoded: string): value {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(
    Base64.toBytes(encoded),
  )
  return JSON.parse(text) as value
}

const standardized = new WeakSet<object>()

/**
 * The published `standardizeJsonRpcRequestPayload`: completes `payload` in
 * place (`jsonrpc` '2.0', a fresh counter `id` even when it had one,
 * `method` 'noop', `params` []) and returns that same object. A payload it
 * already completed, or one made by `createJsonRpcRequestPayload`, is left
 * as it is.
 */
export function standardizeJsonRpcRequestPayload(
  payload: Rpc.standardize.Payload,
): Rpc.Request {
  if (!standardized.has(payload)) {
    Object.assign(payload, Rpc.standardize(payload))
    standardized.add(payload)
  }
  return payload as Rpc.Request
}

/** `this.utils.storage`: the published (localforage) method set. */
export type ExtensionStorage = Pick<
  Storage.Storage,
  'getItem' | 'setItem' | 'removeItem' | 'keys' | 'clear'
> & {
  /** How many keys the store holds. */
  length(): Promise<number>
  /** The key at `index` of {@link ExtensionStorage.keys}, or `null`. */
  key(index: number): Promise<string | null>
  /**
   * Calls `iteratee(value, key, iterationNumber)` (from 1) for each entry;
   * stops at, and resolves to, the first result that is not `undefined`.
   */
  iterate<result>(
    iteratee: (value: unknown, key: string, iterationNumber: number) => result,
  ): Promise<result | undefined>
}

/**
 * The SDK storage as `this.utils.storage`. `store` is read on each call, so
 * using the storage before `init` throws `EXTENSION_NOT_INITIALIZED`.
 */
export function extensionStorage(
  store: () => Storage.Storage,
): ExtensionStorage {
  const keys = () => store().keys()
  return {
    getItem: <value>(key: string) => store().getItem<value>(key),
    setItem: (key, value) => store().setItem(key, value),
    removeItem: (key) => store().removeItem(key),
    keys,
    clear: () => store().clear(),
    length: async () => (await keys()).length,
    key: async (index) => (await keys())[index] ?? null,
    async iterate(iteratee) {
      let number = 0
      for (const key of await keys()) {
        const result = iteratee(await store().getItem(key), key, ++number)
        if (result !== undefined) return result
      }
      return undefined
    },
  }
}
