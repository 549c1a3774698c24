import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  createClient,
  createFakeTransport,
  flush,
} from '../_test/fakeTransport.js'
import { MagicRPCError, MagicSDKError } from '../errors.js'
import type { Client } from '../request.js'
import { create, createState, learn } from './rpcProvider.js'

afterEach(() => {
  vi.restoreAllMocks()
})

const results: Record<string, unknown> = {
  eth_chainId: '0x1',
  eth_accounts: ['0xabc'],
  eth_requestAccounts: ['0xabc'],
  mc_login: ['0xabc'],
  magic_auth_logout: true,
  eth_blockNumber: '0x10',
}

/** A provider whose client feeds results to the state store like Magic. */
function setup(overrides: Partial<Client> = {}) {
  const fake = createFakeTransport((request) => {
    const method = request.method.replace('testMode/eth/', '')
    if (method === 'fail')
      return { id: request.id, error: { code: -32602, message: 'bad' } }
    return { id: request.id, result: results[method] ?? null }
  })
  const store = createState()
  const client = createClient(fake, {
    onResult(method, result) {
      const patch = learn(method, result)
      if (patch) store.set(patch)
    },
    ...overrides,
  })
  return { fake, store, client, provider: create(client, store) }
}

describe('rpcProvider', () => {
  test('default: request sends the method and params and resolves to the result', async () => {
    const { fake, provider } = setup()
    expect(provider.isMagic).toBe(true)
    await expect(
      provider.request({ method: 'eth_blockNumber', params: [] }),
    ).resolves.toBe('0x10')
    expect(fake.sent()).toEqual([{ method: 'eth_blockNumber', params: [] }])
  })

  test('behavior: test mode prefixes the method with testMode/eth/', async () => {
    const { fake, provider } = setup({ testMode: true })
    await provider.request({ method: 'eth_accounts' })
    await provider.enable()
    expect(fake.requests.map((r) => r.method)).toEqual([
      'testMode/eth/eth_accounts',
      'testMode/eth/mc_login',
    ])
  })

  test('behavior: send(method, params) returns a PromiEvent of the result', async () => {
    const { fake, provider } = setup()
    await expect(provider.send('eth_chainId', [])).resolves.toBe('0x1')
    expect(fake.sent()).toEqual([{ method: 'eth_chainId', params: [] }])
  })

  test('behavior: send(payload, callback) and sendAsync call back with a response payload', async () => {
    const { provider } = setup()
    const calls: unknown[] = []
    provider.send({ jsonrpc: '2.0', id: 7, method: 'eth_chainId' }, (...args) =>
      calls.push(args),
    )
    provider.sendAsync({ id: 8, method: 'fail' }, (...args) => calls.push(args))
    provider.sendAsync(
      [
        { id: 9, method: 'eth_chainId' },
        { id: 10, method: 'fail' },
      ],
      (...args) => calls.push(args),
    )
    await flush()
    expect(calls).toEqual([
      [null, { jsonrpc: '2.0', id: 7, result: '0x1', error: null }],
      [
        expect.any(MagicRPCError),
        { jsonrpc: '2.0', id: 8, error: expect.any(MagicRPCError) },
      ],
      [
        null,
        [
          { jsonrpc: '2.0', id: 9, result: '0x1', error: null },
          { jsonrpc: '2.0', id: 10, error: expect.any(MagicRPCError) },
        ],
      ],
    ])
  })

  test('behavior: synchronous send(payload) warns and returns a -32603 error payload', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { fake, provider } = setup()
    expect(
      provider.send({ jsonrpc: '2.0', id: 1, method: 'eth_accounts' }),
    ).toMatchInlineSnapshot(`
      {
        "error": {
          "code": -32603,
          "message": "Non-async web3 methods are deprecated in web3 > 1.0 and are not supported by the Magic web3 provider. Please use an async method instead.",
        },
        "id": 1,
        "jsonrpc": "2.0",
        "result": undefined,
      }
    `)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(fake.requests).toEqual([])
  })

  test('behavior: enable sends mc_login', async () => {
    const { fake, provider } = setup()
    await expect(provider.enable()).resolves.toEqual(['0xabc'])
    expect(fake.sent()).toEqual([{ method: 'mc_login', params: [] }])
  })

  test('behavior: connect, accountsChanged, chainChanged and disconnect follow the learned state', async () => {
    const { provider, store } = setup()
    const events: unknown[] = []
    for (const name of [
      'connect',
      'accountsChanged',
      'chainChanged',
      'disconnect',
    ])
      provider.on(name, (value: unknown) =>
        events.push([name, value instanceof Error ? value.name : value]),
      )
    await provider.request({ method: 'eth_chainId' })
    await provider.request({ method: 'eth_chainId' })
    await provider.request({ method: 'eth_requestAccounts' })
    await provider.request({ method: 'eth_accounts' })
    store.set({ chainId: '0x5' })
    await provider.request({ method: 'magic_auth_logout' })
    expect(events).toMatchInlineSnapshot(`
      [
        [
          "connect",
          {
            "chainId": "0x1",
          },
        ],
        [
          "accountsChanged",
          [
            "0xabc",
          ],
        ],
        [
          "chainChanged",
          "0x5",
        ],
        [
          "accountsChanged",
          [],
        ],
        [
          "disconnect",
          "ProviderDisconnectedError",
        ],
      ]
    `)
  })

  test('behavior: each provider has its own emitter', () => {
    const a = setup().provider
    const b = setup().provider
    const heard: string[] = []
    a.on('accountsChanged', () => heard.push('a'))
    b.emit('accountsChanged', [])
    expect(heard).toEqual([])
    expect(a.listenerCount('accountsChanged')).toBe(1)
    expect(b.listenerCount('accountsChanged')).toBe(0)
  })

  test('behavior: listener methods chain and removeListener removes', () => {
    const { provider } = setup()
    const listener = () => {}
    expect(provider.on('x', listener).addListener('y', listener)).toBe(provider)
    provider.removeListener('x', listener).off('y', listener)
    expect(provider.eventNames()).toEqual([])
  })

  test('error: sendAsync without a callback throws INVALID_ARGUMENT', () => {
    const { provider } = setup()
    expect(() =>
      provider.sendAsync({ method: 'eth_accounts' }, undefined as never),
    ).toThrowErrorMatchingInlineSnapshot(`
      [MagicSDKError: Magic SDK Error: [INVALID_ARGUMENT] Invalid 2nd argument given to \`Magic.rpcProvider.sendAsync\`.
        Expected: \`function\`
        Received: \`undefined\`]
    `)
    expect(() =>
      provider.sendAsync({ method: 'eth_accounts' }, null as never),
    ).toThrow(MagicSDKError)
  })

  test('error: invalid typed data rejects with -32602 and sends nothing', async () => {
    const { fake, provider } = setup()
    const typedData = {
      types: { Mail: [{ name: 'a', type: 'uint7' }] },
      primaryType: 'Mail',
      domain: {},
      message: {},
    }
    const error = await provider
      .request({ method: 'eth_signTypedData_v4', params: ['0xabc', typedData] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MagicRPCError)
    expect((error as MagicRPCError).code).toBe(-32602)
    expect(fake.requests).toEqual([])
  })
})
