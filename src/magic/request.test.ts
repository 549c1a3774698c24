import { describe, expect, test } from 'vitest'
import * as Rpc from '../core/Rpc.js'
import {
  createClient,
  createFakeTransport,
  flush,
} from './_test/fakeTransport.js'
import { MagicRPCError, MagicSDKError } from './errors.js'
import { request } from './request.js'

describe('request', () => {
  test('default: resolves with the result and posts the payload as is', async () => {
    const fake = createFakeTransport()
    const payload = Rpc.createRequest('magic_get_info', [])
    const handle = request(createClient(fake), payload)
    await flush()
    expect(fake.requests).toEqual([payload])
    fake.respond(payload.id, { result: { email: 'a@b.c' } })
    await expect(handle).resolves.toEqual({ email: 'a@b.c' })
  })

  test('behavior: an error response rejects with MagicRPCError keeping code and data', async () => {
    const fake = createFakeTransport((r) => ({
      id: r.id,
      error: { code: -10011, message: 'Access denied', data: 'd' },
    }))
    const error = await request(
      createClient(fake),
      Rpc.createRequest('x'),
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MagicRPCError)
    expect((error as MagicRPCError).message).toBe(
      'Magic RPC Error: [-10011] Access denied',
    )
    expect((error as MagicRPCError).data).toBe('d')
  })

  test('behavior: a response with neither result nor error is MALFORMED_RESPONSE', async () => {
    const fake = createFakeTransport((r) => ({ id: r.id }))
    const error = await request(
      createClient(fake),
      Rpc.createRequest('x'),
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MagicSDKError)
    expect((error as MagicSDKError).code).toBe('MALFORMED_RESPONSE')
  })

  test('behavior: a null result resolves (only undefined is malformed)', async () => {
    const fake = createFakeTransport((r) => ({ id: r.id, result: null }))
    await expect(
      request(createClient(fake), Rpc.createRequest('x')),
    ).resolves.toBeNull()
  })

  test('behavior: flow events are emitted on the handle; closed-by-user-on-received also as closed-by-user', async () => {
    const fake = createFakeTransport()
    const payload = Rpc.createRequest('x')
    const handle = request<unknown, 'email-otp-sent'>(
      createClient(fake),
      payload,
    )
    const seen: unknown[][] = []
    handle
      .on('email-otp-sent', (...args) => seen.push(['email-otp-sent', ...args]))
      .on('closed-by-user', () => seen.push(['closed-by-user']))
    fake.event(payload.id, 'email-otp-sent', 'a', 'b')
    fake.event(payload.id, 'closed-by-user-on-received')
    expect(seen).toEqual([['email-otp-sent', 'a', 'b'], ['closed-by-user']])
    fake.respond(payload.id, { result: true })
    await handle
    expect(fake.listenerCount(payload.id)).toBe(0)
  })

  test('behavior: emitting a forwarded name sends magic_intermediary_event with the first argument only', async () => {
    const fake = createFakeTransport((r) =>
      r.method === 'magic_intermediary_event'
        ? { id: r.id, result: true }
        : undefined,
    )
    const payload = Rpc.createRequest('magic_auth_login_with_email_otp')
    const handle = request<unknown, 'verify-email-otp' | 'cancel'>(
      createClient(fake),
      payload,
      { forward: ['verify-email-otp', 'cancel'] },
    )
    handle.emit('verify-email-otp', '123456', 'ignored')
    handle.emit('cancel')
    expect(fake.sent().slice(1)).toEqual([
      {
        method: 'magic_intermediary_event',
        params: [
          {
            payloadId: payload.id,
            eventType: 'verify-email-otp',
            args: '123456',
          },
        ],
      },
      {
        method: 'magic_intermediary_event',
        params: [
          { payloadId: payload.id, eventType: 'cancel', args: undefined },
        ],
      },
    ])
  })

  test('behavior: names not forwarded send nothing', async () => {
    const fake = createFakeTransport()
    const handle = request<unknown, 'verify-email-otp'>(
      createClient(fake),
      Rpc.createRequest('x'),
    )
    handle.emit('verify-email-otp', '1')
    expect(fake.requests).toHaveLength(1)
  })

  test('behavior: a routed request is answered by the route, not the iframe', async () => {
    const fake = createFakeTransport()
    const results: unknown[] = []
    const client = createClient(fake, {
      route: (r) =>
        r.method === 'eth_accounts' ? Promise.resolve(['0xa']) : undefined,
      onResult: (method, result) => results.push([method, result]),
    })
    await expect(
      request(client, Rpc.createRequest('eth_accounts')),
    ).resolves.toEqual(['0xa'])
    expect(fake.requests).toEqual([])
    expect(results).toEqual([['eth_accounts', ['0xa']]])
  })

  test('behavior: intermediary events go to the iframe even when a route exists', async () => {
    const fake = createFakeTransport()
    const client = createClient(fake, {
      route: () => Promise.resolve('external'),
    })
    const handle = request<unknown, 'cancel'>(client, Rpc.createRequest('x'), {
      forward: ['cancel'],
    })
    handle.emit('cancel')
    await handle
    expect(fake.sent()).toEqual([
      {
        method: 'magic_intermediary_event',
        params: [
          {
            payloadId: expect.any(Number),
            eventType: 'cancel',
            args: undefined,
          },
        ],
      },
    ])
  })

  test('error: a transport failure rejects the handle', async () => {
    const fake = createFakeTransport(() => Promise.reject(new Error('offline')))
    await expect(
      request(createClient(fake), Rpc.createRequest('x')),
    ).rejects.toThrow('offline')
  })
})
