import * as viem from 'viem'
import { describe, expect, test } from 'vitest'
import * as Errors from './Errors.js'

/** viem appends `Version: viem@x.y.z`; drop it so assertions survive upgrades. */
const withoutVersion = (message: string) =>
  message.replace(/\nVersion: viem@[\w.-]+$/, '')

describe('Errors.BaseError', () => {
  test('default', () => {
    const error = new Errors.BaseError('Something failed.')
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('BaseError')
    expect(error.message).toBe('Something failed.')
    expect(error.shortMessage).toBe('Something failed.')
    expect(error.details).toBe('')
    expect(error.cause).toBe(undefined)
    expect(error.docsPath).toBe(undefined)
    expect(error.metaMessages).toBe(undefined)
  })

  test('param: details, docsPath and metaMessages make the message', () => {
    const error = new Errors.BaseError('Something failed.', {
      details: 'the disk is full',
      docsPath: '/core/errors',
      metaMessages: ['Key: rt', 'Store: memory'],
    })
    expect(error.message).toMatchInlineSnapshot(`
      "Something failed.

      Key: rt
      Store: memory

      Docs: /core/errors
      Details: the disk is full"
    `)
    expect(error.docsPath).toBe('/core/errors')
    expect(error.metaMessages).toEqual(['Key: rt', 'Store: memory'])
  })

  test('behavior: details and docsPath come from the cause', () => {
    const inner = new Errors.BaseError('Inner failed.', {
      details: 'root cause',
      docsPath: '/inner',
    })
    const outer = new Errors.BaseError('Outer failed.', { cause: inner })
    expect(outer.message).toBe(
      'Outer failed.\n\nDocs: /inner\nDetails: root cause',
    )
    expect(outer.cause).toBe(inner)
    const plain = new Errors.BaseError('Outer failed.', {
      cause: new TypeError('bad type'),
    })
    expect(plain.details).toBe('bad type')
  })

  test('behavior: a subclass sets a namespaced name', () => {
    class FooError extends Errors.BaseError {
      override readonly name = 'Foo.FooError'
    }
    expect(() => {
      throw new FooError('Foo failed.')
    }).toThrowErrorMatchingInlineSnapshot(`[Foo.FooError: Foo failed.]`)
  })

  test('behavior: walk follows causes', () => {
    const root = new TypeError('root')
    const middle = new Errors.BaseError('middle', { cause: root })
    const top = new Errors.BaseError('top', { cause: middle })
    expect(top.walk()).toBe(root)
    expect(top.walk((error) => error === middle)).toBe(middle)
    expect(top.walk((error) => error instanceof TypeError)).toBe(root)
    expect(top.walk(() => false)).toBe(null)
  })
})

describe('Errors.fromCode', () => {
  const cases = [
    [4001, 'UserRejectedRequestError', Errors.UserRejectedRequestError],
    [4100, 'UnauthorizedProviderError', Errors.UnauthorizedProviderError],
    [
      4200,
      'UnsupportedProviderMethodError',
      Errors.UnsupportedProviderMethodError,
    ],
    [4900, 'ProviderDisconnectedError', Errors.ProviderDisconnectedError],
    [4901, 'ChainDisconnectedError', Errors.ChainDisconnectedError],
    [-32700, 'ParseRpcError', Errors.ParseRpcError],
    [-32600, 'InvalidRequestRpcError', Errors.InvalidRequestRpcError],
    [-32601, 'MethodNotFoundRpcError', Errors.MethodNotFoundRpcError],
    [-32602, 'InvalidParamsRpcError', Errors.InvalidParamsRpcError],
    [-32603, 'InternalRpcError', Errors.InternalRpcError],
    [-32000, 'InvalidInputRpcError', Errors.InvalidInputRpcError],
    [-32003, 'TransactionRejectedRpcError', Errors.TransactionRejectedRpcError],
  ] as const

  test.each(cases)('code %i builds %s', (code, name, Class) => {
    const error = Errors.fromCode({ code, message: 'from the wire' })
    expect(Class.code).toBe(code)
    expect(error).toBeInstanceOf(Class)
    expect(error.code).toBe(code)
    expect(error.name).toBe(name)
    expect(error.details).toBe('from the wire')
    expect(withoutVersion(error.message)).toBe(
      `${error.shortMessage}\n\nDetails: from the wire`,
    )
  })

  test('default: the classes are viem’s own', () => {
    expect(Errors.UserRejectedRequestError).toBe(viem.UserRejectedRequestError)
    expect(Errors.InternalRpcError).toBe(viem.InternalRpcError)
    expect(Errors.RpcError).toBe(viem.RpcError)
    expect(Object.keys(Errors.classes).map(Number).sort()).toEqual(
      cases.map(([code]) => code).sort(),
    )
  })

  test('behavior: the message each class carries with a custom message', () => {
    const messages = cases.map(([code]) =>
      withoutVersion(Errors.fromCode({ code, message: 'custom' }).message),
    )
    expect(messages).toMatchInlineSnapshot(`
      [
        "User rejected the request.

      Details: custom",
        "The requested method and/or account has not been authorized by the user.

      Details: custom",
        "The Provider does not support the requested method.

      Details: custom",
        "The Provider is disconnected from all chains.

      Details: custom",
        "The Provider is not connected to the requested chain.

      Details: custom",
        "Invalid JSON was received by the server. An error occurred on the server while parsing the JSON text.

      Details: custom",
        "JSON is not a valid request object.

      Details: custom",
        "The method does not exist / is not available.

      Details: custom",
        "Invalid parameters were provided to the RPC method.
      Double check you have provided the correct parameters.

      Details: custom",
        "An internal error was received.

      Details: custom",
        "Missing or invalid parameters.
      Double check you have provided the correct parameters.

      Details: custom",
        "Transaction creation failed.

      Details: custom",
      ]
    `)
  })

  test('behavior: without a message there is no Details line', () => {
    const error = Errors.fromCode({ code: 4001 })
    expect(error.details).toBe(undefined)
    expect(withoutVersion(error.message)).toBe('User rejected the request.\n')
  })

  test('behavior: data is kept', () => {
    expect(Errors.fromCode({ code: 4001, data: { a: 1 } }).data).toEqual({
      a: 1,
    })
    expect(Errors.fromCode({ code: -32602, data: 'why' }).data).toBe('why')
    expect('data' in Errors.fromCode({ code: -32602 })).toBe(false)
  })

  test('behavior: an unknown code gives a ProviderRpcError keeping it', () => {
    const error = Errors.fromCode({
      code: -10019,
      message: 'DPoP invalidated',
      data: { retry: true },
    })
    expect(error).toBeInstanceOf(Errors.ProviderRpcError)
    expect(error.constructor).toBe(Errors.ProviderRpcError)
    expect(error.code).toBe(-10019)
    expect(error.name).toBe('ProviderRpcError')
    expect(error.data).toEqual({ retry: true })
    expect(withoutVersion(error.message)).toBe(
      'An unknown RPC error occurred.\n\nDetails: DPoP invalidated',
    )
  })
})

describe('Errors.toJson', () => {
  test('default: a coded error keeps its code and wire message', () => {
    const error = Errors.fromCode({ code: 4100, message: 'Log in first' })
    expect(Errors.toJson(error)).toEqual({
      code: 4100,
      message: 'Log in first',
    })
  })

  test('behavior: round-trips fromCode with data', () => {
    const wire = { code: -10003, message: 'Already logged in', data: [1, 2] }
    expect(Errors.toJson(Errors.fromCode(wire))).toEqual(wire)
  })

  test('behavior: without a wire message the short message is sent', () => {
    expect(
      Errors.toJson(new Errors.UserRejectedRequestError(new Error(''))),
    ).toEqual({ code: 4001, message: 'User rejected the request.' })
  })

  test('behavior: a plain object with a code passes through', () => {
    expect(
      Errors.toJson({ code: 4200, message: 'Method not supported' }),
    ).toEqual({ code: 4200, message: 'Method not supported' })
  })

  test('behavior: errors without a code become -32603', () => {
    expect(Errors.toJson(new Error('Relayer HTTP error: 500'))).toEqual({
      code: -32603,
      message: 'Relayer HTTP error: 500',
    })
    expect(
      Errors.toJson(new Errors.BaseError('Short.', { details: 'long' })),
    ).toEqual({ code: -32603, message: 'Short.' })
    expect(Errors.toJson(new Error(''))).toEqual({
      code: -32603,
      message: 'Internal error',
    })
    expect(Errors.toJson('boom')).toEqual({
      code: -32603,
      message: 'Internal error',
    })
    expect(Errors.toJson({ code: 'ECONNRESET' })).toEqual({
      code: -32603,
      message: 'Internal error',
    })
  })
})
