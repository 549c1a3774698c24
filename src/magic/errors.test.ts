import { afterEach, describe, expect, test, vi } from 'vitest'
import { BaseError } from '../core/Errors.js'
import * as RpcErrors from '../core/RpcErrors.js'
import {
  createExtensionNotInitializedError,
  createIncompatibleExtensionsError,
  createInvalidArgumentError,
  createMalformedResponseError,
  createMissingApiKeyError,
  createModalNotReadyError,
  createSynchronousWeb3MethodWarning,
  MagicExtensionError,
  MagicExtensionWarning,
  MagicRPCError,
  MagicSDKError,
  MagicSDKWarning,
  ProviderDisconnectedError,
} from './errors.js'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('MagicSDKError', () => {
  test('default: message is "Magic SDK Error: [CODE] msg" with code and rawMessage', () => {
    const error = new MagicSDKError('MODAL_NOT_READY', 'Modal is not ready')
    expect(error).toBeInstanceOf(BaseError)
    expect(error).not.toBeInstanceOf(RpcErrors.RpcError)
    expect(error.message).toBe(
      'Magic SDK Error: [MODAL_NOT_READY] Modal is not ready',
    )
    expect(error.code).toBe('MODAL_NOT_READY')
    expect(error.rawMessage).toBe('Modal is not ready')
  })

  test('behavior: the fixed SDK errors have the published texts', () => {
    expect(
      [
        createMissingApiKeyError(),
        createModalNotReadyError(),
        createMalformedResponseError(),
        createExtensionNotInitializedError('request'),
      ].map((error) => error.message),
    ).toMatchInlineSnapshot(`
      [
        "Magic SDK Error: [MISSING_API_KEY] Please provide an API key that you acquired from the Magic developer dashboard.",
        "Magic SDK Error: [MODAL_NOT_READY] Modal is not ready",
        "Magic SDK Error: [MALFORMED_RESPONSE] Response from the Magic iframe is malformed.",
        "Magic SDK Error: [EXTENSION_NOT_INITIALIZED] Extensions must be initialized with a Magic SDK instance before \`Extension.request\` can be accessed. Do not invoke \`Extension.request\` inside an extension constructor.",
      ]
    `)
  })

  test('behavior: INVALID_ARGUMENT names the argument by ordinal', () => {
    const error = createInvalidArgumentError({
      procedure: 'Magic.rpcProvider.sendAsync',
      argument: 1,
      expected: 'function',
      received: 'undefined',
    })
    expect(error.message).toMatchInlineSnapshot(`
      "Magic SDK Error: [INVALID_ARGUMENT] Invalid 2nd argument given to \`Magic.rpcProvider.sendAsync\`.
        Expected: \`function\`
        Received: \`undefined\`"
    `)
    const ordinals = [0, 2, 10, 11, 12, 20, 21, 22].map(
      (argument) =>
        /Invalid (\w+)/.exec(
          createInvalidArgumentError({
            procedure: 'p',
            argument,
            expected: 'x',
            received: 'y',
          }).message,
        )?.[1],
    )
    expect(ordinals).toEqual([
      '1st',
      '3rd',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
    ])
  })

  test('behavior: INCOMPATIBLE_EXTENSIONS lists the supported versions or the unsupported platform', () => {
    const error = createIncompatibleExtensionsError(
      [
        { name: 'old', compat: { 'magic-sdk': '^20.0.0' } },
        { name: 'native', compat: { 'magic-sdk': false } },
      ],
      '29.0.6',
    )
    expect(error.message).toMatchInlineSnapshot(`
      "Magic SDK Error: [INCOMPATIBLE_EXTENSIONS] Some extensions are incompatible with \`magic-sdk@29.0.6\`:
        - Extension \`old\` supports version(s) \`^20.0.0\`
        - Extension \`native\` does not support web environments."
    `)
  })
})

describe('MagicRPCError', () => {
  test('default: keeps a known code, the message and data', () => {
    const error = new MagicRPCError({
      code: -10003,
      message: 'User already logged in',
      data: { a: 1 },
    })
    expect(error.message).toBe(
      'Magic RPC Error: [-10003] User already logged in',
    )
    expect(error.code).toBe(-10003)
    expect(error.rawMessage).toBe('User already logged in')
    expect(error.data).toEqual({ a: 1 })
  })

  test('behavior: an unknown code becomes -32603 and a missing message "Internal error"', () => {
    const error = new MagicRPCError({ code: 4001 } as never)
    expect(error.message).toBe('Magic RPC Error: [-32603] Internal error')
    expect(error.code).toBe(-32603)
    expect(new MagicRPCError(null).message).toBe(
      'Magic RPC Error: [-32603] Internal error',
    )
  })

  test("behavior: it is the core model's RpcError: RpcErrors.from keeps it, toObject gives the wire error, the cause is kept", () => {
    const cause = new Error('underneath')
    const error = new MagicRPCError(
      { code: -32602, message: 'bad', data: [1] },
      { cause },
    )
    expect(error).toBeInstanceOf(RpcErrors.RpcError)
    expect(error).toBeInstanceOf(BaseError)
    expect(error.name).toBe('MagicRPCError')
    expect(RpcErrors.from(error)).toBe(error)
    expect(error.toObject()).toEqual({
      code: -32602,
      message: 'Magic RPC Error: [-32602] bad',
      data: [1],
    })
    expect(error.cause).toBe(cause)
    expect(error.message).toBe('Magic RPC Error: [-32602] bad')
  })

  test('behavior: a numeric string code is read as a number', () => {
    expect(
      new MagicRPCError({ code: '-32602', message: 'x' } as never).code,
    ).toBe(-32602)
  })
})

describe('ProviderDisconnectedError', () => {
  test("default: the core model's 4900 DisconnectedError, with viem's name and text, and why in details", () => {
    const error = new ProviderDisconnectedError('The user logged out.')
    expect(error).toBeInstanceOf(RpcErrors.DisconnectedError)
    expect(RpcErrors.fromCode(error.code)).toBeInstanceOf(
      RpcErrors.DisconnectedError,
    )
    expect({
      name: error.name,
      message: error.message,
      code: error.code,
      static: ProviderDisconnectedError.code,
      details: error.details,
    }).toEqual({
      name: 'ProviderDisconnectedError',
      message: 'The Provider is disconnected from all chains.',
      code: 4900,
      static: 4900,
      details: 'The user logged out.',
    })
  })
})

describe('MagicSDKWarning', () => {
  test('default: log() writes the message with console.warn', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    createSynchronousWeb3MethodWarning().log()
    expect(warn.mock.calls).toMatchInlineSnapshot(`
      [
        [
          "Magic SDK Warning: [SYNC_WEB3_METHOD] Non-async web3 methods are deprecated in web3 > 1.0 and are not supported by the Magic web3 provider. Please use an async method instead.",
        ],
      ]
    `)
  })

  test('behavior: the message is the prefix, the code and the raw message', () => {
    const warning = new MagicSDKWarning(
      'DUPLICATE_IFRAME',
      'Duplicate iframes found.',
    )
    expect([warning.code, warning.rawMessage, warning.message]).toEqual([
      'DUPLICATE_IFRAME',
      'Duplicate iframes found.',
      'Magic SDK Warning: [DUPLICATE_IFRAME] Duplicate iframes found.',
    ])
    expect(new MagicSDKWarning('ANNOUNCEMENT', 'hello').message).toBe(
      'Magic SDK Warning: [ANNOUNCEMENT] hello',
    )
  })
})

describe('MagicExtensionError', () => {
  test('default: message names the extension; data kept', () => {
    const error = new MagicExtensionError({ name: 'openid' }, 'BAD', 'no', 7)
    expect(error.message).toBe('Magic Extension Error (openid): [BAD] no')
    expect(error.data).toBe(7)
    expect(
      new MagicExtensionWarning({ name: 'openid' }, 1, 'careful').message,
    ).toBe('Magic Extension Warning (openid): [1] careful')
  })
})
