import type { Address, Hex } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { platformApiKey } from '../../constants.js'
import { createApp } from '../../server.js'
import { createIndexer } from './indexer.js'
import { createRefreshLimiter, indexerRoutes } from './routes.js'
import { activityIdOf, append } from './state.js'

describe('createRefreshLimiter', () => {
  test('behavior: spends within the hour, refuses past the limit with the seconds to wait, and renews after an hour', () => {
    let now = Date.parse('2026-05-01T00:00:00.000Z')
    const limiter = createRefreshLimiter(3, () => new Date(now))
    expect(limiter.spend(2)).toEqual({
      ok: true,
      result: {
        imx_refreshes_limit: '3',
        imx_refresh_limit_reset: '2026-05-01T01:00:00.000Z',
        imx_remaining_refreshes: '1',
        retry_after: '0',
      },
    })
    now += 15 * 60 * 1000
    expect(limiter.spend(2)).toEqual({
      ok: false,
      result: {
        imx_refreshes_limit: '3',
        imx_refresh_limit_reset: '2026-05-01T01:00:00.000Z',
        imx_remaining_refreshes: '1',
        retry_after: '2700',
      },
    })
    expect(limiter.spend(1).ok).toBe(true)
    now += 45 * 60 * 1000
    expect(limiter.spend(3)).toMatchObject({
      ok: true,
      result: {
        imx_refresh_limit_reset: '2026-05-01T02:00:00.000Z',
        imx_remaining_refreshes: '0',
      },
    })
  })
})

describe('the refresh routes past the budget', () => {
  // No node answers here: reads give up on catching up at once and serve
  // what the state holds.
  const indexer = createIndexer({
    chains: [{ chainId: 31337, nodeUrl: 'http://127.0.0.1:9' }],
    pollingInterval: 3_600_000,
    syncTimeout: 1_000,
    now: () => new Date('2026-05-01T00:00:00.000Z'),
  })
  const contract = '0x00000000000000000000000000000000000000aa' as Address
  const at = {
    block: 1,
    blockHash: `0x${'11'.repeat(32)}` as Hex,
    txHash: `0x${'22'.repeat(32)}` as Hex,
    txIndex: 0,
    logIndex: 0,
    position: 0,
  }
  append(indexer.chains[0]!.state, [
    {
      kind: 'transfer',
      standard: 'ERC721',
      contract,
      from: '0x0000000000000000000000000000000000000000',
      to: '0x1111111111111111111111111111111111111111',
      tokenId: 1n,
      amount: 1n,
      at,
      id: activityIdOf(31337, at, 'transfer'),
      indexedAt: new Date('2026-05-01T00:00:00.000Z'),
    },
  ])
  const app = createApp()
  indexerRoutes(app, { indexer, refreshLimit: 1 })
  afterAll(() => indexer.stop())

  test('error: past the hour’s refreshes, 429 TOO_MANY_REQUESTS_ERROR with the budget in its headers, and nothing changes', async () => {
    const refresh = (name: string) =>
      app.request(
        `/v1/chains/imtbl-zkevm-local-31337/collections/${contract}/nfts/refresh-metadata`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-immutable-api-key': platformApiKey,
          },
          body: JSON.stringify({
            nft_metadata: [
              {
                token_id: '1',
                name,
                description: null,
                image: null,
                external_url: null,
                animation_url: null,
                youtube_url: null,
                attributes: null,
              },
            ],
          }),
        },
      )
    expect((await refresh('First')).status).toBe(202)
    const refused = await refresh('Second')
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({
      code: 'TOO_MANY_REQUESTS_ERROR',
      message: 'The API key has used its 1 metadata refreshes of this hour.',
      details: null,
    })
    expect(refused.headers.get('retry-after')).toBe('3600')
    expect(refused.headers.get('imx-remaining-refreshes')).toBe('0')
    const nft = await app.request(
      `/v1/chains/imtbl-zkevm-local-31337/collections/${contract}/nfts/1`,
    )
    expect(
      ((await nft.json()) as { result: { name: string } }).result.name,
    ).toBe('First')
  })
})
