/**
 * Every indexer route refuses what its OpenAPI description does not allow
 * with the API's error shape (`{ code, message, details }`):
 * an unknown chain (404), malformed addresses, token ids, UUIDs, times,
 * enumerations, booleans, page sizes, cursors it did not issue, lists too
 * long or empty (400), and refreshes without the key (401).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { platformApiKey } from '../../src/emulator/constants.js'
import {
  type IndexerTest,
  startIndexerTest,
} from '../../src/emulator/passport/indexer/testkit.js'

let kit: IndexerTest
let contract: `0x${string}`
const uuid = '7053e765-c119-4efb-b5cf-405ccccaf6c4'
const key = { 'x-immutable-api-key': platformApiKey }

beforeAll(async () => {
  kit = await startIndexerTest({ pollingInterval: 3_600_000 })
  const alice = await kit.account()
  contract = await kit.deploy(alice, 'FixtureCollection', ['V', 'V', ''])
  await kit.send(alice, 'FixtureCollection', contract, 'mint', [
    alice.address,
    1n,
    '',
  ])
})

afterAll(async () => {
  await kit?.stop()
})

/** Every GET route, with valid parameters. */
const reads = () => [
  '/activities',
  '/activity-history?from_updated_at=2020-01-01T00:00:00Z',
  `/activities/${uuid}`,
  '/collections',
  `/collections/${contract}`,
  `/accounts/${contract}/collections`,
  `/collections/${contract}/nfts/1`,
  `/collections/${contract}/nfts`,
  `/accounts/${contract}/nfts`,
  '/nfts',
  `/collections/${contract}/nfts/1/owners`,
  '/nft-owners',
  `/collections/${contract}/owners`,
  '/tokens',
  `/tokens/${contract}`,
  `/collections/${contract}/metadata/${uuid}`,
  `/collections/${contract}/metadata`,
  '/metadata',
  `/search/filters/${contract}`,
  `/search/nfts?contract_address=${contract}`,
  `/search/stacks?contract_address=${contract}`,
  `/stacks?stack_id=${uuid}`,
  `/quotes/${contract}/nfts?token_id=1`,
  `/quotes/${contract}/stacks?stack_id=${uuid}`,
]

describe('validation', () => {
  test('error: an unknown chain name is 404 RESOURCE_NOT_FOUND on every route', async () => {
    for (const path of reads()) {
      const answer = await kit.request(
        'GET',
        `/v1/chains/imtbl-zkevm-mainnet${path}`,
      )
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 404,
        body: {
          code: 'RESOURCE_NOT_FOUND',
          message: 'There is no chain named imtbl-zkevm-mainnet.',
          details: null,
        },
      })
    }
  })

  test('behavior: every route answers its valid parameters with 200 or 404 for what is not there', async () => {
    for (const path of reads()) {
      const answer = await kit.get(path)
      expect({ path, status: answer.status }).toEqual({
        path,
        status: /activities\/|metadata\/|tokens\/0x/.test(path) ? 404 : 200,
      })
    }
  })

  test('error: each malformed parameter is 400 VALIDATION_ERROR naming it', async () => {
    const cases: [string, string][] = [
      ['/activities?contract_address=0x12', 'contract_address'],
      ['/activities?token_id=-1', 'token_id'],
      ['/activities?token_id=01', 'token_id'],
      ['/activities?token_id=0x1', 'token_id'],
      [`/activities?token_id=${2n ** 256n}`, 'token_id'],
      ['/activities?account_address=alice', 'account_address'],
      ['/activities?activity_type=gift', 'activity_type'],
      ['/activities?transaction_hash=0x1234', 'transaction_hash'],
      ['/activities?page_size=0', 'page_size'],
      ['/activities?page_size=201', 'page_size'],
      ['/activities?page_size=1.5', 'page_size'],
      ['/activities?page_size=1&page_size=2', 'page_size'],
      ['/activities?page_cursor=abc', 'page_cursor'],
      ['/activity-history', 'from_updated_at'],
      ['/activity-history?from_updated_at=yesterday', 'from_updated_at'],
      [
        '/activity-history?from_updated_at=2020-13-01T00:00:00Z',
        'from_updated_at',
      ],
      [
        '/activity-history?from_updated_at=2020-01-01T00:00:00Z&to_updated_at=2020-01-01',
        'to_updated_at',
      ],
      ['/activities/not-a-uuid', 'activity_id'],
      ['/collections?verification_status=trusted', 'verification_status'],
      ['/collections?contract_address=0xZZ', 'contract_address'],
      ['/collections?from_updated_at=1700000000', 'from_updated_at'],
      ['/collections/0x12', 'contract_address'],
      ['/accounts/bob/collections', 'account_address'],
      [`/collections/${contract}/nfts/abc`, 'token_id'],
      [
        `/collections/${contract}/nfts?${Array.from({ length: 31 }, (_, i) => `token_id=${i}`).join('&')}`,
        'token_id',
      ],
      [`/accounts/${contract}/nfts?contract_address=x`, 'contract_address'],
      [`/collections/${contract}/nfts/1.0/owners`, 'token_id'],
      [
        `/collections/${contract}/owners?${Array.from({ length: 31 }, () => `account_address=${contract}`).join('&')}`,
        'account_address',
      ],
      ['/tokens?is_canonical=yes', 'is_canonical'],
      ['/tokens?verification_status=VERIFIED', 'verification_status'],
      [`/collections/${contract}/metadata/123`, 'metadata_id'],
      ['/metadata?from_updated_at=', 'from_updated_at'],
      ['/search/filters/0x', 'contract_address'],
      ['/search/nfts', 'contract_address'],
      [
        `/search/nfts?${Array.from({ length: 21 }, () => `contract_address=${contract}`).join('&')}`,
        'contract_address',
      ],
      [`/search/nfts?contract_address=${contract}&stack_id=1`, 'stack_id'],
      [
        `/search/nfts?contract_address=${contract}&only_include_owner_listings=1`,
        'only_include_owner_listings',
      ],
      [`/search/stacks?contract_address=${contract}&traits=%7B`, 'traits'],
      [
        `/search/stacks?contract_address=${contract}&traits=${encodeURIComponent('{"a":{"values":[]}}')}`,
        'traits',
      ],
      [
        `/search/stacks?contract_address=${contract}&traits=${encodeURIComponent('{"a":{"values":["x"],"condition":"gt"}}')}`,
        'traits',
      ],
      [`/search/stacks?contract_address=${contract}&keyword=a%3Cb`, 'keyword'],
      [
        `/search/stacks?contract_address=${contract}&payment_token=IMX`,
        'payment_token',
      ],
      [
        `/search/stacks?contract_address=${contract}&sort_by=priciest_first`,
        'sort_by',
      ],
      [
        `/search/stacks?contract_address=${contract}&only_if_has_active_listings=maybe`,
        'only_if_has_active_listings',
      ],
      ['/stacks', 'stack_id'],
      ['/stacks?stack_id=x', 'stack_id'],
      [`/quotes/${contract}/nfts`, 'token_id'],
      [
        `/quotes/${contract}/nfts?${Array.from({ length: 21 }, (_, i) => `token_id=${i}`).join('&')}`,
        'token_id',
      ],
      [`/quotes/${contract}/nfts?token_id=1&page_cursor=x`, 'page_cursor'],
      [
        `/quotes/${contract}/stacks?stack_id=${uuid}&payment_token=0x1`,
        'payment_token',
      ],
    ]
    for (const [path, parameter] of cases) {
      const answer = await kit.get(path)
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 400,
        body: {
          code: 'VALIDATION_ERROR',
          message: expect.any(String),
          details: { parameter },
        },
      })
    }
  })

  test("error: a cursor is refused when forged, edited or another list's", async () => {
    const alice = await kit.account()
    for (const id of [2n, 3n])
      await kit.send(alice, 'FixtureCollection', contract, 'mint', [
        alice.address,
        id,
        '',
      ])
    const first = await kit.get('/nfts?page_size=1')
    const cursor: string = first.body.page.next_cursor
    expect(
      (await kit.get(`/nfts?page_size=1&page_cursor=${cursor}`)).status,
    ).toBe(200)
    const [payload, tag] = cursor.split('.') as [string, string]
    const edited = Buffer.from(
      JSON.stringify(['ListAllNFTs', 'n', 'zzz']),
    ).toString('base64url')
    for (const bad of [
      `${edited}.${tag}`,
      `${payload}.${tag.replace(/^./, (x) => (x === 'A' ? 'B' : 'A'))}`,
      `${payload}x.${tag}`,
      'eyJ0eXBlIjoicHJldiJ9',
    ]) {
      const answer = await kit.get(`/nfts?page_cursor=${bad}`)
      expect(answer.status).toBe(400)
      expect(answer.body.details).toEqual({ parameter: 'page_cursor' })
    }
    expect(
      (await kit.get(`/collections/${contract}/nfts?page_cursor=${cursor}`))
        .status,
    ).toBe(400)
  })

  test('error: the refreshes need the key before anything else, then check the collection and body', async () => {
    const paths = [
      `/collections/${contract}/nfts/refresh-metadata`,
      `/collections/${contract}/metadata/refresh-metadata`,
      `/collections/${contract}/refresh-metadata`,
    ]
    for (const path of paths) {
      const answer = await kit.post(path, 'not json')
      expect({ path, status: answer.status, code: answer.body.code }).toEqual({
        path,
        status: 401,
        code: 'UNAUTHORISED_REQUEST',
      })
      const bad = await kit.post(path, 'not json', key)
      expect({ path, status: bad.status }).toEqual({ path, status: 400 })
      const elsewhere = path.replace(
        contract,
        '0x000000000000000000000000000000000000dead',
      )
      const unknown = await kit.post(
        elsewhere,
        path.endsWith('nfts/refresh-metadata')
          ? {
              nft_metadata: [
                {
                  token_id: '1',
                  name: null,
                  description: null,
                  image: null,
                  external_url: null,
                  animation_url: null,
                  youtube_url: null,
                  attributes: null,
                },
              ],
            }
          : path.endsWith('metadata/refresh-metadata')
            ? {
                metadata: [
                  {
                    metadata_id: uuid,
                    name: null,
                    description: null,
                    image: null,
                    external_url: null,
                    animation_url: null,
                    youtube_url: null,
                    attributes: null,
                  },
                ],
              }
            : {
                collection_metadata: {
                  name: null,
                  symbol: null,
                  description: null,
                  image: null,
                  external_link: null,
                  contract_uri: null,
                  base_uri: null,
                },
              },
        key,
      )
      expect({ path, status: unknown.status }).toEqual({ path, status: 404 })
    }
  })

  test('behavior: a path segment that is a sibling backend’s route passes on (no NFT named mint-requests)', async () => {
    const answer = await kit.get(`/collections/${contract}/nfts/mint-requests`)
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: `No route GET /v1/chains/${kit.chainName}/collections/${contract}/nfts/mint-requests.`,
      details: null,
    })
  })
})
