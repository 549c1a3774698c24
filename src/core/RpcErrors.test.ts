import { describe, expect, test } from 'vitest'
import { BaseError } from './Errors.js'
import * as RpcErrors from './RpcErrors.js'

describe('RpcErrors.fromCode', () => {
  test.each([
    [-32700, RpcErrors.ParseError, 'Parse error'],
    [-32600, RpcErrors.InvalidRequestError, 'Invalid Request'],
    [-32601, RpcErrors.MethodNotFoundError, 'Method not found'],
    [-32602, RpcErrors.InvalidParamsError, 'Invalid params'],
    [-32603, RpcErrors.InternalError, 'Internal error'],
    [-32000, RpcErrors.InvalidInputError, 'Invalid input'],
    [-32001, RpcErrors.ResourceNotFoundError, 'Resource not found'],
    [-32002, RpcErrors.ResourceUnavailableError, 'Resource unavailable'],
    [-32003, RpcErrors.TransactionRejectedError, 'Transaction rejected'],
    [-32004, RpcErrors.MethodNotSupportedError, 'Method not supported'],
    [-32005, RpcErrors.LimitExceededError, 'Limit exceeded'],
    [
      -32006,
      RpcErrors.JsonRpcVersionUnsupportedError,
      'JSON-RPC version not supported',
    ],
    [
      4001,
      RpcErrors.UserRejectedRequestError,
      'The user rejected the request.',
    ],
    [
      4100,
      RpcErrors.UnauthorizedError,
      'The requested method and/or account has not been authorized by the user.',
    ],
    [
      4200,
      RpcErrors.UnsupportedMethodError,
      'The Provider does not support the requested method.',
    ],
    [
      4900,
      RpcErrors.DisconnectedError,
      'The Provider is disconnected from all chains.',
    ],
    [
      4901,
      RpcErrors.ChainDisconnectedError,
      'The Provider is not connected to the requested chain.',
    ],
    [4902, RpcErrors.UnrecognizedChainError, 'Unrecognized chain ID.'],
    [
      5700,
      RpcErrors.UnsupportedNonOptionalCapabilityError,
      'Unsupported non-optional capability.',
    ],
    [5710, RpcErrors.UnsupportedChainIdError, 'Unsupported chain ID.'],
    [5720, RpcErrors.DuplicateIdError, 'Duplicate ID.'],
    [5730, RpcErrors.UnknownBundleIdError, 'Unknown bundle ID.'],
    [5740, RpcErrors.BundleTooLargeError, 'Bundle too large.'],
    [
      5750,
      RpcErrors.AtomicReadyWalletRejectedUpgradeError,
      'Atomic-ready wallet rejected upgrade.',
    ],
    [5760, RpcErrors.AtomicityNotSupportedError, 'Atomicity not supported.'],
  ] as const)(
    '%i gives its class, with its static code and text',
    (code, type, text) => {
      const error = RpcErrors.fromCode(code)
      expect(error).toBeInstanceOf(type)
      expect(type.code).toBe(code)
      expect(error.code).toBe(code)
      expect(error.message).toBe(text)
      expect(new type().message).toBe(text)
    },
  )

  test('behavior: a given text replaces the standard one, exactly', () => {
    const error = RpcErrors.fromCode(4100, {
      message: 'Unauthorised - call eth_requestAccounts first',
      cause: new Error('no wallet'),
    })
    expect(error).toBeInstanceOf(RpcErrors.UnauthorizedError)
    expect(error).toBeInstanceOf(RpcErrors.ProviderRpcError)
    expect(error.message).toBe('Unauthorised - call eth_requestAccounts first')
    expect(error.details).toBe('no wallet')
  })

  test('behavior: an unknown code keeps its code on the base classes', () => {
    const node = RpcErrors.fromCode(-32015, { message: 'reverted', data: '0x' })
    expect(node.constructor).toBe(RpcErrors.RpcError)
    expect(node.toObject()).toEqual({
      code: -32015,
      message: 'reverted',
      data: '0x',
    })
    const provider = RpcErrors.fromCode(4999)
    expect(provider.constructor).toBe(RpcErrors.ProviderRpcError)
    expect(provider.message).toBe('Unknown error')
  })
})

describe('RpcErrors.from', () => {
  test('default: an RPC error passes unchanged', () => {
    const error = new RpcErrors.UserRejectedRequestError()
    expect(RpcErrors.from(error)).toBe(error)
  })

  test('behavior: a coded object becomes its class, keeping message, data and cause', () => {
    const wire = { code: 3, message: 'execution reverted', data: '0x08c379a0' }
    const error = RpcErrors.from(wire)
    expect(error.constructor).toBe(RpcErrors.RpcError)
    expect(error.toObject()).toEqual(wire)
    const rejected = RpcErrors.from(
      Object.assign(new Error('User rejected'), { code: 4001 }),
    )
    expect(rejected).toBeInstanceOf(RpcErrors.UserRejectedRequestError)
    expect(rejected.message).toBe('User rejected')
    expect(rejected.cause).toBeInstanceOf(Error)
  })

  test('behavior: a base error gives its short message, not its details', () => {
    const coded = Object.assign(
      new BaseError('Short', { details: 'long details' }),
      { code: 4100 },
    )
    expect(RpcErrors.from(coded).message).toBe('Short')
  })

  test('error: anything else is -32603 with its message', () => {
    expect(RpcErrors.from(new Error('boom')).toObject()).toEqual({
      code: -32603,
      message: 'boom',
    })
    expect(RpcErrors.from('text').message).toBe('text')
    expect(RpcErrors.from(undefined).message).toBe('Internal error')
    expect(RpcErrors.from({ code: '4001', message: 'x' })).toBeInstanceOf(
      RpcErrors.InternalError,
    )
  })

  test('behavior: the message is one line even with a cause', () => {
    const error = new RpcErrors.InternalError({
      message: 'Failed',
      cause: new Error('underneath'),
    })
    expect(error.message).toBe('Failed')
    expect(error.shortMessage).toBe('Failed')
    expect(error.walk()).toBeInstanceOf(Error)
    expect((error.walk() as Error).message).toBe('underneath')
  })
})
