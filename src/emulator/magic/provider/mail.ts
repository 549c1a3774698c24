/**
 * The addresses the provider cannot deliver email to: those under the
 * `.invalid` top-level domain, which RFC 2606 reserves for names that never
 * resolve, so no mail server accepts mail for them. The flows meet them as
 * a hosted provider meets an address its mail service has marked inactive
 * (a hard bounce): the flow's `…not-deliverable` event, where it has one,
 * and -10010 (inactive recipient) when the flow cannot go on without that
 * address.
 *
 * @packageDocumentation
 */

/**
 * Whether email to `email` (a checked address) can be delivered.
 *
 * @example
 * ```ts
 * isDeliverable('ada@example.com') // true
 * isDeliverable('ada@bounce.invalid') // false
 * ```
 */
export function isDeliverable(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase()
  return domain !== 'invalid' && !domain.endsWith('.invalid')
}
