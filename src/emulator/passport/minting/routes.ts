/**
 * The mint request routes of the platform API (OpenAPI tag nfts), under
 * `/v1/chains/{chain_name}/collections/{contract_address}/nfts/mint-requests`:
 *
 * - `POST` (`CreateMintRequest`): `{ assets: MintAsset[] }`, 1 to 100
 *   assets, answers 202 with the key's mint budget (body and headers);
 * - `GET` (`ListMintRequests`): the collection's records, `page_size`,
 *   `page_cursor`, `status`;
 * - `GET …/{reference_id}` (`GetMintRequest`): `{ result: [record], page }`.
 *
 * All three take the platform's secret key (`x-immutable-api-key`, the
 * spec's `ImmutableApiKey` scheme): 401 `UNAUTHORISED_REQUEST` without it
 * or with another. A collection the emulator does not mint on is 403
 * `AUTHENTICATION_ERROR`: the hosted API mints only on the preset
 * collections whose minter role the project granted it, so for any other
 * contract the key lacks the right, whereas the collection itself may
 * well exist (the indexer serves it). A reference id in use (pending or
 * minted) or given twice, or an ERC-721 token id given twice, is 409
 * `CONFLICT_ERROR`; a failed reference id may be used again, as the
 * hosted API allows.
 *
 * The budget is 2,000 distinct token ids a minute (the hosted API's
 * documented Standard-tier burst, and the limit its documented answers
 * show), counted as the hosted API counts them: one per ERC-721 asset,
 * one per distinct ERC-1155 token id of a request.
 *
 * @packageDocumentation
 */
import type { Context, Env, Hono } from 'hono'
import { type Address, isAddress, zeroAddress } from 'viem'
import { MintRequestStatus } from '../../../api/wire/enumerations.js'
import { type ApiErrorCode, apiErrorStatus } from '../../../api/wire/errors.js'
import { apiKeyHeader } from '../../../api/wire/headers.js'
import type { components } from '../../../api/wire/mr/schema.generated.js'
import { chainNameOf } from '../api/chains.js'
import { contentOfInput } from '../indexer/metadata.js'
import { apiKeyRefusal, errorBody } from '../platform.js'
import {
  type Minting,
  type MintMetadata,
  type MintStatus,
  type PlannedAsset,
  viewOf,
} from './minting.js'

/** The routes' path, as a Hono pattern. */
export const mintRequestsPath =
  '/v1/chains/:chain_name/collections/:contract_address/nfts/mint-requests'

/** The most assets of one request (`CreateMintRequestRequest.assets.maxItems`). */
export const maxAssetsPerRequest = 100

/** The longest reference id taken. */
export const maxReferenceIdLength = 256

/** Distinct token ids the key may mint per window (the hosted Standard tier's burst). */
export const defaultMintLimit = 2_000

/** The budget's window: one minute. */
export const mintWindowMs = 60_000

/** The headers of the mint budget (the spec's `MintRequestsLimit…`). */
export const mintLimitHeaders = {
  limit: 'imx-mint-requests-limit',
  reset: 'imx-mint-requests-limit-reset',
  remaining: 'imx-remaining-mint-requests',
  retryAfter: 'imx-mint-requests-retry-after',
} as const

/** `PageSize`'s default and maximum. */
const defaultPageSize = 100
const maxPageSize = 200

/**
 * Adds the mint request routes to the platform API's app. Mount them
 * before the indexer's routes: its `…/nfts/{token_id}` patterns would
 * take `mint-requests` for a token id.
 *
 * @example
 * ```ts
 * const minting = createMinting({ chains, indexer: mintingIndexerOf(indexer) })
 * mintingRoutes(app, { minting })
 * ```
 */
export function mintingRoutes<env extends Env>(
  app: Hono<env>,
  options: mintingRoutes.Options,
): void {
  const { minting, limit = defaultMintLimit } = options
  const budget = createBudget(limit, minting.now)

  /** Checks the key, the chain and the collection; the refusal otherwise. */
  const gate = (c: Context) => {
    const refused = apiKeyRefusal(c.req.header(apiKeyHeader))
    if (refused !== undefined) return refuse(c, 'UNAUTHORISED_REQUEST', refused)
    const name = c.req.param('chain_name') ?? ''
    const chain = minting.chains.find(
      (candidate) => chainNameOf(candidate.chainId) === name,
    )
    if (!chain)
      return refuse(c, 'RESOURCE_NOT_FOUND', `There is no chain named ${name}.`)
    const address = c.req.param('contract_address') ?? ''
    if (!/^0x[0-9a-fA-F]{40}$/.test(address))
      return refuse(
        c,
        'VALIDATION_ERROR',
        'contract_address must be an address (0x and 40 hex digits).',
        { parameter: 'contract_address' },
      )
    const collection = minting.collection(chain.chainId, address as Address)
    if (!collection)
      return refuse(
        c,
        'AUTHENTICATION_ERROR',
        `The API key may not mint on ${address.toLowerCase()}: the platform mints only on its own collections.`,
      )
    return { chainId: chain.chainId, collection }
  }

  app.post(mintRequestsPath, async (c) => {
    const gated = gate(c)
    if (gated instanceof Response) return gated
    const { chainId, collection } = gated
    const body = await readJson(c)
    const assets = assetsOf(body, collection.standard)
    if (typeof assets === 'string') return refuse(c, 'VALIDATION_ERROR', assets)
    const cost =
      collection.standard === 'ERC721'
        ? assets.length
        : new Set(assets.map((asset) => asset.tokenId)).size
    const spent = budget.spend(cost)
    if (!spent.ok) {
      answerBudget(c, spent.result)
      c.header('Retry-After', String(Math.ceil(spent.retryAfterMs / 1000)))
      return refuse(
        c,
        'TOO_MANY_REQUESTS_ERROR',
        `The API key has minted its ${limit} token ids of this minute.`,
      )
    }
    const taken = minting.submit(chainId, collection, assets)
    if ('refused' in taken) {
      budget.refund(cost)
      return refuse(
        c,
        taken.refused === 'conflict'
          ? 'CONFLICT_ERROR'
          : 'TOO_MANY_REQUESTS_ERROR',
        taken.message,
      )
    }
    const result = budget.state()
    answerBudget(c, result)
    return c.json(result, 202)
  })

  app.get(mintRequestsPath, (c) => {
    const gated = gate(c)
    if (gated instanceof Response) return gated
    const { chainId, collection } = gated
    const search = new URL(c.req.url).searchParams
    for (const name of ['page_size', 'page_cursor', 'status'])
      if (search.getAll(name).length > 1)
        return refuse(c, 'VALIDATION_ERROR', `${name} must be given once.`, {
          parameter: name,
        })
    const sizeText = search.get('page_size')
    const size = sizeText === null ? defaultPageSize : Number(sizeText)
    if (
      sizeText !== null &&
      (!/^[0-9]{1,4}$/.test(sizeText) || size < 1 || size > maxPageSize)
    )
      return refuse(
        c,
        'VALIDATION_ERROR',
        `page_size must be an integer from 1 to ${maxPageSize}.`,
        { parameter: 'page_size' },
      )
    const status = search.get('status')
    if (status !== null && !statuses.includes(status as MintStatus))
      return refuse(
        c,
        'VALIDATION_ERROR',
        `status must be one of ${statuses.join(', ')}.`,
        { parameter: 'status' },
      )
    const scope = `${chainId}:${collection.address.toLowerCase()}:${status ?? ''}`
    const cursorText = search.get('page_cursor')
    const cursor =
      cursorText === null ? undefined : decodeCursor(cursorText, scope)
    if (cursor === null)
      return refuse(
        c,
        'VALIDATION_ERROR',
        'page_cursor is not a cursor this list gave.',
        { parameter: 'page_cursor' },
      )
    const all = minting
      .records(chainId, collection.address)
      .filter((record) => status === null || record.status === status)
    let start = 0
    let end = all.length
    if (cursor?.direction === 'next') {
      start = all.findIndex((record) => record.seq > cursor.seq)
      if (start < 0) start = all.length
      end = Math.min(all.length, start + size)
    } else if (cursor?.direction === 'previous') {
      end = all.findIndex((record) => record.seq >= cursor.seq)
      if (end < 0) end = all.length
      start = Math.max(0, end - size)
    } else end = Math.min(all.length, size)
    const page = all.slice(start, end)
    minting.refresh(page)
    const first = page[0]
    const last = page.at(-1)
    return c.json({
      result: page.map(viewOf),
      page: {
        previous_cursor:
          first && start > 0
            ? encodeCursor({ scope, direction: 'previous', seq: first.seq })
            : null,
        next_cursor:
          last && end < all.length
            ? encodeCursor({ scope, direction: 'next', seq: last.seq })
            : null,
      },
    } satisfies components['schemas']['ListMintRequestsResult'])
  })

  app.get(`${mintRequestsPath}/:reference_id`, (c) => {
    const gated = gate(c)
    if (gated instanceof Response) return gated
    const { chainId, collection } = gated
    const referenceId = c.req.param('reference_id') ?? ''
    const record = minting.record(chainId, collection.address, referenceId)
    if (!record)
      return refuse(
        c,
        'RESOURCE_NOT_FOUND',
        `There is no mint request ${referenceId} in ${collection.address.toLowerCase()}.`,
      )
    minting.refresh([record])
    return c.json({
      result: [viewOf(record)],
      page: { previous_cursor: null, next_cursor: null },
    } satisfies components['schemas']['ListMintRequestsResult'])
  })
}

export declare namespace mintingRoutes {
  type Options = {
    minting: Minting
    /** Distinct token ids per minute. @default {@link defaultMintLimit} */
    limit?: number | undefined
  }
}

const statuses: readonly MintStatus[] = Object.values(MintRequestStatus)

/**
 * The checked assets of a `CreateMintRequestRequest`, or why it is
 * refused (a one-line message naming the field).
 */
export function assetsOf(
  body: unknown,
  standard: 'ERC721' | 'ERC1155',
): PlannedAsset[] | string {
  if (!isRecord(body)) return 'The body must be a JSON object with assets.'
  const { assets } = body
  if (!Array.isArray(assets)) return 'assets must be an array.'
  if (assets.length < 1 || assets.length > maxAssetsPerRequest)
    return `assets must hold 1 to ${maxAssetsPerRequest} assets.`
  const planned: PlannedAsset[] = []
  for (const [i, asset] of assets.entries()) {
    const at = `assets[${i}]`
    if (!isRecord(asset)) return `${at} must be an object.`
    const referenceId = asset.reference_id
    if (
      typeof referenceId !== 'string' ||
      referenceId.length === 0 ||
      referenceId.length > maxReferenceIdLength
    )
      return `${at}.reference_id must be a string of 1 to ${maxReferenceIdLength} characters.`
    const owner = asset.owner_address
    if (typeof owner !== 'string' || !isAddress(owner, { strict: false }))
      return `${at}.owner_address must be an address (0x and 40 hex digits).`
    if (owner.toLowerCase() === zeroAddress)
      return `${at}.owner_address must not be the zero address.`
    const tokenId = uint256(asset.token_id)
    if (tokenId === 'invalid')
      return `${at}.token_id must be a uint256 as a decimal string, or null.`
    const amount = uint256(asset.amount)
    if (amount === 'invalid' || amount === 0n)
      return `${at}.amount must be a positive uint256 as a decimal string, or null.`
    if (standard === 'ERC721' && amount !== undefined && amount !== 1n)
      return `${at}.amount must be 1 or left out: an ERC-721 token is minted once.`
    if (standard === 'ERC1155' && tokenId === undefined)
      return `${at}.token_id is required for an ERC-1155 collection.`
    if (standard === 'ERC1155' && amount === undefined)
      return `${at}.amount is required for an ERC-1155 collection.`
    let metadata: MintMetadata | undefined
    if (asset.metadata !== undefined && asset.metadata !== null) {
      const content = contentOfInput(asset.metadata, {
        where: `${at}.metadata`,
      })
      if (typeof content === 'string') return content
      metadata = asset.metadata as MintMetadata
    }
    planned.push({
      referenceId,
      owner: owner.toLowerCase() as Address,
      tokenId,
      amount: amount ?? 1n,
      metadata,
    })
  }
  return planned
}

/** A uint256 decimal string; `undefined` for null or absent. */
function uint256(value: unknown): bigint | undefined | 'invalid' {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !/^(0|[1-9][0-9]{0,77})$/.test(value))
    return 'invalid'
  const parsed = BigInt(value)
  return parsed < 2n ** 256n ? parsed : 'invalid'
}

/** The mint budget's state, as the API answers it. */
export type MintBudgetResult = components['schemas']['CreateMintRequestResult']

/**
 * A budget of `limit` per minute-long window, windows on the minute as the
 * hosted API's reset times are. Times as it writes them: the reset as
 * `YYYY-MM-DD HH:MM:SS UTC`, the wait as `N.NN-seconds`.
 */
function createBudget(limit: number, now: () => Date) {
  let window = { start: Number.NEGATIVE_INFINITY, used: 0 }
  const roll = () => {
    const at = now().getTime()
    const start = at - (at % mintWindowMs)
    if (start !== window.start) window = { start, used: 0 }
    return at
  }
  const state = (): MintBudgetResult & { retryAfterMs: number } => {
    const at = roll()
    const reset = window.start + mintWindowMs
    return {
      imx_mint_requests_limit: String(limit),
      imx_mint_requests_limit_reset: `${new Date(reset).toISOString().slice(0, 19).replace('T', ' ')} UTC`,
      imx_remaining_mint_requests: String(Math.max(0, limit - window.used)),
      imx_mint_requests_retry_after: `${((reset - at) / 1000).toFixed(2)}-seconds`,
      retryAfterMs: reset - at,
    }
  }
  return {
    spend(count: number) {
      roll()
      const ok = window.used + count <= limit
      if (ok) window.used += count
      const { retryAfterMs, ...result } = state()
      return { ok, result, retryAfterMs }
    },
    refund(count: number) {
      window.used = Math.max(0, window.used - count)
    },
    state(): MintBudgetResult {
      const { retryAfterMs: _, ...result } = state()
      return result
    },
  }
}

function answerBudget(c: Context, result: MintBudgetResult): void {
  c.header(mintLimitHeaders.limit, result.imx_mint_requests_limit)
  c.header(mintLimitHeaders.reset, result.imx_mint_requests_limit_reset)
  c.header(mintLimitHeaders.remaining, result.imx_remaining_mint_requests)
  c.header(mintLimitHeaders.retryAfter, result.imx_mint_requests_retry_after)
}

/** A list cursor: the list it belongs to, a direction, the boundary. */
type Cursor = { scope: string; direction: 'next' | 'previous'; seq: number }

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(
    JSON.stringify([cursor.scope, cursor.direction, cursor.seq]),
  ).toString('base64url')
}

/** The cursor, or `null` when it is not one of this list's. */
function decodeCursor(value: string, scope: string): Cursor | null {
  if (value.length > 512 || !/^[A-Za-z0-9_-]+$/.test(value)) return null
  try {
    const parsed: unknown = JSON.parse(
      Buffer.from(value, 'base64url').toString('utf8'),
    )
    if (
      Array.isArray(parsed) &&
      parsed.length === 3 &&
      parsed[0] === scope &&
      (parsed[1] === 'next' || parsed[1] === 'previous') &&
      Number.isSafeInteger(parsed[2]) &&
      parsed[2] >= 0
    )
      return { scope, direction: parsed[1], seq: parsed[2] }
  } catch {
    // Not a cursor.
  }
  return null
}

/** Answers the API's error shape with the code's status. */
function refuse(
  c: Context,
  code: ApiErrorCode,
  message: string,
  details: Record<string, unknown> | null = null,
): Response {
  return c.json(errorBody(code, message, details), apiErrorStatus[code] as 400)
}

async function readJson(c: Context): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text())
  } catch {
    return undefined
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
