/**
 * Contacts: the email addresses and phone numbers users log in with and
 * codes are delivered to. The registry keys users by them and the mailbox
 * files messages under them, so both normalise them the same way.
 *
 * @packageDocumentation
 */

/**
 * Normalises a contact so that the same person always maps to the same
 * user and the same mailbox: an email (anything with an `@`) is trimmed and
 * lower-cased; a phone number loses its spaces, dashes and parentheses, and
 * any `+` but a leading one (an HTML form sends the spaces of `+1 555` as
 * `+`).
 *
 * @example
 * ```ts
 * normalizeContact(' Ada@Example.COM ') // 'ada@example.com'
 * normalizeContact('+1 (555) 010-0000') // '+15550100000'
 * ```
 *
 * @param address - An email address or a phone number.
 * @returns The normalised address.
 */
export function normalizeContact(address: string): string {
  const trimmed = address.trim()
  if (trimmed.includes('@')) return trimmed.toLowerCase()
  return trimmed.replace(/[\s\-()]/g, '').replace(/(?!^)\+/g, '')
}

/** The longest email address: 254 characters (RFC 5321's path limit). */
export const maxEmailLength = 254

/**
 * Labels separated by dots, none empty: a pattern that cannot backtrack
 * (each label excludes the dot), so a long input is checked in linear time.
 */
const emailPattern = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

/**
 * Whether `value` is an email address the emulator accepts: at most 254
 * characters, no whitespace, a local part, an `@` and a domain of at least
 * two dot-separated labels. The length is checked first, so hostile input
 * costs nothing.
 *
 * @example
 * ```ts
 * isEmailAddress('ada@example.com') // true
 * isEmailAddress('ada@localhost') // false
 * ```
 */
export function isEmailAddress(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= maxEmailLength &&
    emailPattern.test(value)
  )
}
