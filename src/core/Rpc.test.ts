import { describe, expect, test, vi } from 'vitest'
import * as Errors from './Errors.js'
import * as Rpc from './Rpc.js'

describe('Rpc.createIdStore', () => {
  test('default: counts from 1', () => {
    const ids = Rpc.createIdStore()
    expect([ids.next(), ids.next(), ids.next()]).toEqual([1, 2, 3])
  })

  test('behavior: wraps back to 1 after MAX_SAFE_INTEGER', () => {
    const ids = Rpc.createIdStore({ first: Number.MAX_SAFE_INTEGER - 1 })
    expect([ids.next(), ids.next(), ids.next(), ids.next()]).toEqual([
      Number.MAX_SAFE_INTEGER - 1,
      Number.MAX_SAFE_INTEGER,
      1,
      2,
    ])
  })

  test('behavior: reset starts again at 1', () => {
    const ids = Rpc.createIdStore({ first: 40 })
    ids.next()
    ids.reset()
    expect(ids.next()).toBe(1)
  })
})

describe('Rpc.createRequest', () => {
  test('default: the first request of the page has id 1', async () => {
    vi.resetModules()
    const fresh = await import('./Rpc.js')
    expect(fresh.createRequest('eth_accounts')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_accounts',
      params: [],
    })
    expect(fresh.createRequest('eth_chainId').id).toBe(2)
  })

  test('param: params are kept', () => {
    const request = Rpc.createRequest('personal_sign', ['0xdead', '0x01'])
    expect(request.params).toEqual(['0xdead', '0x01'])
  })

  test('behavior: ids increment across requests', () => {
    const first = Rpc.createRequest('a')
    const second = Rpc.createRequest('b')
    expect(second.id).toBe(first.id + 1)
  })
})

describe('Rpc.standardize', () => {
  test('default: fills jsonrpc, method and params, and assigns an id', () => {
    const before = Rpc.createRequest('x').id
    expect(Rpc.standardize({})).toEqual({
      jsonrpc: '2.0',
      id: before + 1,
      method: 'noop',
      params: [],
    })
  })

  test('behavior: always overwrites the id, without mutating the input', () => {
    const payload = { id: 7, method: 'eth_chainId' }
    const result = Rpc.standardize(payload)
    expect(result).not.toBe(payload)
    expect(result.id).not.toBe(7)
    expect(payload).toEqual({ id: 7, method: 'eth_chainId' })
    expect(Rpc.standardize(payload).id).toBe(result.id + 1)
  })

  test('behavior: keeps given fields and extra members', () => {
    const payload = { method: 'm', params: { a: 1 }, extra: true }
    expect(Rpc.standardize(payload)).toMatchObject({
      jsonrpc: '2.0',
      method: 'm',
      params: { a: 1 },
      extra: true,
    })
  })

  test('behavior: a request made by createRequest is returned as is', () => {
    const request = Rpc.createRequest('eth_accounts')
    expect(Rpc.standardize(request)).toBe(request)
  })
})

describe('Rpc.parseResponse', () => {
  test('default: returns the result', () => {
    expect(Rpc.parseResponse({ jsonrpc: '2.0', id: 1, result: '0x1' })).toBe(
      '0x1',
    )
  })

  test('behavior: falsy results are results', () => {
    expect(Rpc.parseResponse({ id: 1, result: null })).toBe(null)
    expect(Rpc.parseResponse({ id: 1, result: false })).toBe(false)
    expect(Rpc.parseResponse({ id: 1, result: 0 })).toBe(0)
  })

  test('behavior: a null error with a result returns the result', () => {
    expect(Rpc.parseResponse({ id: 1, error: null, result: 'ok' })).toBe('ok')
  })

  test('error: throws the typed error of the code, keeping data', () => {
    let thrown: unknown
    try {
      Rpc.parseResponse({
        id: 1,
        error: { code: 4001, message: 'User denied', data: { step: 2 } },
      })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(Errors.UserRejectedRequestError)
    expect(thrown).toMatchObject({
      code: 4001,
      details: 'User denied',
      data: { step: 2 },
    })
  })

  test('error: an error wins over a result', () => {
    expect(() =>
      Rpc.parseResponse({
        id: 1,
        result: 'ignored',
        error: { code: -32602, message: 'bad' },
      }),
    ).toThrow(Errors.InvalidParamsRpcError)
  })

  test('error: an error without a numeric code is an internal error', () => {
    expect(() =>
      Rpc.parseResponse({ id: 1, error: {} as Rpc.ErrorObject }),
    ).toThrow(Errors.InternalRpcError)
  })

  test('error: neither result nor error is malformed', () => {
    expect(() =>
      Rpc.parseResponse({ jsonrpc: '2.0', id: 1 }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[Rpc.MalformedResponseError: Response from the provider's iframe is malformed.]`,
    )
    expect(() => Rpc.parseResponse(undefined)).toThrow(
      Rpc.MalformedResponseError,
    )
  })

  test('param: malformedMessage', () => {
    expect(() =>
      Rpc.parseResponse(
        { id: 1 },
        { malformedMessage: 'Response from the Magic iframe is malformed.' },
      ),
    ).toThrowErrorMatchingInlineSnapshot(
      `[Rpc.MalformedResponseError: Response from the Magic iframe is malformed.]`,
    )
  })
})

describe('Rpc.createBatch', () => {
  test('default: one request per call, consecutive ids', () => {
    const batch = Rpc.createBatch([
      { method: 'eth_chainId' },
      { method: 'eth_getBalance', params: ['0x1', 'latest'] },
    ])
    const first = batch[0]!.id
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: first, method: 'eth_chainId', params: [] },
      {
        jsonrpc: '2.0',
        id: first + 1,
        method: 'eth_getBalance',
        params: ['0x1', 'latest'],
      },
    ])
  })
})

describe('Rpc.matchResponses', () => {
  const requests = [{ id: 10 }, { id: 11 }, { id: 12 }]
  const response = (id: number | string) =>
    ({ jsonrpc: '2.0', id, result: id }) as const

  test('default: orders responses by request id', () => {
    expect(
      Rpc.matchResponses(requests, [response(12), response(10), response(11)]),
    ).toEqual({
      complete: true,
      responses: [response(10), response(11), response(12)],
    })
  })

  test('behavior: missing responses are undefined and not complete', () => {
    expect(Rpc.matchResponses(requests, [response(11)])).toEqual({
      complete: false,
      responses: [undefined, response(11), undefined],
    })
  })

  test('behavior: ids match strictly', () => {
    expect(Rpc.matchResponses([{ id: 10 }], [response('10')]).complete).toBe(
      false,
    )
  })
})
