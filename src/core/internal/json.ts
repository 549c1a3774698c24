/** JSON checks for `Storage.local`. */

/** Names the first value in `value` that JSON cannot round-trip. */
export function findUnsupported(
  value: unknown,
  seen = new Set<object>(),
): string | undefined {
  if (value === null || value === undefined) return
  if (typeof value === 'string' || typeof value === 'boolean') return
  if (typeof value === 'number')
    return Number.isFinite(value) ? undefined : String(value)
  if (typeof value !== 'object') return typeof value
  if (seen.has(value)) return 'circular object'
  seen.add(value)
  const prototype = Object.getPrototypeOf(value)
  if (
    !Array.isArray(value) &&
    prototype !== Object.prototype &&
    prototype !== null
  )
    return (
      (value.constructor as { name?: string } | undefined)?.name || 'object'
    )
  for (const item of Object.values(value)) {
    const unsupported = findUnsupported(item, seen)
    if (unsupported) return unsupported
  }
  seen.delete(value)
}
