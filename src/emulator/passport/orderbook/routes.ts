/**
 * The order book's routes on the platform API's app (tag `orders` of the
 * multi-rollup API): listings, bids and collection bids (create, list,
 * get), fulfilment data, off-chain cancellation and trades, under
 * `/v1/chains/{chain_name}`. Each first reads the seaport's new events and
 * re-evaluates the live orders (for a few seconds at most), so a fill is
 * visible as soon as its block is mined. An unknown chain name is a 404,
 * bad input a 400 naming the field, and nothing answers a 500.
 *
 * @packageDocumentation
 */
import type { Context, Env, Hono } from 'hono'
import { byKey, paginate, sortable } from '../indexer/pages.js'
import {
  address,
  answerRefusal,
  checkAll,
  dateTime,
  invalid,
  isRefusal,
  oneOf,
  optional,
  pageParams,
  type Query,
  queryOf,
  type Refusal,
  refusalOr,
  refuse,
  tokenId,
  uuid,
} from '../indexer/params.js'
import type { Orderbook, OrderbookChain, StoredOrder } from './orderbook.js'
import { type ApiOrder, type OrderKind, orderStatusNames } from './orders.js'

/** The largest JSON body a route reads. */
export const maxBodyBytes = 64 * 1024

const kinds = {
  listings: { kind: 'LISTING', list: 'ListListings', id: 'listing_id' },
  bids: { kind: 'BID', list: 'ListBids', id: 'bid_id' },
  'collection-bids': {
    kind: 'COLLECTION_BID',
    list: 'ListCollectionBids',
    id: 'collection_bid_id',
  },
} as const satisfies Record<
  string,
  { kind: OrderKind; list: string; id: string }
>

/**
 * Adds the order book's routes to the platform API's app.
 *
 * @example
 * ```ts
 * orderbookRoutes(app, { orderbook: createOrderbook({ chains }) })
 * ```
 */
export function orderbookRoutes<env extends Env>(
  app: Hono<env>,
  options: orderbookRoutes.Options,
): void {
  const { orderbook } = options
  const on = (
    method: 'get' | 'post',
    path: string,
    handler: (
      c: Context,
      chain: OrderbookChain,
      query: Query,
    ) => Response | Refusal | Promise<Response | Refusal>,
  ) => {
    app[method](`/v1/chains/:chain_name${path}`, async (c) => {
      const name = c.req.param('chain_name') ?? ''
      const chain = orderbook.chainByName(name)
      if (!chain)
        return answerRefusal(
          c,
          refuse('notFound', `There is no chain named ${name}.`),
        )
      await orderbook.sync(chain.chainId)
      const answer = await handler(c, chain, queryOf(c))
      return isRefusal(answer) ? answerRefusal(c, answer) : answer
    })
  }

  for (const [segment, { kind, list, id }] of Object.entries(kinds)) {
    on('post', `/orders/${segment}`, async (c, chain) => {
      const body = await bodyOf(c)
      if (isRefusal(body)) return body
      const order = await orderbook.create(chain, kind, body)
      return isRefusal(order) ? order : c.json({ result: order }, 201)
    })
    on('get', `/orders/${segment}/:${id}`, (c, chain) => {
      const orderId = uuid(id, c.req.param(id))
      if (isRefusal(orderId)) return orderId
      const order = chain.orders.get(orderId)
      if (!order || order.kind !== kind)
        return refuse('notFound', `There is no ${segment} order ${orderId}.`)
      return c.json({ result: orderbook.render(chain, order) })
    })
    on('get', `/orders/${segment}`, (c, chain, query) => {
      const nftSide = kind === 'LISTING' ? 'sell' : 'buy'
      const currencySide = kind === 'LISTING' ? 'buy' : 'sell'
      const sortFields =
        kind === 'LISTING'
          ? (['created_at', 'updated_at', 'buy_item_amount'] as const)
          : (['created_at', 'updated_at', 'sell_item_amount'] as const)
      const checked = checkAll({
        status: optional(query.one('status'), (value) =>
          oneOf('status', value, orderStatusNames),
        ),
        nftContract: optional(
          query.one(`${nftSide}_item_contract_address`),
          (value) => address(`${nftSide}_item_contract_address`, value),
        ),
        currencyContract: optional(
          query.one(`${currencySide}_item_contract_address`),
          (value) => address(`${currencySide}_item_contract_address`, value),
        ),
        buyItemType:
          kind === 'LISTING'
            ? optional(query.one('buy_item_type'), (value) =>
                oneOf('buy_item_type', value, ['NATIVE', 'ERC20'] as const),
              )
            : undefined,
        account: optional(query.one('account_address'), (value) =>
          address('account_address', value),
        ),
        token:
          kind === 'COLLECTION_BID'
            ? undefined
            : optional(query.one(`${nftSide}_item_token_id`), (value) =>
                tokenId(`${nftSide}_item_token_id`, value),
              ),
        metadataId:
          kind === 'COLLECTION_BID'
            ? undefined
            : optional(query.one(`${nftSide}_item_metadata_id`), (value) =>
                uuid(`${nftSide}_item_metadata_id`, value),
              ),
        from: optional(query.one('from_updated_at'), (value) =>
          dateTime('from_updated_at', value),
        ),
        sortBy: refusalOr(query.one('sort_by'), (value) =>
          value === undefined
            ? 'created_at'
            : oneOf('sort_by', value, sortFields),
        ),
        direction: refusalOr(query.one('sort_direction'), (value) =>
          value === undefined
            ? 'asc'
            : oneOf('sort_direction', value, ['asc', 'desc'] as const),
        ),
        ...pageParams(query, orderbook.cursors, list),
      })
      if (isRefusal(checked)) return checked
      const matches = [...chain.orders.values()].filter((order) => {
        if (order.kind !== kind) return false
        const { request } = order
        const [nft] = request[nftSide]
        const [currency] = request[currencySide]
        if (checked.status && order.status.name !== checked.status) return false
        if (checked.account && request.account !== checked.account) return false
        if (
          checked.nftContract &&
          (!nft ||
            !('contract_address' in nft) ||
            nft.contract_address !== checked.nftContract)
        )
          return false
        if (
          checked.currencyContract &&
          (!currency ||
            !('contract_address' in currency) ||
            currency.contract_address !== checked.currencyContract)
        )
          return false
        if (checked.buyItemType && currency?.type !== checked.buyItemType)
          return false
        if (
          checked.token !== undefined &&
          (!nft ||
            !('token_id' in nft) ||
            nft.token_id !== String(checked.token))
        )
          return false
        if (
          checked.metadataId !== undefined &&
          (!nft ||
            !('token_id' in nft) ||
            options.metadataIdOf?.(
              chain.chainId,
              nft.contract_address,
              nft.token_id,
            ) !== checked.metadataId)
        )
          return false
        if (checked.from && order.updatedAt < checked.from) return false
        return true
      })
      const keyOf = sortKey(checked.sortBy, checked.direction)
      const sorted = matches.sort(byKey(keyOf))
      const { result, page } = paginate(sorted, keyOf, {
        route: list,
        size: checked.size,
        cursor: checked.cursor,
        cursors: orderbook.cursors,
      })
      return c.json({
        page,
        result: result.map((order): ApiOrder => orderbook.render(chain, order)),
      })
    })
  }

  on('post', '/orders/fulfillment-data', async (c, chain) => {
    const body = await bodyOf(c)
    if (isRefusal(body)) return body
    const answer = await orderbook.fulfilmentData(chain, body)
    return isRefusal(answer) ? answer : c.json({ result: answer })
  })

  on('post', '/orders/cancel', async (c, chain) => {
    const body = await bodyOf(c)
    if (isRefusal(body)) return body
    const answer = await orderbook.cancel(chain, body)
    return isRefusal(answer) ? answer : c.json({ result: answer })
  })

  on('get', '/trades/:trade_id', (c, chain) => {
    const id = uuid('trade_id', c.req.param('trade_id'))
    if (isRefusal(id)) return id
    const stored = chain.trades.get(id)
    return stored
      ? c.json({ result: stored.trade })
      : refuse('notFound', `There is no trade ${id}.`)
  })

  on('get', '/trades', (c, chain, query) => {
    const checked = checkAll({
      account: optional(query.one('account_address'), (value) =>
        address('account_address', value),
      ),
      sellContract: optional(query.one('sell_item_contract_address'), (value) =>
        address('sell_item_contract_address', value),
      ),
      from: optional(query.one('from_indexed_at'), (value) =>
        dateTime('from_indexed_at', value),
      ),
      sortBy: refusalOr(query.one('sort_by'), (value) =>
        value === undefined
          ? 'indexed_at'
          : oneOf('sort_by', value, ['indexed_at'] as const),
      ),
      direction: refusalOr(query.one('sort_direction'), (value) =>
        value === undefined
          ? 'asc'
          : oneOf('sort_direction', value, ['asc', 'desc'] as const),
      ),
      ...pageParams(query, orderbook.cursors, 'ListTrades'),
    })
    if (isRefusal(checked)) return checked
    const matches = [...chain.trades.values()].filter(({ trade, at }) => {
      if (
        checked.account &&
        trade.maker_address !== checked.account &&
        trade.taker_address !== checked.account
      )
        return false
      if (
        checked.sellContract &&
        !trade.sell.some(
          (item) =>
            'contract_address' in item &&
            item.contract_address === checked.sellContract,
        )
      )
        return false
      if (checked.from && at < checked.from) return false
      return true
    })
    // The time, then the id, so keys are unique; descending by flipping
    // the time's digits.
    const keyOf = ({ trade, at }: { trade: { id: string }; at: Date }) =>
      `${sortable(checked.direction === 'asc' ? at.getTime() : Number.MAX_SAFE_INTEGER - at.getTime(), 16)}:${trade.id}`
    const sorted = matches.sort(byKey(keyOf))
    const { result, page } = paginate(sorted, keyOf, {
      route: 'ListTrades',
      size: checked.size,
      cursor: checked.cursor,
      cursors: orderbook.cursors,
    })
    return c.json({ page, result: result.map(({ trade }) => trade) })
  })
}

export declare namespace orderbookRoutes {
  type Options = {
    orderbook: Orderbook
    /**
     * The indexer's metadata id of an NFT, for the `…_item_metadata_id`
     * filters; without it, such a filter matches nothing.
     */
    metadataIdOf?:
      | ((
          chainId: number,
          contract: string,
          tokenId: string,
        ) => string | undefined)
      | undefined
  }
}

/** A sort key unique per order: the field, then the id. */
function sortKey(
  field: 'created_at' | 'updated_at' | 'buy_item_amount' | 'sell_item_amount',
  direction: 'asc' | 'desc',
) {
  const maxTime = Number.MAX_SAFE_INTEGER
  const maxAmount = 2n ** 256n - 1n
  return (order: StoredOrder): string => {
    let value: string
    if (field === 'created_at' || field === 'updated_at') {
      const time = (
        field === 'created_at' ? order.createdAt : order.updatedAt
      ).getTime()
      value = sortable(direction === 'asc' ? time : maxTime - time, 16)
    } else {
      const [item] =
        field === 'buy_item_amount' ? order.request.buy : order.request.sell
      const amount = BigInt(item && 'amount' in item ? item.amount : '1')
      value = sortable(direction === 'asc' ? amount : maxAmount - amount)
    }
    return `${value}:${order.id}`
  }
}

/** The request's JSON body, bounded in size; a refusal when it is not JSON. */
async function bodyOf(c: Context): Promise<unknown> {
  const length = Number(c.req.header('content-length') ?? '0')
  if (length > maxBodyBytes)
    return invalid('body', `The body may hold at most ${maxBodyBytes} bytes.`)
  const text = await c.req.text().catch(() => undefined)
  if (text === undefined || text.length > maxBodyBytes)
    return invalid('body', `The body may hold at most ${maxBodyBytes} bytes.`)
  try {
    return JSON.parse(text) as unknown
  } catch {
    return invalid('body', 'The body must be JSON.')
  }
}
