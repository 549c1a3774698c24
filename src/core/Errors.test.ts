import { describe, expect, test } from 'vitest'
import * as Errors from './Errors.js'

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
