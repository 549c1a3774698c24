/**
 * NFT metadata over a real Anvil: read from on-chain `data:` URIs (base64,
 * percent-encoded, ERC-1155 `{id}`; the repo's test tokens), never from a
 * foreign URL; given by the minting backend's store; stacked by equal
 * metadata; refreshed through the API key's routes. Then the search,
 * filters, stacks and quotes over those stacks, with an order book's
 * listings and bids given as the indexer's listings source.
 */
import type { Address, LocalAccount } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  TestERC721,
  TestERC1155,
} from '../../src/emulator/chain/artifacts.generated.js'
import { platformApiKey } from '../../src/emulator/constants.js'
import type { ListingsSource } from '../../src/emulator/passport/indexer/indexer.js'
import type {
  Bid,
  LastTrade,
  Listing,
} from '../../src/emulator/passport/indexer/schema.js'
import {
  createClock,
  dataUri,
  type IndexerTest,
  startIndexerTest,
} from '../../src/emulator/passport/indexer/testkit.js'

const clock = createClock('2026-02-01T00:00:00.000Z')
const t = (second: number) =>
  `2026-02-01T00:00:${String(second).padStart(2, '0')}.000Z`
const key = { 'x-immutable-api-key': platformApiKey }

/** The order book the test plays: what it lists, bids and traded. */
const book: { listings: Listing[]; bids: Bid[]; trades: LastTrade[] } = {
  listings: [],
  bids: [],
  trades: [],
}
const listings: ListingsSource = {
  listings: ({ contractAddress, tokenIds }) =>
    book.listings.filter(
      (listing) =>
        listing.contract_address === contractAddress &&
        (tokenIds === undefined || tokenIds.includes(listing.token_id)),
    ),
  bids: ({ contractAddress }) =>
    book.bids.filter((bid) => bid.contract_address === contractAddress),
  trades: ({ contractAddress }) =>
    book.trades.filter((trade) => trade.contract_address === contractAddress),
}

const native = { type: 'NATIVE', symbol: 'IMX' } as const
function price(
  amount: string,
  token: Listing['price_details']['token'] = native,
) {
  return {
    token,
    amount,
    fee_inclusive_amount: amount,
    fees: [],
    converted_prices: {},
  }
}

let kit: IndexerTest
let alice: LocalAccount
let bob: LocalAccount
let a: Address
let b: Address
let gems: Address
let items: Address
let chain: { id: string; name: string }

const ruby = {
  name: 'Ruby',
  description: 'A red gem',
  image: 'https://img.example/ruby.png',
  attributes: [
    { trait_type: 'color', value: 'red' },
    { trait_type: 'level', value: 3, display_type: 'number' },
  ],
}
const emerald = {
  name: 'Emerald',
  description: 'A green gem of the forest',
  attributes: [
    { trait_type: 'color', value: 'green' },
    { trait_type: 'level', value: 1, display_type: 'number' },
  ],
}

async function at(second: number, send: () => Promise<unknown>) {
  clock.set(t(second))
  await send()
  await kit.indexer.sync()
}

beforeAll(async () => {
  kit = await startIndexerTest({ now: clock.now, listings })
  chain = { id: `eip155:${kit.chainId}`, name: kit.chainName }
  ;[alice, bob] = [await kit.account(), await kit.account()]
  a = alice.address.toLowerCase() as Address
  b = bob.address.toLowerCase() as Address
  gems = await kit.deploy(alice, 'FixtureCollection', ['Gems', 'GEM', ''])
  items = await kit.deploy(alice, 'FixtureItems', [
    `data:application/json,${encodeURIComponent('{"name":"Item ').replace('%7B', '{')}{id}${encodeURIComponent('"}')}`,
  ])
  // The minting backend gives #10's metadata before it is minted.
  kit.indexer.metadata.set(kit.chainId, gems, 10n, {
    name: 'Diamond',
    attributes: [{ trait_type: 'color', value: 'white' }],
  })
  await at(1, () =>
    kit.send(alice, 'FixtureCollection', gems, 'mint', [a, 1n, dataUri(ruby)]),
  )
  await at(2, () =>
    kit.send(alice, 'FixtureCollection', gems, 'mint', [a, 2n, dataUri(ruby)]),
  )
  await at(3, () =>
    kit.send(alice, 'FixtureCollection', gems, 'mint', [
      b,
      3n,
      `data:application/json,${encodeURIComponent(JSON.stringify(emerald))}`,
    ]),
  )
  await at(4, () =>
    kit.send(alice, 'FixtureCollection', gems, 'mint', [
      a,
      4n,
      'https://metadata.example/4.json',
    ]),
  )
  await at(5, () =>
    kit.send(alice, 'FixtureCollection', gems, 'mint', [a, 10n, dataUri(ruby)]),
  )
  await at(6, () => kit.send(alice, 'FixtureItems', items, 'mint', [b, 1n, 3n]))
})

afterAll(async () => {
  await kit?.stop()
})

const nft = async (contract: Address, id: string) =>
  (await kit.get(`/collections/${contract}/nfts/${id}`)).body.result

describe('metadata from the chain and the store', () => {
  test('behavior: a base64 data: token URI is the NFT metadata, in a stack of its own content', async () => {
    const one = await nft(gems, '1')
    expect(one).toMatchObject({
      name: 'Ruby',
      description: 'A red gem',
      image: 'https://img.example/ruby.png',
      external_link: null,
      external_url: null,
      attributes: ruby.attributes,
      metadata_synced_at: t(1),
    })
    const two = await nft(gems, '2')
    expect(two.metadata_id).toBe(one.metadata_id)
    const three = await nft(gems, '3')
    expect(three).toMatchObject({
      name: 'Emerald',
      attributes: emerald.attributes,
    })
    expect(three.metadata_id).not.toBe(one.metadata_id)
  })

  test('behavior: a foreign URL is never fetched: no metadata', async () => {
    expect(await nft(gems, '4')).toMatchObject({
      metadata_id: null,
      metadata_synced_at: null,
      name: null,
      attributes: [],
    })
  })

  test("behavior: the store's metadata wins over the token URI, given before the mint", async () => {
    expect(await nft(gems, '10')).toMatchObject({
      name: 'Diamond',
      description: null,
      attributes: [{ trait_type: 'color', value: 'white' }],
      metadata_synced_at: t(5),
    })
    expect(kit.indexer.metadata.get(kit.chainId, gems, '10')).toMatchObject({
      name: 'Diamond',
    })
  })

  test('behavior: an ERC-1155 URI has its {id} replaced; the repo test tokens’ data: URIs are read', async () => {
    expect(await nft(items, '1')).toMatchObject({
      name: `Item ${'0'.repeat(63)}1`,
      contract_type: 'ERC1155',
    })
    const { testErc721: erc721, testErc1155: erc1155 } = kit.contracts
    await kit.send(alice, TestERC721.abi, erc721, 'mint', [a])
    expect(await nft(erc721.toLowerCase() as Address, '1')).toMatchObject({
      name: 'Test NFT 1',
      description: 'Local test NFT 1',
    })
    await kit.send(alice, TestERC1155.abi, erc1155, 'mint', [a, 5n, 2n, '0x'])
    expect(await nft(erc1155.toLowerCase() as Address, '5')).toMatchObject({
      name: 'Test Item 5',
      description: 'Local test item 5',
      total_supply: '2',
    })
  })

  test('error: the store refuses metadata the API would, and chains it does not follow', () => {
    expect(() =>
      kit.indexer.metadata.set(kit.chainId, gems, 1n, { name: 5 as never }),
    ).toThrow('metadata.name must be a string or null.')
    expect(() => kit.indexer.metadata.set(1, gems, 1n, {})).toThrow(
      'The emulator has no chain 1.',
    )
    expect(() => kit.indexer.metadata.set(kit.chainId, gems, '-1', {})).toThrow(
      'tokenId must be a uint256.',
    )
  })
})

describe('metadata and stacks', () => {
  test('behavior: a collection lists its metadata in creation order; one by id; the chain by update time', async () => {
    const list = await kit.get(`/collections/${gems}/metadata`)
    expect(list.body.result.map((m: { name: string }) => m.name)).toEqual([
      'Ruby',
      'Emerald',
      'Diamond',
    ])
    const rubyMetadata = list.body.result[0]
    expect(rubyMetadata).toEqual({
      id: (await nft(gems, '1')).metadata_id,
      chain,
      contract_address: gems,
      created_at: t(1),
      updated_at: t(1),
      name: 'Ruby',
      description: 'A red gem',
      image: 'https://img.example/ruby.png',
      external_url: null,
      animation_url: null,
      youtube_url: null,
      attributes: ruby.attributes,
    })
    expect(
      (await kit.get(`/collections/${gems}/metadata/${rubyMetadata.id}`)).body,
    ).toEqual({ result: rubyMetadata })
    expect(
      (await kit.get(`/collections/${items}/metadata/${rubyMetadata.id}`))
        .status,
    ).toBe(404)
    const recent = await kit.get(`/metadata?from_updated_at=${t(3)}`)
    expect(recent.body.result.map((m: { name: string }) => m.name)).toContain(
      'Emerald',
    )
    expect(
      recent.body.result.map((m: { name: string }) => m.name),
    ).not.toContain('Ruby')
  })

  test('behavior: a stack bundle counts its NFTs in circulation', async () => {
    const rubyId = (await nft(gems, '1')).metadata_id
    const answer = await kit.get(`/stacks?stack_id=${rubyId}`)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual([
      {
        stack: {
          stack_id: rubyId,
          chain,
          contract_address: gems,
          contract_type: 'ERC721',
          created_at: t(1),
          updated_at: t(1),
          name: 'Ruby',
          description: 'A red gem',
          image: 'https://img.example/ruby.png',
          external_url: null,
          animation_url: null,
          youtube_url: null,
          attributes: ruby.attributes,
        },
        stack_count: 2,
        market: { floor_listing: null, top_bid: null, last_trade: null },
        listings: [],
        bids: [],
      },
    ])
  })

  test('behavior: the filters count NFTs per trait value, most common first', async () => {
    expect((await kit.get(`/search/filters/${gems}`)).body).toEqual({
      result: {
        chain,
        contract_address: gems,
        filters: [
          {
            name: 'color',
            values: [
              { value: 'red', nft_count: '2' },
              { value: 'green', nft_count: '1' },
              { value: 'white', nft_count: '1' },
            ],
            omitted_values_count: 0,
          },
          {
            name: 'level',
            values: [
              { value: '3', nft_count: '2' },
              { value: '1', nft_count: '1' },
            ],
            omitted_values_count: 0,
          },
        ],
      },
      page: { previous_cursor: null, next_cursor: null },
    })
  })
})

describe('search', () => {
  test('behavior: stacks by trait, keyword and owner, each with its count', async () => {
    const names = async (query: string) =>
      (
        await kit.get(`/search/stacks?contract_address=${gems}${query}`)
      ).body.result.map(
        (x: { stack: { name: string }; stack_count: number }) =>
          `${x.stack.name}:${x.stack_count}`,
      )
    expect(await names('')).toEqual(['Ruby:2', 'Emerald:1', 'Diamond:1'])
    const traits = encodeURIComponent(
      JSON.stringify({ color: { values: ['red', 'green'], condition: 'eq' } }),
    )
    expect(await names(`&traits=${traits}`)).toEqual(['Ruby:2', 'Emerald:1'])
    const both = encodeURIComponent(
      JSON.stringify({
        color: { values: ['red', 'green'] },
        level: { values: [1] },
      }),
    )
    expect(await names(`&traits=${both}`)).toEqual(['Emerald:1'])
    expect(await names('&keyword=FOREST')).toEqual(['Emerald:1'])
    expect(await names('&keyword=gem%20red')).toEqual(['Ruby:2'])
    expect(await names(`&account_address=${b}`)).toEqual(['Emerald:1'])
    expect(await names(`&account_address=${a}`)).toEqual([
      'Ruby:2',
      'Diamond:1',
    ])
  })

  test('behavior: NFTs by collection, owner and stack, with their stack and balance', async () => {
    const rubyId = (await nft(gems, '1')).metadata_id
    const answer = await kit.get(
      `/search/nfts?contract_address=${gems}&contract_address=${items}&stack_id=${rubyId}`,
    )
    expect(
      answer.body.result.map(
        (x: {
          nft_with_stack: {
            token_id: string
            stack_id: string
            balance: number
          }
        }) => [
          x.nft_with_stack.token_id,
          x.nft_with_stack.stack_id,
          x.nft_with_stack.balance,
        ],
      ),
    ).toEqual([
      ['1', rubyId, 1],
      ['2', rubyId, 1],
    ])
    const mine = await kit.get(
      `/search/nfts?contract_address=${items}&account_address=${b}`,
    )
    expect(mine.body.result).toEqual([
      {
        nft_with_stack: expect.objectContaining({
          token_id: '1',
          contract_address: items,
          contract_type: 'ERC1155',
          balance: 3,
          name: `Item ${'0'.repeat(63)}1`,
        }),
        market: { floor_listing: null, top_bid: null, last_trade: null },
        listings: [],
        bids: [],
      },
    ])
    expect(
      (
        await kit.get(
          `/search/nfts?contract_address=${items}&account_address=${a}`,
        )
      ).body.result,
    ).toEqual([])
  })

  test('behavior: with the order book’s listings: cheapest first, only listed, by payment token, only the owners’ own', async () => {
    const erc20 = {
      type: 'ERC20',
      contract_address: '0x00000000000000000000000000000000000000e2',
      symbol: 'USDC',
      decimals: 6,
    } as const
    book.listings = [
      {
        listing_id: 'l-ruby',
        price_details: price('500'),
        token_id: '2',
        contract_address: gems,
        creator: a,
        amount: '1',
      },
      {
        listing_id: 'l-emerald',
        price_details: price('300'),
        token_id: '3',
        contract_address: gems,
        creator: b,
        amount: '1',
      },
      {
        listing_id: 'l-emerald-stale',
        price_details: price('100'),
        token_id: '3',
        contract_address: gems,
        // Listed by someone who no longer holds it.
        creator: a,
        amount: '1',
      },
      {
        listing_id: 'l-ruby-usdc',
        price_details: price('50', erc20),
        token_id: '1',
        contract_address: gems,
        creator: a,
        amount: '1',
      },
    ]
    book.bids = [
      {
        bid_id: 'collection-bid',
        price_details: price('20'),
        token_id: null,
        contract_address: gems,
        creator: b,
        amount: '1',
      },
    ]
    const bundles = async (query: string) =>
      (
        await kit.get(`/search/stacks?contract_address=${gems}${query}`)
      ).body.result.map(
        (x: {
          stack: { name: string }
          market: { floor_listing: { listing_id: string } | null }
          listings: { listing_id: string }[]
          bids: { bid_id: string }[]
        }) =>
          `${x.stack.name}:${x.market.floor_listing?.listing_id ?? '-'}:${x.listings.map((l) => l.listing_id).join('+')}:${x.bids.length}`,
      )
    expect(await bundles('&sort_by=cheapest_first')).toEqual([
      'Ruby:l-ruby-usdc:l-ruby-usdc+l-ruby:1',
      'Emerald:l-emerald-stale:l-emerald-stale+l-emerald:1',
      'Diamond:-::1',
    ])
    expect(
      await bundles('&only_if_has_active_listings=true&payment_token=NATIVE'),
    ).toEqual([
      'Ruby:l-ruby:l-ruby:1',
      'Emerald:l-emerald-stale:l-emerald-stale+l-emerald:1',
    ])
    expect(
      await bundles(
        `&only_include_owner_listings=true&only_if_has_active_listings=true&payment_token=${erc20.contract_address}`,
      ),
    ).toEqual(['Ruby:l-ruby-usdc:l-ruby-usdc:0'])
    expect(
      await bundles(
        '&only_include_owner_listings=true&sort_by=cheapest_first&payment_token=NATIVE',
      ),
    ).toEqual([
      'Emerald:l-emerald:l-emerald:1',
      'Ruby:l-ruby:l-ruby:1',
      'Diamond:-::1',
    ])
    const nftBundle = await kit.get(
      `/search/nfts?contract_address=${gems}&only_include_owner_listings=true`,
    )
    const three = nftBundle.body.result.find(
      (x: { nft_with_stack: { token_id: string } }) =>
        x.nft_with_stack.token_id === '3',
    )
    expect(
      three.listings.map((l: { listing_id: string }) => l.listing_id),
    ).toEqual(['l-emerald'])
    expect(three.market.top_bid.bid_id).toBe('collection-bid')
  })

  test('behavior: quotes for NFTs and stacks from the active listings, bids and trades', async () => {
    book.trades = [
      {
        trade_id: '0f3f2d36-8c1f-4e79-9a3a-6f6a5b4c3d21',
        contract_address: gems,
        token_id: '1',
        price_details: [price('40')],
        amount: '1',
        created_at: t(20),
      },
    ]
    const rubyId = (await nft(gems, '1')).metadata_id
    const quotes = await kit.get(
      `/quotes/${gems}/nfts?token_id=2&token_id=99&payment_token=NATIVE`,
    )
    expect(quotes.status).toBe(200)
    expect(quotes.body.page).toEqual({
      previous_cursor: null,
      next_cursor: null,
    })
    expect(quotes.body.result).toHaveLength(1)
    const [quote] = quotes.body.result
    expect(quote.chain).toEqual(chain)
    expect(quote.token_id).toBe('2')
    expect(quote.market_stack.floor_listing.listing_id).toBe('l-ruby')
    expect(quote.market_stack.last_trade.trade_id).toBe(
      book.trades[0]!.trade_id,
    )
    expect(quote.market_nft).toEqual({ last_trade: null })
    expect(quote.market_collection.floor_listing.listing_id).toBe(
      'l-emerald-stale',
    )
    expect(quote.market_collection.top_bid.bid_id).toBe('collection-bid')

    const stacks = await kit.get(`/quotes/${gems}/stacks?stack_id=${rubyId}`)
    expect(stacks.body.result).toMatchObject([
      {
        chain,
        stack_id: rubyId,
        market_stack: { floor_listing: { listing_id: 'l-ruby-usdc' } },
        market_collection: { floor_listing: { listing_id: 'l-ruby-usdc' } },
      },
    ])
    book.listings = []
    book.bids = []
    book.trades = []
    const empty = await kit.get(`/quotes/${gems}/stacks?stack_id=${rubyId}`)
    expect(empty.body.result[0].market_stack).toEqual({
      floor_listing: null,
      top_bid: null,
      last_trade: null,
    })
  })
})

describe('refreshes', () => {
  test('error: without the API key, or with another, a refresh is 401 UNAUTHORISED_REQUEST and changes nothing', async () => {
    for (const headers of [
      {},
      { 'x-immutable-api-key': 'sk_imapik-test-other' },
    ]) {
      const answer = await kit.post(
        `/collections/${gems}/nfts/refresh-metadata`,
        { nft_metadata: [{ token_id: '1', ...blank, name: 'Hacked' }] },
        headers,
      )
      expect(answer.status).toBe(401)
      expect(answer.body.code).toBe('UNAUTHORISED_REQUEST')
    }
    expect((await nft(gems, '1')).name).toBe('Ruby')
  })

  const blank = {
    name: null,
    description: null,
    image: null,
    external_url: null,
    animation_url: null,
    youtube_url: null,
    attributes: null,
  }

  test('behavior: refreshing an NFT by token id moves it to the stack of its new metadata, and answers the budget', async () => {
    clock.set(t(40))
    const rubyId = (await nft(gems, '1')).metadata_id
    const answer = await kit.post(
      `/collections/${gems}/nfts/refresh-metadata`,
      {
        nft_metadata: [
          {
            token_id: '1',
            ...blank,
            name: 'Polished Ruby',
            attributes: [{ trait_type: 'color', value: 'red' }],
          },
        ],
      },
      key,
    )
    expect(answer.status).toBe(202)
    expect(answer.body).toEqual({
      imx_refreshes_limit: '2000',
      imx_refresh_limit_reset: '2026-02-01T01:00:40.000Z',
      imx_remaining_refreshes: '1999',
      retry_after: '0',
    })
    expect(answer.headers.get('imx-remaining-refreshes')).toBe('1999')
    const one = await nft(gems, '1')
    expect(one).toMatchObject({
      name: 'Polished Ruby',
      metadata_synced_at: t(40),
      updated_at: t(40),
    })
    expect(one.metadata_id).not.toBe(rubyId)
    expect((await nft(gems, '2')).metadata_id).toBe(rubyId)
  })

  test('behavior: refreshing a stack by metadata id changes every NFT of it, keeping the id', async () => {
    clock.set(t(41))
    const rubyId = (await nft(gems, '2')).metadata_id
    const answer = await kit.post(
      `/collections/${gems}/metadata/refresh-metadata`,
      { metadata: [{ metadata_id: rubyId, ...blank, name: 'Old Ruby' }] },
      key,
    )
    expect(answer.status).toBe(202)
    expect(answer.body.imx_remaining_refreshes).toBe('1998')
    expect(await nft(gems, '2')).toMatchObject({
      metadata_id: rubyId,
      name: 'Old Ruby',
      attributes: [],
      metadata_synced_at: t(41),
    })
    expect(
      (await kit.get(`/collections/${gems}/metadata/${rubyId}`)).body.result,
    ).toMatchObject({ created_at: t(1), updated_at: t(41), name: 'Old Ruby' })
  })

  test('error: refreshing what is not indexed is 404; a malformed body 400; nothing is spent', async () => {
    const missing = await kit.post(
      `/collections/${gems}/nfts/refresh-metadata`,
      { nft_metadata: [{ token_id: '77', ...blank }] },
      key,
    )
    expect(missing.status).toBe(404)
    const unknownStack = await kit.post(
      `/collections/${gems}/metadata/refresh-metadata`,
      {
        metadata: [
          { metadata_id: '7053e765-c119-4efb-b5cf-405ccccaf6c4', ...blank },
        ],
      },
      key,
    )
    expect(unknownStack.status).toBe(404)
    for (const body of [
      {},
      { nft_metadata: [] },
      { nft_metadata: [{ token_id: '1', name: 'no other fields' }] },
      { nft_metadata: [{ token_id: 'one', ...blank }] },
      {
        nft_metadata: Array.from({ length: 251 }, () => ({
          token_id: '1',
          ...blank,
        })),
      },
      {
        nft_metadata: [
          { token_id: '1', ...blank, description: 'x'.repeat(17_000) },
        ],
      },
    ]) {
      const refused = await kit.post(
        `/collections/${gems}/nfts/refresh-metadata`,
        body,
        key,
      )
      expect({
        body: JSON.stringify(body).slice(0, 80),
        status: refused.status,
      }).toEqual({
        body: JSON.stringify(body).slice(0, 80),
        status: 400,
      })
      expect(refused.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: {},
      })
    }
    const next = await kit.post(
      `/collections/${gems}/nfts/refresh-metadata`,
      { nft_metadata: [{ token_id: '4', ...blank, name: 'Named' }] },
      key,
    )
    expect(next.body.imx_remaining_refreshes).toBe('1997')
  })

  test('behavior: refreshing collection metadata replaces what the contract said', async () => {
    clock.set(t(50))
    const collection_metadata = {
      name: 'Gem Vault',
      symbol: 'GV',
      description: 'Every gem',
      image: 'https://img.example/vault.png',
      external_link: 'https://vault.example',
      contract_uri: null,
      base_uri: 'https://meta.example/',
    }
    const unauthorised = await kit.post(
      `/collections/${gems}/refresh-metadata`,
      {
        collection_metadata,
      },
    )
    expect(unauthorised.status).toBe(401)
    const answer = await kit.post(
      `/collections/${gems}/refresh-metadata`,
      { collection_metadata },
      key,
    )
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      contract_address: gems,
      chain,
      collection_metadata,
    })
    expect((await kit.get(`/collections/${gems}`)).body.result).toMatchObject({
      ...collection_metadata,
      metadata_synced_at: t(50),
      updated_at: t(50),
    })
    const bad = await kit.post(
      `/collections/${gems}/refresh-metadata`,
      { collection_metadata: { ...collection_metadata, symbol: 5 } },
      key,
    )
    expect(bad.status).toBe(400)
  })
})
