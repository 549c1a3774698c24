/**
 * The iframe wallet's errors and warnings, with the published SDK's message
 * formats and texts. The RPC errors are the core model's
 * (`RpcErrors.RpcError`, with a numeric `code`): {@link MagicRPCError} and
 * {@link ProviderDisconnectedError}. The SDK and extension errors, whose
 * published codes are strings, extend the core `BaseError` (no details or
 * docs are passed, so `message` is exactly the published one-line format).
 */
import { BaseError } from '../core/Errors.js'
import type * as Rpc from '../core/Rpc.js'
import { DisconnectedError, RpcError } from '../core/RpcErrors.js'
import * as Codes from './wire/codes.js'

/**
 * The codes of {@link MagicSDKError}: the published SDK's `SDKErrorCode`
 * values. Raised by the client itself, never sent by the iframe.
 */
export type SdkErrorCode =
  | 'MISSING_API_KEY'
  | 'MODAL_NOT_READY'
  | 'CONNECTION_WAS_LOST'
  | 'MALFORMED_RESPONSE'
  | 'INVALID_ARGUMENT'
  | 'EXTENSION_NOT_INITIALIZED'
  | 'INCOMPATIBLE_EXTENSIONS'

/**
 * The codes of {@link MagicSDKWarning}: the published SDK's `SDKWarningCode`
 * values. `REACT_NATIVE_ENDPOINT_CONFIGURATION` is never logged by this web
 * client; it stays so that code written against the published type still
 * compiles.
 */
export type SdkWarningCode =
  | 'SYNC_WEB3_METHOD'
  | 'DUPLICATE_IFRAME'
  | 'REACT_NATIVE_ENDPOINT_CONFIGURATION'
  | 'DEPRECATION_NOTICE'
  | 'ANNOUNCEMENT'

/** What an extension error or warning needs to know of its extension. */
type Named = { readonly name: string }

/**
 * An SDK error: a developer mistake or an execution error of the SDK.
 * `message` is `Magic SDK Error: [CODE] rawMessage`.
 *
 * @example
 * ```ts
 * import { MagicSDKError } from 'embedded-wallets/magic'
 *
 * new MagicSDKError('MODAL_NOT_READY', 'Modal is not ready').message
 * // 'Magic SDK Error: [MODAL_NOT_READY] Modal is not ready'
 * ```
 */
export class MagicSDKError extends BaseError {
  override name = 'MagicSDKError'
  /** The SDK error code, e.g. `'MISSING_API_KEY'`. */
  code: SdkErrorCode
  /** The message without the prefix. */
  rawMessage: string
  constructor(code: SdkErrorCode, rawMessage: string) {
    super(`Magic SDK Error: [${code}] ${rawMessage}`)
    this.code = code
    this.rawMessage = rawMessage
  }
}

/**
 * An error answered by the iframe: an `RpcErrors.RpcError` of the core
 * model. The code is kept when it is a known RPC code (standard JSON-RPC or
 * provider-specific), otherwise it becomes -32603; the message defaults to
 * `Internal error`. `message` is `Magic RPC Error: [code] rawMessage`.
 *
 * @example
 * ```ts
 * import { MagicRPCError } from 'embedded-wallets/magic'
 *
 * new MagicRPCError({ code: -10003, message: 'Already logged in' }).message
 * // 'Magic RPC Error: [-10003] Already logged in'
 * ```
 */
export class MagicRPCError extends RpcError {
  override name = 'MagicRPCError'
  /** The message without the prefix. */
  rawMessage: string
  /** The wire error's `data`. */
  override data: unknown
  constructor(
    source?: Partial<Rpc.ErrorObject> | null | undefined,
    options: { cause?: Error | undefined } = {},
  ) {
    const number = Number(source?.code)
    const code = Codes.isKnownRpcCode(number) ? number : Codes.InternalError
    const rawMessage = source?.message || 'Internal error'
    super(code, `Magic RPC Error: [${code}] ${rawMessage}`, options)
    this.rawMessage = rawMessage
    this.data = source?.data
  }
}

/**
 * A warning: logged, not thrown. `message` is
 * `Magic SDK Warning: [CODE] rawMessage`.
 */
export class MagicSDKWarning {
  /** The warning code. */
  code: SdkWarningCode
  /** The message without the prefix. */
  rawMessage: string
  /** The full message. */
  message: string
  constructor(code: SdkWarningCode, rawMessage: string) {
    this.code = code
    this.rawMessage = rawMessage
    this.message = `Magic SDK Warning: [${code}] ${rawMessage}`
  }
  /** Writes the message with `console.warn`. */
  log(): void {
    console.warn(this.message)
  }
}

/**
 * An error of an extension. `message` is
 * `Magic Extension Error (name): [code] rawMessage`.
 */
export class MagicExtensionError<data = unknown> extends BaseError {
  override name = 'MagicExtensionError'
  code: string | number
  rawMessage: string
  data: data
  constructor(
    extension: Named,
    code: string | number,
    rawMessage: string,
    data: data,
  ) {
    super(`Magic Extension Error (${extension.name}): [${code}] ${rawMessage}`)
    this.code = code
    this.rawMessage = rawMessage
    this.data = data
  }
}

/**
 * A warning of an extension. `message` is
 * `Magic Extension Warning (name): [code] rawMessage`.
 */
export class MagicExtensionWarning {
  code: string | number
  rawMessage: string
  message: string
  constructor(extension: Named, code: string | number, rawMessage: string) {
    this.code = code
    this.rawMessage = rawMessage
    this.message = `Magic Extension Warning (${extension.name}): [${code}] ${rawMessage}`
  }
  /** Writes the message with `console.warn`. */
  log(): void {
    console.warn(this.message)
  }
}

/**
 * The error of `rpcProvider`'s EIP-1193 `disconnect` event: the core
 * model's `RpcErrors.DisconnectedError` (4900, 'The Provider is
 * disconnected from all chains.'), named as viem names it; `details` says
 * why.
 */
export class ProviderDisconnectedError extends DisconnectedError {
  override name = 'ProviderDisconnectedError'
  constructor(details: string) {
    super()
    this.details = details
  }
}

/** `MISSING_API_KEY`. */
export function createMissingApiKeyError(): MagicSDKError {
  return new MagicSDKError(
    'MISSING_API_KEY',
    'Please provide an API key that you acquired from the Magic developer dashboard.',
  )
}

/** `MODAL_NOT_READY`. */
export function createModalNotReadyError(): MagicSDKError {
  return new MagicSDKError('MODAL_NOT_READY', 'Modal is not ready')
}

/** `MALFORMED_RESPONSE`: a response with neither `result` nor `error`. */
export function createMalformedResponseError(): MagicSDKError {
  return new MagicSDKError(
    'MALFORMED_RESPONSE',
    'Response from the Magic iframe is malformed.',
  )
}

/** `EXTENSION_NOT_INITIALIZED`: `member` was read before `init`. */
export function createExtensionNotInitializedError(
  member: string,
): MagicSDKError {
  return new MagicSDKError(
    'EXTENSION_NOT_INITIALIZED',
    `Extensions must be initialized with a Magic SDK instance before \`Extension.${member}\` can be accessed. Do not invoke \`Extension.${member}\` inside an extension constructor.`,
  )
}

/**
 * `INCOMPATIBLE_EXTENSIONS`, one line per incompatible extension, read from
 * its `compat['magic-sdk']` as the published web SDK words it.
 */
export function createIncompatibleExtensionsError(
  extensions: readonly (Named & { compat?: unknown })[],
  version: string,
): MagicSDKError {
  let message = `Some extensions are incompatible with \`magic-sdk@${version}\`:`
  for (const extension of extensions) {
    const compat = extension.compat as Record<string, unknown> | undefined
    if (compat === undefined || compat === null) continue
    const supported = compat['magic-sdk']
    if (typeof supported === 'string')
      message += `\n  - Extension \`${extension.name}\` supports version(s) \`${supported}\``
    else if (!supported)
      message += `\n  - Extension \`${extension.name}\` does not support web environments.`
  }
  return new MagicSDKError('INCOMPATIBLE_EXTENSIONS', message)
}

/**
 * `INVALID_ARGUMENT`. `argument` is the zero-based index (0 → "1st").
 */
export function createInvalidArgumentError(options: {
  procedure: string
  argument: number
  expected: string
  received: string
}): MagicSDKError {
  const { argument, expected, procedure, received } = options
  return new MagicSDKError(
    'INVALID_ARGUMENT',
    `Invalid ${ordinal(argument + 1)} argument given to \`${procedure}\`.\n  Expected: \`${expected}\`\n  Received: \`${received}\``,
  )
}

/** `SYNC_WEB3_METHOD`: the synchronous `send(payload)` form. */
export function createSynchronousWeb3MethodWarning(): MagicSDKWarning {
  return new MagicSDKWarning(
    'SYNC_WEB3_METHOD',
    'Non-async web3 methods are deprecated in web3 > 1.0 and are not supported by the Magic web3 provider. Please use an async method instead.',
  )
}

function ordinal(n: number): string {
  const teen = n % 100 > 10 && n % 100 < 14
  return `${n}${(teen ? undefined : ['th', 'st', 'nd', 'rd'][n % 10]) ?? 'th'}`
}
