import { describe, expect, test } from 'vitest'
import * as PromiEvent from '../../core/PromiEvent.js'
import * as Rpc from '../../core/Rpc.js'
import * as Storage from '../../core/Storage.js'
import { createFakeTransport } from '../_test/transport.js'
import { MagicSDKError } from '../errors.js'
import { Magic } from '../Magic.js'
import { Extension } from './Extension.js'
import {
  decodeJSON,
  encodeJSON,
  standardizeJsonRpcRequestPayload,
} from './utils.js'

/** Exposes `utils` the way an extension author uses it. */
class UtilsExtension extends Extension.Internal<'tools'> {
  name = 'tools' as const
  config = {}
  get tools() {
    return this.utils
  }
}

function mounted(storage = Storage.memory()) {
  const magic = new Magic('pk_test', {
    transport: createFakeTransport().transport,
    deferPreload: true,
    storage,
    extensions: [new UtilsExtension()],
  })
  return { utils: magic.tools.tools, storage }
}

describe('encodeJSON / decodeJSON', () => {
  test('default: standard base64 of the UTF-8 JSON, and back', () => {
    expect(encodeJSON({ a: 'é' })).toBe('eyJhIjoiw6kifQ==')
    expect(encodeJSON(['😀', 1, null])).toBe('WyLwn5iAIiwxLG51bGxd')
    expect(decodeJSON('eyJhIjoiw6kifQ==')).toEqual({ a: 'é' })
    expect(decodeJSON(encodeJSON({ x: ['日本', { y: true }] }))).toEqual({
      x: ['日本', { y: true }],
    })
  })

  test('behavior: the output is what the published btoa(encodeURIComponent) trick gives', () => {
    const value = { email: 'zoë@example.com', n: 'a+b/c' }
    const json = JSON.stringify(value)
    const published = btoa(
      encodeURIComponent(json).replace(/%[0-9A-F]{2}/g, (p) =>
        String.fromCharCode(Number.parseInt(p.slice(1), 16)),
      ),
    )
    expect(encodeJSON(value)).toBe(published)
    expect(encodeJSON(undefined)).toBe(btoa('undefined'))
  })

  test('error: decodeJSON throws on text that is not base64 UTF-8 JSON', () => {
    expect(() => decodeJSON('not base64!')).toThrow()
    expect(() => decodeJSON(btoa('\xff\xfe'))).toThrow(TypeError)
    expect(() => decodeJSON(btoa('{'))).toThrow(SyntaxError)
  })
})

describe('standardizeJsonRpcRequestPayload', () => {
  test('default: completes the payload in place with a fresh id and returns it', () => {
    const payload: Rpc.standardize.Payload = { id: 7, method: 'eth_chainId' }
    const next = Rpc.createRequest('probe').id + 1
    const result = standardizeJsonRpcRequestPayload(payload)
    expect(result).toBe(payload)
    expect(payload).toEqual({
      id: next,
      jsonrpc: '2.0',
      method: 'eth_chainId',
      params: [],
    })
  })

  test('behavior: a standardized or created payload keeps its id', () => {
    const payload: Rpc.standardize.Payload = {}
    standardizeJsonRpcRequestPayload(payload)
    const { id } = payload
    expect(standardizeJsonRpcRequestPayload(payload).id).toBe(id)
    expect(payload.method).toBe('noop')
    const created = Rpc.createRequest('x')
    const createdId = created.id
    expect(standardizeJsonRpcRequestPayload(created)).toBe(created)
    expect(created.id).toBe(createdId)
  })
})

describe('Extension utils', () => {
  test('default: utils has the published members', () => {
    const { utils } = mounted()
    expect(Object.keys(utils).sort()).toEqual([
      'createJsonRpcRequestPayload',
      'createPromiEvent',
      'decodeJSON',
      'encodeJSON',
      'isPromiEvent',
      'standardizeJsonRpcRequestPayload',
      'storage',
    ])
    const handle = utils.createPromiEvent<number>((resolve) => resolve(1))
    expect(utils.isPromiEvent(handle)).toBe(true)
    expect(utils.isPromiEvent(Promise.resolve(1))).toBe(false)
    expect(utils.createPromiEvent).toBe(PromiEvent.create)
    const next = Rpc.createRequest('probe').id + 1
    expect(utils.createJsonRpcRequestPayload('m', [1])).toEqual({
      jsonrpc: '2.0',
      id: next,
      method: 'm',
      params: [1],
    })
  })

  test('behavior: storage reads and writes the SDK store, with the localforage extras', async () => {
    const { utils, storage } = mounted()
    await utils.storage.setItem('a', 1)
    await storage.setItem('b', { two: 2 })
    expect(await utils.storage.getItem('b')).toEqual({ two: 2 })
    expect(await utils.storage.length()).toBe(2)
    expect(await utils.storage.keys()).toEqual(['a', 'b'])
    expect(await utils.storage.key(1)).toBe('b')
    expect(await utils.storage.key(5)).toBe(null)
    const seen: unknown[] = []
    const stopped = await utils.storage.iterate((value, key, n) => {
      seen.push([key, value, n])
      return key === 'a' ? undefined : 'stop'
    })
    expect(stopped).toBe('stop')
    expect(seen).toEqual([
      ['a', 1, 1],
      ['b', { two: 2 }, 2],
    ])
    await utils.storage.removeItem('a')
    expect(await storage.getItem('a')).toBe(null)
    await utils.storage.clear()
    expect(await storage.keys()).toEqual([])
  })

  test('error: storage before init throws EXTENSION_NOT_INITIALIZED', () => {
    const extension = new UtilsExtension()
    expect(() => extension.tools.storage.getItem('a')).toThrow(MagicSDKError)
  })
})
