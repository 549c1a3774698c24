import { Hono } from 'hono'
import type { Address } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import { platformApiKey } from '../../constants.js'
import { findFreePort } from '../../net.js'
import { createMinting, type Minting, type MintingIndexer } from './minting.js'
import { mintingRoutes } from './routes.js'

const erc721 = '0x00000000000000000000000000000000000007a1' as Address
const erc1155 = '0x0000000000000000000000000000000000001155' as Address
const foreign = '0x000000000000000000000000000000000000f0f0'
const owner = '0x00000000000000000000000000000000000000aa'
const chainName = 'imtbl-zkevm-local-31337'
const key = { 'x-immutable-api-key': platformApiKey }

/** The indexer's side, as the minting backend sees it: nothing indexed. */
const indexer: MintingIndexer = {
  setMetadata() {},
  sync: async () => {},
  mintsOf: () => [],
}

let minting: Minting | undefined
afterEach(() => minting?.stop())

/**
 * The routes over a backend whose node is not listening (nothing is mined:
 * every accepted record ends `failed`), on a clock the test sets.
 */
async function setup(
  options: { limit?: number; maxRecords?: number; now?: () => Date } = {},
) {
  minting = createMinting({
    chains: [
      {
        chainId: 31337,
        nodeUrl: `http://127.0.0.1:${await findFreePort()}`,
        collections: [
          { address: erc721, standard: 'ERC721' },
          { address: erc1155, standard: 'ERC1155' },
        ],
      },
    ],
    indexer,
    now: options.now,
    maxRecords: options.maxRecords,
  })
  const app = new Hono()
  mintingRoutes(app, { minting, limit: options.limit })
  const m = minting
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = key,
  ) => {
    const response = await app.request(path, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    })
    return {
      status: response.status,
      headers: response.headers,
      // biome-ignore lint/suspicious/noExplicitAny: answers of many shapes.
      body: (await response.json()) as any,
    }
  }
  const path = (contract: string, rest = '') =>
    `/v1/chains/${chainName}/collections/${contract}/nfts/mint-requests${rest}`
  return {
    minting: m,
    post: (contract: string, body: unknown, headers?: Record<string, string>) =>
      call('POST', path(contract), body, headers),
    get: (contract: string, rest = '', headers?: Record<string, string>) =>
      call('GET', path(contract, rest), undefined, headers),
    call,
  }
}

const asset = (reference: string, extra: Record<string, unknown> = {}) => ({
  reference_id: reference,
  owner_address: owner,
  ...extra,
})

describe('mint request routes', () => {
  test('error: every route needs the platform API key (401 UNAUTHORISED_REQUEST)', async () => {
    const r = await setup()
    for (const headers of [{}, { 'x-immutable-api-key': 'sk_wrong' }]) {
      const answers = [
        await r.post(erc721, { assets: [asset('a')] }, headers),
        await r.get(erc721, '', headers),
        await r.get(erc721, '/a', headers),
      ]
      for (const answer of answers) {
        expect(answer.status).toBe(401)
        expect(answer.body.code).toBe('UNAUTHORISED_REQUEST')
        expect(answer.body.details).toBeNull()
      }
    }
    expect(r.minting.records(31337, erc721)).toEqual([])
  })

  test('error: an unknown chain is 404, a malformed contract 400, a contract the platform does not mint on 403', async () => {
    const r = await setup()
    const unknown = await r.call(
      'POST',
      `/v1/chains/imtbl-zkevm-local-1/collections/${erc721}/nfts/mint-requests`,
      { assets: [asset('a')] },
    )
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe('RESOURCE_NOT_FOUND')
    const malformed = await r.get('0x1234')
    expect(malformed.status).toBe(400)
    expect(malformed.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { parameter: 'contract_address' },
    })
    const other = await r.post(foreign, { assets: [asset('a')] })
    expect(other.status).toBe(403)
    expect(other.body).toMatchObject({
      code: 'AUTHENTICATION_ERROR',
      message: `The API key may not mint on ${foreign}: the platform mints only on its own collections.`,
    })
    expect((await r.get(foreign)).status).toBe(403)
  })

  test('error: malformed bodies are 400 VALIDATION_ERROR naming the field, and nothing is taken', async () => {
    const r = await setup()
    const cases: [unknown, string, Address?][] = [
      ['not json', 'The body must be a JSON object with assets.'],
      [{ assets: [] }, 'assets must hold 1 to 100 assets.'],
      [
        { assets: Array.from({ length: 101 }, (_, i) => asset(`r${i}`)) },
        'assets must hold 1 to 100 assets.',
      ],
      [
        { assets: [{ owner_address: owner }] },
        'assets[0].reference_id must be a string of 1 to 256 characters.',
      ],
      [
        { assets: [asset('a', { owner_address: '0x12' })] },
        'assets[0].owner_address must be an address (0x and 40 hex digits).',
      ],
      [
        {
          assets: [
            asset('a', {
              owner_address: '0x0000000000000000000000000000000000000000',
            }),
          ],
        },
        'assets[0].owner_address must not be the zero address.',
      ],
      [
        { assets: [asset('a', { token_id: '01' })] },
        'assets[0].token_id must be a uint256 as a decimal string, or null.',
      ],
      [
        { assets: [asset('a', { amount: '2' })] },
        'assets[0].amount must be 1 or left out: an ERC-721 token is minted once.',
      ],
      [
        { assets: [asset('a', { metadata: { attributes: 'x' } })] },
        'assets[0].metadata.attributes must be an array or null.',
      ],
      [
        { assets: [asset('a', { amount: '1' })] },
        'assets[0].token_id is required for an ERC-1155 collection.',
        erc1155,
      ],
      [
        { assets: [asset('a', { token_id: '1' })] },
        'assets[0].amount is required for an ERC-1155 collection.',
        erc1155,
      ],
      [
        { assets: [asset('a', { token_id: '1', amount: '0' })] },
        'assets[0].amount must be a positive uint256 as a decimal string, or null.',
        erc1155,
      ],
    ]
    for (const [body, message, contract = erc721] of cases) {
      const answer = await r.post(contract, body)
      expect(answer.status, message).toBe(400)
      expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', message })
    }
    expect(r.minting.records(31337, erc721)).toEqual([])
    expect(r.minting.records(31337, erc1155)).toEqual([])
  })

  test('error: a reference id twice, in use, or an ERC-721 token id twice is 409 CONFLICT_ERROR', async () => {
    const r = await setup()
    const twice = await r.post(erc721, { assets: [asset('a'), asset('a')] })
    expect(twice.status).toBe(409)
    expect(twice.body).toMatchObject({
      code: 'CONFLICT_ERROR',
      message:
        'assets[1].reference_id a is given to another asset of this request.',
    })
    const ids = await r.post(erc721, {
      assets: [asset('a', { token_id: '5' }), asset('b', { token_id: '5' })],
    })
    expect(ids.status).toBe(409)
    expect(ids.body.message).toBe(
      'assets[1].token_id 5 is given to another asset of this request.',
    )
    expect((await r.post(erc721, { assets: [asset('a')] })).status).toBe(202)
    const inUse = await r.post(erc721, { assets: [asset('b'), asset('a')] })
    expect(inUse.status).toBe(409)
    expect(inUse.body.code).toBe('CONFLICT_ERROR')
    // The same reference id in another collection is another request.
    expect(
      (
        await r.post(erc1155, {
          assets: [asset('a', { token_id: '1', amount: '1' })],
        })
      ).status,
    ).toBe(202)
    expect(r.minting.records(31337, erc721).map((x) => x.referenceId)).toEqual([
      'a',
    ])
  })

  test('behavior: a request the node never gets fails with why; its reference id may be used again', async () => {
    const r = await setup()
    expect(
      (await r.post(erc721, { assets: [asset('a', { token_id: '3' })] }))
        .status,
    ).toBe(202)
    const pending = await r.get(erc721, '/a')
    expect(pending.body.result[0]).toMatchObject({
      status: 'pending',
      token_id: '3',
      amount: null,
      transaction_hash: null,
      activity_id: null,
      error: null,
    })
    await r.minting.idle()
    const failed = await r.get(erc721, '/a')
    expect(failed.status).toBe(200)
    expect(failed.body.page).toEqual({
      previous_cursor: null,
      next_cursor: null,
    })
    const [record] = failed.body.result
    expect(record.status).toBe('failed')
    expect(record.error).toEqual({
      message: 'The mint could not be sent: HTTP request failed.',
    })
    expect((await r.post(erc721, { assets: [asset('a')] })).status).toBe(202)
    expect(r.minting.records(31337, erc721)).toHaveLength(1)
    expect((await r.get(erc721, '/nope')).status).toBe(404)
  })

  test('behavior: the budget counts distinct token ids per minute; past it, 429 with the limit headers and Retry-After', async () => {
    let time = new Date('2026-03-01T10:00:15.000Z')
    const r = await setup({ limit: 3, now: () => time })
    const first = await r.post(erc1155, {
      assets: [
        asset('a', { token_id: '1', amount: '1' }),
        asset('b', { token_id: '1', amount: '2' }),
      ],
    })
    expect(first.status).toBe(202)
    expect(first.body).toEqual({
      imx_mint_requests_limit: '3',
      imx_mint_requests_limit_reset: '2026-03-01 10:01:00 UTC',
      imx_remaining_mint_requests: '2',
      imx_mint_requests_retry_after: '45.00-seconds',
    })
    expect(first.headers.get('imx-mint-requests-limit-reset')).toBe(
      '2026-03-01 10:01:00 UTC',
    )
    const over = await r.post(erc721, {
      assets: [asset('c'), asset('d'), asset('e')],
    })
    expect(over.status).toBe(429)
    expect(over.body.code).toBe('TOO_MANY_REQUESTS_ERROR')
    expect(over.headers.get('retry-after')).toBe('45')
    expect(over.headers.get('imx-remaining-mint-requests')).toBe('2')
    // A refused conflict costs nothing.
    expect(
      (await r.post(erc721, { assets: [asset('c'), asset('c')] })).status,
    ).toBe(409)
    time = new Date('2026-03-01T10:01:00.000Z')
    expect(
      (await r.post(erc721, { assets: [asset('c'), asset('d'), asset('e')] }))
        .status,
    ).toBe(202)
  })

  test('error: past the most records a chain holds, a request is refused (429) and nothing is taken', async () => {
    const r = await setup({ maxRecords: 2 })
    expect((await r.post(erc721, { assets: [asset('a')] })).status).toBe(202)
    const full = await r.post(erc721, { assets: [asset('b'), asset('c')] })
    expect(full.status).toBe(429)
    expect(full.body.message).toBe(
      'The emulator holds 2 mint requests on this chain, its most.',
    )
    expect(r.minting.records(31337, erc721)).toHaveLength(1)
  })

  test('behavior: the list pages by cursor in creation order and filters by status', async () => {
    const r = await setup()
    expect(
      (
        await r.post(erc721, {
          assets: ['a', 'b', 'c', 'd', 'e'].map((id) => asset(id)),
        })
      ).status,
    ).toBe(202)
    const one = await r.get(erc721, '?page_size=2')
    expect(
      one.body.result.map((x: { reference_id: string }) => x.reference_id),
    ).toEqual(['a', 'b'])
    expect(one.body.page.previous_cursor).toBeNull()
    const two = await r.get(
      erc721,
      `?page_size=2&page_cursor=${one.body.page.next_cursor}`,
    )
    expect(
      two.body.result.map((x: { reference_id: string }) => x.reference_id),
    ).toEqual(['c', 'd'])
    const back = await r.get(
      erc721,
      `?page_size=2&page_cursor=${two.body.page.previous_cursor}`,
    )
    expect(
      back.body.result.map((x: { reference_id: string }) => x.reference_id),
    ).toEqual(['a', 'b'])
    const three = await r.get(
      erc721,
      `?page_size=2&page_cursor=${two.body.page.next_cursor}`,
    )
    expect(
      three.body.result.map((x: { reference_id: string }) => x.reference_id),
    ).toEqual(['e'])
    expect(three.body.page.next_cursor).toBeNull()
    // A cursor of another list (here: another status filter) is refused.
    const other = await r.get(
      erc721,
      `?status=pending&page_cursor=${one.body.page.next_cursor}`,
    )
    expect(other.status).toBe(400)
    expect(other.body.details).toEqual({ parameter: 'page_cursor' })
    for (const query of [
      '?page_size=0',
      '?page_size=201',
      '?status=done',
      '?page_cursor=%%',
      '?status=failed&status=failed',
    ]) {
      const answer = await r.get(erc721, query)
      expect(answer.status, query).toBe(400)
      expect(answer.body.code).toBe('VALIDATION_ERROR')
    }
    await r.minting.idle()
    expect((await r.get(erc721, '?status=pending')).body.result).toEqual([])
    expect((await r.get(erc721, '?status=failed')).body.result).toHaveLength(5)
  })
})
