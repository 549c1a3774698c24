import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Http from './Http.js'

let url = ''
/** How many of the next requests to `/throttled` answer 429. */
let throttled = 0
const seen: { method: string; type: string | undefined; body: string }[] = []
const server = createServer(async (req, res) => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  seen.push({
    method: req.method ?? '',
    type: req.headers['content-type'],
    body: Buffer.concat(chunks).toString(),
  })
  if (req.url === '/throttled' && throttled-- > 0)
    res.writeHead(429, { 'retry-after': '0' }).end('slow down')
  else if (req.url === '/ok' || req.url === '/throttled')
    res.writeHead(200).end('{"a":1}')
  else if (req.url === '/empty') res.writeHead(204).end()
  else if (req.url === '/text') res.writeHead(200).end('not json')
  else res.writeHead(403).end('{"code":"AUTHENTICATION_ERROR"}')
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.close()
})

describe('Http.json', () => {
  test('default: GET without a body, POST with a JSON body; parses the answer', async () => {
    expect(await Http.json(`${url}/ok`)).toEqual({ a: 1 })
    expect(await Http.json(`${url}/ok`, { body: { x: 2 } })).toEqual({ a: 1 })
    expect(seen.slice(-2)).toEqual([
      { method: 'GET', type: undefined, body: '' },
      { method: 'POST', type: 'application/json', body: '{"x":2}' },
    ])
  })

  test('behavior: an empty answer is undefined', async () => {
    expect(await Http.json(`${url}/empty`)).toBeUndefined()
  })

  test('error: a non-2xx status carries the status and text', async () => {
    const error = await Http.json(`${url}/denied`).then(
      () => undefined,
      (e: Http.HttpError) => e,
    )
    expect(error).toBeInstanceOf(Http.HttpError)
    expect(error?.status).toBe(403)
    expect(error?.text).toBe('{"code":"AUTHENTICATION_ERROR"}')
  })

  test('error: a 2xx answer that is not JSON', async () => {
    const error = await Http.json(`${url}/text`).then(
      () => undefined,
      (e: Http.HttpError) => e,
    )
    expect(error).toBeInstanceOf(Http.HttpError)
    expect(error?.status).toBe(200)
    expect(error?.text).toBe('not json')
  })
  test('behavior: sent through Http.request: a 429 is retried after Retry-After', async () => {
    throttled = 2
    const before = seen.length
    expect(await Http.json(`${url}/throttled`, { body: { x: 1 } })).toEqual({
      a: 1,
    })
    expect(seen.slice(before).map((request) => request.body)).toEqual([
      '{"x":1}',
      '{"x":1}',
      '{"x":1}',
    ])
  })

  test('param: maxAttempts 1 throws a 429 at once as HttpError', async () => {
    throttled = 1
    const before = seen.length
    const error = await Http.json(`${url}/throttled`, { maxAttempts: 1 }).then(
      () => undefined,
      (e: Http.HttpError) => e,
    )
    expect(error).toBeInstanceOf(Http.HttpError)
    expect(error?.status).toBe(429)
    expect(error?.text).toBe('slow down')
    expect(seen.length - before).toBe(1)
  })
})
