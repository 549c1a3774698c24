/**
 * The routes of what the chain holds:
 *
 * - collections: `GET /collections` (by address, verification status,
 *   `from_updated_at`), `GET /collections/{contract_address}`,
 *   `GET /accounts/{account_address}/collections` (those an account holds
 *   NFTs of), `POST /collections/{contract_address}/refresh-metadata`
 *   (API key);
 * - nfts: `GET /collections/{contract_address}/nfts/{token_id}`,
 *   `GET /collections/{contract_address}/nfts`, `GET /nfts`,
 *   `GET /accounts/{account_address}/nfts`;
 * - nft owners: `GET /collections/{contract_address}/nfts/{token_id}/owners`,
 *   `GET /collections/{contract_address}/owners`, `GET /nft-owners`;
 * - tokens: `GET /tokens`, `GET /tokens/{contract_address}`.
 *
 * @packageDocumentation
 */
import type { Address } from 'viem'
import { readJson } from '../api/http.js'
import type { IndexerChain } from './indexer.js'
import { byKey, paginate } from './pages.js'
import {
  address,
  boolean,
  checkAll,
  dateTime,
  invalid,
  isRefusal,
  list,
  oneOf,
  optional,
  pageParams,
  type Refusal,
  refuse,
  tokenId,
} from './params.js'
import type { On, RouteDeps } from './routes.js'
import type { Answers } from './schema.js'
import { type CollectionMetadata, verificationStatuses } from './schema.js'
import { type Holding, type NftRecord, nftKey } from './state.js'
import {
  chainRefOf,
  collectionOf,
  collectionUpdatedAt,
  nftOf,
  nftUpdatedAt,
  nftWithBalanceOf,
  ownerOf,
  statusOf,
  tokenOf,
} from './views.js'

/** The routes a sibling backend serves under `…/nfts/{token_id}`. */
const nftSiblings = {
  param: 'token_id',
  values: ['mint-requests', 'refresh-metadata'],
} as const

/** Adds the collection, NFT, owner and token routes. */
export function assetRoutes(on: On, deps: RouteDeps): void {
  const { indexer } = deps
  const { cursors } = indexer

  on('get', '/collections', (c, chain, query) => {
    const route = 'ListCollections'
    const given = checkAll({
      contracts: list(
        'contract_address',
        query.all('contract_address'),
        address,
      ),
      statuses: list(
        'verification_status',
        query.all('verification_status'),
        (name, value) => oneOf(name, value, verificationStatuses),
      ),
      from: optional(query.one('from_updated_at'), (v) =>
        dateTime('from_updated_at', v),
      ),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const { contracts, statuses, from, size, cursor } = given
    const { state } = chain
    const records = [...state.collections.values()]
      .filter(
        (record) =>
          (contracts.length === 0 || contracts.includes(record.address)) &&
          (statuses.length === 0 ||
            statuses.includes(statusOf(state, record.address))) &&
          (from === undefined || collectionUpdatedAt(state, record) >= from),
      )
      .sort(byKey((record) => record.address))
    const page = paginate(records, (record) => record.address, {
      route,
      size,
      cursor,
      cursors,
    })
    return c.json({
      result: page.result.map((record) => collectionOf(chain, record)),
      page: page.page,
    } satisfies Answers['ListCollectionsResult'])
  })

  on('get', '/collections/:contract_address', (c, chain) => {
    const contract = address(
      'contract_address',
      c.req.param('contract_address'),
    )
    if (isRefusal(contract)) return contract
    const record = chain.state.collections.get(contract)
    if (!record) return noCollection(chain, contract)
    return c.json({
      result: collectionOf(chain, record),
    } satisfies Answers['GetCollectionResult'])
  })

  on('get', '/accounts/:account_address/collections', (c, chain, query) => {
    const route = 'ListCollectionsByNFTOwner'
    const given = checkAll({
      account: address('account_address', c.req.param('account_address')),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const { account, size, cursor } = given
    const { state } = chain
    const held = new Set<Address>()
    for (const [key, holders] of state.owners)
      if ((holders.get(account)?.balance ?? 0n) > 0n) {
        const nft = state.nfts.get(key)
        if (nft) held.add(nft.contract)
      }
    const records = [...held].sort().flatMap((contract) => {
      const record = state.collections.get(contract)
      return record ? [record] : []
    })
    const page = paginate(records, (record) => record.address, {
      route,
      size,
      cursor,
      cursors,
    })
    return c.json({
      result: page.result.map((record) => collectionOf(chain, record)),
      page: page.page,
    } satisfies Answers['ListCollectionsResult'])
  })

  on(
    'post',
    '/collections/:contract_address/refresh-metadata',
    async (c, chain) => {
      const contract = address(
        'contract_address',
        c.req.param('contract_address'),
      )
      if (isRefusal(contract)) return contract
      const metadata = collectionMetadataOf(await readJson(c))
      if (isRefusal(metadata)) return metadata
      const { state } = chain
      if (!state.collections.has(contract)) return noCollection(chain, contract)
      // One record per collection, replaced: no budget needed (the API
      // answers no 429 here).
      state.collectionMetadata.set(contract, { metadata, at: indexer.now() })
      return c.json({
        contract_address: contract,
        chain: chainRefOf(chain),
        collection_metadata: metadata,
      } satisfies Answers['RefreshCollectionMetadataResult'])
    },
    { apiKey: true },
  )

  on(
    'get',
    '/collections/:contract_address/nfts/:token_id',
    (c, chain) => {
      const given = checkAll({
        contract: address('contract_address', c.req.param('contract_address')),
        token: tokenId('token_id', c.req.param('token_id')),
      })
      if (isRefusal(given)) return given
      const nft = chain.state.nfts.get(nftKey(given.contract, given.token))
      if (!nft)
        return refuse(
          'notFound',
          `There is no NFT ${given.token} of ${given.contract} on ${chain.name}.`,
        )
      return c.json({
        result: nftOf(chain, nft),
      } satisfies Answers['GetNFTResult'])
    },
    { passOn: nftSiblings },
  )

  on('get', '/collections/:contract_address/nfts', (c, chain, query) => {
    const route = 'ListNFTs'
    const given = checkAll({
      contract: address('contract_address', c.req.param('contract_address')),
      tokens: list('token_id', query.all('token_id'), tokenId, { max: 30 }),
      from: optional(query.one('from_updated_at'), (v) =>
        dateTime('from_updated_at', v),
      ),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const { contract, tokens, from, size, cursor } = given
    const nfts = sortedNfts(chain).filter(
      (nft) =>
        nft.contract === contract &&
        (tokens.length === 0 || tokens.includes(nft.tokenId)) &&
        (from === undefined || nftUpdatedAt(chain.state, nft) >= from),
    )
    const page = paginate(nfts, (nft) => nft.key, {
      route,
      size,
      cursor,
      cursors,
    })
    return c.json({
      result: page.result.map((nft) => nftOf(chain, nft)),
      page: page.page,
    } satisfies Answers['ListNFTsResult'])
  })

  on('get', '/nfts', (c, chain, query) => {
    const route = 'ListAllNFTs'
    const given = checkAll({
      from: optional(query.one('from_updated_at'), (v) =>
        dateTime('from_updated_at', v),
      ),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const { from, size, cursor } = given
    const nfts = sortedNfts(chain).filter(
      (nft) => from === undefined || nftUpdatedAt(chain.state, nft) >= from,
    )
    const page = paginate(nfts, (nft) => nft.key, {
      route,
      size,
      cursor,
      cursors,
    })
    return c.json({
      result: page.result.map((nft) => nftOf(chain, nft)),
      page: page.page,
    } satisfies Answers['ListNFTsResult'])
  })

  on('get', '/accounts/:account_address/nfts', (c, chain, query) => {
    const route = 'ListNFTsByAccountAddress'
    const given = checkAll({
      account: address('account_address', c.req.param('account_address')),
      contract: optional(query.one('contract_address'), (v) =>
        address('contract_address', v),
      ),
      tokens: list('token_id', query.all('token_id'), tokenId, { max: 30 }),
      from: optional(query.one('from_updated_at'), (v) =>
        dateTime('from_updated_at', v),
      ),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const { account, contract, tokens, from, size, cursor } = given
    const held = holdings(chain).filter(
      ({ nft, account: holder, holding }) =>
        holder === account &&
        holding.balance > 0n &&
        (contract === undefined || nft.contract === contract) &&
        (tokens.length === 0 || tokens.includes(nft.tokenId)) &&
        (from === undefined || nftUpdatedAt(chain.state, nft) >= from),
    )
    const page = paginate(held, ({ nft }) => nft.key, {
      route,
      size,
      cursor,
      cursors,
    })
    return c.json({
      result: page.result.map(({ nft, holding }) =>
        nftWithBalanceOf(chain, nft, holding.balance),
      ),
      page: page.page,
    } satisfies Answers['ListNFTsByOwnerResult'])
  })

  on(
    'get',
    '/collections/:contract_address/nfts/:token_id/owners',
    (c, chain, query) => {
      const route = 'ListNFTOwners'
      const given = checkAll({
        contract: address('contract_address', c.req.param('contract_address')),
        token: tokenId('token_id', c.req.param('token_id')),
        ...pageParams(query, cursors, route),
      })
      if (isRefusal(given)) return given
      const { contract, token, size, cursor } = given
      const key = nftKey(contract, token)
      const owners = holdings(chain).filter(
        ({ nft, holding }) => nft.key === key && holding.balance > 0n,
      )
      const page = paginate(owners, ownerKey, { route, size, cursor, cursors })
      return c.json({
        result: page.result.map(({ nft, account, holding }) =>
          ownerOf(chain, nft, account, holding),
        ),
        page: page.page,
      } satisfies Answers['ListNFTOwnersResult'])
    },
  )

  on('get', '/collections/:contract_address/owners', (c, chain, query) => {
    const route = 'ListOwnersByContractAddress'
    const given = checkAll({
      contract: address('contract_address', c.req.param('contract_address')),
      accounts: list('account_address', query.all('account_address'), address, {
        max: 30,
      }),
      from: optional(query.one('from_updated_at'), (v) =>
        dateTime('from_updated_at', v),
      ),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const { contract, accounts, from, size, cursor } = given
    const owners = holdings(chain).filter(
      ({ nft, account, holding }) =>
        nft.contract === contract &&
        holding.balance > 0n &&
        (accounts.length === 0 || accounts.includes(account)) &&
        (from === undefined || holding.updatedAt >= from),
    )
    const page = paginate(owners, ownerKey, { route, size, cursor, cursors })
    return c.json({
      result: page.result.map(({ nft, account, holding }) =>
        ownerOf(chain, nft, account, holding),
      ),
      page: page.page,
    } satisfies Answers['ListCollectionOwnersResult'])
  })

  on('get', '/nft-owners', (c, chain, query) => {
    const route = 'ListAllNFTOwners'
    const given = checkAll({
      from: optional(query.one('from_updated_at'), (v) =>
        dateTime('from_updated_at', v),
      ),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const { from, size, cursor } = given
    const owners = holdings(chain).filter(
      ({ holding }) =>
        holding.balance > 0n &&
        (from === undefined || holding.updatedAt >= from),
    )
    const page = paginate(owners, ownerKey, { route, size, cursor, cursors })
    return c.json({
      result: page.result.map(({ nft, account, holding }) =>
        ownerOf(chain, nft, account, holding),
      ),
      page: page.page,
    } satisfies Answers['ListNFTOwnersResult'])
  })

  on('get', '/tokens', (c, chain, query) => {
    const route = 'ListERC20Tokens'
    const given = checkAll({
      from: optional(query.one('from_updated_at'), (v) =>
        dateTime('from_updated_at', v),
      ),
      statuses: list(
        'verification_status',
        query.all('verification_status'),
        (name, value) => oneOf(name, value, verificationStatuses),
      ),
      canonical: optional(query.one('is_canonical'), (v) =>
        boolean('is_canonical', v),
      ),
      ...pageParams(query, cursors, route),
    })
    if (isRefusal(given)) return given
    const { from, statuses, canonical, size, cursor } = given
    const tokens = [...chain.state.tokens.values()]
      .map((record) => tokenOf(chain, record))
      .filter(
        (token) =>
          (from === undefined || new Date(token.updated_at) >= from) &&
          (statuses.length === 0 ||
            statuses.includes(token.verification_status)) &&
          (canonical === undefined || token.is_canonical === canonical),
      )
      .sort(byKey((token) => token.contract_address))
    const page = paginate(tokens, (token) => token.contract_address, {
      route,
      size,
      cursor,
      cursors,
    })
    return c.json(page satisfies Answers['ListTokensResult'])
  })

  on('get', '/tokens/:contract_address', (c, chain) => {
    const contract = address(
      'contract_address',
      c.req.param('contract_address'),
    )
    if (isRefusal(contract)) return contract
    const record = chain.state.tokens.get(contract)
    if (!record)
      return refuse(
        'notFound',
        `There is no ERC-20 token ${contract} on ${chain.name}.`,
      )
    return c.json({
      result: tokenOf(chain, record),
    } satisfies Answers['GetTokenResult'])
  })
}

/** The refusal of a collection the indexer has not seen. */
export function noCollection(chain: IndexerChain, contract: Address): Refusal {
  return refuse(
    'notFound',
    `There is no collection ${contract} on ${chain.name}.`,
  )
}

/** The chain's NFTs by contract and token id. */
export function sortedNfts(chain: IndexerChain): NftRecord[] {
  return [...chain.state.nfts.values()].sort(byKey((nft) => nft.key))
}

type HoldingOf = { nft: NftRecord; account: Address; holding: Holding }

/** Every (NFT, account) balance, by NFT then account. */
function holdings(chain: IndexerChain): HoldingOf[] {
  const { state } = chain
  const out: HoldingOf[] = []
  for (const [key, holders] of state.owners) {
    const nft = state.nfts.get(key)
    if (!nft) continue
    for (const [account, holding] of holders)
      out.push({ nft, account, holding })
  }
  return out.sort(byKey(ownerKey))
}

function ownerKey({ nft, account }: { nft: NftRecord; account: Address }) {
  return `${nft.key}:${account}`
}

/** `RefreshCollectionMetadataRequest`'s `collection_metadata`, checked. */
function collectionMetadataOf(body: unknown): CollectionMetadata | Refusal {
  const fields = [
    'name',
    'symbol',
    'description',
    'image',
    'external_link',
    'contract_uri',
    'base_uri',
  ] as const
  const given =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>).collection_metadata
      : undefined
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    return invalid(
      'collection_metadata',
      'The body must be { collection_metadata: { name, symbol, description, image, external_link, contract_uri, base_uri } }.',
    )
  const out = {} as CollectionMetadata
  for (const field of fields) {
    const value = (given as Record<string, unknown>)[field]
    if (value !== null && (typeof value !== 'string' || value.length > 4_096))
      return invalid(
        `collection_metadata.${field}`,
        `collection_metadata.${field} is required: a string of at most 4096 characters, or null.`,
      )
    out[field] = value
  }
  return out
}
