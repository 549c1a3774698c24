import { describe, expect, test } from 'vitest'
import * as Match from './match.js'

const encoded = 'eyJBUElfS0VZIjoicGtfdGVzdCJ9'

describe('Match.matches', () => {
  test('default: a type matches only with the exact params suffix', () => {
    expect(
      Match.matches(
        `MAGIC_HANDLE_RESPONSE-${encoded}`,
        'MAGIC_HANDLE_RESPONSE',
        encoded,
      ),
    ).toBe(true)
    expect(
      Match.matches('MAGIC_HANDLE_RESPONSE', 'MAGIC_HANDLE_RESPONSE', encoded),
    ).toBe(false)
    expect(
      Match.matches(
        `MAGIC_HANDLE_RESPONSE-${encoded}x`,
        'MAGIC_HANDLE_RESPONSE',
        encoded,
      ),
    ).toBe(false)
    expect(
      Match.matches(
        `MAGIC_HANDLE_RESPONSE-${encodeURIComponent(`${encoded}+/=`)}`,
        'MAGIC_HANDLE_RESPONSE',
        `${encoded}+/=`,
      ),
    ).toBe(false)
    expect(
      Match.matches(
        `MAGIC_HANDLE_EVENT-${encoded}`,
        'MAGIC_HANDLE_RESPONSE',
        encoded,
      ),
    ).toBe(false)
  })

  test('behavior: pongs and third-party-wallet requests match by substring', () => {
    expect(Match.matches('MAGIC_PONG', 'MAGIC_PONG', encoded)).toBe(true)
    expect(Match.matches('MAGIC_PONG-other', 'MAGIC_PONG', encoded)).toBe(true)
    expect(
      Match.matches(
        'x-MAGIC_THIRD_PARTY_WALLET_REQUEST-y',
        'MAGIC_THIRD_PARTY_WALLET_REQUEST',
        encoded,
      ),
    ).toBe(true)
    expect(Match.matches('MAGIC_PING-abc', 'MAGIC_PONG', encoded)).toBe(false)
  })
})

describe('Match.isActivity', () => {
  test('default: every message but pongs and 3PW requests is activity', () => {
    expect(Match.isActivity(`MAGIC_OVERLAY_READY-${encoded}`)).toBe(true)
    expect(Match.isActivity(`MAGIC_HANDLE_RESPONSE-${encoded}`)).toBe(true)
    expect(Match.isActivity(`MAGIC_PONG-${encoded}`)).toBe(false)
    expect(
      Match.isActivity(`MAGIC_THIRD_PARTY_WALLET_REQUEST-${encoded}`),
    ).toBe(false)
  })
})

describe('Match.isPong', () => {
  test('default: any msgType containing MAGIC_PONG', () => {
    expect(Match.isPong('MAGIC_PONG')).toBe(true)
    expect(Match.isPong(`MAGIC_PONG-${encoded}`)).toBe(true)
    expect(Match.isPong(`MAGIC_PING-${encoded}`)).toBe(false)
  })
})
