import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { linkWalletTypedData } from '../../../passport/wire/api.js'
import { platformApiKey } from '../../constants.js'
import {
  mainChainName,
  type Player,
  startApi,
  type TestApi,
} from './testkit.js'

let api: TestApi

beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.stop())

/** Links a new external EOA to the player; returns its address. */
async function link(player: Player, passport: Address): Promise<Address> {
  const external = privateKeyToAccount(generatePrivateKey())
  const nonce = crypto.randomUUID()
  const response = await api.post(
    '/passport-profile/v2/linked-wallets',
    {
      type: 'External',
      wallet_address: external.address,
      nonce,
      signature: await external.signTypedData({
        domain: linkWalletTypedData.domain,
        types: { LinkWallet: linkWalletTypedData.types.LinkWallet },
        primaryType: linkWalletTypedData.primaryType,
        message: {
          walletAddress: external.address.toLowerCase() as Address,
          immutablePassportAddress: passport.toLowerCase() as Address,
          condition: linkWalletTypedData.condition,
          nonce,
        },
      }),
    },
    player.accessToken,
  )
  expect(response.status).toBe(200)
  return external.address
}

const linkedPath = (userId: string, chain = mainChainName) =>
  `/v1/chains/${chain}/passport/users/${encodeURIComponent(userId)}/linked-addresses`
const deprecatedPath = (userId: string) =>
  `/passport-mr/v1/users/${encodeURIComponent(userId)}/linked-addresses`
const metadataPath = (userId: string) =>
  `/passport-mr/v1/users/${encodeURIComponent(userId)}/metadata`

describe('linked addresses', () => {
  test('default: what the player linked, oldest first, on both routes (the same on every chain); none before linking', async () => {
    const player = await api.player()
    expect(await api.get(linkedPath(player.sub), player.accessToken)).toEqual(
      expect.objectContaining({ status: 200, body: { linked_addresses: [] } }),
    )
    const wallet = await api.register(player)
    const first = await link(player, wallet)
    const second = await link(player, wallet)
    for (const chain of [mainChainName, 'imtbl-zkevm-local-1337'])
      expect(
        (await api.get(linkedPath(player.sub, chain), player.accessToken)).body,
      ).toEqual({ linked_addresses: [first, second] })
    const deprecated = await api.get(
      deprecatedPath(player.sub),
      player.accessToken,
    )
    expect([deprecated.status, deprecated.body]).toEqual([
      200,
      { linkedAddresses: [first, second] },
    ])
    // The profile lists the same.
    expect(
      (await api.get('/passport-profile/v1/user/info', player.accessToken))
        .body,
    ).toMatchObject({ linked_addresses: [first, second] })
  })

  test("error: another user's addresses are 403, on both routes", async () => {
    const player = await api.player()
    const other = await api.player()
    await link(other, await api.register(other))
    for (const path of [linkedPath(other.sub), deprecatedPath(other.sub)]) {
      const response = await api.get(path, player.accessToken)
      expect([response.status, response.body]).toEqual([
        403,
        {
          code: 'AUTHENTICATION_ERROR',
          message:
            "A player may read their own linked addresses only, not another user's.",
          details: null,
        },
      ])
    }
  })

  test('error: an unknown chain is 404; no token, an id token or a custody key is 401', async () => {
    const player = await api.player()
    const unknown = await api.get(
      linkedPath(player.sub, 'imtbl-zkevm-testnet'),
      player.accessToken,
    )
    expect([unknown.status, unknown.body]).toEqual([
      404,
      {
        code: 'RESOURCE_NOT_FOUND',
        message: 'There is no chain named imtbl-zkevm-testnet.',
        details: null,
      },
    ])
    for (const token of [undefined, player.idToken]) {
      const response = await api.get(linkedPath(player.sub), token)
      expect(response.status).toBe(401)
      expect(response.body).toMatchObject({ code: 'UNAUTHORISED_REQUEST' })
    }
  })
})

describe('GET /passport-mr/v1/users/{user_id}/metadata', () => {
  /** A GET with `key` in x-immutable-api-key (`null`: no header). */
  const withKey = (path: string, key: string | null = platformApiKey) =>
    api.request('GET', path, {
      headers: key === null ? {} : { 'x-immutable-api-key': key },
    })

  test("default: a registered player's wallet and signer on every chain; none before registering", async () => {
    const player = await api.player()
    expect((await withKey(metadataPath(player.sub))).body).toEqual({
      passport_metadata: [],
    })
    const wallet = await api.register(player)
    const custody = await api.custody(player)
    const response = await withKey(metadataPath(player.sub))
    expect([response.status, response.body]).toEqual([
      200,
      {
        passport_metadata: [
          {
            chain_id: 'eip155:31337',
            chain_key: 'imtbl-zkevm-local-31337',
            user_admin_key: custody.address,
            counterfactual_address: wallet,
          },
          {
            chain_id: 'eip155:1337',
            chain_key: 'imtbl-zkevm-local-1337',
            user_admin_key: custody.address,
            counterfactual_address: wallet,
          },
        ],
      },
    ])
  })

  test('error: without the API key, or with another, it is 401; a bearer token is no API key', async () => {
    const player = await api.player()
    const cases = [
      [
        null,
        "The x-immutable-api-key header is required: the platform's secret API key.",
      ],
      [
        'sk_imapik-test-EMULATOR000001',
        "The x-immutable-api-key header is not this platform's API key.",
      ],
      ['', "The x-immutable-api-key header is not this platform's API key."],
    ] as const
    for (const [key, message] of cases) {
      const response = await withKey(metadataPath(player.sub), key)
      expect([response.status, response.body]).toEqual([
        401,
        { code: 'UNAUTHORISED_REQUEST', message, details: null },
      ])
    }
    const bearer = await api.get(metadataPath(player.sub), player.accessToken)
    expect(bearer.status).toBe(401)
  })

  test("error: an unknown user, or a custody key's user id, is 404", async () => {
    const player = await api.player()
    const custody = await api.custody(player)
    for (const id of ['nobody', custody.id]) {
      const response = await withKey(metadataPath(id))
      expect([response.status, response.body]).toEqual([
        404,
        {
          code: 'RESOURCE_NOT_FOUND',
          message: `There is no user ${id}.`,
          details: null,
        },
      ])
    }
  })
})
