import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import * as Http from './Http.js'
import * as Transport from './Transport.js'

type Call = { id: number; method: string; params: unknown[] }

/** What the node received, one entry per POST (the parsed body). */
let posts: unknown[] = []
/**
 * How the node answers the next POSTs (`'drop'`: the connection is closed
 * unanswered; `'stall'`: never answered); `answer` by default.
 */
let script: ((
  body: unknown,
) =>
  | { status: number; body: unknown; headers?: Record<string, string> }
  | 'drop'
  | 'stall')[] = []

function answer(call: Call) {
  if (call.method === 'fail')
    return {
      jsonrpc: '2.0',
      id: call.id,
      error: { code: 3, message: 'execution reverted', data: '0x08c379a0' },
    }
  if (call.method === 'skip') return undefined
  return { jsonrpc: '2.0', id: call.id, result: [call.method, call.params] }
}

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = JSON.parse(Buffer.concat(chunks).toString())
  posts.push(body)
  const scripted = script.shift()?.(body)
  if (scripted === 'drop') {
    res.socket?.destroy()
    return
  }
  if (scripted === 'stall') {
    stalled.push(res)
    return
  }
  if (scripted) {
    res
      .writeHead(scripted.status, scripted.headers ?? {})
      .end(JSON.stringify(scripted.body))
    return
  }
  const out = Array.isArray(body)
    ? // Answered in reverse order: matched by id, not by position.
      body.map(answer).filter(Boolean).reverse()
    : answer(body)
  res.writeHead(200).end(JSON.stringify(out))
})

/** Answers held by a `'stall'` script, ended after each test. */
const stalled: ServerResponse[] = []

let url = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.close()
})
beforeEach(() => {
  posts = []
  script = []
  for (const res of stalled.splice(0)) res.socket?.destroy()
})

const methods = (post: unknown) =>
  (Array.isArray(post) ? post : [post]).map((call: Call) => call.method)

describe('Transport.http', () => {
  test('default: calls made together go out as one batch; each gets its own result', async () => {
    const node = Transport.http(url)
    const results = await Promise.all([
      node.request({ method: 'eth_chainId' }),
      node.request({ method: 'eth_getBalance', params: ['0xab', 'latest'] }),
      node.request({ method: 'eth_blockNumber' }),
    ])
    expect(results).toEqual([
      ['eth_chainId', []],
      ['eth_getBalance', ['0xab', 'latest']],
      ['eth_blockNumber', []],
    ])
    expect(posts.map(methods)).toEqual([
      ['eth_chainId', 'eth_getBalance', 'eth_blockNumber'],
    ])
    const [first] = posts as Call[][]
    expect(first!.map((call) => Object.keys(call).sort())).toEqual([
      ['id', 'jsonrpc', 'method', 'params'],
      ['id', 'jsonrpc', 'method', 'params'],
      ['id', 'jsonrpc', 'method', 'params'],
    ])
    expect(new Set(first!.map((call) => call.id)).size).toBe(3)
  })

  test('behavior: a lone call is sent unbatched', async () => {
    const node = Transport.http(url)
    expect(await node.request({ method: 'eth_chainId' })).toEqual([
      'eth_chainId',
      [],
    ])
    expect(Array.isArray(posts[0])).toBe(false)
    expect(methods(posts[0])).toEqual(['eth_chainId'])
  })

  test('behavior: calls after the wait start a new batch', async () => {
    const node = Transport.http(url, { batch: { wait: 10 } })
    await Promise.all([
      node.request({ method: 'a' }),
      node.request({ method: 'b' }),
    ])
    await Promise.all([
      node.request({ method: 'c' }),
      node.request({ method: 'd' }),
    ])
    expect(posts.map(methods)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
  })

  test('behavior: flush sends the waiting calls at once, as one batch; later calls wait for a batch of their own', async () => {
    // A window no test outlasts: only flush can send these.
    const node = Transport.http(url, { batch: { wait: 600_000 } })
    const first = Promise.all([
      node.request({ method: 'a' }),
      node.request({ method: 'b' }),
    ])
    node.flush()
    expect(await first).toEqual([
      ['a', []],
      ['b', []],
    ])
    const later = node.request({ method: 'c' })
    node.flush()
    node.flush()
    expect(await later).toEqual(['c', []])
    expect(posts.map(methods)).toEqual([['a', 'b'], ['c']])
  })

  test('behavior: at most 100 calls per batch by default', async () => {
    const node = Transport.http(url)
    const results = await Promise.all(
      Array.from({ length: 205 }, (_, i) => node.request({ method: `m${i}` })),
    )
    expect(results.map((r) => (r as [string])[0])).toEqual(
      Array.from({ length: 205 }, (_, i) => `m${i}`),
    )
    // The POSTs are concurrent: they may arrive in any order.
    expect(
      posts.map((post) => methods(post).length).sort((a, b) => a - b),
    ).toEqual([5, 100, 100])
  })

  test('behavior: a batch body stays within maxBytes', async () => {
    const node = Transport.http(url, { batch: { maxBytes: 200 } })
    const big = 'x'.repeat(60)
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        node.request({ method: `m${i}`, params: [big] }),
      ),
    )
    // Each call is about 100 bytes: two fit in 200 with the brackets.
    // One call per POST, concurrent, so in any order.
    expect(posts.map(methods).sort()).toEqual([
      ['m0'],
      ['m1'],
      ['m2'],
      ['m3'],
      ['m4'],
    ])
    const roomy = Transport.http(url, { batch: { maxBytes: 1000 } })
    posts = []
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        roomy.request({ method: `m${i}`, params: [big] }),
      ),
    )
    expect(posts.map(methods)).toEqual([['m0', 'm1', 'm2', 'm3', 'm4']])
    for (const post of posts)
      expect(JSON.stringify(post).length).toBeLessThanOrEqual(1000)
  })

  test('error: a JSON-RPC error rejects only its call, with the node’s code, message and data', async () => {
    const node = Transport.http(url)
    const [ok, failed] = await Promise.allSettled([
      node.request({ method: 'eth_chainId' }),
      node.request({ method: 'fail' }),
    ])
    expect(ok).toEqual({ status: 'fulfilled', value: ['eth_chainId', []] })
    const error = (failed as PromiseRejectedResult).reason
    expect(error).toBeInstanceOf(Transport.RpcResponseError)
    expect(error).toMatchObject({
      name: 'Transport.RpcResponseError',
      code: 3,
      message: 'execution reverted',
      data: '0x08c379a0',
    })
  })

  test('error: a batch call without an answer is a malformed response', async () => {
    const node = Transport.http(url)
    const [ok, skipped] = await Promise.allSettled([
      node.request({ method: 'eth_chainId' }),
      node.request({ method: 'skip' }),
    ])
    expect(ok.status).toBe('fulfilled')
    expect((skipped as PromiseRejectedResult).reason).toBeInstanceOf(
      Transport.MalformedResponseError,
    )
  })

  test('error: one error object for a whole batch rejects every call with it', async () => {
    script = [
      () => ({
        status: 200,
        body: {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'batch too large' },
        },
      }),
    ]
    const node = Transport.http(url)
    const results = await Promise.allSettled([
      node.request({ method: 'a' }),
      node.request({ method: 'b' }),
    ])
    expect(
      results.map((r) => {
        const { code, message } = (r as PromiseRejectedResult).reason
        return { code, message }
      }),
    ).toEqual([
      { code: -32600, message: 'batch too large' },
      { code: -32600, message: 'batch too large' },
    ])
  })

  test('behavior: a busy node (503) is retried, then answers', async () => {
    script = [() => ({ status: 503, body: 'busy' })]
    const node = Transport.http(url, { retryDelay: 1 })
    expect(await node.request({ method: 'eth_chainId' })).toEqual([
      'eth_chainId',
      [],
    ])
    expect(posts.map(methods)).toEqual([['eth_chainId'], ['eth_chainId']])
  })

  test('error: a client error (400) is not retried: HttpError with the status', async () => {
    script = [() => ({ status: 400, body: 'bad' })]
    const node = Transport.http(url, { retryDelay: 1 })
    const error = (await node
      .request({ method: 'eth_chainId' })
      .catch((e) => e)) as Http.HttpError
    expect(error).toBeInstanceOf(Http.HttpError)
    expect(error.status).toBe(400)
    expect(posts).toHaveLength(1)
  })

  test('error: after retryCount retries the last failure is thrown', async () => {
    script = Array.from({ length: 3 }, () => () => ({
      status: 500,
      body: 'down',
    }))
    const node = Transport.http(url, { retryCount: 2, retryDelay: 1 })
    const error = (await node
      .request({ method: 'eth_chainId' })
      .catch((e) => e)) as Http.HttpError
    expect(error).toBeInstanceOf(Http.HttpError)
    expect(error.status).toBe(500)
    expect(posts).toHaveLength(3)
  })
  test('behavior: a 429 is retried by the fetch helper after Retry-After, not by the transport: retryCount 0 still gets the answer', async () => {
    const throttled = () => ({
      status: 429,
      body: 'slow down',
      headers: { 'retry-after': '0' },
    })
    script = [throttled, throttled]
    const node = Transport.http(url, { retryCount: 0 })
    expect(await node.request({ method: 'eth_chainId' })).toEqual([
      'eth_chainId',
      [],
    ])
    expect(posts).toHaveLength(3)
  })

  test("error: a 429 left after the fetch helper's 12 attempts is thrown, not retried again by the transport", async () => {
    script = Array.from({ length: 20 }, () => () => ({
      status: 429,
      body: 'slow down',
      headers: { 'retry-after': '0' },
    }))
    const node = Transport.http(url, { retryDelay: 1 })
    const error = (await node
      .request({ method: 'eth_chainId' })
      .catch((e) => e)) as Http.HttpError
    expect(error).toBeInstanceOf(Http.HttpError)
    expect(error.status).toBe(429)
    expect(posts).toHaveLength(12)
  })

  test('behavior: a dropped connection (NetworkError) is retried, then answers', async () => {
    script = [() => 'drop']
    const node = Transport.http(url, { retryDelay: 1 })
    expect(await node.request({ method: 'eth_chainId' })).toEqual([
      'eth_chainId',
      [],
    ])
    expect(posts).toHaveLength(2)
  })

  test('behavior: a POST past its time-out (TimeoutError) is retried, then answers', async () => {
    script = [() => 'stall']
    const node = Transport.http(url, { timeout: 100, retryDelay: 1 })
    expect(await node.request({ method: 'eth_chainId' })).toEqual([
      'eth_chainId',
      [],
    ])
    expect(posts).toHaveLength(2)
  })

  test('error: out of retries in transit, the NetworkError is thrown', async () => {
    script = [() => 'drop', () => 'drop']
    const node = Transport.http(url, { retryCount: 1, retryDelay: 1 })
    const error = await node
      .request({ method: 'eth_chainId' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Http.NetworkError)
    expect(posts).toHaveLength(2)
  })
})
