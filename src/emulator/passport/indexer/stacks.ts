/**
 * The metadata routes (tag `metadata`): the stacked metadata of a
 * collection's NFTs — NFTs whose metadata is equal share one metadata id,
 * which is also their stack's id — and the two refreshes.
 *
 * - `GET /collections/{contract_address}/metadata/{metadata_id}`,
 *   `GET /collections/{contract_address}/metadata`, `GET /metadata`;
 * - `POST /collections/{contract_address}/metadata/refresh-metadata`
 *   (API key): replaces the metadata of stacks, by metadata id;
 * - `POST /collections/{contract_address}/nfts/refresh-metadata` (API
 *   key): sets the metadata of NFTs, by token id (each moves to the stack
 *   of its new metadata).
 *
 * A refresh names only what is indexed, and counts against the key's
 * hourly budget; it answers 202 with that budget, in its body and headers.
 *
 * @packageDocumentation
 */
import { readJson } from '../api/http.js'
import { noCollection } from './assets.js'
import { giveMetadata } from './indexer.js'
import { contentOfInput, sizeOf } from './metadata.js'
import { byKey, paginate, sortable } from './pages.js'
import {
  address,
  checkAll,
  dateTime,
  invalid,
  isRefusal,
  optional,
  pageParams,
  type Refusal,
  refuse,
  tokenId,
  uuid,
} from './params.js'
import { answerRefreshLimit, type On, type RouteDeps } from './routes.js'
import type { Answers } from './schema.js'
import { nftKey, restack, type StackRecord } from './state.js'
import { metadataOf } from './views.js'

/** The largest refresh body the API accepts: 228 KiB. */
export const maxRefreshBytes = 228 * 1024

/** Adds the metadata routes. */
export function stackRoutes(on: On, deps: RouteDeps): void {
  const { indexer } = deps
  const { cursors } = indexer
  const stackKey = (stack: StackRecord) => sortable(stack.seq, 12)

  on(
    'get',
    '/collections/:contract_address/metadata/:metadata_id',
    (c, chain) => {
      const given = checkAll({
        contract: address('contract_address', c.req.param('contract_address')),
        id: uuid('metadata_id', c.req.param('metadata_id')),
      })
      if (isRefusal(given)) return given
      const stack = chain.state.stacks.get(given.id)
      if (!stack || stack.contract !== given.contract)
        return refuse(
          'notFound',
          `There is no metadata ${given.id} of ${given.contract} on ${chain.name}.`,
        )
      return c.json({
        result: metadataOf(chain, stack),
      } satisfies Answers['GetMetadataResult'])
    },
  )

  on('get', '/collections/:contract_address/metadata', (c, chain, query) => {
    const route = 'ListMetadata'
    const given = checkAll({
      contract: address('contract_address', c.req.param('contract_address')),
      from: optional(query.one('from_updated_at'), (v) =>
        dateTime('from_updated_at', v),
      ),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const { contract, from, size, cursor } = given
    const stacks = [...chain.state.stacks.values()]
      .filter(
        (stack) =>
          stack.contract === contract &&
          (from === undefined || stack.updatedAt >= from),
      )
      .sort(byKey(stackKey))
    const page = paginate(stacks, stackKey, { route, size, cursor, cursors })
    return c.json({
      result: page.result.map((stack) => metadataOf(chain, stack)),
      page: page.page,
    } satisfies Answers['ListMetadataResult'])
  })

  on('get', '/metadata', (c, chain, query) => {
    const route = 'ListMetadataForChain'
    const given = checkAll({
      from: optional(query.one('from_updated_at'), (v) =>
        dateTime('from_updated_at', v),
      ),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const { from, size, cursor } = given
    const stacks = [...chain.state.stacks.values()]
      .filter((stack) => from === undefined || stack.updatedAt >= from)
      .sort(byKey(stackKey))
    const page = paginate(stacks, stackKey, { route, size, cursor, cursors })
    return c.json({
      result: page.result.map((stack) => metadataOf(chain, stack)),
      page: page.page,
    } satisfies Answers['ListMetadataResult'])
  })

  on(
    'post',
    '/collections/:contract_address/metadata/refresh-metadata',
    async (c, chain) => {
      const contract = address(
        'contract_address',
        c.req.param('contract_address'),
      )
      if (isRefusal(contract)) return contract
      const items = itemsOf(
        await readJson(c),
        'metadata',
        10,
        (item, where) => {
          const id = uuid(`${where}.metadata_id`, stringOf(item.metadata_id))
          if (isRefusal(id)) return id
          const content = contentOfInput(item, { required: true, where })
          return typeof content === 'string'
            ? invalid(where, content)
            : { id, content }
        },
      )
      if (isRefusal(items)) return items
      const { state } = chain
      if (!state.collections.has(contract)) return noCollection(chain, contract)
      const stacks: StackRecord[] = []
      for (const { id } of items) {
        const stack = state.stacks.get(id)
        if (!stack || stack.contract !== contract)
          return refuse(
            'notFound',
            `There is no metadata ${id} of ${contract} on ${chain.name}.`,
          )
        stacks.push(stack)
      }
      const spent = deps.refreshes.spend(items.length)
      if (spent.ok) {
        const at = indexer.now()
        items.forEach(({ content }, i) => {
          restack(state, stacks[i]!, content, at)
        })
      }
      return answerRefreshLimit(c, spent)
    },
    { apiKey: true },
  )

  on(
    'post',
    '/collections/:contract_address/nfts/refresh-metadata',
    async (c, chain) => {
      const contract = address(
        'contract_address',
        c.req.param('contract_address'),
      )
      if (isRefusal(contract)) return contract
      const items = itemsOf(
        await readJson(c),
        'nft_metadata',
        250,
        (item, where) => {
          const token = tokenId(`${where}.token_id`, stringOf(item.token_id))
          if (isRefusal(token)) return token
          const content = contentOfInput(item, { required: true, where })
          return typeof content === 'string'
            ? invalid(where, content)
            : { token, content }
        },
      )
      if (isRefusal(items)) return items
      const { state } = chain
      if (!state.collections.has(contract)) return noCollection(chain, contract)
      for (const { token } of items)
        if (!state.nfts.has(nftKey(contract, token)))
          return refuse(
            'notFound',
            `There is no NFT ${token} of ${contract} on ${chain.name}.`,
          )
      const spent = deps.refreshes.spend(items.length)
      if (spent.ok) {
        const at = indexer.now()
        for (const { token, content } of items)
          giveMetadata(state, nftKey(contract, token), content, at)
      }
      return answerRefreshLimit(c, spent)
    },
    { apiKey: true },
  )
}

/**
 * The items of a refresh body `{ [field]: [...] }`: 1 to `max` of them,
 * within the API's size limit, each checked by `check`.
 */
function itemsOf<item>(
  body: unknown,
  field: string,
  max: number,
  check: (item: Record<string, unknown>, where: string) => item | Refusal,
): item[] | Refusal {
  const list =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)[field]
      : undefined
  if (!Array.isArray(list) || list.length < 1 || list.length > max)
    return invalid(
      field,
      `The body must be { ${field}: [...] } with 1 to ${max} items.`,
    )
  if (sizeOf(list) > maxRefreshBytes)
    return invalid(
      field,
      `${field} must not exceed ${maxRefreshBytes / 1024} KiB.`,
    )
  const out: item[] = []
  for (const [i, item] of list.entries()) {
    const where = `${field}[${i}]`
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return invalid(where, `${where} must be an object.`)
    const checked = check(item as Record<string, unknown>, where)
    if (isRefusal(checked)) return checked
    out.push(checked)
  }
  return out
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}
