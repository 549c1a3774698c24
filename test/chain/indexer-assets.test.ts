/**
 * The indexer over a real Anvil: ERC-721, ERC-1155 (single and batch) and
 * ERC-20 mints, transfers and burns, read back through every route of
 * activities, NFTs, owners, collections and tokens, with exact values (the
 * indexer's clock is the test's), their filters, pagination round trips,
 * and the verification-status control route.
 */
import type { Address, LocalAccount, TransactionReceipt } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createClock,
  dataUri,
  type IndexerTest,
  startIndexerTest,
} from '../../src/emulator/passport/indexer/testkit.js'

const clock = createClock('2026-01-01T00:00:00.000Z')
const t = (second: number) =>
  `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`
const uuid = expect.stringMatching(
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
)

let kit: IndexerTest
let alice: LocalAccount
let bob: LocalAccount
let carol: LocalAccount
let a: Address
let b: Address
let c: Address
let swords: Address
let items: Address
let coin: Address
const receipts: Record<string, TransactionReceipt> = {}
let chain: { id: string; name: string }

/** Runs `send` at `second` and waits until the indexer has it. */
async function at(
  second: number,
  name: string,
  send: () => Promise<TransactionReceipt>,
) {
  clock.set(t(second))
  receipts[name] = await send()
  await kit.indexer.sync()
}

const meta = (name: string) => {
  const receipt = receipts[name]!
  return {
    transaction_hash: receipt.transactionHash,
    block_number: String(receipt.blockNumber),
    transaction_index: String(receipt.transactionIndex),
    log_index: expect.stringMatching(/^\d+$/),
  }
}

beforeAll(async () => {
  kit = await startIndexerTest({ now: clock.now })
  chain = { id: `eip155:${kit.chainId}`, name: kit.chainName }
  ;[alice, bob, carol] = [
    await kit.account(),
    await kit.account(),
    await kit.account(),
  ]
  a = alice.address.toLowerCase() as Address
  b = bob.address.toLowerCase() as Address
  c = carol.address.toLowerCase() as Address
  swords = await kit.deploy(alice, 'FixtureCollection', [
    'Swords',
    'SWD',
    dataUri({
      name: 'Ignored: name() answers',
      description: 'Sharp things',
      image: 'https://img.example/swords.png',
      external_link: 'https://game.example',
    }),
  ])
  items = await kit.deploy(alice, 'FixtureItems', [''])
  coin = await kit.deploy(alice, 'FixtureToken')

  await at(1, 'mint1', () =>
    kit.send(alice, 'FixtureCollection', swords, 'mint', [a, 1n, '']),
  )
  await at(2, 'mint2', () =>
    kit.send(alice, 'FixtureCollection', swords, 'mint', [a, 2n, '']),
  )
  await at(3, 'transfer1', () =>
    kit.send(alice, 'FixtureCollection', swords, 'transferFrom', [a, b, 1n]),
  )
  await at(4, 'burn2', () =>
    kit.send(alice, 'FixtureCollection', swords, 'burn', [2n]),
  )
  await at(5, 'batchMint', () =>
    kit.send(alice, 'FixtureItems', items, 'mintBatch', [
      a,
      [1n, 2n],
      [10n, 20n],
    ]),
  )
  await at(6, 'single', () =>
    kit.send(alice, 'FixtureItems', items, 'safeTransferFrom', [
      a,
      c,
      1n,
      4n,
      '0x',
    ]),
  )
  await at(7, 'batch', () =>
    kit.send(alice, 'FixtureItems', items, 'safeBatchTransferFrom', [
      a,
      b,
      [1n, 2n],
      [1n, 5n],
      '0x',
    ]),
  )
  await at(8, 'burnItems', () =>
    kit.send(alice, 'FixtureItems', items, 'burn', [a, 2n, 15n]),
  )
  await at(9, 'coinMint', () =>
    kit.send(alice, 'FixtureToken', coin, 'mint', [a, 1_000_000n]),
  )
  await at(10, 'coinTransfer', () =>
    kit.send(alice, 'FixtureToken', coin, 'transfer', [b, 250_000n]),
  )
  await at(11, 'coinBurn', () =>
    kit.send(bob, 'FixtureToken', coin, 'burn', [50_000n]),
  )
})

afterAll(async () => {
  await kit?.stop()
})

const swordAsset = (id: string) => ({
  contract_type: 'ERC721',
  contract_address: swords,
  token_id: id,
  amount: '1',
})

describe('activities', () => {
  test('behavior: an ERC-721 mint, transfer and burn are activities in chain order, with their transactions', async () => {
    const answer = await kit.get(`/activities?contract_address=${swords}`)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      result: [
        {
          id: uuid,
          chain,
          type: 'mint',
          details: { to: a, amount: '1', asset: swordAsset('1') },
          updated_at: t(1),
          indexed_at: t(1),
          blockchain_metadata: meta('mint1'),
        },
        {
          id: uuid,
          chain,
          type: 'mint',
          details: { to: a, amount: '1', asset: swordAsset('2') },
          updated_at: t(2),
          indexed_at: t(2),
          blockchain_metadata: meta('mint2'),
        },
        {
          id: uuid,
          chain,
          type: 'transfer',
          details: { from: a, to: b, amount: '1', asset: swordAsset('1') },
          updated_at: t(3),
          indexed_at: t(3),
          blockchain_metadata: meta('transfer1'),
        },
        {
          id: uuid,
          chain,
          type: 'burn',
          details: { from: a, amount: '1', asset: swordAsset('2') },
          updated_at: t(4),
          indexed_at: t(4),
          blockchain_metadata: meta('burn2'),
        },
      ],
      page: { previous_cursor: null, next_cursor: null },
    })
  })

  test('behavior: an ERC-1155 batch is one activity per id, sharing its log', async () => {
    const answer = await kit.get(
      `/activities?contract_address=${items}&transaction_hash=${receipts.batch!.transactionHash}`,
    )
    const asset = (id: string, amount: string) => ({
      contract_type: 'ERC1155',
      contract_address: items,
      token_id: id,
      amount,
    })
    expect(
      answer.body.result.map((x: { details: unknown }) => x.details),
    ).toEqual([
      { from: a, to: b, amount: '1', asset: asset('1', '1') },
      { from: a, to: b, amount: '5', asset: asset('2', '5') },
    ])
    const [first, second] = answer.body.result
    expect(first.blockchain_metadata).toEqual(second.blockchain_metadata)
    expect(first.id).not.toBe(second.id)
  })

  test('behavior: ERC-20 mints, transfers and burns are activities of the token', async () => {
    const answer = await kit.get(`/activities?contract_address=${coin}`)
    const asset = { contract_type: 'ERC20', contract_address: coin }
    expect(
      answer.body.result.map((x: { type: string; details: unknown }) => [
        x.type,
        x.details,
      ]),
    ).toEqual([
      ['mint', { to: a, amount: '1000000', asset }],
      ['transfer', { from: a, to: b, amount: '250000', asset }],
      ['burn', { from: b, amount: '50000', asset }],
    ])
  })

  test('behavior: the filters by account, token id, type and transaction each narrow the list', async () => {
    const types = async (query: string) =>
      (await kit.get(`/activities?${query}`)).body.result.map(
        (x: { type: string; details: { asset: { token_id?: string } } }) =>
          `${x.type}:${x.details.asset.token_id ?? 'erc20'}`,
      )
    expect(await types(`account_address=${c}`)).toEqual(['transfer:1'])
    expect(
      await types(
        `account_address=${b.toUpperCase().replace('0X', '0x')}&contract_address=${swords}`,
      ),
    ).toEqual(['transfer:1'])
    expect(await types(`contract_address=${swords}&token_id=2`)).toEqual([
      'mint:2',
      'burn:2',
    ])
    expect(await types(`activity_type=burn`)).toEqual([
      'burn:2',
      'burn:2',
      'burn:erc20',
    ])
    expect(
      await types(`transaction_hash=${receipts.coinTransfer!.transactionHash}`),
    ).toEqual(['transfer:erc20'])
  })

  test('behavior: pages of activities walk forward and back to the same items', async () => {
    const all = (await kit.get('/activities')).body.result
    expect(all).toHaveLength(13)
    const first = await kit.get('/activities?page_size=5')
    expect(first.body.result).toEqual(all.slice(0, 5))
    expect(first.body.page.previous_cursor).toBe(null)
    const second = await kit.get(
      `/activities?page_size=5&page_cursor=${first.body.page.next_cursor}`,
    )
    expect(second.body.result).toEqual(all.slice(5, 10))
    const third = await kit.get(
      `/activities?page_size=5&page_cursor=${second.body.page.next_cursor}`,
    )
    expect(third.body.result).toEqual(all.slice(10))
    expect(third.body.page.next_cursor).toBe(null)
    const back = await kit.get(
      `/activities?page_size=5&page_cursor=${third.body.page.previous_cursor}`,
    )
    expect(back.body).toEqual(second.body)
  })

  test('behavior: one activity by id; the history by indexing time, between two times', async () => {
    const { body } = await kit.get(`/activities?contract_address=${coin}`)
    const [mint] = body.result
    expect((await kit.get(`/activities/${mint.id}`)).body).toEqual({
      result: mint,
    })
    const history = await kit.get(
      `/activity-history?from_updated_at=${t(3)}&to_updated_at=${t(6)}`,
    )
    expect(
      history.body.result.map((x: { indexed_at: string; type: string }) => [
        x.indexed_at,
        x.type,
      ]),
    ).toEqual([
      [t(3), 'transfer'],
      [t(4), 'burn'],
      [t(5), 'mint'],
      [t(5), 'mint'],
      [t(6), 'transfer'],
    ])
    const typed = await kit.get(
      `/activity-history?from_updated_at=2026-01-01T00:00:00Z&activity_type=burn&contract_address=${items}`,
    )
    expect(typed.body.result).toHaveLength(1)
    expect(typed.body.result[0].details.amount).toBe('15')
  })
})

describe('NFTs and owners', () => {
  test('behavior: an NFT says its type, times and supply; a burnt one keeps its record with supply 0', async () => {
    const nft = (await kit.get(`/collections/${swords}/nfts/1`)).body
    expect(nft).toEqual({
      result: {
        chain,
        token_id: '1',
        contract_address: swords,
        contract_type: 'ERC721',
        indexed_at: t(1),
        updated_at: t(3),
        metadata_synced_at: null,
        metadata_id: null,
        name: null,
        description: null,
        image: null,
        external_link: null,
        external_url: null,
        animation_url: null,
        youtube_url: null,
        attributes: [],
        total_supply: '1',
      },
    })
    const burnt = (await kit.get(`/collections/${swords}/nfts/2`)).body.result
    expect(burnt).toMatchObject({ total_supply: '0', updated_at: t(4) })
    const item = (await kit.get(`/collections/${items}/nfts/2`)).body.result
    expect(item).toMatchObject({
      contract_type: 'ERC1155',
      total_supply: '5',
      indexed_at: t(5),
      updated_at: t(8),
    })
  })

  test('error: an NFT the chain never had is 404 RESOURCE_NOT_FOUND', async () => {
    const answer = await kit.get(`/collections/${swords}/nfts/3`)
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: `There is no NFT 3 of ${swords} on ${kit.chainName}.`,
      details: null,
    })
  })

  test('behavior: lists of NFTs by collection, by token ids, by update time, and of the chain', async () => {
    const ids = async (path: string) =>
      (await kit.get(path)).body.result.map(
        (x: { contract_address: string; token_id: string }) =>
          `${x.contract_address === swords ? 'S' : 'I'}${x.token_id}`,
      )
    expect(await ids(`/collections/${swords}/nfts`)).toEqual(['S1', 'S2'])
    expect(
      await ids(`/collections/${items}/nfts?token_id=2&token_id=9`),
    ).toEqual(['I2'])
    expect(
      await ids(`/collections/${items}/nfts?from_updated_at=${t(8)}`),
    ).toEqual(['I2'])
    const all = await ids('/nfts')
    expect(all.sort()).toEqual(['I1', 'I2', 'S1', 'S2'])
    expect(await ids(`/nfts?from_updated_at=${t(4)}`)).toHaveLength(3)
  })

  test('behavior: an account lists the NFTs it holds now, with balances, and their collections', async () => {
    const held = async (account: Address, query = '') =>
      (await kit.get(`/accounts/${account}/nfts${query}`)).body.result.map(
        (x: { contract_address: string; token_id: string; balance: string }) =>
          `${x.contract_address === swords ? 'S' : 'I'}${x.token_id}:${x.balance}`,
      )
    expect(await held(a)).toEqual(['I1:5'])
    // By collection address, then token id.
    expect(await held(b)).toEqual(
      swords < items ? ['S1:1', 'I1:1', 'I2:5'] : ['I1:1', 'I2:5', 'S1:1'],
    )
    expect(await held(b, `?contract_address=${items}&token_id=2`)).toEqual([
      'I2:5',
    ])
    expect(await held(c)).toEqual(['I1:4'])
    const balanced = (await kit.get(`/accounts/${c}/nfts`)).body.result[0]
    expect(balanced).not.toHaveProperty('external_url')
    expect(balanced).not.toHaveProperty('total_supply')
    const collections = await kit.get(`/accounts/${b}/collections`)
    expect(
      collections.body.result.map(
        (x: { contract_address: string }) => x.contract_address,
      ),
    ).toEqual([swords, items].sort())
    expect(
      (await kit.get(`/accounts/${a}/collections`)).body.result.map(
        (x: { contract_address: string }) => x.contract_address,
      ),
    ).toEqual([items])
  })

  test('behavior: owners of an NFT, of a collection (by account) and of the chain, with balances over zero', async () => {
    expect((await kit.get(`/collections/${items}/nfts/1/owners`)).body).toEqual(
      {
        result: [a, b, c].sort().map((account) => ({
          chain,
          contract_address: items,
          token_id: '1',
          account_address: account,
          balance: account === a ? '5' : account === b ? '1' : '4',
          updated_at: account === c ? t(6) : t(7),
        })),
        page: { previous_cursor: null, next_cursor: null },
      },
    )
    expect(
      (await kit.get(`/collections/${swords}/nfts/2/owners`)).body.result,
    ).toEqual([])
    const owners = await kit.get(
      `/collections/${items}/owners?account_address=${b}&account_address=${c}`,
    )
    expect(
      owners.body.result.map(
        (x: { token_id: string; account_address: string; balance: string }) =>
          `${x.token_id}:${x.account_address === b ? 'b' : 'c'}:${x.balance}`,
      ),
    ).toEqual(
      // By token id, then account address.
      b < c ? ['1:b:1', '1:c:4', '2:b:5'] : ['1:c:4', '1:b:1', '2:b:5'],
    )
    const everyone = await kit.get('/nft-owners')
    expect(everyone.body.result).toHaveLength(5)
    const recent = await kit.get(`/nft-owners?from_updated_at=${t(7)}`)
    expect(recent.body.result).toHaveLength(3)
  })
})

describe('collections and tokens', () => {
  test('behavior: a collection says its ERC-165 type, name, symbol and contract URI metadata', async () => {
    expect((await kit.get(`/collections/${swords}`)).body).toEqual({
      result: {
        chain,
        name: 'Swords',
        symbol: 'SWD',
        contract_type: 'ERC721',
        contract_address: swords,
        description: 'Sharp things',
        image: 'https://img.example/swords.png',
        external_link: 'https://game.example',
        contract_uri: expect.stringMatching(/^data:application\/json;base64,/),
        base_uri: null,
        verification_status: 'unverified',
        indexed_at: t(1),
        updated_at: t(1),
        metadata_synced_at: null,
      },
    })
    expect((await kit.get(`/collections/${items}`)).body.result).toMatchObject({
      name: null,
      symbol: null,
      contract_type: 'ERC1155',
      contract_uri: null,
    })
    expect((await kit.get(`/collections/${coin}`)).status).toBe(404)
  })

  test('behavior: a token says its name, symbol and decimals; the lists filter by status and canonicity', async () => {
    const token = {
      chain,
      contract_address: coin,
      root_contract_address: null,
      root_chain_id: null,
      bridge_used: null,
      symbol: 'FIX',
      decimals: 6,
      image_url: null,
      name: 'Fixture Coin',
      verification_status: 'unverified',
      updated_at: t(9),
      is_canonical: false,
    }
    expect((await kit.get(`/tokens/${coin}`)).body).toEqual({ result: token })
    expect((await kit.get('/tokens')).body).toEqual({
      result: [token],
      page: { previous_cursor: null, next_cursor: null },
    })
    expect((await kit.get('/tokens?is_canonical=true')).body.result).toEqual([])
    expect(
      (await kit.get('/tokens?verification_status=verified')).body.result,
    ).toEqual([])
    expect((await kit.get(`/tokens/${swords}`)).status).toBe(404)
  })

  test('behavior: a loopback program sets a verification status; the collection shows and filters by it, updated then', async () => {
    clock.set(t(30))
    const set = await kit.request('PUT', '/dev/indexer/verification-status', {
      body: {
        contractAddress: swords.toUpperCase().replace('0X', '0x'),
        status: 'verified',
      },
    })
    expect(set.status).toBe(200)
    expect(set.body).toEqual({
      chainName: kit.chainName,
      contractAddress: swords,
      status: 'verified',
    })
    const collection = (await kit.get(`/collections/${swords}`)).body.result
    expect(collection).toMatchObject({
      verification_status: 'verified',
      updated_at: t(30),
    })
    const statuses = async (query: string) =>
      (await kit.get(`/collections?${query}`)).body.result.map(
        (x: { contract_address: string }) => x.contract_address,
      )
    expect(await statuses('verification_status=verified')).toEqual([swords])
    expect(
      await statuses('verification_status=unverified&verification_status=spam'),
    ).toEqual([items])
    expect(await statuses(`from_updated_at=${t(30)}`)).toEqual([swords])
    expect(await statuses(`contract_address=${items}`)).toEqual([items])
    const listed = await kit.request('GET', '/dev/indexer/verification-status')
    expect(listed.body).toEqual({
      statuses: [
        {
          chainName: kit.chainName,
          contractAddress: swords,
          status: 'verified',
          at: t(30),
        },
      ],
    })

    await kit.request('PUT', '/dev/indexer/verification-status', {
      body: { chainName: kit.chainName, contractAddress: coin, status: 'spam' },
    })
    expect(
      (await kit.get('/tokens?verification_status=spam')).body.result,
    ).toMatchObject([{ contract_address: coin, verification_status: 'spam' }])
  })

  test('error: a foreign page cannot set a status; bad bodies are refused', async () => {
    const foreign = await kit.request(
      'PUT',
      '/dev/indexer/verification-status',
      {
        body: { contractAddress: items, status: 'spam' },
        headers: { origin: 'https://evil.example' },
      },
    )
    expect(foreign.status).toBe(403)
    expect(
      (await kit.get(`/collections/${items}`)).body.result.verification_status,
    ).toBe('unverified')
    for (const body of [
      { contractAddress: items, status: 'trusted' },
      { contractAddress: 'items', status: 'spam' },
      [],
    ]) {
      const refused = await kit.request(
        'PUT',
        '/dev/indexer/verification-status',
        {
          body,
        },
      )
      expect(refused.status).toBe(400)
      expect(refused.body.code).toBe('VALIDATION_ERROR')
    }
    const unknown = await kit.request(
      'PUT',
      '/dev/indexer/verification-status',
      {
        body: {
          chainName: 'imtbl-zkevm-local-1',
          contractAddress: items,
          status: 'spam',
        },
      },
    )
    expect(unknown.status).toBe(404)
  })

  test('behavior: collection pages walk forward and back', async () => {
    const first = await kit.get('/collections?page_size=1')
    expect(first.body.result).toHaveLength(1)
    const second = await kit.get(
      `/collections?page_size=1&page_cursor=${first.body.page.next_cursor}`,
    )
    expect(second.body.result).toHaveLength(1)
    expect(second.body.page.next_cursor).toBe(null)
    expect(second.body.result[0].contract_address).not.toBe(
      first.body.result[0].contract_address,
    )
    const back = await kit.get(
      `/collections?page_size=1&page_cursor=${second.body.page.previous_cursor}`,
    )
    expect(back.body).toEqual(first.body)
  })
})

describe('following the chain', () => {
  test('behavior: a read right after a transfer is mined sees it', async () => {
    const dave = await kit.account()
    await kit.send(bob, 'FixtureCollection', swords, 'transferFrom', [
      b,
      dave.address,
      1n,
    ])
    const owners = await kit.get(`/collections/${swords}/nfts/1/owners`)
    expect(
      owners.body.result.map(
        (x: { account_address: string }) => x.account_address,
      ),
    ).toEqual([dave.address.toLowerCase()])
  })
})
