import { afterEach, describe, expect, test, vi } from 'vitest'
import { createRelayerClient } from './relayerClient.js'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('RelayerClient.waitForHash', () => {
  test('default: one status request, then 30 retries 1 s apart, then "transaction hash not generated in time"', async () => {
    vi.useFakeTimers()
    const polls: number[] = []
    vi.stubGlobal('fetch', async () => {
      polls.push(Date.now())
      return Response.json({
        jsonrpc: '2.0',
        id: 1,
        result: { status: 'PENDING', relayerId: 'r-1', chainId: 'eip155:1' },
      })
    })
    const relayer = createRelayerClient({
      relayerUrl: 'http://relayer.test',
      getAccessToken: async () => 'token',
    })
    const outcome = relayer.waitForHash('r-1').catch((error: unknown) => error)
    await vi.advanceTimersByTimeAsync(0)
    expect(polls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(999)
    expect(polls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(polls).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(29_000)
    expect(await outcome).toMatchObject({
      code: -32000,
      message: 'transaction hash not generated in time',
    })
    expect(polls).toHaveLength(31)
    expect(polls.slice(1).map((at, i) => at - (polls[i] as number))).toEqual(
      Array(30).fill(1000),
    )
  })
})
