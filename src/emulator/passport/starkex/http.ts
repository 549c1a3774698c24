/**
 * What every route module of the emulated StarkEx exchange shares: its
 * state and collaborators ({@link Deps}), the error answers (the platform's
 * `{ code, message, details }`), the bearer check, and the readers of the
 * request fields the legacy exchange API takes (tokens, base-unit amounts,
 * vault ids, nonces, asset ids, Stark keys, pages).
 *
 * A route module is a function `xxxRoutes(app, deps)` that mounts its
 * routes on the exchange's Hono app (see service.ts).
 *
 * @packageDocumentation
 */
import type { Context as HonoContext, MiddlewareHandler } from 'hono'
import { type Address, getAddress, isAddress } from 'viem'
import type { Guardian } from '../../guardian.js'
import type { Registry, User } from '../../registry/index.js'
import type { Bearer, Verifier } from '../bearer.js'
import { fail } from '../platform.js'
import type { Credential } from './credentials.js'

export { fail }

import type { ExchangeStore } from './exchanges.js'
import type { Account, AssetInfo, Ledger } from './ledger.js'
import { ethQuantum, quantumOf } from './ledger.js'
import { type Asset, assetId, normalizeStarkKey } from './stark.js'
import type { TransferStore } from './transfers.js'

/** The exchange's state and collaborators, handed to every route module. */
export type Deps = {
  readonly ledger: Ledger
  /** The emulator's users: players carry their StarkEx registration. */
  readonly registry: Registry
  /** The guardian's shared register of StarkEx requests and verdicts. */
  readonly guardian: Guardian
  /** The identity provider's origin: its tokens' issuer. */
  readonly issuer: string
  /** Checks bearer tokens of {@link Deps.issuer}. */
  readonly verifier: Verifier
  /** The clock, in ms since the epoch. */
  readonly now: () => number
  /**
   * The next transaction id: transfers (and the other records of the
   * exchange) share one increasing sequence, as the hosted exchange's
   * `transaction_id`s did.
   */
  readonly nextTransactionId: () => number
  /**
   * The exchange's `verification_signature` of a signable answer: its
   * operator key's EIP-191 signature over the readable transaction and
   * the payload hash (no client checks it; it is a real signature all
   * the same).
   */
  readonly verificationSignature: (
    readable: string,
    payloadHash: string,
  ) => Promise<string>
  /** The transfers made, for the transfers lists. */
  readonly transfers: TransferStore
  /** The exchanges (on/off-ramps) created. */
  readonly exchanges: ExchangeStore
}

/** The Hono environment of the exchange's routes. */
export type StarkExEnv = {
  Variables: {
    bearer: Bearer
    player: User
    /** What a create that moves assets was sent as its credential. */
    credential: Credential
  }
}

/**
 * The player of an `Authorization` header: a valid access token of the
 * identity provider naming one of its users, or why not (RFC 6750's
 * `error_description`).
 */
export async function playerOf(
  deps: Deps,
  authorization: string | undefined,
): Promise<
  | { ok: true; bearer: Bearer; player: User }
  | { ok: false; description: string }
> {
  const checked = await deps.verifier(authorization)
  if (!checked.ok) return checked
  const user = deps.registry.get(checked.sub)
  // A player is an identity provider's user (keyed by email): a custody
  // key's registry user must not pass for one.
  if (!user || user.oidc !== undefined)
    return {
      ok: false,
      description: 'The token names no player of this emulator.',
    }
  const { ok: _, ...bearer } = checked
  return { ok: true, bearer, player: user }
}

/**
 * Lets only requests with a valid access token of a player through, and
 * keeps the bearer and the player in `c.var`; others get 401
 * `UNAUTHORISED_REQUEST` with an RFC 6750 challenge.
 */
export function requirePlayer(deps: Deps): MiddlewareHandler<StarkExEnv> {
  return async (c, next) => {
    const checked = await playerOf(deps, c.req.header('authorization'))
    if (!checked.ok) {
      c.header(
        'WWW-Authenticate',
        `Bearer error="invalid_token", error_description="${checked.description}"`,
      )
      return fail(c, 'unauthorised', checked.description)
    }
    c.set('bearer', checked.bearer)
    c.set('player', checked.player)
    await next()
  }
}

/** The StarkEx account of a player, once registered. */
export function accountOfPlayer(deps: Deps, player: User): Account | undefined {
  const address = player.passport.imxEthAddress
  return address === undefined ? undefined : deps.ledger.accountOf(address)
}

/** The text of a refusal for a player who has not registered. */
export const notRegistered =
  'The player is not registered with StarkEx: POST /v2/passport/users first.'

/**
 * The request's JSON body, or `undefined` when it is not JSON. The server
 * has bounded its size already.
 */
export async function readJson(c: HonoContext): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text())
  } catch {
    return undefined
  }
}

/** Whether `value` is a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `value` as a checksummed address, or `undefined`. */
export function addressOf(value: unknown): Address | undefined {
  return typeof value === 'string' && isAddress(value, { strict: false })
    ? getAddress(value.toLowerCase())
    : undefined
}

/** A checked value, or why the field is not one. */
export type Read<value> =
  | { readonly ok: true; readonly value: value }
  | { readonly ok: false; readonly message: string }

const ok = <value>(value: value): Read<value> => ({ ok: true, value })
const no = <value>(message: string): Read<value> => ({ ok: false, message })

/** A decimal string of an unsigned integer below 2^256, as a bigint. */
export function decimalOf(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !/^(0|[1-9][0-9]{0,77})$/.test(value))
    return undefined
  const parsed = BigInt(value)
  return parsed < 1n << 256n ? parsed : undefined
}

/** A JSON integer `0 <= n < 2^31` (vault ids, nonces). */
export function uint31Of(value: unknown): number | undefined {
  return typeof value === 'number' &&
    Number.isSafeInteger(value) &&
    value >= 0 &&
    value < 2 ** 31
    ? value
    : undefined
}

/** A `0x`-hex asset id below 2^256, as a bigint. */
export function assetIdOf(value: unknown): bigint | undefined {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)
    ? BigInt(value)
    : undefined
}

/** A Stark key field of a request, normalised (see {@link normalizeStarkKey}). */
export function starkKeyOf(value: unknown): string | undefined {
  return normalizeStarkKey(value)
}

/**
 * The asset a token descriptor (`{ type, data }`, as the legacy API's
 * `SignableToken`) names among those the exchange holds: ETH, an ERC20 the
 * exchange knows (its decimals come from when it was first minted), or an
 * ERC721 token it holds.
 */
export function knownTokenOf(deps: Deps, token: unknown): Read<AssetInfo> {
  const parsed = tokenOf(token)
  if (!parsed.ok) return parsed
  const { type } = parsed.value
  if (type === 'ETH')
    return ok(deps.ledger.learnAsset({ type: 'ETH', quantum: ethQuantum }, 18))
  if (type === 'ERC20') {
    const known = deps.ledger.erc20(parsed.value.tokenAddress)
    return known
      ? ok(known)
      : no(
          `The exchange holds no ERC20 ${parsed.value.tokenAddress}: mint some first.`,
        )
  }
  const known = deps.ledger.asset(
    assetId({
      type,
      tokenAddress: parsed.value.tokenAddress,
      tokenId: parsed.value.tokenId,
    }),
  )
  return known
    ? ok(known)
    : no(
        `The exchange holds no ERC721 ${parsed.value.tokenAddress} #${parsed.value.tokenId}.`,
      )
}

/** A token descriptor read from a request, before the exchange looks it up. */
export type TokenRequest =
  | { type: 'ETH'; decimals: number }
  | { type: 'ERC20'; tokenAddress: Address; decimals: number | undefined }
  | { type: 'ERC721'; tokenAddress: Address; tokenId: bigint }

/** Reads a token descriptor `{ type, data }` of the legacy API. */
export function tokenOf(token: unknown): Read<TokenRequest> {
  const shape =
    'token must be { type: "ETH" | "ERC20" | "ERC721", data: { … } }.'
  if (!isRecord(token) || !isRecord(token.data)) return no(shape)
  const { data } = token
  const decimals =
    data.decimals === undefined
      ? undefined
      : typeof data.decimals === 'number' &&
          Number.isInteger(data.decimals) &&
          data.decimals >= 0 &&
          data.decimals <= 36
        ? data.decimals
        : null
  if (decimals === null)
    return no('token.data.decimals must be a whole number from 0 to 36.')
  switch (token.type) {
    case 'ETH':
      if (decimals !== undefined && decimals !== 18)
        return no('ETH has 18 decimals.')
      return ok({ type: 'ETH', decimals: 18 })
    case 'ERC20': {
      const tokenAddress = addressOf(data.token_address)
      if (!tokenAddress)
        return no('token.data.token_address must be an Ethereum address.')
      return ok({ type: 'ERC20', tokenAddress, decimals })
    }
    case 'ERC721': {
      const tokenAddress = addressOf(data.token_address)
      if (!tokenAddress)
        return no('token.data.token_address must be an Ethereum address.')
      const tokenId = decimalOf(data.token_id)
      if (tokenId === undefined)
        return no('token.data.token_id must be a decimal string below 2^256.')
      return ok({ type: 'ERC721', tokenAddress, tokenId })
    }
    default:
      return no(shape)
  }
}

/** The StarkEx asset of a token descriptor with its decimals (for minting). */
export function assetOfToken(token: TokenRequest, decimals: number): Asset {
  if (token.type === 'ETH') return { type: 'ETH', quantum: ethQuantum }
  if (token.type === 'ERC721')
    return {
      type: 'ERC721',
      tokenAddress: token.tokenAddress,
      tokenId: token.tokenId,
    }
  return {
    type: 'ERC20',
    tokenAddress: token.tokenAddress,
    quantum: quantumOf('ERC20', decimals),
  }
}

/** The largest quantized amount StarkEx signs (below 2^63). */
const maxQuantized = (1n << 63n) - 1n

/**
 * A base-unit amount (a decimal string, wei for ETH) as quantized units of
 * `asset`: positive, a whole multiple of its quantum, below 2^63 quantized.
 * An ERC721's amount must be `'1'`.
 */
export function quantize(
  field: string,
  value: unknown,
  asset: AssetInfo,
): Read<bigint> {
  const amount = decimalOf(value)
  if (amount === undefined || amount === 0n)
    return no(`${field} must be a positive decimal string of base units.`)
  if (asset.type === 'ERC721')
    return amount === 1n ? ok(1n) : no(`${field} of an ERC721 must be '1'.`)
  if (amount % asset.quantum !== 0n)
    return no(
      `${field} ${amount} is not a whole multiple of the token's quantum ${asset.quantum}.`,
    )
  const quantized = amount / asset.quantum
  if (quantized > maxQuantized)
    return no(`${field} ${amount} is more than StarkEx can move at once.`)
  return ok(quantized)
}

/** Expirations are hours since the epoch; a signable lasts 30 days by default. */
export const defaultExpirationHours = 30 * 24

/** The latest expiration StarkEx signs (below 2^22 hours). */
const maxExpiration = 2 ** 22 - 1

/**
 * The expiration of a signable request, in hours since the epoch: the
 * request's own `expiration_timestamp` (seconds, rounded down to the hour)
 * when given, else now plus {@link defaultExpirationHours}.
 */
export function expirationOf(deps: Deps, requested: unknown): Read<number> {
  if (requested === undefined || requested === null)
    return ok(Math.floor(deps.now() / 3_600_000) + defaultExpirationHours)
  if (
    typeof requested !== 'number' ||
    !Number.isSafeInteger(requested) ||
    requested < 0
  )
    return no('expiration_timestamp must be a whole number of seconds.')
  const hours = Math.floor(requested / 3600)
  if (hours > maxExpiration)
    return no('expiration_timestamp is later than StarkEx can sign.')
  if (hours * 3_600_000 <= deps.now())
    return no('expiration_timestamp is in the past.')
  return ok(hours)
}

/** Whether a request expiring at `hours` (since the epoch) has expired. */
export function isExpired(deps: Deps, hours: number): boolean {
  return hours * 3_600_000 <= deps.now()
}

/** The base units of a quantized amount of `asset`, as a decimal string. */
export function baseUnits(quantized: bigint, asset: AssetInfo): string {
  return (quantized * (asset.type === 'ERC721' ? 1n : asset.quantum)).toString()
}

/** The largest page a list answers. */
export const maxPageSize = 200

/** A list request's page: its size and where it starts. */
export type Page = { readonly size: number; readonly offset: number }

/**
 * Reads `page_size` (1 to {@link maxPageSize}, 100 by default) and `cursor`
 * (one this exchange answered: the offset of the next item, base64url).
 */
export function pageOf(c: HonoContext): Read<Page> {
  const sizeText = c.req.query('page_size')
  const size = sizeText === undefined ? 100 : Number(sizeText)
  if (!Number.isInteger(size) || size < 1 || size > maxPageSize)
    return no(`page_size must be a whole number from 1 to ${maxPageSize}.`)
  const cursor = c.req.query('cursor')
  if (cursor === undefined || cursor === '') return ok({ size, offset: 0 })
  const decoded = /^[A-Za-z0-9_-]{1,24}$/.test(cursor)
    ? Buffer.from(cursor, 'base64url').toString()
    : ''
  const offset = /^[0-9]{1,9}$/.test(decoded) ? Number(decoded) : Number.NaN
  if (!Number.isInteger(offset))
    return no('cursor is not one this exchange answered.')
  return ok({ size, offset })
}

/** One page of `items` as the legacy API answers lists. */
export function pageAnswer<item>(
  items: readonly item[],
  page: Page,
): { cursor: string; remaining: number; result: item[] } {
  const end = page.offset + page.size
  const result = items.slice(page.offset, end)
  const remaining = end < items.length ? 1 : 0
  return {
    cursor: remaining ? Buffer.from(String(end)).toString('base64url') : '',
    remaining,
    result,
  }
}

/** Reads `direction` (`asc` or `desc`, default `desc`). */
export function directionOf(c: HonoContext): Read<'asc' | 'desc'> {
  const direction = c.req.query('direction') ?? 'desc'
  return direction === 'asc' || direction === 'desc'
    ? ok(direction)
    : no("direction must be 'asc' or 'desc'.")
}

/**
 * A list's records sorted by the key its `order_by` names, in `direction`;
 * records with equal keys keep the order of `tie` (their id, their creation), so
 * pages never overlap. An `order_by` that names no key is refused with the
 * keys there are.
 */
export function sortedBy<record>(
  records: readonly record[],
  keys: Record<string, (record: record) => bigint | number | string>,
  orderBy: string,
  direction: 'asc' | 'desc',
  tie: (record: record) => number,
): Read<record[]> {
  const key = Object.hasOwn(keys, orderBy) ? keys[orderBy] : undefined
  if (!key)
    return no(`order_by must be one of ${Object.keys(keys).join(', ')}.`)
  const sign = direction === 'asc' ? 1 : -1
  return ok(
    [...records].sort((a, b) => {
      const x = key(a)
      const y = key(b)
      return (x < y ? -1 : x > y ? 1 : tie(a) - tie(b)) * sign
    }),
  )
}

/**
 * Reads the token filters the legacy lists share (`token_type`, `token_id`,
 * `token_address`; `q` answers a query parameter, empty as absent) into
 * tests on a record's asset.
 */
export function tokenFiltersOf(
  q: (name: string) => string | undefined,
): Read<((asset: AssetInfo) => boolean)[]> {
  const tests: ((asset: AssetInfo) => boolean)[] = []
  const type = q('token_type')
  if (type !== undefined) {
    if (!['ETH', 'ERC20', 'ERC721'].includes(type))
      return no("token_type must be 'ETH', 'ERC20' or 'ERC721'.")
    tests.push((asset) => asset.type === type)
  }
  const tokenId = q('token_id')
  if (tokenId !== undefined) {
    const id = decimalOf(tokenId)
    if (id === undefined) return no('token_id must be a decimal string.')
    tests.push((asset) => asset.type === 'ERC721' && asset.tokenId === id)
  }
  const tokenAddress = q('token_address')
  if (tokenAddress !== undefined) {
    const address = addressOf(tokenAddress)
    if (!address) return no('token_address must be an Ethereum address.')
    tests.push(
      (asset) =>
        asset.type !== 'ETH' &&
        asset.tokenAddress.toLowerCase() === address.toLowerCase(),
    )
  }
  return ok(tests)
}

/** Reads an RFC 3339 timestamp query parameter as ms since the epoch. */
export function timeOf(c: HonoContext, name: string): Read<number | undefined> {
  const text = c.req.query(name)
  if (text === undefined || text === '') return ok(undefined)
  const time = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN
  return Number.isNaN(time)
    ? no(`${name} must be an RFC 3339 timestamp.`)
    : ok(time)
}
