import { describe, expect, test, vi } from 'vitest'
import * as Rpc from './Rpc.js'

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
