import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import {
  call,
  cleanup,
  setup,
} from '../../../test/browser/fixtures/transportClient.js'

const minute = 60_000
const hour = 60 * minute

beforeEach(() => {
  // Only the page's timers and clock are fake; messages stay real.
  vi.useFakeTimers({
    toFake: [
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
      'Date',
    ],
  })
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

/** A transport with the heartbeat on, counting pongs and ready messages. */
async function start(meta: object = {}) {
  const { encoded, transport } = setup({ heartbeat: true, meta })
  const counts = { pongs: 0, readies: 0 }
  transport.on('MAGIC_PONG', () => counts.pongs++)
  transport.on('MAGIC_OVERLAY_READY', () => counts.readies++)
  await transport.preload()
  return { counts, encoded, transport }
}

describe('Transport.create: heartbeat', () => {
  test('default: off for a non-default endpoint', async () => {
    const { transport } = setup({ heartbeat: undefined })
    await transport.preload()
    expect(vi.getTimerCount()).toBe(0)
  })

  test('behavior: pings every 5 minutes after an hour, and pongs are received', async () => {
    const { counts, encoded, transport } = await start()
    vi.advanceTimersByTime(hour + 5 * minute)
    await vi.waitFor(() => expect(counts.pongs).toBe(1))
    vi.advanceTimersByTime(5 * minute)
    await vi.waitFor(() => expect(counts.pongs).toBe(2))
    expect(counts.readies).toBe(1)
    const log = (await call(transport, 'fixture_log')).result as unknown as {
      msgType: string
      payload: unknown
    }[]
    expect(log.map(({ msgType, payload }) => ({ msgType, payload }))).toEqual([
      { msgType: `MAGIC_PING-${encoded}`, payload: [] },
      { msgType: `MAGIC_PING-${encoded}`, payload: [] },
      {
        msgType: `MAGIC_HANDLE_REQUEST-${encoded}`,
        payload: expect.anything(),
      },
    ])
  })

  test('behavior: no pong after the first ping reloads the iframe at the next tick', async () => {
    const { counts, transport } = await start({ pongs: 0 })
    vi.advanceTimersByTime(hour + 5 * minute)
    // The ping went out with no answer; nothing reloads yet.
    expect(counts.readies).toBe(1)
    vi.advanceTimersByTime(5 * minute)
    await vi.waitFor(() => expect(counts.readies).toBe(2))
    expect((await call(transport, 'after_reload')).result.method).toBe(
      'after_reload',
    )
  })

  test('behavior: a pong older than 10 minutes reloads the iframe', async () => {
    const { counts } = await start({ pongs: 1 })
    vi.advanceTimersByTime(hour + 5 * minute)
    await vi.waitFor(() => expect(counts.pongs).toBe(1))
    // 5 and 10 minutes old: still pinging.
    vi.advanceTimersByTime(10 * minute)
    await new Promise((resolve) => requestAnimationFrame(resolve))
    expect(counts.readies).toBe(1)
    vi.advanceTimersByTime(5 * minute)
    await vi.waitFor(() => expect(counts.readies).toBe(2))
    expect(counts.pongs).toBe(1)
  })
})
