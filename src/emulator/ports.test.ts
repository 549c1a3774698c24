import { describe, expect, test } from 'vitest'
import {
  defaultPortBase,
  getPorts,
  InvalidPortBaseError,
  isValidPortBase,
  maxPortBase,
} from './ports.js'

describe('getPorts', () => {
  test('default: the dev mailbox on 4400, the other services after it', () => {
    expect(defaultPortBase).toBe(4400)
    expect(getPorts()).toEqual({
      dev: 4400,
      magic: 4401,
      identity: 4402,
      relayer: 4403,
      guardian: 4404,
      api: 4405,
      passport: 4406,
      tee: 4407,
      starkex: 4408,
    })
  })

  test('param: portBase moves every service', () => {
    expect(getPorts(5000)).toEqual({
      dev: 5000,
      magic: 5001,
      identity: 5002,
      relayer: 5003,
      guardian: 5004,
      api: 5005,
      passport: 5006,
      tee: 5007,
      starkex: 5008,
    })
  })

  test('behavior: the highest port base puts the last service on 65535', () => {
    expect(maxPortBase).toBe(65_527)
    expect(getPorts(maxPortBase).starkex).toBe(65_535)
  })

  test('error: a port base whose services overflow 65535', () => {
    expect(() => getPorts(65_528)).toThrowError(InvalidPortBaseError)
    expect(() => getPorts(65_528)).toThrowErrorMatchingInlineSnapshot(
      `[Ports.InvalidPortBaseError: Invalid port base 65528: it must be an integer from 1 to 65527, so that all 9 service ports fit in 1..65535.]`,
    )
  })

  test('error: zero, negative and fractional port bases', () => {
    for (const portBase of [0, -1, 4400.5, Number.NaN])
      expect(() => getPorts(portBase)).toThrowError(InvalidPortBaseError)
  })
})

describe('isValidPortBase', () => {
  test('default: accepts exactly 1..65527', () => {
    expect([1, 4400, 65_527].map(isValidPortBase)).toEqual([true, true, true])
    expect([0, 65_528, 1.5].map(isValidPortBase)).toEqual([false, false, false])
  })
})
