/**
 * The extension API of the published SDK: `class X extends
 * Extension.Internal<'name'>` with `name`, `config` and an optional
 * `compat`. The SDK checks `compat`, calls `init(sdk)`, mounts the extension
 * at `magic[name]` and puts a non-empty `config` into the iframe params.
 * Extensions get `this.request`, `this.sdk` and `this.utils` (PromiEvents,
 * base64 JSON, JSON-RPC payloads and the SDK's storage).
 */
import * as PromiEvent from '../../core/PromiEvent.js'
import * as Rpc from '../../core/Rpc.js'
import type * as Storage from '../../core/Storage.js'
import {
  createExtensionNotInitializedError,
  MagicExtensionError,
  MagicExtensionWarning,
} from '../errors.js'
import {
  clientOf,
  type Handle,
  type RequestOptions,
  request,
} from '../request.js'
import * as Base64 from '../wire/base64.js'

/**
 * Supported versions per SDK flavour: `true`, `false` or a semver range.
 * This client is the web SDK and reads only `'magic-sdk'`; the React Native
 * keys stay in the type because extensions written for the published SDK
 * declare all four, and dropping them would fail their type check.
 */
export type Compat = {
  'magic-sdk'?: boolean | string | undefined
  '@magic-sdk/react-native'?: boolean | string | undefined
  '@magic-sdk/react-native-bare'?: boolean | string | undefined
  '@magic-sdk/react-native-expo'?: boolean | string | undefined
}

const notInitialized = Symbol('notInitialized')

/** Base of every extension. */
abstract class BaseExtension<name extends string, config = unknown> {
  /** Platforms and versions this extension supports; missing = all. */
  compat?: Compat | undefined
  /** Where the extension is mounted: `magic[name]`. */
  abstract readonly name: name
  /** Sent to the iframe in the params' `ext[name]` when not empty. */
  abstract readonly config: config
  #sdk: object | typeof notInitialized = notInitialized

  /**
   * Helpers for extension authors, those of the published SDK: PromiEvents,
   * base64 JSON, JSON-RPC payloads (ids from the SDK's counter) and the
   * SDK's storage (which needs `init`).
   */
  protected utils = {
    createPromiEvent: PromiEvent.create,
    isPromiEvent: PromiEvent.isPromiEvent,
    encodeJSON,
    decodeJSON,
    createJsonRpcRequestPayload: Rpc.createRequest,
    standardizeJsonRpcRequestPayload,
    storage: extensionStorage(() => this.#client().storage),
  }

  /** The SDK instance; throws `EXTENSION_NOT_INITIALIZED` before `init`. */
  protected get sdk(): object {
    if (this.#sdk === notInitialized)
      throw createExtensionNotInitializedError('sdk')
    return this.#sdk
  }

  /**
   * Sends a JSON-RPC request through the SDK (iframe or third-party
   * wallet); throws `EXTENSION_NOT_INITIALIZED` before `init`.
   */
  protected get request(): <result = unknown, names extends string = never>(
    payload: Rpc.Request,
    options?: RequestOptions,
  ) => Handle<result, names> {
    if (this.#sdk === notInitialized)
      throw createExtensionNotInitializedError('request')
    const client = clientOf(this.#sdk, 'request')
    return (payload, options) => request(client, payload, options)
  }

  /** Registers the SDK instance (called by the SDK). @internal */
  init(sdk: object): void {
    if (this.#sdk === notInitialized) this.#sdk = sdk
  }

  /** A warning in the extension's name. */
  protected createWarning(
    code: string | number,
    message: string,
  ): MagicExtensionWarning {
    return new MagicExtensionWarning(this, code, message)
  }

  /** A deprecation warning in the extension's name. */
  protected createDeprecationWarning(options: {
    method: string
    removalVersion: string
    useInstead?: string | undefined
  }): MagicExtensionWarning {
    const { method, removalVersion, useInstead } = options
    const instead = useInstead ? ` Use \`${useInstead}\` instead.` : ''
    return new MagicExtensionWarning(
      this,
      'DEPRECATION_NOTICE',
      `\`${method}\` will be removed from this Extension in version \`${removalVersion}\`.${instead}`,
    )
  }

  /** An error in the extension's name. */
  protected createError<data = unknown>(
    code: string | number,
    message: string,
    data: data,
  ): MagicExtensionError<data> {
    return new MagicExtensionError(this, code, message, data)
  }

  #client() {
    return clientOf(this.sdk, 'utils.storage')
  }
}

/**
 * Base of the provider's own ("internal") extensions; public as
 * `Extension.Internal`. Exported for this package's extension classes:
 * extending it by name, not through `Extension.Internal` (a property read
 * a bundler must keep), lets an unused extension drop out of a bundle.
 */
export abstract class InternalExtension<
  name extends string,
  config = unknown,
> extends BaseExtension<name, config> {}

/**
 * The extension namespace: subclass `Extension.Internal<'name', Config>`.
 *
 * @example
 * ```ts
 * import { Extension } from 'embedded-wallets/magic'
 *
 * class HelloExtension extends Extension.Internal<'hello'> {
 *   name = 'hello' as const
 *   config = {}
 *   hello() {
 *     return this.request(this.utils.createJsonRpcRequestPayload('hello'))
 *   }
 * }
 * ```
 */
// biome-ignore lint/complexity/noStaticOnlyClass: the published API is `Extension.Internal` on a class.
export class Extension {
  static Internal = InternalExtension
}

// The helpers behind `this.utils` that core does not provide as they are,
// with the published SDK's behaviour.

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
 * using the storage before `init` throws `EXTENSION_NOT_INITIALIZED`. An
 * extension may write any key (the keys, `rt`, shares, or `clear()` them
 * all), so each write makes every client forget what it keeps in memory.
 */
export function extensionStorage(
  store: () => Storage.Storage,
): ExtensionStorage {
  const keys = () => store().keys()
  // Once a write is stored, every client reads its session again.
  const wrote = async (written: Promise<void>) => {
    await written
    // Through the transport's lazily loaded module (see there).
    const Envelope = await import('../transport/envelope.js')
    Envelope.storageWritten(store())
  }
  return {
    getItem: <value>(key: string) => store().getItem<value>(key),
    setItem: (key, value) => wrote(store().setItem(key, value)),
    removeItem: (key) => wrote(store().removeItem(key)),
    keys,
    clear: () => wrote(store().clear()),
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

/** Any extension instance. */
export type AnyExtension = BaseExtension<string, unknown>

/**
 * Whether an extension supports this web SDK at `version`, from its
 * `compat['magic-sdk']`: a missing `compat` (or entry) means yes, a boolean
 * is the answer, a string is a semver range.
 */
export function isCompatible(
  extension: Pick<AnyExtension, 'compat'>,
  version: string,
): boolean {
  const entry = extension.compat?.['magic-sdk']
  if (entry === undefined || entry === null) return true
  if (typeof entry === 'string') return satisfies(version, entry)
  return Boolean(entry)
}

/**
 * A small semver range check: `*`, `x.y.z`, `=`, `>`, `>=`, `<`, `<=`,
 * `^x`, `~x` (partial versions allowed), space-separated comparators (all
 * must hold) and `||` alternatives.
 *
 * @example
 * ```ts
 * satisfies('29.0.6', '^29.0.0 || >=30') // true
 * ```
 */
export function satisfies(version: string, range: string): boolean {
  const target = parse(version)
  if (!target) return false
  return range.split('||').some((set) => {
    const comparators = set.trim().split(/\s+/).filter(Boolean)
    return comparators.every((comparator) => test(target, comparator))
  })
}

type Version = [number, number, number]

function parse(text: string): Version | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim())
  if (!match) return undefined
  return [Number(match[1]), Number(match[2]), Number(match[3])]
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++)
    if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0)
  return 0
}

function test(version: Version, comparator: string): boolean {
  const match =
    /^(\^|~|[<>]?=?)v?(\*|x|\d+)(?:\.(\*|x|\d+))?(?:\.(\*|x|\d+))?/i.exec(
      comparator,
    )
  if (!match) return false
  const [, operator = '', ...parts] = match
  // How many leading parts are numbers: 3 in `29.0.6`, 1 in `29.x`.
  let precision = 0
  while (precision < 3 && /^\d/.test(parts[precision] ?? '')) precision++
  const low = [0, 1, 2].map((i) =>
    i < precision ? Number(parts[i]) : 0,
  ) as Version
  // `*`: every version, but for `<` and `<=`.
  if (precision === 0) return !operator.startsWith('<')
  const order = compare(version, low)
  /** Whether `version` is below `low` with part `index` raised by one. */
  const below = (index: number) =>
    compare(
      version,
      low.map((part, i) =>
        i < index ? part : i === index ? part + 1 : 0,
      ) as Version,
    ) < 0
  const partial = precision < 3
  switch (operator) {
    case '>':
      return partial ? !below(precision - 1) : order > 0
    case '>=':
      return order >= 0
    case '<':
      return order < 0
    case '<=':
      return partial ? below(precision - 1) : order <= 0
    case '^':
      return (
        order >= 0 &&
        below(
          low[0] > 0 || precision === 1
            ? 0
            : low[1] > 0 || precision === 2
              ? 1
              : 2,
        )
      )
    case '~':
      return order >= 0 && below(precision === 1 ? 0 : 1)
    default:
      return partial ? order >= 0 && below(precision - 1) : order === 0
  }
}
