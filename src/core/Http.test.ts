import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as Http from './Http.js'

beforeEach(() => {
  vi.useFakeTimers({ now: 0 })
})

afterEach(() => {
  vi.useRealTimers()
})

const tooMany = (headers: Record<string, string> = {}) =>
  new Response('slow down', { status: 429, headers })

/** A fake fetch answering from `responses` in turn, recording call times. */
function fakeFetch(...responses: (() => Response)[]) {
  const times: number[] = []
  const signals: AbortSignal[] = []
  const fetch = vi.fn(async (_input: unknown, init?: RequestInit) => {
    times.push(Date.now())
    if (init?.signal) signals.push(init.signal)
    const next = responses[Math.min(times.length, responses.length) - 1]
    return next ? next() : new Response('ok')
  })
  return { fetch: fetch as unknown as typeof globalThis.fetch, times, signals }
}

/** A fake fetch that never answers until aborted. */
const hangingFetch = (async (_input: unknown, init?: RequestInit) =>
  new Promise((_, reject) => {
    init?.signal?.addEventListener('abort', () =>
      reject(new DOMException('aborted', 'AbortError')),
    )
  })) as typeof globalThis.fetch

describe('Http.fetchWithRetry', () => {
  test('default: a non-429 response is returned at once', async () => {
    const { fetch, times } = fakeFetch(() => new Response('ok'))
    const response = await Http.fetchWithRetry('https://x.test', {}, { fetch })
    expect(await response.text()).toBe('ok')
    expect(times).toEqual([0])
  })

  test('behavior: other error statuses are not retried', async () => {
    const { fetch, times } = fakeFetch(() => new Response('', { status: 503 }))
    const response = await Http.fetchWithRetry('https://x.test', {}, { fetch })
    expect(response.status).toBe(503)
    expect(times).toEqual([0])
  })

  test('behavior: 429 is retried after one 250 ms slot', async () => {
    const { fetch, times } = fakeFetch(tooMany, tooMany, () => new Response())
    const promise = Http.fetchWithRetry('https://x.test', {}, { fetch })
    await vi.advanceTimersByTimeAsync(1000)
    expect((await promise).status).toBe(200)
    expect(times).toEqual([0, 250, 500])
  })

  test('behavior: after 12 attempts the last 429 is returned', async () => {
    const { fetch, times } = fakeFetch(tooMany)
    const promise = Http.fetchWithRetry('https://x.test', {}, { fetch })
    await vi.advanceTimersByTimeAsync(10_000)
    expect((await promise).status).toBe(429)
    expect(times).toEqual(Array.from({ length: 12 }, (_, i) => i * 250))
  })

  test('behavior: Retry-After seconds are honoured', async () => {
    const { fetch, times } = fakeFetch(() => tooMany({ 'Retry-After': '2' }))
    const promise = Http.fetchWithRetry(
      'https://x.test',
      {},
      { fetch, attempts: 3 },
    )
    await vi.advanceTimersByTimeAsync(10_000)
    await promise
    expect(times).toEqual([0, 2000, 4000])
  })

  test('behavior: a Retry-After date is rounded up to whole slots', async () => {
    const { fetch, times } = fakeFetch(
      () => tooMany({ 'Retry-After': new Date(1100).toUTCString() }),
      () => new Response(),
    )
    const promise = Http.fetchWithRetry('https://x.test', {}, { fetch })
    await vi.advanceTimersByTimeAsync(10_000)
    await promise
    // HTTP dates have whole seconds: 1100 ms reads as 1000 ms = 4 slots.
    expect(times).toEqual([0, 1000])
  })

  test('behavior: an odd Retry-After delay becomes the next slot multiple', async () => {
    const { fetch, times } = fakeFetch(
      () => tooMany({ 'Retry-After': '1' }),
      () => new Response(),
    )
    const promise = Http.fetchWithRetry(
      'https://x.test',
      {},
      { fetch, interval: 300 },
    )
    await vi.advanceTimersByTimeAsync(10_000)
    await promise
    expect(times).toEqual([0, 1200])
  })

  test('error: a Retry-After beyond the time-out ends in TimeoutError', async () => {
    const { fetch, times } = fakeFetch(() => tooMany({ 'Retry-After': '60' }))
    const promise = Http.fetchWithRetry(
      'https://x.test',
      {},
      { fetch, timeout: 5000 },
    )
    const assertion = expect(
      promise,
    ).rejects.toThrowErrorMatchingInlineSnapshot(
      `[Http.TimeoutError: The request timed out after 5000 ms.]`,
    )
    await vi.advanceTimersByTimeAsync(4999)
    expect(times).toEqual([0])
    await vi.advanceTimersByTimeAsync(1)
    await assertion
    expect(times).toEqual([0])
  })

  test('error: the default time-out is 300000 ms and aborts the request', async () => {
    const promise = Http.fetchWithRetry(
      'https://x.test',
      {},
      { fetch: hangingFetch },
    )
    const assertion = expect(promise).rejects.toThrow(Http.TimeoutError)
    await vi.advanceTimersByTimeAsync(299_999)
    let settled = false
    promise.catch(() => {}).finally(() => (settled = true))
    await vi.advanceTimersByTimeAsync(0)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await assertion
  })

  test('error: the caller’s signal aborts with its reason', async () => {
    const controller = new AbortController()
    const { fetch, signals } = fakeFetch(tooMany)
    const promise = Http.fetchWithRetry(
      'https://x.test',
      { signal: controller.signal },
      { fetch },
    )
    const assertion = expect(promise).rejects.toBe('cancelled')
    await vi.advanceTimersByTimeAsync(100)
    controller.abort('cancelled')
    await assertion
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(signals[0]?.aborted).toBe(true)
  })

  test('param: init is passed on with the time-out signal', async () => {
    const { fetch } = fakeFetch(() => new Response())
    await Http.fetchWithRetry(
      'https://x.test/a',
      { method: 'POST', body: '{}' },
      { fetch },
    )
    expect(fetch).toHaveBeenCalledWith('https://x.test/a', {
      method: 'POST',
      body: '{}',
      signal: expect.any(AbortSignal),
    })
  })

  test('behavior: the timer is cleared once answered', async () => {
    const { fetch } = fakeFetch(() => new Response())
    await Http.fetchWithRetry('https://x.test', {}, { fetch })
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('Http.retry', () => {
  test('default: up to 4 calls, 1000 ms apart, then the last error', async () => {
    const times: number[] = []
    const fn = vi.fn(async () => {
      times.push(Date.now())
      throw new Error(`failure ${times.length}`)
    })
    const promise = Http.retry(fn)
    const assertion =
      expect(promise).rejects.toThrowErrorMatchingInlineSnapshot(
        `[Error: failure 4]`,
      )
    await vi.advanceTimersByTimeAsync(10_000)
    await assertion
    expect(fn).toHaveBeenCalledTimes(4)
    expect(times).toEqual([0, 1000, 2000, 3000])
  })

  test('behavior: resolves as soon as a call succeeds', async () => {
    const fn = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('first'))
      .mockResolvedValueOnce('second')
    const promise = Http.retry(fn)
    await vi.advanceTimersByTimeAsync(999)
    expect(fn).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(await promise).toBe('second')
    expect(fn).toHaveBeenCalledTimes(2)
  })

  test('param: retries and interval', async () => {
    const times: number[] = []
    const promise = Http.retry(
      async () => {
        times.push(Date.now())
        throw new Error('no')
      },
      { retries: 1, interval: 30 },
    )
    const assertion = expect(promise).rejects.toThrow('no')
    await vi.advanceTimersByTimeAsync(1000)
    await assertion
    expect(times).toEqual([0, 30])
  })

  test('param: interval as a function of the failed attempt', async () => {
    const times: number[] = []
    const interval = vi.fn((attempt: number) => attempt * 100)
    const promise = Http.retry(
      async () => {
        times.push(Date.now())
        throw new Error('no')
      },
      { interval },
    )
    const assertion = expect(promise).rejects.toThrow('no')
    await vi.advanceTimersByTimeAsync(10_000)
    await assertion
    expect(interval.mock.calls).toEqual([[1], [2], [3]])
    expect(times).toEqual([0, 100, 300, 600])
  })

  test('param: shouldRetry stops early and sees the attempt number', async () => {
    const shouldRetry = vi.fn((_: unknown, attempt: number) => attempt < 2)
    const fn = vi.fn(async () => {
      throw new Error('no')
    })
    const promise = Http.retry(fn, { shouldRetry })
    const assertion = expect(promise).rejects.toThrow('no')
    await vi.advanceTimersByTimeAsync(10_000)
    await assertion
    expect(fn).toHaveBeenCalledTimes(2)
    expect(shouldRetry.mock.calls.map(([, attempt]) => attempt)).toEqual([1, 2])
  })
})
