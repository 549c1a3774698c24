/** Reading the iframe's `?params=` (the encoded wire params). */
import * as Messages from '../../../../magic/wire/messages.js'

/** The raw `params` query value, percent-decoded but with `+` kept. */
export function readParams(search: string): string | undefined {
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const separator = pair.indexOf('=')
    if (separator === -1 || pair.slice(0, separator) !== 'params') continue
    const value = pair.slice(separator + 1)
    try {
      return decodeURIComponent(value) || undefined
    } catch {
      return undefined
    }
  }
  return undefined
}

/** The host page's origin from the params, if it is a real origin. */
export function hostOrigin(
  encodedParams: string | undefined,
): string | undefined {
  if (encodedParams === undefined) return undefined
  try {
    const origin = Messages.decodeParams(encodedParams).DOMAIN_ORIGIN
    return new URL(origin).origin === origin ? origin : undefined
  } catch {
    return undefined
  }
}
