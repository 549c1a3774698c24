import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as Http from './Http.js'

beforeEach(() => {
  vi.useFakeTimers({ now: 0 })
})

afterEach(() => {
  vi.useRealTimers()
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
