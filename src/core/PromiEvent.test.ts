import { afterEach, describe, expect, test, vi } from 'vitest'
import * as PromiEvent from './PromiEvent.js'

type Custom = { 'otp-sent': (email: string) => void }

/** Lets pending timers and microtasks (and Node's rejection tracking) run. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 10))

afterEach(() => {
  vi.restoreAllMocks()
})

describe('PromiEvent.create', () => {
  test('default: a real, awaitable Promise', async () => {
    const promiEvent = PromiEvent.create<number>((resolve) => resolve(42))
    expect(promiEvent).toBeInstanceOf(Promise)
    expect(Object.prototype.toString.call(promiEvent)).toBe('[object Promise]')
    expect(await promiEvent).toBe(42)
  })

  test('behavior: done, then settled, then the awaiting code', async () => {
    const order: string[] = []
    const promiEvent = PromiEvent.create<string>((resolve) => resolve('ok'))
      .on('done', (result) => order.push(`done:${result}`))
      .on('settled', () => order.push('settled'))
      .on('error', () => order.push('error'))
    await promiEvent
    order.push('await')
    expect(order).toEqual(['done:ok', 'settled', 'await'])
  })

  test('behavior: error, then settled, then the rejection', async () => {
    const order: string[] = []
    const failure = new Error('nope')
    const promiEvent = PromiEvent.create<string>((_, reject) => reject(failure))
      .on('done', () => order.push('done'))
      .on('error', (reason) => order.push(`error:${(reason as Error).message}`))
      .on('settled', () => order.push('settled'))
    await expect(promiEvent).rejects.toBe(failure)
    order.push('caught')
    expect(order).toEqual(['error:nope', 'settled', 'caught'])
  })

  test('behavior: an async executor that throws rejects', async () => {
    const onError = vi.fn()
    const promiEvent = PromiEvent.create<number>(async () => {
      throw new Error('async failure')
    }).on('error', onError)
    await expect(promiEvent).rejects.toThrowErrorMatchingInlineSnapshot(
      `[Error: async failure]`,
    )
    expect(onError).toHaveBeenCalledTimes(1)
  })

  test('behavior: listener methods chain, emit and listenerCount return', () => {
    const promiEvent = PromiEvent.create<number, Custom>(() => {})
    const listener = vi.fn()
    expect(promiEvent.on('otp-sent', listener)).toBe(promiEvent)
    expect(promiEvent.addListener('otp-sent', listener)).toBe(promiEvent)
    expect(promiEvent.once('otp-sent', listener)).toBe(promiEvent)
    expect(promiEvent.listenerCount('otp-sent')).toBe(3)
    expect(promiEvent.emit('otp-sent', 'a@b.c')).toBe(true)
    expect(listener).toHaveBeenCalledTimes(3)
    expect(listener).toHaveBeenCalledWith('a@b.c')
    expect(promiEvent.off('otp-sent', listener)).toBe(promiEvent)
    expect(promiEvent.listenerCount('otp-sent')).toBe(0)
    promiEvent.on('otp-sent', listener)
    expect(promiEvent.removeListener('otp-sent', listener)).toBe(promiEvent)
    promiEvent.on('otp-sent', listener).on('settled', listener)
    expect(promiEvent.removeAllListeners()).toBe(promiEvent)
    expect(promiEvent.listenerCount()).toBe(0)
    expect(promiEvent.emit('otp-sent', 'x')).toBe(false)
  })

  test('behavior: then, catch and finally return new PromiEvents', async () => {
    const promiEvent = PromiEvent.create<number>((resolve) => resolve(2))
    const doubled = promiEvent.then((value) => value * 2)
    const caught = promiEvent.catch(() => 0)
    const finished = promiEvent.finally(() => {})
    for (const derived of [doubled, caught, finished]) {
      expect(derived).not.toBe(promiEvent)
      expect(derived).toBeInstanceOf(Promise)
      expect(PromiEvent.isPromiEvent(derived)).toBe(true)
    }
    expect(await doubled).toBe(4)
    expect(await caught).toBe(2)
    expect(await finished).toBe(2)
  })

  test('behavior: chained PromiEvents share the emitter', async () => {
    let resolve: (value: string) => void = () => {}
    const promiEvent = PromiEvent.create<string, Custom>((r) => {
      resolve = r
    })
    const derived = promiEvent.then((value) => value.length)
    const onOtp = vi.fn()
    const onDone = vi.fn()
    expect(derived.on('otp-sent', onOtp).on('done', onDone)).toBe(derived)
    promiEvent.emit('otp-sent', 'a@b.c')
    expect(onOtp).toHaveBeenCalledWith('a@b.c')
    expect(promiEvent.listenerCount('done')).toBe(1)
    resolve('token')
    expect(await derived).toBe(5)
    expect(onDone).toHaveBeenCalledTimes(1)
    expect(onDone).toHaveBeenCalledWith('token')
  })

  test('behavior: finally runs its callback and passes the outcome on', async () => {
    const onFinally = vi.fn()
    const failure = new Error('nope')
    const rejected = PromiEvent.create<number>((_, reject) => reject(failure))
    await expect(rejected.finally(onFinally)).rejects.toBe(failure)
    const fulfilled = PromiEvent.create<number>((resolve) => resolve(1))
    expect(await fulfilled.finally(onFinally)).toBe(1)
    expect(onFinally).toHaveBeenCalledTimes(2)
  })

  test('behavior: only an error listener means no unhandled rejection', async () => {
    const unhandled = vi.fn()
    process.on('unhandledRejection', unhandled)
    try {
      const onError = vi.fn()
      PromiEvent.create<number>((_, reject) => reject(new Error('x'))).on(
        'error',
        onError,
      )
      await tick()
      expect(onError).toHaveBeenCalledTimes(1)
      expect(unhandled).toHaveBeenCalledTimes(0)
    } finally {
      process.off('unhandledRejection', unhandled)
    }
  })
})

describe('PromiEvent.isPromiEvent', () => {
  test('default', () => {
    expect(PromiEvent.isPromiEvent(PromiEvent.create(() => {}))).toBe(true)
  })

  test('behavior: look-alikes are not PromiEvents', () => {
    const lookAlike = Object.assign(Promise.resolve(1), {
      on: () => {},
      emit: () => true,
    })
    expect(PromiEvent.isPromiEvent(lookAlike)).toBe(false)
    expect(PromiEvent.isPromiEvent(Promise.resolve(1))).toBe(false)
    expect(PromiEvent.isPromiEvent(null)).toBe(false)
    expect(PromiEvent.isPromiEvent('promise')).toBe(false)
  })
})
