import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { createApp, toNodeHandler } from './server.js'
import { rpcError, startTap, type Tap } from './testkit.js'

let tap: Tap
beforeAll(async () => {
  const app = createApp()
  app.get('/host', (c) => c.json({ host: c.req.header('host') }))
  app.post('/echo', async (c) => c.json({ got: await c.req.json() }))
  app.post('/rpc', async (c) => {
    const { id, method } = await c.req.json<{ id: number; method: string }>()
    return c.json({ jsonrpc: '2.0', id, result: `ran ${method}` })
  })
  tap = await startTap({ upstream: toNodeHandler(app.fetch, { name: 't' }) })
})
afterAll(() => tap.stop())
beforeEach(() => tap.clear())

const rpc = (method: string, id = 7) =>
  fetch(`${tap.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method }),
  }).then((response) => response.json())

describe('startTap', () => {
  test('behavior: forwards with the Host it was sent, and records request and answer', async () => {
    const host = await (await fetch(`${tap.url}/host`)).json()
    expect(host).toEqual({ host: new URL(tap.url).host })
    const echoed = await fetch(`${tap.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    })
    expect(await echoed.json()).toEqual({ got: { a: 1 } })
    expect(
      tap.requests.map((r) => [r.method, r.path, r.status, r.scripted]),
    ).toEqual([
      ['GET', '/host', 200, false],
      ['POST', '/echo', 200, false],
    ])
    expect(tap.to('/echo')[0]).toMatchObject({
      body: '{"a":1}',
      response: '{"got":{"a":1}}',
    })
  })

  test('behavior: scripted answers go to the next matching requests in order, then the service answers again', async () => {
    tap.answer(
      { rpc: 'busy' },
      rpcError({ code: -32000, message: 'Relayer busy' }),
      { status: 503, body: 'overloaded' },
    )
    expect(await rpc('other')).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: 'ran other',
    })
    expect(await rpc('busy', 9)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32000, message: 'Relayer busy' },
    })
    const second = await fetch(`${tap.url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'busy' }),
    })
    expect([second.status, await second.text()]).toEqual([503, 'overloaded'])
    expect(await rpc('busy')).toMatchObject({ result: 'ran busy' })
    expect(tap.calls().map((call) => [call.method, call.batch])).toEqual([
      ['other', 1],
      ['busy', 1],
      ['busy', 1],
      ['busy', 1],
    ])
    expect(tap.requests.map((r) => r.scripted)).toEqual([
      false,
      true,
      true,
      false,
    ])
  })

  test('behavior: always answers until cleared or removed; a dropped connection fails the fetch; a stall waits for the client', async () => {
    const remove = tap.always({ path: '/host' }, { status: 502 })
    expect((await fetch(`${tap.url}/host`)).status).toBe(502)
    remove()
    expect((await fetch(`${tap.url}/host`)).status).toBe(200)
    tap.always({ path: '/host' }, { status: 500, body: { error: 'x' } })
    for (let i = 0; i < 2; i++)
      expect((await fetch(`${tap.url}/host`)).status).toBe(500)
    tap.clear()
    expect((await fetch(`${tap.url}/host`)).status).toBe(200)

    tap.answer({ path: '/host' }, 'drop')
    await expect(fetch(`${tap.url}/host`)).rejects.toThrow('fetch failed')

    tap.answer({ method: 'GET' }, 'stall')
    const controller = new AbortController()
    const stalled = fetch(`${tap.url}/host`, { signal: controller.signal })
    await expect.poll(() => tap.to('/host').length).toBe(3)
    controller.abort()
    await expect(stalled).rejects.toThrow('aborted')
  })

  test("behavior: a rewrite changes the service's answer to the next matching request only", async () => {
    tap.rewrite({ rpc: 'ask' }, (answer) => ({
      ...(answer as object),
      result: 'changed',
    }))
    expect(await rpc('ask')).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: 'changed',
    })
    expect(await rpc('ask')).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: 'ran ask',
    })
    expect(tap.calls().map((call) => call.exchange.scripted)).toEqual([
      false,
      false,
    ])
  })

  test("behavior: serving a service leaves the process's global Response alone", async () => {
    // Clients in the same process (the tests' own) check `instanceof Response`.
    expect(await fetch(`${tap.url}/host`)).toBeInstanceOf(Response)
  })
})
