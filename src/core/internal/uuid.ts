/** Random UUIDs for the EIP-6963 announcement. */

/**
 * A random UUID v4 in its canonical 36-character form: `crypto.randomUUID`,
 * or the same from `getRandomValues` on insecure pages (where `randomUUID`
 * is missing). Unlike the published SDK, whose fallback hex-encodes the
 * bytes without zero padding, the length never varies.
 */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')
}
