/**
 * Sales over a real Anvil: a marketplace that settles as Seaport does and
 * emits Seaport's `OrderFulfilled` stands in for the emulator's Seaport
 * (the indexer's `seaport` option). A listing filled for the native
 * currency with an ERC-2981 royalty, a bid filled for an ERC-20, and an
 * order of another marketplace, which is no sale.
 */
import { type Address, type LocalAccount, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createClock,
  type IndexerTest,
  startIndexerTest,
} from '../../src/emulator/passport/indexer/testkit.js'

const clock = createClock('2026-04-01T00:00:00.000Z')
const orderIds = new Map<string, string>()
let kit: IndexerTest
let alice: LocalAccount
let bob: LocalAccount
let carol: LocalAccount
let dave: LocalAccount
let a: Address
let b: Address
let c: Address
let d: Address
let market: Address
let swords: Address
let items: Address
let coin: Address

const order = (byte: string) => `0x${byte.repeat(32)}` as const

beforeAll(async () => {
  kit = await startIndexerTest({
    now: clock.now,
    market: true,
    listings: {
      listings: () => [],
      orderId: ({ orderHash }) => orderIds.get(orderHash),
    },
  })
  market = kit.market as Address
  alice = await kit.account()
  bob = await kit.account()
  carol = await kit.account()
  dave = await kit.account()
  a = alice.address.toLowerCase() as Address
  b = bob.address.toLowerCase() as Address
  c = carol.address.toLowerCase() as Address
  d = dave.address.toLowerCase() as Address
  swords = await kit.deploy(alice, 'FixtureCollection', ['Swords', 'SWD', ''])
  items = await kit.deploy(alice, 'FixtureItems', [''])
  coin = await kit.deploy(alice, 'FixtureToken')
  await kit.send(alice, 'FixtureCollection', swords, 'setRoyalty', [c, 1_000n])
  await kit.send(alice, 'FixtureCollection', swords, 'mint', [a, 1n, ''])
  await kit.send(alice, 'FixtureItems', items, 'mint', [a, 7n, 5n])
  await kit.send(alice, 'FixtureToken', coin, 'mint', [b, 5_000n])
  await kit.send(alice, 'FixtureCollection', swords, 'setApprovalForAll', [
    market,
    true,
  ])
  await kit.send(alice, 'FixtureItems', items, 'setApprovalForAll', [
    market,
    true,
  ])
  await kit.send(alice, 'FixtureToken', coin, 'approve', [market, 10_000n])
  await kit.send(bob, 'FixtureToken', coin, 'approve', [market, 10_000n])
})

afterAll(async () => {
  await kit?.stop()
})

describe('sales', () => {
  test('behavior: a listing filled for the native currency is one sale activity, its royalty typed, and no transfer', async () => {
    orderIds.set(order('0a'), 'listing-0a')
    const receipt = await kit.send(
      bob,
      'FixtureMarket',
      market,
      'fulfil',
      [
        order('0a'),
        a,
        [{ itemType: 2, token: swords, identifier: 1n, amount: 1n }],
        [
          {
            itemType: 0,
            token: zeroAddress,
            identifier: 0n,
            amount: 90n,
            recipient: a,
          },
          {
            itemType: 0,
            token: zeroAddress,
            identifier: 0n,
            amount: 10n,
            recipient: c,
          },
          {
            itemType: 0,
            token: zeroAddress,
            identifier: 0n,
            amount: 5n,
            recipient: d,
          },
        ],
      ],
      105n,
    )
    const { body } = await kit.get(`/activities?contract_address=${swords}`)
    expect(body.result.map((x: { type: string }) => x.type)).toEqual([
      'mint',
      'sale',
    ])
    const sale = body.result[1]
    expect(sale.details).toEqual({
      order_id: 'listing-0a',
      to: b,
      from: a,
      asset: [
        {
          contract_type: 'ERC721',
          contract_address: swords,
          token_id: '1',
          amount: '1',
        },
      ],
      payment: {
        token: { symbol: 'IMX' },
        price_excluding_fees: '90',
        price_including_fees: '105',
        fees: [
          { amount: '10', type: 'ROYALTY', recipient: c },
          { amount: '5', recipient: d },
        ],
      },
    })
    expect(sale.blockchain_metadata).toMatchObject({
      transaction_hash: receipt.transactionHash,
      block_number: String(receipt.blockNumber),
    })
    expect(
      (await kit.get(`/activities?activity_type=sale&account_address=${b}`))
        .body.result,
    ).toHaveLength(1)
    expect(
      (await kit.get(`/collections/${swords}/nfts/1/owners`)).body.result.map(
        (x: { account_address: string }) => x.account_address,
      ),
    ).toEqual([b])
  })

  test('behavior: a bid filled for an ERC-20 is a sale to the bidder; its fees come out of the bid, and the payments stay ERC-20 transfers', async () => {
    const receipt = await kit.send(alice, 'FixtureMarket', market, 'fulfil', [
      order('0b'),
      b,
      [{ itemType: 1, token: coin, identifier: 0n, amount: 1_000n }],
      [
        { itemType: 3, token: items, identifier: 7n, amount: 2n, recipient: b },
        { itemType: 1, token: coin, identifier: 0n, amount: 25n, recipient: d },
      ],
    ])
    const { body } = await kit.get(
      `/activities?transaction_hash=${receipt.transactionHash}`,
    )
    expect(
      body.result.map((x: { type: string; details: { amount?: string } }) => [
        x.type,
        x.details.amount ?? null,
      ]),
    ).toEqual([
      ['transfer', '1000'],
      ['transfer', '25'],
      ['sale', null],
    ])
    expect(body.result[2].details).toEqual({
      order_id: order('0b'),
      to: b,
      from: a,
      asset: [
        {
          contract_type: 'ERC1155',
          contract_address: items,
          token_id: '7',
          amount: '2',
        },
      ],
      payment: {
        token: { contract_type: 'ERC20', contract_address: coin },
        price_excluding_fees: '975',
        price_including_fees: '1000',
        fees: [{ amount: '25', recipient: d }],
      },
    })
    expect(
      (
        await kit.get(`/accounts/${b}/nfts?contract_address=${items}`)
      ).body.result.map(
        (x: { token_id: string; balance: string }) =>
          `${x.token_id}:${x.balance}`,
      ),
    ).toEqual(['7:2'])
  })

  test("behavior: another marketplace's OrderFulfilled makes no sale: its NFT transfer stays a transfer", async () => {
    const other = await kit.deploy(alice, 'FixtureMarket')
    await kit.send(alice, 'FixtureItems', items, 'setApprovalForAll', [
      other,
      true,
    ])
    const receipt = await kit.send(carol, 'FixtureMarket', other, 'fulfil', [
      order('0c'),
      a,
      [{ itemType: 3, token: items, identifier: 7n, amount: 1n }],
      [],
    ])
    const { body } = await kit.get(
      `/activities?transaction_hash=${receipt.transactionHash}`,
    )
    expect(body.result.map((x: { type: string }) => x.type)).toEqual([
      'transfer',
    ])
    expect(body.result[0].details).toMatchObject({
      from: a,
      to: c,
      amount: '1',
    })
  })
})
