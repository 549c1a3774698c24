/**
 * The activity routes (tag `activities`):
 *
 * - `GET /activities`: the chain's mints, burns, transfers and sales in
 *   chain order, by contract, token id, account, type or transaction;
 * - `GET /activity-history`: the same by indexing time (`updated_at`
 *   ascending, from `from_updated_at` to `to_updated_at`), for replication;
 * - `GET /activities/{activity_id}`.
 *
 * @packageDocumentation
 */
import { paginate } from './pages.js'
import {
  address,
  checkAll,
  dateTime,
  hash,
  isRefusal,
  oneOf,
  optional,
  pageParams,
  refusalOr,
  refuse,
  tokenId,
  uuid,
} from './params.js'
import type { On, RouteDeps } from './routes.js'
import type { Answers } from './schema.js'
import { activityTypes } from './schema.js'
import { entryKey } from './state.js'
import { accountsOf, activityOf, activityTypeOf, assetsOf } from './views.js'

/** Adds the activity routes. */
export function activityRoutes(on: On, deps: RouteDeps): void {
  const { indexer } = deps

  on('get', '/activities', (c, chain, query) => {
    const route = 'ListActivities'
    const given = checkAll({
      contract: optional(query.one('contract_address'), (v) =>
        address('contract_address', v),
      ),
      token: optional(query.one('token_id'), (v) => tokenId('token_id', v)),
      account: optional(query.one('account_address'), (v) =>
        address('account_address', v),
      ),
      type: optional(query.one('activity_type'), (v) =>
        oneOf('activity_type', v, activityTypes),
      ),
      transaction: optional(query.one('transaction_hash'), (v) =>
        hash('transaction_hash', v),
      ),
      ...pageParams(query, indexer.cursors, route),
    })
    if (isRefusal(given)) return given
    const { contract, token, account, type, transaction, size, cursor } = given
    const entries = [...chain.state.activities.values()].filter(
      (entry) =>
        (type === undefined || activityTypeOf(entry) === type) &&
        (transaction === undefined ||
          entry.at.txHash.toLowerCase() === transaction) &&
        (account === undefined || accountsOf(entry).includes(account)) &&
        (contract === undefined && token === undefined
          ? true
          : assetsOf(entry).some(
              (asset) =>
                (contract === undefined || asset.contract === contract) &&
                (token === undefined || asset.tokenId === token),
            )),
    )
    const page = paginate(entries, entryKey, {
      route,
      size,
      cursor,
      cursors: indexer.cursors,
    })
    return c.json({
      result: page.result.map((entry) =>
        activityOf(chain, entry, indexer.listings),
      ),
      page: page.page,
    } satisfies Answers['ListActivitiesResult'])
  })

  on('get', '/activity-history', (c, chain, query) => {
    const route = 'ListActivityHistory'
    const given = checkAll({
      from: refusalOr(query.one('from_updated_at'), (v) =>
        v === undefined
          ? refuse('validation', 'from_updated_at is required.', {
              parameter: 'from_updated_at',
            })
          : dateTime('from_updated_at', v),
      ),
      to: optional(query.one('to_updated_at'), (v) =>
        dateTime('to_updated_at', v),
      ),
      contract: optional(query.one('contract_address'), (v) =>
        address('contract_address', v),
      ),
      type: optional(query.one('activity_type'), (v) =>
        oneOf('activity_type', v, activityTypes),
      ),
      ...pageParams(query, indexer.cursors, route),
    })
    if (isRefusal(given)) return given
    const { from, to, contract, type, size, cursor } = given
    const keyOf = (entry: (typeof entries)[number]) =>
      `${entry.indexedAt.toISOString()}|${entryKey(entry)}`
    const entries = [...chain.state.activities.values()]
      .filter(
        (entry) =>
          entry.indexedAt >= from &&
          (to === undefined || entry.indexedAt <= to) &&
          (type === undefined || activityTypeOf(entry) === type) &&
          (contract === undefined ||
            assetsOf(entry).some((asset) => asset.contract === contract)),
      )
      .sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0))
    const page = paginate(entries, keyOf, {
      route,
      size,
      cursor,
      cursors: indexer.cursors,
    })
    return c.json({
      result: page.result.map((entry) =>
        activityOf(chain, entry, indexer.listings),
      ),
      page: page.page,
    } satisfies Answers['ListActivitiesResult'])
  })

  on('get', '/activities/:activity_id', (c, chain) => {
    const id = uuid('activity_id', c.req.param('activity_id'))
    if (isRefusal(id)) return id
    const entry = chain.state.activities.get(id)
    if (!entry)
      return refuse('notFound', `There is no activity ${id} on ${chain.name}.`)
    return c.json({
      result: activityOf(chain, entry, indexer.listings),
    } satisfies Answers['GetActivityResult'])
  })
}
