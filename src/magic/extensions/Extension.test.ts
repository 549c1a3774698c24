import { describe, expect, test } from 'vitest'
import * as PromiEvent from '../../core/PromiEvent.js'
import * as Rpc from '../../core/Rpc.js'
import * as Storage from '../../core/Storage.js'
import { createFakeTransport, resultOf } from '../_test/fakeTransport.js'
import { MagicSDKError } from '../errors.js'
import * as Session from '../keys/session.js'
import { type ExtensionsOption, Magic, type MagicOptions } from '../Magic.js'
import {
  decodeJSON,
  Extension,
  encodeJSON,
  isCompatible,
  satisfies,
  standardizeJsonRpcRequestPayload,
} from './Extension.js'
import { OpenIdExtension } from './oidc.js'

class HelloExtension extends Extension.Internal<'hello', { greeting: string }> {
  name = 'hello' as const
  config = { greeting: 'hi' }
  hello() {
    return this.request<string>(this.utils.createJsonRpcRequestPayload('hello'))
  }
  peek() {
    return this.sdk
  }
  fail() {
    return this.createError('E1', 'failed', { x: 1 })
  }
}

function magic<const extensions extends ExtensionsOption = []>(
  options: MagicOptions<extensions> = {},
) {
  const fake = createFakeTransport(resultOf('ok'))
  const sdk: Magic<extensions> = new Magic('pk_test', {
    ...options,
    transport: fake.transport,
    deferPreload: true,
  })
  return { fake, magic: sdk }
}

describe('Extension', () => {
  test('default: init mounts the extension at magic[name] and requests go through the SDK', async () => {
    const { fake, magic: sdk } = magic({ extensions: [new HelloExtension()] })
    await expect(sdk.hello.hello()).resolves.toBe('ok')
    expect(fake.sent()).toEqual([{ method: 'hello', params: [] }])
  })

  test('behavior: a non-empty config goes to params.ext under the extension name', () => {
    const { magic: sdk } = magic({
      extensions: {
        greeter: new HelloExtension(),
        openid: new OpenIdExtension(),
      },
    })
    expect(sdk.params.ext).toEqual({ hello: { greeting: 'hi' } })
    expect(sdk.networkHash).toBe('pk_test_{"hello":{"greeting":"hi"}}')
    expect(typeof sdk.greeter.hello).toBe('function')
    expect(typeof sdk.openid.loginWithOIDC).toBe('function')
  })

  test('behavior: createError names the extension', () => {
    const error = new HelloExtension().fail()
    expect(error.message).toBe('Magic Extension Error (hello): [E1] failed')
    expect(error.data).toEqual({ x: 1 })
  })

  test('error: request and sdk before init throw EXTENSION_NOT_INITIALIZED', () => {
    const extension = new HelloExtension()
    expect(() => extension.hello()).toThrow(MagicSDKError)
    expect(() => extension.peek()).toThrowErrorMatchingInlineSnapshot(
      `[MagicSDKError: Magic SDK Error: [EXTENSION_NOT_INITIALIZED] Extensions must be initialized with a Magic SDK instance before \`Extension.sdk\` can be accessed. Do not invoke \`Extension.sdk\` inside an extension constructor.]`,
    )
  })

  test('error: an extension initialised with something other than a Magic SDK instance throws EXTENSION_NOT_INITIALIZED, with its code', () => {
    const extension = new HelloExtension()
    extension.init({})
    expect(() => extension.hello()).toThrowErrorMatchingInlineSnapshot(
      `[MagicSDKError: Magic SDK Error: [EXTENSION_NOT_INITIALIZED] Extensions must be initialized with a Magic SDK instance before \`Extension.request\` can be accessed. Do not invoke \`Extension.request\` inside an extension constructor.]`,
    )
  })

  test('error: an incompatible extension makes the constructor throw INCOMPATIBLE_EXTENSIONS', () => {
    const old = new HelloExtension()
    old.compat = { 'magic-sdk': '>=30.0.0', '@magic-sdk/react-native': true }
    const web = new OpenIdExtension()
    web.compat = { 'magic-sdk': false }
    expect(() =>
      magic({ extensions: [old, web] }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [MagicSDKError: Magic SDK Error: [INCOMPATIBLE_EXTENSIONS] Some extensions are incompatible with \`magic-sdk@29.0.6\`:
        - Extension \`hello\` supports version(s) \`>=30.0.0\`
        - Extension \`openid\` does not support web environments.]
    `)
  })
})

describe('isCompatible', () => {
  test('default: a missing compat or entry is compatible; booleans are the answer', () => {
    const version = '29.0.6'
    expect([
      isCompatible({}, version),
      isCompatible({ compat: { '@magic-sdk/react-native': false } }, version),
      isCompatible({ compat: { 'magic-sdk': true } }, version),
      isCompatible({ compat: { 'magic-sdk': false } }, version),
      isCompatible({ compat: { 'magic-sdk': '^29.0.0' } }, version),
    ]).toEqual([true, true, true, false, true])
  })
})

describe('satisfies', () => {
  test.each([
    ['29.0.6', '*', true],
    ['29.0.6', '29.0.6', true],
    ['29.0.7', '29.0.6', false],
    ['29.0.6', '29', true],
    ['29.1.0', '29.0', false],
    ['29.0.6', '>=29.0.0', true],
    ['28.9.9', '>=29.0.0', false],
    ['29.0.6', '>29', false],
    ['30.0.0', '>29', true],
    ['29.0.6', '<29.0.6', false],
    ['29.0.6', '<=29', true],
    ['29.9.0', '^29.0.0', true],
    ['30.0.0', '^29.0.0', false],
    ['0.2.9', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['29.0.9', '~29.0.1', true],
    ['29.1.0', '~29.0.1', false],
    ['29.5.0', '~29', true],
    ['29.0.6', '^20.0.0 || ^29.0.0', true],
    ['25.0.0', '>=20.0.0 <25.0.0', false],
    ['24.1.0', '>=20.0.0 <25.0.0', true],
    // Parts after a wildcard are ignored, as node-semver ignores them.
    ['1.5.0', '1.x.2', true],
    ['2.0.0', '1.*.9', false],
  ] as const)('%s in %s → %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected)
  })
})

describe('OpenIdExtension', () => {
  test('default: loginWithOIDC sends magic_auth_login_with_oidc', async () => {
    const { fake, magic: sdk } = magic({ extensions: [new OpenIdExtension()] })
    await sdk.openid.loginWithOIDC({ jwt: 'j', providerId: 'p', lifespan: 60 })
    expect(fake.sent()).toEqual([
      {
        method: 'magic_auth_login_with_oidc',
        params: [{ jwt: 'j', providerId: 'p', lifespan: 60 }],
      },
    ])
    expect(Rpc.createRequest('x').id).toBeGreaterThan(fake.requests[0]?.id ?? 0)
  })
})

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

  test('behavior: a write through storage makes the client read its session again', async () => {
    const { utils, storage } = mounted()
    const state = Session.of(storage)
    const held = () => [state.keys, state.rt, state.pool.length]
    for (const write of [
      () => utils.storage.setItem('rt', 'written-by-an-extension'),
      () => utils.storage.removeItem('rt'),
      () => utils.storage.clear(),
    ]) {
      state.keys = Promise.resolve({} as Session.KeyPair)
      state.rt = Promise.resolve('held')
      state.pool = [{ jwt: 'a.b.c', at: 0 }]
      await write()
      expect(held()).toEqual([undefined, undefined, 0])
    }
  })

  test('error: storage before init throws EXTENSION_NOT_INITIALIZED', () => {
    const extension = new UtilsExtension()
    expect(() => extension.tools.storage.getItem('a')).toThrow(MagicSDKError)
  })
})
