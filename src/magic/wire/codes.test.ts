import { describe, expect, test } from 'vitest'
import { isKnownRpcCode, rpcCodes } from './codes.js'

describe('isKnownRpcCode', () => {
  test('behavior: exactly the codes of rpcCodes are known, over every integer from -33000 to 0', () => {
    const codes = new Set<number>(Object.values(rpcCodes))
    const wrong: number[] = []
    for (let code = -33_000; code <= 0; code++)
      if (isKnownRpcCode(code) !== codes.has(code)) wrong.push(code)
    expect(wrong).toEqual([])
    expect(codes.size).toBe(26)
  })

  test('error: anything but such a number is unknown', () => {
    for (const value of [
      -10000.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '-10000',
      null,
      undefined,
      {},
    ])
      expect(isKnownRpcCode(value)).toBe(false)
  })
})
