/**
 * The authenticator app of a test: TOTP codes (RFC 6238: HMAC-SHA-1, 6
 * digits, 30-second steps) from a base32 secret, as the iframe wallet's MFA
 * screens show it and as every authenticator app computes them.
 *
 * @packageDocumentation
 */
import { createHmac } from 'node:crypto'

/** The RFC 4648 base32 alphabet. */
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/**
 * The 6-digit code of `secret` (base32, as the wallet's MFA setup screen
 * shows it; spaces and `=` padding ignored) at `now`.
 *
 * @example
 * ```ts
 * totp('JBSWY3DPEHPK3PXP', new Date(59_000)) // '996554'
 * ```
 *
 * @throws {TypeError} If `secret` is not base32.
 */
export function totp(secret: string, now: Date = new Date()): string {
  const key = base32(secret)
  // RFC 6238: the counter is the number of whole 30 s steps since the
  // epoch, as an 8-byte big-endian integer.
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(now.getTime() / 1000 / 30)))
  const mac = createHmac('sha1', key).update(counter).digest()
  // RFC 4226's dynamic truncation: 31 bits from the offset the last nibble
  // names.
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f
  const value = mac.readUInt32BE(offset) & 0x7fffffff
  return String(value % 1_000_000).padStart(6, '0')
}

function base32(secret: string): Buffer {
  const text = secret.replace(/[\s=]/g, '').toUpperCase()
  if (text === '' || [...text].some((c) => !alphabet.includes(c)))
    throw new TypeError('An MFA secret is base32 (A–Z, 2–7).')
  const bytes: number[] = []
  let bits = 0
  let buffer = 0
  for (const character of text) {
    buffer = (buffer << 5) | alphabet.indexOf(character)
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push((buffer >> bits) & 0xff)
    }
  }
  return Buffer.from(bytes)
}
