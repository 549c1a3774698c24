/**
 * What accounts hold, read from the vaults:
 *
 * - `GET /v2/balances/{owner}` → the ETH and ERC20 balances of the account
 *   of `owner` (its Ethereum address), in base units;
 * - `GET /v2/balances/{owner}/{address}` → one of them, `address` being the
 *   token's address or `eth` (any case);
 * - `GET /v1/assets` → the ERC721 tokens held on the exchange, with the
 *   legacy API's filters (`user`, `status`, `collection`, `updated_min/max_timestamp`,
 *   `order_by`, `direction`, pages); the exchange knows no names or
 *   metadata, so `name` matches nothing and `metadata` is refused;
 * - `GET /v1/assets/{token_address}/{token_id}` → one of them.
 *
 * Nothing is ever preparing withdrawal or withdrawable: withdrawals are
 * not supported.
 *
 * @packageDocumentation
 */
import type { Hono, Context as HonoContext } from 'hono'
import type { components } from '../../../api/wire/imx/schema.generated.js'
import {
  addressOf,
  baseUnits,
  type Deps,
  decimalOf,
  directionOf,
  fail,
  pageAnswer,
  pageOf,
  type StarkExEnv,
  timeOf,
} from './http.js'
import {
  type Account,
  type AssetInfo,
  ethQuantum,
  type Vault,
} from './ledger.js'
import { assetId, assetIdText } from './stark.js'

type Schemas = components['schemas']

/** A fungible vault as the legacy API's `Balance`. */
function balanceAnswer(asset: AssetInfo, balance: bigint): Schemas['Balance'] {
  return {
    balance: baseUnits(balance, asset),
    preparing_withdrawal: '0',
    withdrawable: '0',
    // The exchange learns no ERC20 symbols; ETH's is known.
    symbol: asset.type === 'ETH' ? 'ETH' : '',
    token_address: asset.type === 'ERC20' ? asset.tokenAddress : '',
  }
}

/** An ERC721 held in a vault, as the legacy API's `AssetWithOrders`. */
export function assetAnswer(
  asset: AssetInfo & { type: 'ERC721' },
  vault: Vault,
  owner: Account,
): Schemas['AssetWithOrders'] {
  return {
    id: assetIdText(asset.id),
    token_address: asset.tokenAddress,
    token_id: asset.tokenId.toString(),
    user: owner.ethAddress.toLowerCase(),
    status: 'imx',
    name: null,
    description: null,
    image_url: null,
    metadata: null,
    uri: null,
    collection: { name: '', icon_url: null },
    created_at: new Date(vault.createdAt).toISOString(),
    updated_at: new Date(vault.updatedAt).toISOString(),
  }
}

/** Every ERC721 held, with its vault and owner. */
function heldTokens(deps: Deps) {
  const held: {
    asset: AssetInfo & { type: 'ERC721' }
    vault: Vault
    owner: Account
  }[] = []
  for (const owner of deps.ledger.accounts())
    for (const vault of deps.ledger.vaultsOf(owner.starkKey)) {
      const asset = deps.ledger.asset(vault.assetId)
      if (asset?.type === 'ERC721' && vault.balance > 0n)
        held.push({ asset, vault, owner })
    }
  return held
}

/** Mounts the balances and assets routes. */
export function balanceRoutes(app: Hono<StarkExEnv>, deps: Deps) {
  const fungibles = (owner: Account) =>
    deps.ledger.vaultsOf(owner.starkKey).flatMap((vault) => {
      const asset = deps.ledger.asset(vault.assetId)
      return asset && asset.type !== 'ERC721' ? [{ asset, vault }] : []
    })

  app.get('/v2/balances/:owner', (c) => {
    const page = pageOf(c)
    if (!page.ok) return fail(c, 'validation', page.message)
    const direction = directionOf(c)
    if (!direction.ok) return fail(c, 'validation', direction.message)
    const address = addressOf(c.req.param('owner'))
    if (!address)
      return fail(c, 'validation', 'owner must be an Ethereum address.')
    const owner = deps.ledger.accountOf(address)
    const list = owner ? fungibles(owner) : []
    if (direction.value === 'desc') list.reverse()
    return c.json(
      pageAnswer(
        list.map(({ asset, vault }) => balanceAnswer(asset, vault.balance)),
        page.value,
      ) satisfies Schemas['ListBalancesResponse'],
    )
  })

  app.get('/v2/balances/:owner/:address', (c) => {
    const address = addressOf(c.req.param('owner'))
    if (!address)
      return fail(c, 'validation', 'owner must be an Ethereum address.')
    const tokenText = c.req.param('address')
    const asset =
      tokenText.toLowerCase() === 'eth'
        ? deps.ledger.asset(assetId({ type: 'ETH', quantum: ethQuantum }))
        : addressOf(tokenText) && deps.ledger.erc20(tokenText)
    if (!asset)
      return fail(c, 'notFound', `The exchange holds no token ${tokenText}.`)
    const owner = deps.ledger.accountOf(address)
    const vault = owner && deps.ledger.vaultOf(owner.starkKey, asset.id)
    return c.json(
      balanceAnswer(asset, vault?.balance ?? 0n) satisfies Schemas['Balance'],
    )
  })

  app.get('/v1/assets', (c) => {
    const page = pageOf(c)
    if (!page.ok) return fail(c, 'validation', page.message)
    const direction = directionOf(c)
    if (!direction.ok) return fail(c, 'validation', direction.message)
    const filter = assetFilterOf(c)
    if (!filter.ok) return fail(c, 'validation', filter.message)
    const orderBy = c.req.query('order_by') ?? 'updated_at'
    if (orderBy !== 'updated_at' && orderBy !== 'name')
      return fail(c, 'validation', "order_by must be 'updated_at' or 'name'.")
    const sign = direction.value === 'asc' ? 1 : -1
    // No asset has a name: ordered by name, they keep their vault order.
    const found = heldTokens(deps)
      .filter(filter.value)
      .sort(
        (a, b) =>
          sign *
          (orderBy === 'name'
            ? a.vault.id - b.vault.id
            : a.vault.updatedAt - b.vault.updatedAt || a.vault.id - b.vault.id),
      )
    return c.json(
      pageAnswer(
        found.map((held) => assetAnswer(held.asset, held.vault, held.owner)),
        page.value,
      ) satisfies Schemas['ListAssetsResponse'],
    )
  })

  app.get('/v1/assets/:token_address/:token_id', (c) => {
    const address = addressOf(c.req.param('token_address'))
    const tokenId = decimalOf(c.req.param('token_id'))
    if (!address || tokenId === undefined)
      return fail(
        c,
        'validation',
        'The path must be /v1/assets/{token_address}/{token_id} (an address and a decimal token id).',
      )
    const held = heldTokens(deps).find(
      ({ asset }) =>
        asset.tokenAddress === address.toLowerCase() &&
        asset.tokenId === tokenId,
    )
    if (!held)
      return fail(
        c,
        'notFound',
        `The exchange holds no ERC721 ${address} #${tokenId}.`,
      )
    const { orders: _, ...asset } = assetAnswer(
      held.asset,
      held.vault,
      held.owner,
    )
    return c.json(asset satisfies Schemas['Asset'])
  })
}

type Held = ReturnType<typeof heldTokens>[number]

/** Reads the assets list's filters into a predicate. */
function assetFilterOf(
  c: HonoContext,
):
  | { ok: true; value: (held: Held) => boolean }
  | { ok: false; message: string } {
  const q = (name: string) => {
    const value = c.req.query(name)
    return value === '' ? undefined : value
  }
  if (q('metadata') !== undefined)
    return {
      ok: false,
      message: 'The metadata filter is not supported by this exchange.',
    }
  const tests: ((held: Held) => boolean)[] = []
  const user = q('user')
  if (user !== undefined) {
    const address = addressOf(user)
    if (!address)
      return { ok: false, message: 'user must be an Ethereum address.' }
    tests.push((held) => held.owner.ethAddress === address)
  }
  const collection = q('collection')
  if (collection !== undefined) {
    const address = addressOf(collection)
    if (!address)
      return { ok: false, message: 'collection must be an Ethereum address.' }
    tests.push((held) => held.asset.tokenAddress === address.toLowerCase())
  }
  const status = q('status')
  if (status !== undefined) {
    const statuses = [
      'eth',
      'imx',
      'preparing_withdrawal',
      'withdrawable',
      'burned',
    ]
    if (!statuses.includes(status))
      return {
        ok: false,
        message: `status must be one of ${statuses.join(', ')}.`,
      }
    // Every token the exchange holds is on the exchange ('imx').
    tests.push(() => status === 'imx')
  }
  if (q('name') !== undefined) tests.push(() => false)
  for (const [name, compare] of [
    ['updated_min_timestamp', (time: number, bound: number) => time >= bound],
    ['updated_max_timestamp', (time: number, bound: number) => time <= bound],
  ] as const) {
    const bound = timeOf(c, name)
    if (!bound.ok) return { ok: false, message: bound.message }
    const value = bound.value
    if (value !== undefined)
      tests.push((held) => compare(held.vault.updatedAt, value))
  }
  return { ok: true, value: (held) => tests.every((t) => t(held)) }
}
