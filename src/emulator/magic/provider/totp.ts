/**
 * TOTP (RFC 6238, 6 digits, 30 s, SHA-1) for MFA, and single-use recovery
 * codes stored as SHA-256 hashes.
 */
import { createHash, randomBytes } from 'node:crypto'
import * as OTPAuth from 'otpauth'

/** The issuer shown in authenticator apps. */
export const issuer = 'Emulated Wallet'
/** How many recovery codes enabling MFA hands out. */
export const recoveryCodeCount = 8

/** A new random base32 secret (160 bits). */
export function createSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32
}

function totpOf(secret: string, label: string) {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secret),
  })
}

/** The `otpauth://` URI of a secret. */
export function uriOf(secret: string, label: string): string {
  return totpOf(secret, label).toString()
}

/** Whether `code` is valid at `now`, one 30 s step either side. */
export function verifyTotp(secret: string, code: unknown, now: Date): boolean {
  if (typeof code !== 'string' || !/^\d{6}$/.test(code.trim())) return false
  return (
    totpOf(secret, 'x').validate({
      token: code.trim(),
      timestamp: now.getTime(),
      window: 1,
    }) !== null
  )
}

/** Hash of a recovery code as stored. */
export function hashCode(code: string): string {
  return createHash('sha256').update(code.trim().toUpperCase()).digest('hex')
}

/** New recovery codes (10 hex characters each) and their hashes. */
export function createRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: recoveryCodeCount }, () =>
    randomBytes(5).toString('hex').toUpperCase(),
  )
  return { codes, hashes: codes.map(hashCode) }
}

/**
 * Uses up a recovery code: removes its hash from `hashes`.
 *
 * @returns Whether the code was one of them.
 */
export function consumeRecoveryCode(hashes: string[], code: unknown): boolean {
  if (typeof code !== 'string') return false
  const index = hashes.indexOf(hashCode(code))
  if (index === -1) return false
  hashes.splice(index, 1)
  return true
}
