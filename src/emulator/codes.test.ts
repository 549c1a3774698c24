import { describe, expect, test } from 'vitest'
import {
  codeLifetime,
  createCodes,
  maxAttempts,
  maxKeys,
  maxSends,
  sendWindow,
} from './codes.js'

function setup() {
  let time = Date.UTC(2026, 0, 1)
  const codes = createCodes({ now: () => new Date(time) })
  return { codes, advance: (ms: number) => (time += ms) }
}

describe('createCodes', () => {
  test('default: a 6-digit code that works once', () => {
    const { codes } = setup()
    const code = codes.issue('email:ada@example.com')
    expect(code).toMatch(/^\d{6}$/)
    expect(codes.check('email:ada@example.com', ` ${code} `)).toBe('ok')
    expect(codes.check('email:ada@example.com', code)).toBe('expired')
  })

  test('behavior: a code expires after 10 minutes', () => {
    const { codes, advance } = setup()
    expect(codeLifetime).toBe(600_000)
    const code = codes.issue('k')
    advance(codeLifetime)
    expect(codes.check('k', code)).toBe('expired')
  })

  test('error: wrong codes, then the code is burnt', () => {
    const { codes } = setup()
    const code = codes.issue('k') ?? ''
    const wrong = code === '000000' ? '000001' : '000000'
    for (let i = 1; i < maxAttempts; i++)
      expect(codes.check('k', wrong)).toBe('invalid')
    expect(codes.check('k', { not: 'a string' })).toBe('max-attempts')
    expect(codes.check('k', code)).toBe('expired')
  })

  test('error: five sends per key within ten minutes, then throttled', () => {
    const { codes, advance } = setup()
    for (let i = 0; i < maxSends; i++) expect(codes.issue('k')).toBeDefined()
    expect(codes.issue('k')).toBe(undefined)
    expect(codes.throttle('k')).toBe(false)
    expect(codes.issue('other')).toBeDefined()
    advance(sendWindow)
    expect(codes.issue('k')).toBeDefined()
  })

  test('behavior: it remembers at most 10,000 keys; expired ones go first, then the least recently used', () => {
    expect(maxKeys).toBe(10_000)
    const { codes, advance } = setup()
    const early = codes.issue('early') ?? ''
    advance(codeLifetime)
    const kept = codes.issue('kept') ?? ''
    for (let i = 2; i < maxKeys; i++) codes.issue(`key ${i}`)
    // Full: the next key drops what has expired (the early code and its
    // sends), and nothing live.
    const next = codes.issue('next') ?? ''
    expect(codes.check('early', early)).toBe('expired')
    expect(codes.check('kept', kept)).toBe('ok')
    // Full of live keys: the least recently issued goes.
    codes.issue('another')
    codes.issue('and another')
    expect(codes.check('key 2', '000000')).toBe('expired')
    expect(codes.check('next', next)).toBe('ok')
    // The throttle forgot the dropped keys' sends, and still counts the rest.
    for (let i = 1; i < maxSends; i++) codes.issue('next')
    expect(codes.issue('next')).toBe(undefined)
  })
})
