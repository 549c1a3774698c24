/**
 * The indexer's routes on the platform API's app, under
 * `/v1/chains/{chain_name}` as the multi-rollup API serves them (tags
 * activities, collections, nfts (the reads), nft owners, tokens, metadata,
 * metadata-search and pricing), and its control routes under `/dev/indexer`
 * (loopback pages only: the server guards `/dev/`).
 *
 * Every read first catches the indexer up with the chain's head (for a
 * few seconds at most), so a transfer is visible as soon as its block is
 * mined. An unknown chain name is a 404, a malformed parameter a 400, and
 * the metadata refreshes need the emulator's secret API key
 * (`x-immutable-api-key`, see `platformApiKey`).
 *
 * @packageDocumentation
 */
import type { Context, Env, Hono } from 'hono'
import { apiKeyHeader } from '../../../api/wire/headers.js'
import { apiKeyRefusal } from '../platform.js'
import { activityRoutes } from './activities.js'
import { assetRoutes } from './assets.js'
import { controlRoutes } from './control.js'
import type { Indexer, IndexerChain } from './indexer.js'
import {
  answerRefusal,
  isRefusal,
  type Query,
  queryOf,
  type Refusal,
  refuse,
} from './params.js'
import type { RefreshLimitResult } from './schema.js'
import { searchRoutes } from './search.js'
import { stackRoutes } from './stacks.js'

/** The headers a refresh answers its rate limit in. */
export const refreshLimitHeaders = {
  limit: 'imx-refreshes-limit',
  reset: 'imx-refresh-limit-reset',
  remaining: 'imx-remaining-refreshes',
  retryAfter: 'retry-after',
} as const

/** The refreshes (NFTs or metadata) the key may ask for per window. */
export const defaultRefreshLimit = 2_000

/** The refresh window: one hour. */
export const refreshWindowMs = 60 * 60 * 1000

/** What a route handler gets: the request, its chain and its query. */
export type Handler = (
  c: Context,
  chain: IndexerChain,
  query: Query,
) => Response | Refusal | Promise<Response | Refusal>

/** Registers a route of a chain (the wrapper reads the chain and syncs). */
export type On = (
  method: 'get' | 'post',
  path: string,
  handler: Handler,
  options?: {
    /** The route needs the secret API key. */
    apiKey?: boolean | undefined
    /**
     * Path parameter values that belong to a sibling route of another
     * backend (`mint-requests` under `…/nfts/`): such a request passes on.
     */
    passOn?: { param: string; values: readonly string[] } | undefined
  },
) => void

/** What the route modules share. */
export type RouteDeps = {
  indexer: Indexer
  /** Counts refreshes against the key's hourly limit. */
  refreshes: RefreshLimiter
}

/** The hourly refresh budget of the API key. */
export type RefreshLimiter = {
  /**
   * Spends `count` refreshes if the window has them.
   *
   * @returns The limit's state to answer, and whether it was spent.
   */
  spend(count: number): { ok: boolean; result: RefreshLimitResult }
}

/**
 * Adds the indexer's routes to the platform API's app.
 *
 * @example
 * ```ts
 * const indexer = createIndexer({ chains })
 * indexerRoutes(app, { indexer })
 * ```
 */
export function indexerRoutes<env extends Env>(
  app: Hono<env>,
  options: indexerRoutes.Options,
): void {
  const { indexer, refreshLimit = defaultRefreshLimit } = options
  const deps: RouteDeps = {
    indexer,
    refreshes: createRefreshLimiter(refreshLimit, indexer.now),
  }
  const on: On = (method, path, handler, routeOptions = {}) => {
    app[method](`/v1/chains/:chain_name${path}`, async (c, next) => {
      const { passOn } = routeOptions
      if (passOn?.values.includes(c.req.param(passOn.param) ?? '')) {
        await next()
        return
      }
      if (routeOptions.apiKey) {
        const refused = apiKeyRefusal(c.req.header(apiKeyHeader))
        if (refused !== undefined)
          return answerRefusal(c, refuse('unauthorised', refused))
      }
      const name = c.req.param('chain_name') ?? ''
      const chain = indexer.chainByName(name)
      if (!chain)
        return answerRefusal(
          c,
          refuse('notFound', `There is no chain named ${name}.`),
        )
      await indexer.sync(chain.chainId)
      const answer = await handler(c, chain, queryOf(c))
      return isRefusal(answer) ? answerRefusal(c, answer) : answer
    })
  }
  activityRoutes(on, deps)
  assetRoutes(on, deps)
  stackRoutes(on, deps)
  searchRoutes(on, deps)
  controlRoutes(app, deps)
}

export declare namespace indexerRoutes {
  type Options = {
    indexer: Indexer
    /** Refreshes per hour. @default 2_000 */
    refreshLimit?: number | undefined
  }
}

/** A refresh budget of `limit` per hour, windows starting at first use. */
export function createRefreshLimiter(
  limit: number,
  now: () => Date,
): RefreshLimiter {
  let window = { start: 0, used: 0 }
  return {
    spend(count) {
      const at = now().getTime()
      if (at >= window.start + refreshWindowMs) window = { start: at, used: 0 }
      const ok = window.used + count <= limit
      if (ok) window.used += count
      const reset = window.start + refreshWindowMs
      return {
        ok,
        result: {
          imx_refreshes_limit: String(limit),
          imx_refresh_limit_reset: new Date(reset).toISOString(),
          imx_remaining_refreshes: String(limit - window.used),
          retry_after: ok ? '0' : String(Math.ceil((reset - at) / 1000)),
        },
      }
    },
  }
}

/**
 * Answers a refresh: 202 with the limit's state, or 429 when the window
 * had not enough left (nothing was refreshed then).
 */
export function answerRefreshLimit(
  c: Context,
  spent: { ok: boolean; result: RefreshLimitResult },
): Response {
  const { result } = spent
  c.header(refreshLimitHeaders.limit, result.imx_refreshes_limit)
  c.header(refreshLimitHeaders.reset, result.imx_refresh_limit_reset)
  c.header(refreshLimitHeaders.remaining, result.imx_remaining_refreshes)
  c.header(refreshLimitHeaders.retryAfter, result.retry_after)
  return spent.ok
    ? c.json(result, 202)
    : answerRefusal(
        c,
        refuse(
          'tooManyRequests',
          `The API key has used its ${result.imx_refreshes_limit} metadata refreshes of this hour.`,
        ),
      )
}
