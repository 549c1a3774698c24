/**
 * What counts as local. The emulator runs on a developer's machine while
 * they browse, so any page they open can send it requests; only pages on
 * loopback origins (the dApp under development, the playground, a test
 * page, on any port) may read its secrets or steer it. The same rule says
 * which redirect URIs and logout `returnTo`s the emulated identity provider
 * accepts.
 *
 * @packageDocumentation
 */

/** The hosts that count as loopback. */
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * Tells whether `value` is an absolute `http:` URL on a loopback host (any
 * port, any path), without credentials or fragment.
 *
 * @example
 * ```ts
 * isLoopbackUrl('http://localhost:5173/passport/redirect') // true
 * isLoopbackUrl('https://example.com/callback') // false
 * ```
 */
export function isLoopbackUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false
  const url = URL.parse(value)
  return (
    url !== null &&
    url.protocol === 'http:' &&
    loopbackHosts.has(url.hostname) &&
    url.username === '' &&
    url.password === '' &&
    url.hash === '' &&
    !value.includes('#')
  )
}

/**
 * Tells whether `origin` (an `Origin` header) is a loopback `http:` origin.
 *
 * @example
 * ```ts
 * isLoopbackOrigin('http://127.0.0.1:63315') // true
 * isLoopbackOrigin('null') // false
 * ```
 */
export function isLoopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined || !isLoopbackUrl(origin)) return false
  return new URL(origin).origin === origin
}
