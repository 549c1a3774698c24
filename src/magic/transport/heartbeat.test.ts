import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as Heartbeat from './heartbeat.js'

const minute = 60_000
const hour = 60 * minute

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

function setup() {
  const calls: string[] = []
  const heartbeat = Heartbeat.create({
    ping: () => calls.push(`ping@${Date.now() / minute}`),
    reload: () => calls.push(`reload@${Date.now() / minute}`),
  })
  return { calls, heartbeat }
}

describe('Heartbeat.create', () => {
  test('default: nothing runs before the first activity', () => {
    const { calls } = setup()
    vi.advanceTimersByTime(3 * hour)
    expect(calls).toEqual([])
  })

  test('behavior: pings every 5 minutes after an hour without activity', () => {
    vi.setSystemTime(0)
    const { calls, heartbeat } = setup()
    heartbeat.activity()
    vi.advanceTimersByTime(hour + 5 * minute - 1)
    expect(calls).toEqual([])
    vi.advanceTimersByTime(1)
    expect(calls).toEqual(['ping@65'])
    heartbeat.pong()
    vi.advanceTimersByTime(5 * minute)
    heartbeat.pong()
    vi.advanceTimersByTime(5 * minute)
    expect(calls).toEqual(['ping@65', 'ping@70', 'ping@75'])
  })

  test('behavior: activity re-arms the hour and stops the ping loop', () => {
    vi.setSystemTime(0)
    const { calls, heartbeat } = setup()
    heartbeat.activity()
    vi.advanceTimersByTime(50 * minute)
    heartbeat.activity()
    vi.advanceTimersByTime(hour + 4 * minute)
    expect(calls).toEqual([])
    vi.advanceTimersByTime(minute)
    expect(calls).toEqual(['ping@115'])
    heartbeat.activity()
    vi.advanceTimersByTime(hour)
    expect(calls).toEqual(['ping@115'])
  })

  test('behavior: no pong after the first ping reloads at the next tick', () => {
    vi.setSystemTime(0)
    const { calls, heartbeat } = setup()
    heartbeat.activity()
    vi.advanceTimersByTime(hour + 10 * minute)
    expect(calls).toEqual(['ping@65', 'reload@70'])
    // The reload re-arms the hour: the loop starts over.
    vi.advanceTimersByTime(hour + 4 * minute)
    expect(calls).toEqual(['ping@65', 'reload@70'])
    vi.advanceTimersByTime(minute)
    expect(calls).toEqual(['ping@65', 'reload@70', 'ping@135'])
  })

  test('behavior: a pong older than 10 minutes (not equal) reloads', () => {
    vi.setSystemTime(0)
    const { calls, heartbeat } = setup()
    heartbeat.activity()
    vi.advanceTimersByTime(hour + 5 * minute)
    heartbeat.pong() // at 65 min; no more pongs
    vi.advanceTimersByTime(10 * minute)
    expect(calls).toEqual(['ping@65', 'ping@70', 'ping@75'])
    vi.advanceTimersByTime(5 * minute)
    expect(calls).toEqual(['ping@65', 'ping@70', 'ping@75', 'reload@80'])
  })

  test('behavior: stop clears every timer', () => {
    const { calls, heartbeat } = setup()
    heartbeat.activity()
    heartbeat.stop()
    vi.advanceTimersByTime(3 * hour)
    expect(calls).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
  })
})
