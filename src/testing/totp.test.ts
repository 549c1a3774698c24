import * as OTPAuth from 'otpauth'
import { describe, expect, test } from 'vitest'
import { totp } from './totp.js'

describe('totp', () => {
  test("behavior: RFC 6238's SHA-1 vectors, as 6 digits", () => {
    // The RFC's secret is the ASCII "12345678901234567890".
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'
    expect(totp(secret, new Date(59_000))).toBe('287082')
    expect(totp(secret, new Date(1_111_111_109_000))).toBe('081804')
    expect(totp(secret, new Date(1_234_567_890_000))).toBe('005924')
    expect(totp(secret, new Date(20_000_000_000_000))).toBe('353130')
  })

  test('behavior: the same codes as an authenticator library, spaces and case ignored', () => {
    const secret = new OTPAuth.Secret({ size: 20 }).base32
    const reference = new OTPAuth.TOTP({
      secret: OTPAuth.Secret.fromBase32(secret),
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
    })
    for (const at of [0, 29_999, 30_000, 1_700_000_000_000]) {
      const expected = reference.generate({ timestamp: at })
      expect(totp(secret, new Date(at))).toBe(expected)
      expect(
        totp(secret.toLowerCase().replace(/(.{4})/g, '$1 '), new Date(at)),
      ).toBe(expected)
    }
  })

  test('error: a secret that is not base32', () => {
    expect(() => totp('not base32!')).toThrow(
      'An MFA secret is base32 (A–Z, 2–7).',
    )
    expect(() => totp('')).toThrow(TypeError)
  })
})
