/**
 * The search, stack and pricing routes (tags `metadata-search`,
 * `metadata`, `pricing`), where the indexer's NFTs and stacks meet the
 * order book's market data (see `ListingsSource`):
 *
 * - `GET /search/filters/{contract_address}`: a collection's traits and
 *   their most common values;
 * - `GET /search/nfts`: NFTs of up to 20 collections, by owner and stack,
 *   with their listings and bids;
 * - `GET /search/stacks`: stacks of up to 20 collections, by owner,
 *   traits, keyword, active listings and payment token, optionally
 *   cheapest first;
 * - `GET /stacks`: stack bundles by stack id;
 * - `GET /quotes/{contract_address}/nfts`, `…/stacks`: the market of NFTs
 *   or stacks, of their stack and of their collection.
 *
 * @packageDocumentation
 */
import type { Address } from 'viem'
import { noCollection } from './assets.js'
import type { IndexerChain } from './indexer.js'
import { byKey, paginate, sortable } from './pages.js'
import {
  address,
  boolean,
  checkAll,
  invalid,
  isRefusal,
  list,
  oneOf,
  optional,
  pageCursor,
  pageParams,
  type Refusal,
  refusalOr,
  tokenId,
  uuid,
} from './params.js'
import type { On, RouteDeps } from './routes.js'
import type {
  Answers,
  Bid,
  Listing,
  NftBundle,
  NftQuote,
  StackBundle,
  StackQuote,
} from './schema.js'
import { stackSorts } from './schema.js'
import type { ChainState, NftRecord, StackRecord } from './state.js'
import { nftKey } from './state.js'
import {
  chainRefOf,
  type MarketData,
  marketDataOf,
  marketOf,
  nftMetadataOf,
  stackOf,
} from './views.js'

/** The most listings and bids a bundle carries. */
const bundleOrders = 10

/** The most values of a trait {@link ListFilters} lists. */
const filterValues = 100

/** The longest `traits` filter accepted, in characters. */
const maxTraitsLength = 8_192

/** Adds the search, stack and pricing routes. */
export function searchRoutes(on: On, deps: RouteDeps): void {
  const { indexer } = deps
  const { cursors, listings } = indexer

  /** The market data of a collection's NFTs (or some of them). */
  const marketData = (
    chain: IndexerChain,
    contract: Address,
    tokenIds: readonly bigint[] | undefined,
    paymentToken: string | undefined,
  ) =>
    marketDataOf(
      listings,
      {
        chainId: chain.chainId,
        contractAddress: contract,
        ...(tokenIds === undefined
          ? {}
          : { tokenIds: tokenIds.map((id) => id.toString()) }),
      },
      paymentToken,
    )

  on('get', '/search/filters/:contract_address', (c, chain) => {
    const contract = address(
      'contract_address',
      c.req.param('contract_address'),
    )
    if (isRefusal(contract)) return contract
    const { state } = chain
    if (!state.collections.has(contract)) return noCollection(chain, contract)
    const counts = new Map<string, Map<string, number>>()
    for (const nft of state.nfts.values()) {
      if (nft.contract !== contract || nft.supply === 0n) continue
      const attributes = nftMetadataOf(state, nft.key)?.stack.content.attributes
      const seen = new Set<string>()
      for (const attribute of attributes ?? []) {
        const value = String(attribute.value)
        if (seen.has(`${attribute.trait_type}\u0000${value}`)) continue
        seen.add(`${attribute.trait_type}\u0000${value}`)
        const values = counts.get(attribute.trait_type) ?? new Map()
        values.set(value, (values.get(value) ?? 0) + 1)
        counts.set(attribute.trait_type, values)
      }
    }
    const filters = [...counts]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, values]) => {
        const sorted = [...values].sort(
          ([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0),
        )
        return {
          name,
          values: sorted
            .slice(0, filterValues)
            .map(([value, count]) => ({ value, nft_count: String(count) })),
          omitted_values_count: Math.max(0, sorted.length - filterValues),
        }
      })
    return c.json({
      result: {
        chain: chainRefOf(chain),
        contract_address: contract,
        filters,
      },
      page: { previous_cursor: null, next_cursor: null },
    } satisfies Answers['ListFiltersResult'])
  })

  on('get', '/search/nfts', async (c, chain, query) => {
    const route = 'SearchNFTs'
    const given = checkAll({
      contracts: list(
        'contract_address',
        query.all('contract_address'),
        address,
        {
          min: 1,
          max: 20,
        },
      ),
      account: optional(query.one('account_address'), (v) =>
        address('account_address', v),
      ),
      stacks: list('stack_id', query.all('stack_id'), uuid, { max: 20 }),
      ownerOnly: optional(query.one('only_include_owner_listings'), (v) =>
        boolean('only_include_owner_listings', v),
      ),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const { contracts, account, stacks, ownerOnly, size, cursor } = given
    const { state } = chain
    const found = [...state.nfts.values()]
      .filter(
        (nft) =>
          contracts.includes(nft.contract) &&
          nft.supply > 0n &&
          state.links.has(nft.key) &&
          (stacks.length === 0 ||
            stacks.includes(state.links.get(nft.key)?.stackId ?? '')) &&
          (account === undefined || balanceOf(state, nft, account) > 0n),
      )
      .sort(byKey((nft) => nft.key))
    const page = paginate(found, (nft) => nft.key, {
      route,
      size,
      cursor,
      cursors,
    })
    const data = new Map<Address, MarketData>()
    for (const contract of new Set(page.result.map((nft) => nft.contract)))
      data.set(
        contract,
        await marketData(
          chain,
          contract,
          page.result
            .filter((nft) => nft.contract === contract)
            .map((nft) => nft.tokenId),
          undefined,
        ),
      )
    const result: NftBundle[] = page.result.map((nft) => {
      const stack = nftMetadataOf(state, nft.key)?.stack as StackRecord
      const tokens = new Set([nft.tokenId.toString()])
      const market = ordersOf(
        state,
        data.get(nft.contract) as MarketData,
        tokens,
        ownerOnly === true,
      )
      return {
        nft_with_stack: {
          ...stackOf(chain, stack),
          token_id: nft.tokenId.toString(),
          balance: Number(
            account === undefined ? nft.supply : balanceOf(state, nft, account),
          ),
        },
        market: marketOf(market, tokens),
        listings: market.listings.slice(0, bundleOrders),
        bids: market.bids.slice(0, bundleOrders),
      }
    })
    return c.json({
      result,
      page: page.page,
    } satisfies Answers['SearchNFTsResult'])
  })

  on('get', '/search/stacks', async (c, chain, query) => {
    const route = 'SearchStacks'
    const given = checkAll({
      contracts: list(
        'contract_address',
        query.all('contract_address'),
        address,
        {
          min: 1,
          max: 20,
        },
      ),
      account: optional(query.one('account_address'), (v) =>
        address('account_address', v),
      ),
      ownerOnly: optional(query.one('only_include_owner_listings'), (v) =>
        boolean('only_include_owner_listings', v),
      ),
      listedOnly: optional(query.one('only_if_has_active_listings'), (v) =>
        boolean('only_if_has_active_listings', v),
      ),
      traits: optional(query.one('traits'), traitsOf),
      keyword: optional(query.one('keyword'), keywordOf),
      paymentToken: optional(query.one('payment_token'), paymentTokenOf),
      sort: optional(query.one('sort_by'), (v) =>
        oneOf('sort_by', v, stackSorts),
      ),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const {
      contracts,
      account,
      ownerOnly,
      listedOnly,
      traits,
      keyword,
      paymentToken,
      sort,
      size,
      cursor,
    } = given
    const { state } = chain
    const members = stackMembers(state)
    const data = new Map<Address, MarketData>()
    for (const contract of new Set(contracts))
      data.set(
        contract,
        await marketData(chain, contract, undefined, paymentToken),
      )
    const bundles: { key: string; bundle: StackBundle }[] = []
    for (const stack of state.stacks.values()) {
      if (!contracts.includes(stack.contract)) continue
      if (traits && !hasTraits(stack, traits)) continue
      if (keyword && !hasKeyword(stack, keyword)) continue
      const nfts = (members.get(stack.id) ?? []).filter(
        (nft) => account === undefined || balanceOf(state, nft, account) > 0n,
      )
      if (nfts.length === 0) continue
      const bundle = stackBundle(
        chain,
        stack,
        nfts,
        data.get(stack.contract) as MarketData,
        ownerOnly === true,
      )
      if (listedOnly === true && bundle.listings.length === 0) continue
      const seq = sortable(stack.seq, 12)
      const floor = bundle.market?.floor_listing
      const key =
        sort === 'cheapest_first'
          ? floor
            ? `0:${sortable(BigInt(amountOf(floor.price_details.fee_inclusive_amount)))}:${seq}`
            : `1:${seq}`
          : seq
      bundles.push({ key, bundle })
    }
    bundles.sort(byKey((item) => item.key))
    const page = paginate(bundles, (item) => item.key, {
      route,
      size,
      cursor,
      cursors,
    })
    return c.json({
      result: page.result.map((item) => item.bundle),
      page: page.page,
    } satisfies Answers['SearchStacksResult'])
  })

  on('get', '/stacks', async (c, chain, query) => {
    const ids = list('stack_id', query.all('stack_id'), uuid, {
      min: 1,
      max: 20,
    })
    if (isRefusal(ids)) return ids
    const { state } = chain
    const members = stackMembers(state)
    const found = [...new Set(ids)].flatMap((id) => {
      const stack = state.stacks.get(id)
      return stack ? [stack] : []
    })
    const data = new Map<Address, MarketData>()
    for (const contract of new Set(found.map((stack) => stack.contract)))
      data.set(
        contract,
        await marketData(chain, contract, undefined, undefined),
      )
    return c.json(
      found.map((stack) =>
        stackBundle(
          chain,
          stack,
          members.get(stack.id) ?? [],
          data.get(stack.contract) as MarketData,
          false,
        ),
      ) satisfies Answers['ListStacksResult'],
    )
  })

  on('get', '/quotes/:contract_address/nfts', async (c, chain, query) => {
    const given = checkAll({
      contract: address('contract_address', c.req.param('contract_address')),
      tokens: list('token_id', query.all('token_id'), tokenId, {
        min: 1,
        max: 20,
      }),
      paymentToken: optional(query.one('payment_token'), paymentTokenOf),
      cursor: refusalOr(query.one('page_cursor'), (v) =>
        pageCursor(cursors, 'QuotesForNFTs', v),
      ),
    })
    if (isRefusal(given)) return given
    const { contract, tokens, paymentToken } = given
    const { state } = chain
    if (!state.collections.has(contract)) return noCollection(chain, contract)
    const members = stackMembers(state)
    const data = await marketData(chain, contract, undefined, paymentToken)
    const result: NftQuote[] = [...new Set(tokens)].flatMap((token) => {
      const key = nftKey(contract, token)
      if (!state.nfts.has(key)) return []
      const stackId = state.links.get(key)?.stackId
      const stackTokens = new Set(
        (stackId === undefined ? [] : (members.get(stackId) ?? [])).map((nft) =>
          nft.tokenId.toString(),
        ),
      )
      return [
        {
          chain: chainRefOf(chain),
          token_id: token.toString(),
          market_stack: marketOf(data, stackTokens),
          market_nft: {
            last_trade: marketOf(data, new Set([token.toString()])).last_trade,
          },
          market_collection: marketOf(data, undefined),
        },
      ]
    })
    return c.json({
      result,
      page: { previous_cursor: null, next_cursor: null },
    } satisfies Answers['QuotesForNFTsResult'])
  })

  on('get', '/quotes/:contract_address/stacks', async (c, chain, query) => {
    const given = checkAll({
      contract: address('contract_address', c.req.param('contract_address')),
      stacks: list('stack_id', query.all('stack_id'), uuid, {
        min: 1,
        max: 20,
      }),
      paymentToken: optional(query.one('payment_token'), paymentTokenOf),
      cursor: refusalOr(query.one('page_cursor'), (v) =>
        pageCursor(cursors, 'QuotesForStacks', v),
      ),
    })
    if (isRefusal(given)) return given
    const { contract, stacks, paymentToken } = given
    const { state } = chain
    if (!state.collections.has(contract)) return noCollection(chain, contract)
    const members = stackMembers(state)
    const data = await marketData(chain, contract, undefined, paymentToken)
    const result: StackQuote[] = [...new Set(stacks)].flatMap((id) => {
      const stack = state.stacks.get(id)
      if (!stack || stack.contract !== contract) return []
      const stackTokens = new Set(
        (members.get(id) ?? []).map((nft) => nft.tokenId.toString()),
      )
      return [
        {
          chain: chainRefOf(chain),
          stack_id: id,
          market_stack: marketOf(data, stackTokens),
          market_collection: marketOf(data, undefined),
        },
      ]
    })
    return c.json({
      result,
      page: { previous_cursor: null, next_cursor: null },
    } satisfies Answers['QuotesForStacksResult'])
  })
}

/** The NFTs in circulation of each stack, by stack id. */
function stackMembers(state: ChainState): Map<string, NftRecord[]> {
  const members = new Map<string, NftRecord[]>()
  for (const [key, linked] of state.links) {
    const nft = state.nfts.get(key)
    if (!nft || nft.supply === 0n) continue
    const list = members.get(linked.stackId) ?? []
    list.push(nft)
    members.set(linked.stackId, list)
  }
  for (const list of members.values()) list.sort(byKey((nft) => nft.key))
  return members
}

/** A stack's bundle: the stack, its count, market, listings and bids. */
function stackBundle(
  chain: IndexerChain,
  stack: StackRecord,
  nfts: readonly NftRecord[],
  data: MarketData,
  ownerOnly: boolean,
): StackBundle {
  const tokens = new Set(nfts.map((nft) => nft.tokenId.toString()))
  const orders = ordersOf(chain.state, data, tokens, ownerOnly)
  return {
    stack: stackOf(chain, stack),
    stack_count: nfts.length,
    market: marketOf(orders, tokens),
    listings: orders.listings.slice(0, bundleOrders),
    bids: orders.bids.slice(0, bundleOrders),
  }
}

/**
 * The orders of some NFTs: their listings (only those whose creator still
 * holds the NFT, with `ownerOnly`), bids on them or on the collection, and
 * trades.
 */
function ordersOf(
  state: ChainState,
  data: MarketData,
  tokens: ReadonlySet<string>,
  ownerOnly: boolean,
): MarketData {
  const listings: Listing[] = data.listings.filter(
    (listing) =>
      tokens.has(listing.token_id) &&
      (!ownerOnly ||
        holds(
          state,
          listing.contract_address.toLowerCase() as Address,
          listing.token_id,
          listing.creator,
        )),
  )
  const bids: Bid[] = data.bids.filter(
    (bid) => bid.token_id === null || tokens.has(bid.token_id),
  )
  return {
    listings,
    bids,
    trades: data.trades.filter((trade) => tokens.has(trade.token_id)),
  }
}

function holds(
  state: ChainState,
  contract: Address,
  token: string,
  account: string,
): boolean {
  if (!/^[0-9]{1,78}$/.test(token)) return false
  const holding = state.owners
    .get(nftKey(contract, BigInt(token)))
    ?.get(account.toLowerCase() as Address)
  return (holding?.balance ?? 0n) > 0n
}

function balanceOf(
  state: ChainState,
  nft: NftRecord,
  account: Address,
): bigint {
  return state.owners.get(nft.key)?.get(account)?.balance ?? 0n
}

/** `traits`: `{ [trait_type]: { values: [...], condition: 'eq' } }`. */
function traitsOf(value: string): Map<string, Set<string>> | Refusal {
  const refusal = invalid(
    'traits',
    'traits must be JSON like {"rarity":{"values":["common","rare"],"condition":"eq"}}.',
  )
  if (value.length > maxTraitsLength) return refusal
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    return refusal
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return refusal
  const traits = new Map<string, Set<string>>()
  for (const [name, filter] of Object.entries(parsed)) {
    if (typeof filter !== 'object' || filter === null) return refusal
    const { values, condition } = filter as Record<string, unknown>
    if (condition !== undefined && condition !== 'eq') return refusal
    if (
      !Array.isArray(values) ||
      values.length === 0 ||
      !values.every((item) =>
        ['string', 'number', 'boolean'].includes(typeof item),
      )
    )
      return refusal
    traits.set(name, new Set(values.map(String)))
  }
  return traits
}

function hasTraits(
  stack: StackRecord,
  traits: ReadonlyMap<string, ReadonlySet<string>>,
): boolean {
  const attributes = stack.content.attributes ?? []
  return [...traits].every(([name, values]) =>
    attributes.some(
      (attribute) =>
        attribute.trait_type === name && values.has(String(attribute.value)),
    ),
  )
}

/** `keyword`: letters, digits and spaces; its words, lowercase. */
function keywordOf(value: string): string[] | Refusal {
  if (!/^[\p{L}\p{N} ]{1,256}$/u.test(value) || value.trim() === '')
    return invalid(
      'keyword',
      'keyword must be 1 to 256 letters, digits and spaces.',
    )
  return value.toLowerCase().split(' ').filter(Boolean)
}

function hasKeyword(stack: StackRecord, words: readonly string[]): boolean {
  const text =
    `${stack.content.name ?? ''} ${stack.content.description ?? ''}`.toLowerCase()
  return words.every((word) => text.includes(word))
}

/** `payment_token`: `NATIVE` or an ERC-20's address (lowercase). */
function paymentTokenOf(value: string): string | Refusal {
  if (value === 'NATIVE') return value
  return address('payment_token', value)
}

function amountOf(value: string): string {
  return /^[0-9]{1,78}$/.test(value) ? value : '0'
}
