/**
 * The indexer routes' input checks and refusals. Every parameter is read
 * as the OpenAPI description types it (addresses, uint256 token ids as
 * decimal strings, UUIDs, RFC 3339 times, enumerations, booleans, page
 * sizes, the cursors the indexer issued); anything else is a
 * `VALIDATION_ERROR` naming the parameter, never a crash.
 *
 * @packageDocumentation
 */
import type { Context } from 'hono'
import type { Address } from 'viem'
import { apiErrors } from '../../../api/wire/errors.js'
import { refusal as platformRefusal } from '../platform.js'
import {
  type Cursor,
  type Cursors,
  defaultPageSize,
  maxPageSize,
} from './pages.js'

/** One of the API's error kinds. */
export type ErrorKind = keyof typeof apiErrors

/** A refusal a check returns instead of a value. */
export type Refusal = {
  readonly refused: ErrorKind
  readonly message: string
  readonly details: Record<string, unknown> | null
}

/** A refusal of kind `refused`. */
export function refuse(
  refused: ErrorKind,
  message: string,
  details: Record<string, unknown> | null = null,
): Refusal {
  return { refused, message, details }
}

/** Whether a checked value is a refusal. */
export function isRefusal(value: unknown): value is Refusal {
  return (
    typeof value === 'object' &&
    value !== null &&
    'refused' in value &&
    typeof value.refused === 'string' &&
    value.refused in apiErrors
  )
}

/** A refusal of parameter `name`. */
export function invalid(name: string, message: string): Refusal {
  return refuse('validation', message, { parameter: name })
}

/**
 * Answers a refusal in the API's error shape (../platform.ts) with the
 * kind's status.
 */
export function answerRefusal(c: Context, refusal: Refusal) {
  const { body, status } = platformRefusal(
    refusal.refused,
    refusal.message,
    refusal.details,
  )
  return c.json(body, status)
}

/** Reads the query of a request: every value of each name. */
export type Query = {
  all(name: string): string[]
  one(name: string): string | undefined | Refusal
}

/** The query of `c`: single parameters given twice are refused. */
export function queryOf(c: Context): Query {
  const search = new URL(c.req.url).searchParams
  return {
    all: (name) => search.getAll(name),
    one(name) {
      const values = search.getAll(name)
      if (values.length > 1) return invalid(name, `${name} must be given once.`)
      return values[0]
    },
  }
}

const addressPattern = /^0x[0-9a-fA-F]{40}$/
const uuidPattern =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const uint256Max = 2n ** 256n - 1n

/** `value` as a lowercase address, or a refusal naming `name`. */
export function address(
  name: string,
  value: string | undefined,
): Address | Refusal {
  if (value === undefined || !addressPattern.test(value))
    return invalid(name, `${name} must be an address (0x and 40 hex digits).`)
  return value.toLowerCase() as Address
}

/**
 * `value` as a uint256 token id (a decimal string without sign or leading
 * zeros, as the API writes them), or a refusal.
 */
export function tokenId(
  name: string,
  value: string | undefined,
): bigint | Refusal {
  if (value === undefined || !/^(0|[1-9][0-9]{0,77})$/.test(value))
    return invalid(name, `${name} must be a uint256 as a decimal string.`)
  const parsed = BigInt(value)
  if (parsed > uint256Max)
    return invalid(name, `${name} must be a uint256 as a decimal string.`)
  return parsed
}

/** `value` as a lowercase UUID, or a refusal. */
export function uuid(
  name: string,
  value: string | undefined,
): string | Refusal {
  if (value === undefined || !uuidPattern.test(value))
    return invalid(name, `${name} must be a UUID.`)
  return value.toLowerCase()
}

/** A 32-byte hash in hex (a transaction hash), lowercase, or a refusal. */
export function hash(
  name: string,
  value: string | undefined,
): string | Refusal {
  if (value === undefined || !/^0x[0-9a-fA-F]{64}$/.test(value))
    return invalid(
      name,
      `${name} must be a 32-byte hash (0x and 64 hex digits).`,
    )
  return value.toLowerCase()
}

/** One of `values`, or a refusal. */
export function oneOf<const value extends string>(
  name: string,
  input: string | undefined,
  values: readonly value[],
): value | Refusal {
  return values.includes(input as value)
    ? (input as value)
    : invalid(name, `${name} must be one of ${values.join(', ')}.`)
}

/** `true` or `false`, or a refusal. */
export function boolean(
  name: string,
  value: string | undefined,
): boolean | Refusal {
  if (value === 'true') return true
  if (value === 'false') return false
  return invalid(name, `${name} must be true or false.`)
}

/**
 * An RFC 3339 time (`2022-08-16T17:43:26.991388Z`), or a refusal. A `+`
 * offset a query decoded into a space is read back as `+`.
 */
export function dateTime(
  name: string,
  value: string | undefined,
): Date | Refusal {
  const text = value?.replace(' ', '+')
  const refusal = invalid(
    name,
    `${name} must be an RFC 3339 date-time, e.g. 2022-08-16T17:43:26.991388Z.`,
  )
  if (
    text === undefined ||
    !/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/.test(
      text,
    )
  )
    return refusal
  const time = Date.parse(text.toUpperCase())
  return Number.isNaN(time) ? refusal : new Date(time)
}

/** `page_size`: 1 to 200, 100 when left out. */
export function pageSize(value: string | undefined): number | Refusal {
  if (value === undefined) return defaultPageSize
  if (
    !/^[0-9]{1,4}$/.test(value) ||
    Number(value) < 1 ||
    Number(value) > maxPageSize
  )
    return invalid(
      'page_size',
      `page_size must be an integer from 1 to ${maxPageSize}.`,
    )
  return Number(value)
}

/** `page_cursor`: one the indexer issued for `route`, or none. */
export function pageCursor(
  cursors: Cursors,
  route: string,
  value: string | undefined,
): Cursor | undefined | Refusal {
  if (value === undefined) return undefined
  return (
    cursors.decode(value, route) ??
    invalid('page_cursor', 'page_cursor is not a cursor this list gave.')
  )
}

/** Every value of a list parameter, checked, with its count bounded. */
export function list<value>(
  name: string,
  values: readonly string[],
  check: (name: string, value: string) => value | Refusal,
  bounds: { min?: number; max?: number } = {},
): value[] | Refusal {
  const { min = 0, max = Number.POSITIVE_INFINITY } = bounds
  if (values.length < min)
    return invalid(
      name,
      min === 1
        ? `${name} is required.`
        : `${name} needs at least ${min} values.`,
    )
  if (values.length > max)
    return invalid(name, `${name} takes at most ${max} values.`)
  const out: value[] = []
  for (const value of values) {
    const checked = check(name, value)
    if (isRefusal(checked)) return checked
    out.push(checked)
  }
  return out
}

/** The first refusal among checked values, if any. */
export function firstRefusal(values: readonly unknown[]): Refusal | undefined {
  return values.find(isRefusal)
}

/** A checked optional parameter: `undefined` when not given. */
export function optional<value>(
  input: string | undefined | Refusal,
  check: (value: string) => value,
): value | undefined | Refusal {
  if (isRefusal(input)) return input
  return input === undefined ? undefined : check(input)
}

/** A parameter checked even when not given (its check has a default). */
export function refusalOr<value>(
  input: string | undefined | Refusal,
  check: (value: string | undefined) => value,
): value | Refusal {
  return isRefusal(input) ? input : check(input)
}

/** The checked values of a record of checks, refusals excluded. */
export type Checked<record> = {
  [key in keyof record]: Exclude<record[key], Refusal>
}

/** The checked values of `given`, or its first refusal. */
export function checkAll<record extends Record<string, unknown>>(
  given: record,
): Checked<record> | Refusal {
  return firstRefusal(Object.values(given)) ?? (given as Checked<record>)
}

/** `page_size` and `page_cursor` of a list `route`. */
export function pageParams(query: Query, cursors: Cursors, route: string) {
  return {
    size: refusalOr(query.one('page_size'), pageSize),
    cursor: refusalOr(query.one('page_cursor'), (value) =>
      pageCursor(cursors, route, value),
    ),
  }
}
