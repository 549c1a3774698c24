/** How the page writes addresses, amounts, times and failures. */

/** `0x1234…abcd`: enough of an address to tell two apart in a sentence. */
export function shortHex(value: string): string {
  return value.length <= 14 ? value : `${value.slice(0, 6)}…${value.slice(-4)}`
}

const dateTime = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
})

/** A moment as local date and time, e.g. `12 Jun 2025, 14:03:07`. */
export function formatDateTime(at: Date): string {
  return dateTime.format(at)
}

/**
 * A decimal amount with at most `digits` fraction digits, cut (not rounded)
 * so that a balance is never shown larger than it is.
 */
export function trimDecimals(amount: string, digits = 6): string {
  const [whole, fraction = ''] = amount.split('.')
  const kept = fraction.slice(0, digits).replace(/0+$/, '')
  return kept ? `${whole}.${kept}` : (whole ?? amount)
}

/** JSON with bigints as decimal strings (receipts and balances hold them). */
export function toJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, item: unknown) =>
      typeof item === 'bigint' ? item.toString() : item,
    2,
  )
}

/**
 * The message of a failure as a person should read it. viem and wagmi errors
 * carry a short message and, in `details`, what the wallet or node said;
 * both are kept. The wallets' own errors (`MagicRPCError`, the game wallet's
 * `PassportError` and its provider's errors) carry their message, with the
 * game wallet's error type (e.g. `AUTHENTICATION_ERROR`) in front when
 * there is one.
 */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const { shortMessage, details, type } = error as {
    shortMessage?: unknown
    details?: unknown
    type?: unknown
  }
  let text = error.message
  if (typeof shortMessage === 'string' && shortMessage !== '') {
    const detail = typeof details === 'string' ? details.trim() : ''
    text =
      detail && !shortMessage.includes(detail)
        ? `${shortMessage} ${detail}`
        : shortMessage
  }
  return typeof type === 'string' ? `${type}: ${text}` : text
}
