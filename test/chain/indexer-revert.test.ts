/**
 * The indexer when the chain goes back: an Anvil snapshot revert (the
 * height goes down, or new blocks replace the reverted ones at the same
 * heights), a contract redeployed at the same address after a revert, and
 * a reset to a fresh chain. The follower never polls here (only reads
 * sync it), so each case meets the chain in exactly the state it names.
 */
import type { Address, Hex, LocalAccount } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { platformApiKey } from '../../src/emulator/constants.js'
import {
  createClock,
  type IndexerTest,
  startIndexerTest,
} from '../../src/emulator/passport/indexer/testkit.js'

const clock = createClock('2026-03-01T00:00:00.000Z')
let kit: IndexerTest
let alice: LocalAccount
let bob: LocalAccount
let carol: LocalAccount
let a: Address
let b: Address
let c: Address

beforeAll(async () => {
  kit = await startIndexerTest({ now: clock.now, pollingInterval: 3_600_000 })
  ;[alice, bob, carol] = [
    await kit.account(),
    await kit.account(),
    await kit.account(),
  ]
  a = alice.address.toLowerCase() as Address
  b = bob.address.toLowerCase() as Address
  c = carol.address.toLowerCase() as Address
})

afterAll(async () => {
  await kit?.stop()
})

const owners = async (contract: Address, id: string) =>
  (await kit.get(`/collections/${contract}/nfts/${id}/owners`)).body.result.map(
    (x: { account_address: string; balance: string }) =>
      `${x.account_address}:${x.balance}`,
  )
const activities = async (contract: Address) =>
  (await kit.get(`/activities?contract_address=${contract}`)).body.result.map(
    (x: { type: string; details: { asset: { token_id: string } } }) =>
      `${x.type}:${x.details.asset.token_id}`,
  )

describe('an Anvil snapshot revert', () => {
  test('behavior: the height going down drops what the reverted blocks did, and marks it updated', async () => {
    const swords = await kit.deploy(alice, 'FixtureCollection', [
      'Swords',
      'SWD',
      '',
    ])
    await kit.send(alice, 'FixtureCollection', swords, 'mint', [a, 1n, ''])
    const snapshot = (await kit.testClient.snapshot()) as Hex
    await kit.send(alice, 'FixtureCollection', swords, 'transferFrom', [
      a,
      b,
      1n,
    ])
    await kit.send(alice, 'FixtureCollection', swords, 'mint', [a, 2n, ''])
    expect(await owners(swords, '1')).toEqual([`${b}:1`])
    expect(await activities(swords)).toEqual(['mint:1', 'transfer:1', 'mint:2'])

    clock.set('2026-03-01T00:05:00.000Z')
    await kit.testClient.revert({ id: snapshot })
    expect(await owners(swords, '1')).toEqual([`${a}:1`])
    expect(await activities(swords)).toEqual(['mint:1'])
    expect((await kit.get(`/collections/${swords}/nfts/2`)).status).toBe(404)
    const one = (await kit.get(`/collections/${swords}/nfts/1`)).body.result
    expect(one.updated_at).toBe('2026-03-01T00:05:00.000Z')
    expect((await kit.get(`/accounts/${b}/nfts`)).body.result).toEqual([])
  })

  test('behavior: new blocks at the reverted heights replace the old ones (same height, other hash)', async () => {
    const axes = await kit.deploy(alice, 'FixtureCollection', [
      'Axes',
      'AXE',
      '',
    ])
    await kit.send(alice, 'FixtureCollection', axes, 'mint', [a, 1n, ''])
    const snapshot = (await kit.testClient.snapshot()) as Hex
    await kit.send(alice, 'FixtureCollection', axes, 'transferFrom', [a, b, 1n])
    await kit.send(alice, 'FixtureCollection', axes, 'mint', [a, 2n, ''])
    const height = await kit.publicClient.getBlockNumber({ cacheTime: 0 })
    expect(await owners(axes, '1')).toEqual([`${b}:1`])

    await kit.testClient.revert({ id: snapshot })
    // Two other transactions bring the chain back to the same height.
    await kit.send(alice, 'FixtureCollection', axes, 'transferFrom', [a, c, 1n])
    await kit.send(alice, 'FixtureCollection', axes, 'mint', [c, 3n, ''])
    expect(await kit.publicClient.getBlockNumber({ cacheTime: 0 })).toBe(height)
    expect(await owners(axes, '1')).toEqual([`${c}:1`])
    expect(await activities(axes)).toEqual(['mint:1', 'transfer:1', 'mint:3'])
    expect((await kit.get(`/collections/${axes}/nfts/2`)).status).toBe(404)
    expect(
      (
        await kit.get(`/accounts/${c}/nfts?contract_address=${axes}`)
      ).body.result.map((x: { token_id: string }) => x.token_id),
    ).toEqual(['1', '3'])
  })

  test('behavior: a contract deployed again at the same address after a revert is read again', async () => {
    const deployer = await kit.account()
    const snapshot = (await kit.testClient.snapshot()) as Hex
    const before = await kit.deploy(deployer, 'FixtureCollection', [
      'Before',
      'BFR',
      '',
    ])
    await kit.send(deployer, 'FixtureCollection', before, 'mint', [a, 1n, ''])
    expect((await kit.get(`/collections/${before}`)).body.result).toMatchObject(
      {
        name: 'Before',
        symbol: 'BFR',
      },
    )
    await kit.testClient.revert({ id: snapshot })
    const after = await kit.deploy(deployer, 'FixtureItems', [''])
    expect(after).toBe(before)
    await kit.send(deployer, 'FixtureItems', after, 'mint', [b, 1n, 7n])
    expect((await kit.get(`/collections/${after}`)).body.result).toMatchObject({
      name: null,
      symbol: null,
      contract_type: 'ERC1155',
    })
    expect(await owners(after, '1')).toEqual([`${b}:7`])
  })
})

describe('what no revert undoes', () => {
  test("behavior: metadata given after a snapshot stays, and keeps the NFT's update time, when the chain reverts", async () => {
    const rings = await kit.deploy(alice, 'FixtureCollection', [
      'Rings',
      'RNG',
      '',
    ])
    clock.set('2026-03-01T01:00:00.000Z')
    await kit.send(alice, 'FixtureCollection', rings, 'mint', [a, 1n, ''])
    expect(
      (await kit.get(`/collections/${rings}/nfts/1`)).body.result.updated_at,
    ).toBe('2026-03-01T01:00:00.000Z')
    const snapshot = (await kit.testClient.snapshot()) as Hex
    clock.set('2026-03-01T02:00:00.000Z')
    const refreshed = await kit.post(
      `/collections/${rings}/nfts/refresh-metadata`,
      {
        nft_metadata: [
          {
            token_id: '1',
            name: 'One Ring',
            description: null,
            image: null,
            external_url: null,
            animation_url: null,
            youtube_url: null,
            attributes: null,
          },
        ],
      },
      { 'x-immutable-api-key': platformApiKey },
    )
    expect(refreshed.status).toBe(202)
    await kit.send(alice, 'FixtureCollection', rings, 'mint', [b, 2n, ''])
    await kit.get('/nfts')
    clock.set('2026-03-01T03:00:00.000Z')
    await kit.testClient.revert({ id: snapshot })
    const one = (await kit.get(`/collections/${rings}/nfts/1`)).body.result
    expect(one).toMatchObject({
      name: 'One Ring',
      updated_at: '2026-03-01T02:00:00.000Z',
      metadata_synced_at: '2026-03-01T02:00:00.000Z',
    })
    expect(
      (
        await kit.get(
          `/collections/${rings}/nfts?from_updated_at=2026-03-01T02:00:00.000Z`,
        )
      ).body.result.map((x: { token_id: string }) => x.token_id),
    ).toEqual(['1'])
  })
})

describe('a reset to a fresh chain', () => {
  test('behavior: after anvil_reset the indexer forgets the old chain and indexes the new one', async () => {
    const keep = await kit.deploy(alice, 'FixtureCollection', [
      'Old',
      'OLD',
      '',
    ])
    await kit.send(alice, 'FixtureCollection', keep, 'mint', [a, 1n, ''])
    expect((await kit.get('/nfts')).body.result.length).toBeGreaterThan(0)

    // A reset without forking: a new, empty chain (viem's reset asks to fork).
    await kit.testClient.request({ method: 'anvil_reset', params: [] } as never)
    expect((await kit.get('/nfts')).body.result).toEqual([])
    expect((await kit.get('/collections')).body.result).toEqual([])
    expect((await kit.get('/activities')).body.result).toEqual([])

    const fresh = await kit.account()
    const contract = await kit.deploy(fresh, 'FixtureCollection', [
      'New',
      'NEW',
      '',
    ])
    await kit.send(fresh, 'FixtureCollection', contract, 'mint', [c, 9n, ''])
    expect(
      (await kit.get('/nfts')).body.result.map(
        (x: { contract_address: string; token_id: string }) =>
          `${x.contract_address}:${x.token_id}`,
      ),
    ).toEqual([`${contract}:9`])
    expect((await kit.get(`/collections/${contract}`)).body.result.name).toBe(
      'New',
    )
    const status = await kit.request('GET', '/dev/indexer/status')
    expect(status.body.chains[0]).toMatchObject({
      chainName: kit.chainName,
      error: null,
      height: Number(await kit.publicClient.getBlockNumber({ cacheTime: 0 })),
    })
  })
})
