import { describe, expect, test } from 'vitest'
import * as Scenarios from './scenarios.js'

describe('Scenarios.create', () => {
  test('default: every scenario of the contract, all off, each with a title and an effect', () => {
    const scenarios = Scenarios.create()
    expect(scenarios.list().map(({ name, on }) => [name, on])).toEqual([
      ['refresh-token-rejected', false],
      ['provider-rate-limited', false],
      ['guardian-unavailable', false],
      ['relayer-failing', false],
      ['relayer-reverting', false],
      ['relayer-stalling', false],
      ['custody-session-expired', false],
      ['node-down', false],
    ])
    for (const entry of scenarios.list()) {
      expect(entry.title).toMatch(/^[^\n]{10,160}\.$/)
      expect(entry.effect).toMatch(/^[^\n]{10,}$/)
    }
  })

  test('behavior: set turns one on and returns its entry; reset turns all off', () => {
    const scenarios = Scenarios.create()
    const entry = scenarios.set('guardian-unavailable', true)
    expect(entry).toEqual({
      name: 'guardian-unavailable',
      on: true,
      ...Scenarios.catalogue['guardian-unavailable'],
    })
    scenarios.set('node-down', true)
    expect(scenarios.isOn('guardian-unavailable')).toBe(true)
    expect(scenarios.isOn('relayer-failing')).toBe(false)
    expect(
      scenarios
        .list()
        .filter((item) => item.on)
        .map((item) => item.name),
    ).toEqual(['guardian-unavailable', 'node-down'])
    expect(scenarios.reset().every((item) => !item.on)).toBe(true)
    expect(scenarios.isOn('node-down')).toBe(false)
  })

  test('error: an unknown name is refused, naming the scenarios', () => {
    const scenarios = Scenarios.create()
    expect(() => scenarios.set('popup-blocked', true)).toThrowError(
      Scenarios.UnknownScenarioError,
    )
    expect(() => scenarios.set('__proto__', true)).toThrowError(
      /^There is no scenario "__proto__"; the scenarios are refresh-token-rejected, /,
    )
    expect(Scenarios.isName('toString')).toBe(false)
  })

  test('behavior: subscribers hear each change once, and stop when they unsubscribe', () => {
    const scenarios = Scenarios.create()
    const heard: string[] = []
    const stop = scenarios.subscribe((entry) =>
      heard.push(`${entry.name}=${entry.on}`),
    )
    scenarios.subscribe(() => {
      throw new Error('a failing listener')
    })
    scenarios.set('relayer-stalling', true)
    scenarios.set('relayer-stalling', true)
    scenarios.reset()
    stop()
    scenarios.set('node-down', true)
    expect(heard).toEqual(['relayer-stalling=true', 'relayer-stalling=false'])
  })

  test('behavior: relayerOutcome follows the relayer scenarios, failing first', () => {
    const scenarios = Scenarios.create()
    expect(Scenarios.relayerOutcome(scenarios)).toBeUndefined()
    scenarios.set('relayer-stalling', true)
    expect(Scenarios.relayerOutcome(scenarios)).toBe('stall')
    scenarios.set('relayer-reverting', true)
    expect(Scenarios.relayerOutcome(scenarios)).toBe('revert')
    scenarios.set('relayer-failing', true)
    expect(Scenarios.relayerOutcome(scenarios)).toBe('fail')
  })
})
