import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as Http from './Http.js'

beforeEach(() => {
  vi.useFakeTimers({ now: 0 })
})

afterEach(() => {
  vi.useRealTimers()
})

type Call = { at: number; url: string; init: RequestInit }

/** A fetch answering `answers` in turn (the last one again once they run out). */
function fetchOf(...answers: (() => Response | Promise<Response>)[]) {
  const calls: Call[] = []
  const fetch = vi.fn(async (url: string | URL, init: RequestInit) => {
    calls.push({ at: Date.now(), url: String(url), init })
    const answer = answers[Math.min(calls.length, answers.length) - 1]!
    return answer()
  })
  return { calls, fetch }
}

const tooMany =
  (headers: Record<string, string> = {}) =>
  () =>
    new Response('{"code":"TOO_MANY_REQUESTS_ERROR"}', { status: 429, headers })
const ok = () => new Response('{"ok":true}', { status: 200 })

describe('Http.request', () => {
  test('default: one call with the request as given; the answer is readable', async () => {
    const { calls, fetch } = fetchOf(ok)
    const response = await Http.request(
      'https://api.example/v1/x',
      {
        method: 'POST',
        headers: { 'x-a': '1' },
        body: '{"b":2}',
      },
      { fetch },
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
    expect(calls).toHaveLength(1)
    expect(calls[0]!.url).toBe('https://api.example/v1/x')
    expect(calls[0]!.init).toMatchObject({
      method: 'POST',
      headers: { 'x-a': '1' },
      body: '{"b":2}',
    })
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal)
  })

  test('behavior: an error status other than 429 is answered, not thrown, and not retried', async () => {
    const { calls, fetch } = fetchOf(
      () => new Response('{"code":"RESOURCE_NOT_FOUND"}', { status: 404 }),
    )
    const response = await Http.request('https://api.example/x', {}, { fetch })
    expect(response.status).toBe(404)
    expect(await response.text()).toBe('{"code":"RESOURCE_NOT_FOUND"}')
    expect(calls).toHaveLength(1)
  })

  test('behavior: a 429 is retried after throttle slots of 250 ms that double with each attempt', async () => {
    // random() just under 1: the longest wait of each round, 2^n − 1 slots.
    const { calls, fetch } = fetchOf(tooMany(), tooMany(), tooMany(), ok)
    const promise = Http.request(
      'https://api.example/x',
      { body: 'same body' },
      { fetch, random: () => 0.999 },
    )
    await vi.advanceTimersByTimeAsync(10_000)
    const response = await promise
    expect(response.status).toBe(200)
    expect(calls.map((call) => call.at)).toEqual([0, 250, 1000, 2750])
    expect(calls.map((call) => call.init.body)).toEqual([
      'same body',
      'same body',
      'same body',
      'same body',
    ])
  })

  test('behavior: each wait is a random number of slots, between none and 2^n − 1', async () => {
    const random = vi.fn(() => 0.5)
    const { calls, fetch } = fetchOf(tooMany(), tooMany(), ok)
    const promise = Http.request('https://api.example/x', {}, { fetch, random })
    await vi.advanceTimersByTimeAsync(10_000)
    await promise
    // After the 1st 429: floor(0.5 × 2) = 1 slot; after the 2nd: floor(0.5 × 4) = 2.
    expect(calls.map((call) => call.at)).toEqual([0, 250, 750])
    expect(random).toHaveBeenCalledTimes(2)
  })

  test('behavior: at most 12 attempts; the 12th 429 is answered as it is', async () => {
    const { calls, fetch } = fetchOf(tooMany())
    const promise = Http.request(
      'https://api.example/x',
      {},
      { fetch, random: () => 0 },
    )
    await vi.advanceTimersByTimeAsync(100)
    const response = await promise
    expect(response.status).toBe(429)
    expect(await response.json()).toEqual({ code: 'TOO_MANY_REQUESTS_ERROR' })
    expect(calls).toHaveLength(12)
    expect(Http.defaults).toEqual({
      timeout: 300_000,
      slotInterval: 250,
      maxAttempts: 12,
    })
  })

  test('param: slotInterval and maxAttempts', async () => {
    const { calls, fetch } = fetchOf(tooMany())
    const promise = Http.request(
      'https://api.example/x',
      {},
      { fetch, random: () => 0.999, slotInterval: 10, maxAttempts: 3 },
    )
    await vi.advanceTimersByTimeAsync(1000)
    expect((await promise).status).toBe(429)
    expect(calls.map((call) => call.at)).toEqual([0, 10, 40])
  })

  test('behavior: Retry-After in seconds sets the wait', async () => {
    const { calls, fetch } = fetchOf(tooMany({ 'Retry-After': '2' }), ok)
    const promise = Http.request('https://api.example/x', {}, { fetch })
    await vi.advanceTimersByTimeAsync(1999)
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect((await promise).status).toBe(200)
    expect(calls.map((call) => call.at)).toEqual([0, 2000])
  })

  test('behavior: Retry-After as an HTTP date sets the wait', async () => {
    const { calls, fetch } = fetchOf(
      tooMany({ 'Retry-After': new Date(5000).toUTCString() }),
      ok,
    )
    const promise = Http.request('https://api.example/x', {}, { fetch })
    await vi.advanceTimersByTimeAsync(10_000)
    expect((await promise).status).toBe(200)
    expect(calls.map((call) => call.at)).toEqual([0, 5000])
  })

  test('behavior: a wait that would end after the time-out is not started: the 429 is answered', async () => {
    const { calls, fetch } = fetchOf(tooMany({ 'Retry-After': '301' }), ok)
    const response = await Http.request('https://api.example/x', {}, { fetch })
    expect(response.status).toBe(429)
    expect(calls).toHaveLength(1)
  })

  test('error: no answer within 300000 ms is a TimeoutError, and the fetch is aborted', async () => {
    let signal: AbortSignal | undefined
    const fetch = vi.fn((_: string | URL, init: RequestInit) => {
      signal = init.signal ?? undefined
      return new Promise<Response>(() => {})
    })
    const promise = Http.request('https://api.example/slow', {}, { fetch })
    const assertion = expect(promise).rejects.toThrow(Http.TimeoutError)
    await vi.advanceTimersByTimeAsync(299_999)
    expect(signal?.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await assertion
    expect(signal?.aborted).toBe(true)
    await expect(promise).rejects.toMatchObject({
      name: 'Http.TimeoutError',
      shortMessage:
        'The request to https://api.example/slow timed out after 300000 ms.',
      timeout: 300_000,
    })
  })

  test('error: the time-out covers a body that never ends', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"partial":'))
            },
          }),
          { status: 200 },
        ),
    )
    const promise = Http.request(
      'https://api.example/stall',
      {},
      { fetch, timeout: 1000 },
    )
    const assertion = expect(promise).rejects.toThrow(Http.TimeoutError)
    await vi.advanceTimersByTimeAsync(1000)
    await assertion
  })

  test('error: the time-out counts the waits between attempts', async () => {
    const { calls, fetch } = fetchOf(tooMany({ 'Retry-After': '1' }))
    const promise = Http.request(
      'https://api.example/x',
      {},
      { fetch, timeout: 2500 },
    )
    await vi.advanceTimersByTimeAsync(5000)
    // Calls at 0, 1000 and 2000; the wait after the third would end at 3000.
    expect((await promise).status).toBe(429)
    expect(calls.map((call) => call.at)).toEqual([0, 1000, 2000])
  })

  test('error: a request fetch cannot send is a NetworkError with the cause', async () => {
    const cause = new TypeError('fetch failed')
    const fetch = vi.fn(async () => {
      throw cause
    })
    const error = await Http.request('https://api.example/x', {}, { fetch })
      .then(() => undefined)
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(Http.NetworkError)
    expect(error).toMatchObject({
      name: 'Http.NetworkError',
      shortMessage: 'The request to https://api.example/x could not be sent.',
      cause,
    })
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  test("behavior: the caller's signal aborts a wait between attempts with its reason", async () => {
    const controller = new AbortController()
    const { calls, fetch } = fetchOf(tooMany({ 'Retry-After': '10' }), ok)
    const promise = Http.request(
      'https://api.example/x',
      { signal: controller.signal },
      { fetch },
    )
    const assertion = expect(promise).rejects.toBe('stop')
    await vi.advanceTimersByTimeAsync(100)
    controller.abort('stop')
    await assertion
    expect(calls).toHaveLength(1)
  })

  test("behavior: the caller's signal aborts the fetch with its reason", async () => {
    const controller = new AbortController()
    const fetch = vi.fn(
      (_: string | URL, init: RequestInit) =>
        new Promise<Response>((_, reject) => {
          init.signal?.addEventListener('abort', () =>
            reject(init.signal?.reason),
          )
        }),
    )
    const promise = Http.request(
      'https://api.example/x',
      { signal: controller.signal },
      { fetch },
    )
    const assertion = expect(promise).rejects.toBe('stop')
    controller.abort('stop')
    await assertion
  })

  test('behavior: an answer without a body (204) is answered', async () => {
    const { fetch } = fetchOf(() => new Response(null, { status: 204 }))
    const response = await Http.request('https://api.example/x', {}, { fetch })
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
  })
})

describe('Http.fetcher', () => {
  test('behavior: a fetch through Http.request: a 429 is retried, the answer returned as it came', async () => {
    const { calls, fetch } = fetchOf(
      tooMany({ 'Retry-After': '1' }),
      () => new Response('{"keys":[]}', { status: 404 }),
    )
    const promise = Http.fetcher({ fetch })('https://auth.example/jwks', {
      method: 'GET',
      headers: new Headers({ accept: 'application/json' }),
      redirect: 'manual',
    })
    await vi.advanceTimersByTimeAsync(1000)
    const response = await promise
    expect(response).toBeInstanceOf(Response)
    expect(response.status).toBe(404)
    expect(await response.text()).toBe('{"keys":[]}')
    expect(calls.map((call) => call.at)).toEqual([0, 1000])
    expect(calls[1]!.init).toMatchObject({ method: 'GET', redirect: 'manual' })
    expect(new Headers(calls[1]!.init.headers).get('accept')).toBe(
      'application/json',
    )
  })

  test('error: a request that cannot be sent rejects with fetch’s own error, as fetch does', async () => {
    const cause = new TypeError('fetch failed')
    const fetch = vi.fn(async () => {
      throw cause
    })
    await expect(
      Http.fetcher({ fetch })('https://auth.example/x'),
    ).rejects.toBe(cause)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  test('error: past the time-out, a TimeoutError DOMException, as from a fetch given AbortSignal.timeout', async () => {
    const fetch = vi.fn(() => new Promise<Response>(() => {}))
    const promise = Http.fetcher({ fetch, timeout: 1000 })(
      'https://auth.example/slow',
    )
    const assertion = expect(promise).rejects.toSatisfy(
      (error) =>
        error instanceof DOMException &&
        error.name === 'TimeoutError' &&
        error.message ===
          'The request to https://auth.example/slow timed out after 1000 ms.',
    )
    await vi.advanceTimersByTimeAsync(1000)
    await assertion
  })

  test("behavior: the caller's signal rejects with its reason", async () => {
    const { calls, fetch } = fetchOf(tooMany({ 'Retry-After': '10' }), ok)
    const reason = new DOMException('jose gave up', 'TimeoutError')
    const promise = Http.fetcher({ fetch })('https://auth.example/x', {
      signal: AbortSignal.abort(reason),
    })
    await expect(promise).rejects.toBe(reason)
    expect(calls).toHaveLength(0)
  })

  test('behavior: a browser’s answer to redirect: manual (opaqueredirect, status 0) is returned as it came', async () => {
    // Node's fetch answers a manual redirect with its 3xx; a browser's is
    // opaque, with a status of 0 that no Response can be built with.
    const opaque = new Response(null, { status: 302 })
    Object.defineProperty(opaque, 'type', { value: 'opaqueredirect' })
    Object.defineProperty(opaque, 'status', { value: 0 })
    const fetch = vi.fn(async () => opaque)
    const response = await Http.fetcher({ fetch })('https://auth.example/x', {
      redirect: 'manual',
    })
    expect(response).toBe(opaque)
  })
})
