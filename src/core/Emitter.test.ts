import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Emitter from './Emitter.js'

type Events = {
  message: (text: string, count: number) => void
  close: () => void
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('Emitter.create', () => {
  test('default: listeners get the arguments, in the order added', () => {
    const emitter = Emitter.create<Events>()
    const calls: string[] = []
    emitter
      .on('message', (text, count) => calls.push(`a:${text}:${count}`))
      .on('message', (text) => calls.push(`b:${text}`))
    expect(emitter.emit('message', 'hi', 2)).toBe(true)
    expect(calls).toEqual(['a:hi:2', 'b:hi'])
  })

  test('behavior: emit without listeners returns false', () => {
    expect(Emitter.create<Events>().emit('close')).toBe(false)
  })

  test('behavior: on, once, off and removeAllListeners chain', () => {
    const emitter = Emitter.create<Events>()
    const listener = () => {}
    expect(emitter.on('close', listener)).toBe(emitter)
    expect(emitter.once('close', listener)).toBe(emitter)
    expect(emitter.off('close', listener)).toBe(emitter)
    expect(emitter.removeAllListeners()).toBe(emitter)
  })

  test('behavior: once runs a single time', () => {
    const emitter = Emitter.create<Events>()
    const listener = vi.fn()
    emitter.once('close', listener)
    emitter.emit('close')
    emitter.emit('close')
    expect(listener).toHaveBeenCalledTimes(1)
    expect(emitter.listenerCount('close')).toBe(0)
  })

  test('behavior: off removes a listener added with on or once', () => {
    const emitter = Emitter.create<Events>()
    const listener = vi.fn()
    emitter.on('close', listener).once('close', listener)
    emitter.off('close', listener)
    emitter.emit('close')
    expect(listener).toHaveBeenCalledTimes(0)
    expect(emitter.eventNames()).toEqual([])
  })

  test('behavior: listenerCount, listeners and eventNames', () => {
    const emitter = Emitter.create<Events>()
    const a = () => {}
    const b = () => {}
    emitter.on('message', a).on('message', b).on('close', a)
    expect(emitter.listenerCount('message')).toBe(2)
    expect(emitter.listenerCount()).toBe(3)
    expect(emitter.listeners('message')).toEqual([a, b])
    expect(emitter.eventNames()).toEqual(['message', 'close'])
    emitter.removeAllListeners('message')
    expect(emitter.listenerCount()).toBe(1)
    emitter.removeAllListeners()
    expect(emitter.listenerCount()).toBe(0)
  })

  test('behavior: a listener removed during emit still runs this time', () => {
    const emitter = Emitter.create<Events>()
    const second = vi.fn()
    emitter.on('close', () => emitter.off('close', second)).on('close', second)
    emitter.emit('close')
    emitter.emit('close')
    expect(second).toHaveBeenCalledTimes(1)
  })

  test('behavior: a throwing listener does not stop the others', () => {
    const onError = vi.fn()
    const emitter = Emitter.create<Events>({ onError })
    const after = vi.fn()
    const failure = new Error('listener failed')
    emitter
      .on('close', () => {
        throw failure
      })
      .on('close', after)
    expect(emitter.emit('close')).toBe(true)
    expect(after).toHaveBeenCalledTimes(1)
    expect(onError).toHaveBeenCalledWith(failure, 'close')
  })

  test('behavior: without onError the error is rethrown from a microtask', () => {
    const tasks: (() => void)[] = []
    vi.stubGlobal('queueMicrotask', (task: () => void) => tasks.push(task))
    const emitter = Emitter.create<Events>()
    const after = vi.fn()
    emitter
      .on('close', () => {
        throw new Error('listener failed')
      })
      .on('close', after)
    emitter.emit('close')
    expect(after).toHaveBeenCalledTimes(1)
    expect(tasks).toHaveLength(1)
    expect(() => tasks[0]?.()).toThrowErrorMatchingInlineSnapshot(
      `[Error: listener failed]`,
    )
  })
})
