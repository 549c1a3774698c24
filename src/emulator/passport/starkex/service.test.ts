import { decodeJwt } from 'jose'
import { keccak256, toBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { tokenRequest } from '../identity/testkit.js'
import { providerAccountOf } from './exchanges.js'
import { ethQuantum } from './ledger.js'
import { assetId, assetIdText, starkOrder } from './stark.js'
import {
  newStarkKey,
  type Player,
  starkSign,
  startStarkEx,
  type TestStarkEx,
} from './testkit.js'

let kit: TestStarkEx
beforeAll(async () => {
  kit = await startStarkEx()
})
afterAll(() => kit?.stop())

const eth = { type: 'ETH', data: { decimals: 18 } } as const
const ethId = assetIdText(assetId({ type: 'ETH', quantum: ethQuantum }))
const oneEth = 10n ** 18n
const collection = '0x00000000000000000000000000000000000000c1'
const nft = (tokenId: string) =>
  ({
    type: 'ERC721',
    data: { token_address: collection, token_id: tokenId },
  }) as const

/** The ETH balance of an address, in wei. */
async function ethBalance(address: string): Promise<bigint> {
  const answer = await kit.get(`/v2/balances/${address}/eth`)
  return BigInt(answer.body.balance)
}

/** A signable v1 transfer and its signed create body. */
async function signedTransfer(
  sender: Player,
  receiver: Player,
  token: unknown,
  amount: string,
  options: { key?: string } = {},
) {
  const signable = await kit.post(
    '/v1/signable-transfer-details',
    { sender: sender.ethAddress, token, amount, receiver: receiver.ethAddress },
    sender.accessToken,
  )
  expect(signable.status, signable.text).toBe(200)
  const d = signable.body
  return {
    signable: d,
    body: {
      sender_stark_key: d.sender_stark_key,
      sender_vault_id: d.sender_vault_id,
      receiver_stark_key: d.receiver_stark_key,
      receiver_vault_id: d.receiver_vault_id,
      asset_id: d.asset_id,
      amount: d.amount,
      nonce: d.nonce,
      expiration_timestamp: d.expiration_timestamp,
      stark_signature: starkSign(
        d.payload_hash,
        options.key ?? sender.starkPrivateKey,
      ),
    },
  }
}

describe('registration', () => {
  test('behavior: a registered player is listed and the refresh grant carries the three imx claims', async () => {
    const player = await kit.player()
    const created = await kit.register(player)
    expect(created.status, created.text).toBe(201)
    expect(created.body).toEqual({
      ether_key: player.ethAddress,
      stark_key: player.starkKey,
      user_admin_key: player.ethAddress,
    })
    const users = await kit.get(`/v1/users/${player.ethAddress.toLowerCase()}`)
    expect(users.body).toEqual({ accounts: [player.starkKey] })
    const refreshed = await tokenRequest(kit.identity.issuer, {
      grant_type: 'refresh_token',
      client_id: kit.identity.clientId,
      refresh_token: player.refreshToken,
    })
    expect(refreshed.status).toBe(200)
    expect(decodeJwt(String(refreshed.body.id_token)).passport).toMatchObject({
      imx_eth_address: player.ethAddress,
      imx_stark_address: player.starkKey,
      imx_user_admin_address: player.ethAddress,
    })
  })

  test('error: a second registration is 409', async () => {
    const player = await kit.registered()
    const again = await kit.register(player)
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('CONFLICT_ERROR')
  })

  test('error: a Stark key another player registered is 409', async () => {
    const first = await kit.registered()
    const second = await kit.player()
    const answer = await kit.register({
      ...second,
      starkKey: first.starkKey,
      starkPrivateKey: first.starkPrivateKey,
    })
    expect(answer.status).toBe(409)
    expect(answer.body.message).toBe(
      `The Stark key ${first.starkKey} is registered already.`,
    )
    expect(
      kit.registry.get(second.sub)?.passport.imxStarkAddress,
    ).toBeUndefined()
  })

  test('error: an unknown address is 404 account_not_found', async () => {
    const answer = await kit.get(
      '/v1/users/0x000000000000000000000000000000000000dEaD',
    )
    expect(answer.status).toBe(404)
    expect(answer.body).toMatchObject({ code: 'account_not_found' })
  })

  test('error: a Stark signature by another key, or an ether_key that is not the custody key, registers nothing', async () => {
    const player = await kit.player()
    const signable = await kit.post('/v1/signable-registration-offchain', {
      ether_key: player.ethAddress,
      stark_key: player.starkKey,
    })
    const forged = await kit.post(
      '/v2/passport/users',
      {
        eth_signature: await kit.ethSign(
          player,
          signable.body.signable_message,
        ),
        ether_key: player.ethAddress,
        stark_signature: starkSign(
          signable.body.payload_hash,
          newStarkKey().privateKey,
        ),
        stark_key: player.starkKey,
      },
      player.accessToken,
    )
    expect(forged.status).toBe(400)
    expect(forged.body.message).toBe(
      `The Stark signature does not sign payload_hash ${signable.body.payload_hash} for Stark key ${player.starkKey}.`,
    )
    const other = await kit.post(
      '/v2/passport/users',
      {
        eth_signature: await kit.ethSign(
          player,
          signable.body.signable_message,
        ),
        ether_key: '0x000000000000000000000000000000000000dEaD',
        stark_signature: starkSign(
          signable.body.payload_hash,
          player.starkPrivateKey,
        ),
        stark_key: player.starkKey,
      },
      player.accessToken,
    )
    expect(other.status).toBe(403)
    expect(kit.registry.get(player.sub)?.passport.imxEthAddress).toBeUndefined()
    expect((await kit.get(`/v1/users/${player.ethAddress}`)).status).toBe(404)
  })

  test('error: registration without a bearer token is 401', async () => {
    const answer = await kit.post('/v2/passport/users', {})
    expect(answer.status).toBe(401)
    expect(answer.body.code).toBe('UNAUTHORISED_REQUEST')
  })
})

describe('dev mint', () => {
  test('behavior: credits a registered user, answered in base units', async () => {
    const player = await kit.registered()
    const minted = await kit.mint({
      user: player.ethAddress,
      token: eth,
      quantity: oneEth.toString(),
    })
    expect(minted.status, minted.text).toBe(200)
    expect(minted.body).toMatchObject({
      user: player.ethAddress.toLowerCase(),
      stark_key: player.starkKey,
      asset_id: ethId,
      balance: oneEth.toString(),
    })
    expect(await ethBalance(player.ethAddress)).toBe(oneEth)
  })

  test('error: an unregistered user, a bad ERC721 quantity, a token held already, an amount off the quantum', async () => {
    const player = await kit.registered()
    const unknown = await kit.mint({
      user: '0x000000000000000000000000000000000000dEaD',
      token: eth,
      quantity: '100000000',
    })
    expect(unknown.status).toBe(404)
    const two = await kit.mint({
      user: player.ethAddress,
      token: nft('900'),
      quantity: '2',
    })
    expect(two.status).toBe(400)
    expect(
      (
        await kit.mint({
          user: player.ethAddress,
          token: nft('900'),
          quantity: '1',
        })
      ).status,
    ).toBe(200)
    const again = await kit.mint({
      user: player.ethAddress,
      token: nft('900'),
      quantity: '1',
    })
    expect(again.status).toBe(409)
    const dust = await kit.mint({
      user: player.ethAddress,
      token: eth,
      quantity: '12345',
    })
    expect(dust.status).toBe(400)
    expect(dust.body.message).toBe(
      "quantity 12345 is not a whole multiple of the token's quantum 100000000.",
    )
  })

  test('error: the dev route answers loopback origins only', async () => {
    const answer = await kit.request('POST', '/dev/starkex/mint', {
      body: {},
      headers: { origin: 'https://evil.example' },
    })
    expect(answer.status).toBe(403)
  })
})

describe('transfers v1', () => {
  let alice: Player
  let bob: Player
  beforeAll(async () => {
    alice = await kit.registered()
    bob = await kit.registered()
    await kit.mint({
      user: alice.ethAddress,
      token: eth,
      quantity: oneEth.toString(),
    })
  })

  test('behavior: a signed, approved transfer moves exactly its amount and is listed', async () => {
    const tenth = (oneEth / 10n).toString()
    const { signable, body } = await signedTransfer(alice, bob, eth, tenth)
    expect(signable).toMatchObject({
      amount: (oneEth / 10n / ethQuantum).toString(),
      asset_id: ethId,
      sender_stark_key: alice.starkKey,
      receiver_stark_key: bob.starkKey,
    })
    expect(signable.payload_hash).toMatch(/^[1-9a-f][0-9a-f]*$/)
    expect(
      kit.guardian.starkExTransaction(signable.payload_hash),
    ).toMatchObject({ type: 'transfer', wallet: alice.ethAddress })
    kit.approve(alice.ethAddress, signable.payload_hash)
    const before = await ethBalance(alice.ethAddress)
    const created = await kit.post('/v1/transfers', body, alice.accessToken)
    expect(created.status, created.text).toBe(200)
    expect(created.body).toMatchObject({
      status: 'success',
      sent_signature: body.stark_signature,
    })
    expect(await ethBalance(alice.ethAddress)).toBe(before - oneEth / 10n)
    expect(await ethBalance(bob.ethAddress)).toBe(oneEth / 10n)
    const one = await kit.get(`/v1/transfers/${created.body.transfer_id}`)
    expect(one.body).toMatchObject({
      transaction_id: created.body.transfer_id,
      status: 'success',
      user: alice.ethAddress.toLowerCase(),
      receiver: bob.ethAddress.toLowerCase(),
      token: { type: 'ETH', data: { quantity: tenth, decimals: 18 } },
    })
    const listed = await kit.get(
      `/v1/transfers?user=${alice.ethAddress}&receiver=${bob.ethAddress}&token_type=ETH&min_quantity=${tenth}`,
    )
    expect(
      listed.body.result.map(
        (t: { transaction_id: number }) => t.transaction_id,
      ),
    ).toEqual([created.body.transfer_id])
    const none = await kit.get(
      `/v1/transfers?user=${alice.ethAddress}&min_quantity=${oneEth}`,
    )
    expect(none.body.result).toEqual([])
  })

  test('error: a replayed create is refused and moves nothing', async () => {
    const { signable, body } = await signedTransfer(
      alice,
      bob,
      eth,
      '100000000',
    )
    kit.approve(alice.ethAddress, signable.payload_hash)
    expect(
      (await kit.post('/v1/transfers', body, alice.accessToken)).status,
    ).toBe(200)
    const before = await ethBalance(alice.ethAddress)
    const replay = await kit.post('/v1/transfers', body, alice.accessToken)
    expect(replay.status).toBe(400)
    expect(replay.body.message).toBe(
      `Nonce ${body.nonce} of Stark key ${alice.starkKey} was used already.`,
    )
    expect(await ethBalance(alice.ethAddress)).toBe(before)
  })

  test('error: a signature by another Stark key is refused', async () => {
    const { signable, body } = await signedTransfer(
      alice,
      bob,
      eth,
      '100000000',
      {
        key: newStarkKey().privateKey,
      },
    )
    kit.approve(alice.ethAddress, signable.payload_hash)
    const forged = await kit.post('/v1/transfers', body, alice.accessToken)
    expect(forged.status).toBe(400)
    expect(forged.body.message).toBe(
      `The Stark signature does not sign payload_hash ${signable.payload_hash} for Stark key ${alice.starkKey}.`,
    )
  })

  test('error: a field changed after signing is refused', async () => {
    const { signable, body } = await signedTransfer(
      alice,
      bob,
      eth,
      '100000000',
    )
    kit.approve(alice.ethAddress, signable.payload_hash)
    const changed = await kit.post(
      '/v1/transfers',
      { ...body, amount: '2' },
      alice.accessToken,
    )
    expect(changed.status).toBe(400)
    expect(changed.body.message).toMatch(/^The Stark signature does not sign/)
  })

  test('error: a create the guardian has not approved is 403', async () => {
    const before = await ethBalance(alice.ethAddress)
    const { signable, body } = await signedTransfer(
      alice,
      bob,
      eth,
      '100000000',
    )
    const refused = await kit.post('/v1/transfers', body, alice.accessToken)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({
      code: 'AUTHENTICATION_ERROR',
      message: `The guardian has not approved payload hash ${signable.payload_hash}.`,
    })
    expect(await ethBalance(alice.ethAddress)).toBe(before)
  })

  test('error: an expired transfer is refused', async () => {
    const { signable, body } = await signedTransfer(
      alice,
      bob,
      eth,
      '100000000',
    )
    kit.approve(alice.ethAddress, signable.payload_hash)
    const now = kit.clock.now
    kit.clock.now = now + 31 * 24 * 3_600_000
    try {
      const expired = await kit.post('/v1/transfers', body, alice.accessToken)
      expect(expired.status).toBe(400)
      expect(expired.body.message).toBe(
        `The transfer with payload_hash ${signable.payload_hash} has expired.`,
      )
    } finally {
      kit.clock.now = now
    }
  })

  test('error: more than the balance, another sender, a bad token: typed 400s', async () => {
    const tooMuch = await kit.post(
      '/v1/signable-transfer-details',
      {
        sender: alice.ethAddress,
        token: eth,
        amount: (100n * oneEth).toString(),
        receiver: bob.ethAddress,
      },
      alice.accessToken,
    )
    expect(tooMuch.status).toBe(400)
    const foreign = await kit.post(
      '/v1/signable-transfer-details',
      {
        sender: bob.ethAddress,
        token: eth,
        amount: '100000000',
        receiver: alice.ethAddress,
      },
      alice.accessToken,
    )
    expect(foreign.status).toBe(403)
    const badToken = await kit.post(
      '/v1/signable-transfer-details',
      {
        sender: alice.ethAddress,
        token: { type: 'X' },
        amount: '1',
        receiver: bob.ethAddress,
      },
      alice.accessToken,
    )
    expect(badToken.status).toBe(400)
  })
})

describe('ERC20 and lists', () => {
  test('behavior: an ERC20 of 6 decimals moves in base units and both balances list it', async () => {
    const alice = await kit.registered()
    const bob = await kit.registered()
    const usdc = '0x00000000000000000000000000000000000000e6'
    const token = { type: 'ERC20', data: { token_address: usdc } } as const
    expect(
      (
        await kit.mint({
          user: alice.ethAddress,
          token: { type: 'ERC20', data: { token_address: usdc, decimals: 6 } },
          quantity: '5000000',
        })
      ).status,
    ).toBe(200)
    const { signable, body } = await signedTransfer(
      alice,
      bob,
      token,
      '1250000',
    )
    expect(signable.amount).toBe('1250000')
    kit.approve(alice.ethAddress, signable.payload_hash)
    const created = await kit.post('/v1/transfers', body, alice.accessToken)
    expect(created.status, created.text).toBe(200)
    for (const [who, balance] of [
      [alice, '3750000'],
      [bob, '1250000'],
    ] as const) {
      const list = await kit.get(`/v2/balances/${who.ethAddress}`)
      expect(list.body).toEqual({
        cursor: '',
        remaining: 0,
        result: [
          {
            balance,
            preparing_withdrawal: '0',
            withdrawable: '0',
            symbol: '',
            token_address: usdc,
          },
        ],
      })
    }
    const byToken = await kit.get(
      `/v1/transfers?token_address=${usdc}&direction=asc&page_size=1`,
    )
    expect(byToken.body).toMatchObject({
      remaining: 0,
      result: [
        {
          transaction_id: created.body.transfer_id,
          token: {
            type: 'ERC20',
            data: { token_address: usdc, quantity: '1250000', decimals: 6 },
          },
        },
      ],
    })
  })

  test('behavior: pages follow their cursor', async () => {
    const all = await kit.get('/v1/transfers?direction=asc&page_size=200')
    const ids = all.body.result.map(
      (t: { transaction_id: number }) => t.transaction_id,
    )
    expect(ids.length).toBeGreaterThan(2)
    const first = await kit.get('/v1/transfers?direction=asc&page_size=2')
    expect(first.body.remaining).toBe(1)
    const second = await kit.get(
      `/v1/transfers?direction=asc&page_size=2&cursor=${first.body.cursor}`,
    )
    expect(
      [...first.body.result, ...second.body.result].map(
        (t: { transaction_id: number }) => t.transaction_id,
      ),
    ).toEqual(ids.slice(0, 4))
  })
})

describe('batch transfers v2', () => {
  test('behavior: all of a batch moves once approved under its first hash; a bad signature moves none', async () => {
    const alice = await kit.registered()
    const bob = await kit.registered()
    for (const id of ['1001', '1002'])
      expect(
        (
          await kit.mint({
            user: alice.ethAddress,
            token: nft(id),
            quantity: '1',
          })
        ).status,
      ).toBe(200)
    const signable = await kit.post(
      '/v2/signable-transfer-details',
      {
        sender_ether_key: alice.ethAddress,
        signable_requests: ['1001', '1002'].map((id) => ({
          amount: '1',
          token: nft(id),
          receiver: bob.ethAddress,
        })),
      },
      alice.accessToken,
    )
    expect(signable.status, signable.text).toBe(200)
    const responses = signable.body.signable_responses
    expect(responses).toHaveLength(2)
    expect(responses[0].nonce).not.toBe(responses[1].nonce)
    const first = responses[0].payload_hash
    expect(kit.guardian.starkExTransaction(first)).toMatchObject({
      type: 'batchNftTransfer',
    })
    expect(
      kit.guardian.starkExTransaction(responses[1].payload_hash),
    ).toBeUndefined()
    type Signable = Record<string, unknown> & { payload_hash: string }
    const requests = responses.map((r: Signable, index: number) => ({
      sender_vault_id: r.sender_vault_id,
      receiver_stark_key: r.receiver_stark_key,
      receiver_vault_id: r.receiver_vault_id,
      asset_id: r.asset_id,
      amount: r.amount,
      nonce: r.nonce,
      expiration_timestamp: r.expiration_timestamp,
      stark_signature: starkSign(
        r.payload_hash,
        index === 1 ? newStarkKey().privateKey : alice.starkPrivateKey,
      ),
    }))
    kit.approve(alice.ethAddress, first)
    const owners = async () =>
      (
        await kit.get(`/v1/assets?collection=${collection}&page_size=200`)
      ).body.result
        .filter(
          (a: { token_id: string }) =>
            a.token_id === '1001' || a.token_id === '1002',
        )
        .map(
          (a: { token_id: string; user: string }) => `${a.token_id}:${a.user}`,
        )
        .sort()
    const refused = await kit.post(
      '/v2/transfers',
      { sender_stark_key: alice.starkKey, requests },
      alice.accessToken,
    )
    expect(refused.status).toBe(400)
    const alices = alice.ethAddress.toLowerCase()
    expect(await owners()).toEqual([`1001:${alices}`, `1002:${alices}`])
    requests[1].stark_signature = starkSign(
      responses[1].payload_hash,
      alice.starkPrivateKey,
    )
    const created = await kit.post(
      '/v2/transfers',
      { sender_stark_key: alice.starkKey, requests },
      alice.accessToken,
    )
    expect(created.status, created.text).toBe(200)
    expect(created.body.transfer_ids).toHaveLength(2)
    const bobs = bob.ethAddress.toLowerCase()
    expect(await owners()).toEqual([`1001:${bobs}`, `1002:${bobs}`])
    const asset = await kit.get(`/v1/assets/${collection}/1001`)
    expect(asset.body).toMatchObject({
      user: bobs,
      status: 'imx',
      token_id: '1001',
    })
  })
})

describe('exchanges', () => {
  test('behavior: an off-ramp transfer moves the funds to the provider and completes the exchange', async () => {
    const player = await kit.registered()
    await kit.mint({
      user: player.ethAddress,
      token: eth,
      quantity: oneEth.toString(),
    })
    const created = await kit.post('/v3/exchanges', {
      wallet_address: player.ethAddress,
      provider: 'moonpay',
      type: 'offramp',
    })
    expect(created.status, created.text).toBe(200)
    const id = created.body.id
    const exchange = await kit.get(`/v3/exchanges/${id}`)
    const provider = providerAccountOf('moonpay').ethAddress
    expect(exchange.body).toMatchObject({
      id,
      status: 'created',
      provider: 'moonpay',
      data: { provider_wallet_address: provider.toLowerCase() },
    })
    const providerBefore = await ethBalance(provider)
    const signable = await kit.post(
      `/v2/exchanges/${id}/signable-transfer-details`,
      {
        sender: player.ethAddress,
        token: eth,
        amount: (oneEth / 2n).toString(),
        receiver: provider,
      },
    )
    expect(signable.status, signable.text).toBe(200)
    const d = signable.body
    const transfer = await kit.post(
      `/v2/exchanges/${id}/transfers`,
      {
        sender_stark_key: d.sender_stark_key,
        sender_vault_id: d.sender_vault_id,
        receiver_stark_key: d.receiver_stark_key,
        receiver_vault_id: d.receiver_vault_id,
        asset_id: d.asset_id,
        amount: d.amount,
        nonce: d.nonce,
        expiration_timestamp: d.expiration_timestamp,
        stark_signature: starkSign(d.payload_hash, player.starkPrivateKey),
      },
      player.accessToken,
    )
    expect(transfer.status, transfer.text).toBe(200)
    expect(await ethBalance(player.ethAddress)).toBe(oneEth / 2n)
    expect(await ethBalance(provider)).toBe(providerBefore + oneEth / 2n)
    const done = await kit.get(
      `/v3/exchanges?wallet_address=${player.ethAddress}`,
    )
    expect(done.body.result).toMatchObject([
      {
        id,
        status: 'completed',
        data: { transfer_id: String(transfer.body.transfer_id) },
      },
    ])
  })
})

describe('signed wallet headers', () => {
  let alice: Player
  let bob: Player
  beforeAll(async () => {
    alice = await kit.registered()
    bob = await kit.registered()
    await kit.mint({
      user: alice.ethAddress,
      token: eth,
      quantity: oneEth.toString(),
    })
  })

  /** A create with `headers` and no bearer token. */
  const create = (
    path: string,
    body: unknown,
    headers: Record<string, string>,
  ) => kit.request('POST', path, { body, headers })

  test('behavior: a v1 transfer created with the wallet headers alone moves its amount', async () => {
    const { signable, body } = await signedTransfer(
      alice,
      bob,
      eth,
      '1000000000',
    )
    kit.approve(alice.ethAddress, signable.payload_hash)
    const before = await ethBalance(bob.ethAddress)
    const created = await create(
      '/v1/transfers',
      body,
      await kit.walletHeaders(alice, signable.signable_message),
    )
    expect(created.status, created.text).toBe(200)
    expect(created.body).toMatchObject({ status: 'success' })
    expect(await ethBalance(bob.ethAddress)).toBe(before + 1_000_000_000n)
  })

  test('error: a wrong address, a signature of another message or by another key is 401 and moves nothing', async () => {
    const { signable, body } = await signedTransfer(
      alice,
      bob,
      eth,
      '1000000000',
    )
    kit.approve(alice.ethAddress, signable.payload_hash)
    const message = signable.signable_message
    const before = [
      await ethBalance(alice.ethAddress),
      await ethBalance(bob.ethAddress),
    ]
    const mismatched = await create('/v1/transfers', body, {
      ...(await kit.walletHeaders(bob, message)),
    })
    expect(mismatched.status).toBe(401)
    expect(mismatched.body).toEqual({
      code: 'UNAUTHORISED_REQUEST',
      message: `x-imx-eth-address ${bob.ethAddress} is not ${alice.ethAddress}, the Ethereum address of Stark key ${alice.starkKey}.`,
      details: null,
    })
    const refusal = `x-imx-eth-signature does not sign the signable message of payload hash ${signable.payload_hash} by ${alice.ethAddress}.`
    const otherMessage = await create(
      '/v1/transfers',
      body,
      await kit.walletHeaders(alice, `${message} `),
    )
    expect(otherMessage.status).toBe(401)
    expect(otherMessage.body.message).toBe(refusal)
    const otherKey = await create('/v1/transfers', body, {
      'x-imx-eth-address': alice.ethAddress,
      'x-imx-eth-signature': await kit.ethSign(bob, message),
    })
    expect(otherKey.status).toBe(401)
    expect(otherKey.body.message).toBe(refusal)
    // With a valid bearer token too, the headers must still verify.
    const both = await kit.request('POST', '/v1/transfers', {
      body,
      token: alice.accessToken,
      headers: {
        'x-imx-eth-address': alice.ethAddress,
        'x-imx-eth-signature': await kit.ethSign(bob, message),
      },
    })
    expect(both.status).toBe(401)
    expect(both.body.message).toBe(refusal)
    expect([
      await ethBalance(alice.ethAddress),
      await ethBalance(bob.ethAddress),
    ]).toEqual(before)
    // Nothing was spent: the right headers still create it.
    const created = await create(
      '/v1/transfers',
      body,
      await kit.walletHeaders(alice, message),
    )
    expect(created.status, created.text).toBe(200)
  })

  test('error: the guardian must approve a create signed with the wallet headers', async () => {
    const { signable, body } = await signedTransfer(
      alice,
      bob,
      eth,
      '1000000000',
    )
    const before = await ethBalance(alice.ethAddress)
    const refused = await create(
      '/v1/transfers',
      body,
      await kit.walletHeaders(alice, signable.signable_message),
    )
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe(
      `The guardian has not approved payload hash ${signable.payload_hash}.`,
    )
    expect(await ethBalance(alice.ethAddress)).toBe(before)
  })

  test('error: no credential, one header without the other, or a malformed one is 401', async () => {
    const { signable, body } = await signedTransfer(
      alice,
      bob,
      eth,
      '1000000000',
    )
    kit.approve(alice.ethAddress, signable.payload_hash)
    const headers = await kit.walletHeaders(alice, signable.signable_message)
    const before = await ethBalance(alice.ethAddress)
    const cases: [Record<string, string>, string][] = [
      [
        {},
        'A bearer token or the signed wallet headers x-imx-eth-address and x-imx-eth-signature are required.',
      ],
      [
        { 'x-imx-eth-address': alice.ethAddress },
        'x-imx-eth-address and x-imx-eth-signature go together: send both or neither.',
      ],
      [
        { 'x-imx-eth-signature': headers['x-imx-eth-signature']! },
        'x-imx-eth-address and x-imx-eth-signature go together: send both or neither.',
      ],
      [
        { ...headers, 'x-imx-eth-address': '0x1' },
        'x-imx-eth-address must be an Ethereum address.',
      ],
      [
        {
          ...headers,
          'x-imx-eth-signature': `${headers['x-imx-eth-signature']!.slice(0, -2)}05`,
        },
        'x-imx-eth-signature must be a 65-byte signature r ‖ s ‖ v in hex (v 00, 01, 1b or 1c).',
      ],
    ]
    for (const path of ['/v1/transfers', '/v2/transfers', '/v3/trades'])
      for (const [sent, message] of cases) {
        const answer = await create(path, body, sent)
        expect(answer.status, `${path} ${answer.text}`).toBe(401)
        expect(answer.body).toEqual({
          code: 'UNAUTHORISED_REQUEST',
          message,
          details: null,
        })
      }
    expect(await ethBalance(alice.ethAddress)).toBe(before)
  })

  test('behavior: a batch transfer v2 created with the wallet headers signs the batch message', async () => {
    for (const id of ['2001', '2002'])
      await kit.mint({ user: alice.ethAddress, token: nft(id), quantity: '1' })
    const signable = await kit.post(
      '/v2/signable-transfer-details',
      {
        sender_ether_key: alice.ethAddress,
        signable_requests: ['2001', '2002'].map((id) => ({
          amount: '1',
          token: nft(id),
          receiver: bob.ethAddress,
        })),
      },
      alice.accessToken,
    )
    expect(signable.status, signable.text).toBe(200)
    type Signable = Record<string, unknown> & { payload_hash: string }
    const responses: Signable[] = signable.body.signable_responses
    const body = {
      sender_stark_key: alice.starkKey,
      // The batch answer's order need not be kept: the first hash is the batch's.
      requests: [...responses].reverse().map((r) => ({
        sender_vault_id: r.sender_vault_id,
        receiver_stark_key: r.receiver_stark_key,
        receiver_vault_id: r.receiver_vault_id,
        asset_id: r.asset_id,
        amount: r.amount,
        nonce: r.nonce,
        expiration_timestamp: r.expiration_timestamp,
        stark_signature: starkSign(r.payload_hash, alice.starkPrivateKey),
      })),
    }
    const first = responses[0]!.payload_hash
    expect(signable.body.signable_message).toContain('Transfer 2 tokens.')
    kit.approve(alice.ethAddress, first)
    const wrong = await create(
      '/v2/transfers',
      body,
      // A one-token batch's message, not this one's.
      await kit.walletHeaders(
        alice,
        signable.body.signable_message.replace('2 tokens', '1 token'),
      ),
    )
    expect(wrong.status).toBe(401)
    expect(wrong.body.message).toBe(
      `x-imx-eth-signature does not sign the signable message of payload hash ${first} by ${alice.ethAddress}.`,
    )
    const created = await create(
      '/v2/transfers',
      body,
      await kit.walletHeaders(alice, signable.body.signable_message),
    )
    expect(created.status, created.text).toBe(200)
    expect(created.body.transfer_ids).toHaveLength(2)
    const bobs = bob.ethAddress.toLowerCase()
    for (const id of ['2001', '2002'])
      expect((await kit.get(`/v1/assets/${collection}/${id}`)).body.user).toBe(
        bobs,
      )
  })

  test('behavior: an exchange transfer created with the wallet headers completes the exchange', async () => {
    const created = await kit.post('/v3/exchanges', {
      wallet_address: alice.ethAddress,
      provider: 'layerswap',
      type: 'offramp',
    })
    const id = created.body.id
    const provider = providerAccountOf('layerswap').ethAddress
    const signable = await kit.post(
      `/v2/exchanges/${id}/signable-transfer-details`,
      {
        sender: alice.ethAddress,
        token: eth,
        amount: '100000000',
        receiver: provider,
      },
    )
    expect(signable.status, signable.text).toBe(200)
    const d = signable.body
    const body = {
      sender_stark_key: d.sender_stark_key,
      sender_vault_id: d.sender_vault_id,
      receiver_stark_key: d.receiver_stark_key,
      receiver_vault_id: d.receiver_vault_id,
      asset_id: d.asset_id,
      amount: d.amount,
      nonce: d.nonce,
      expiration_timestamp: d.expiration_timestamp,
      stark_signature: starkSign(d.payload_hash, alice.starkPrivateKey),
    }
    const before = await ethBalance(provider)
    const forged = await create(`/v2/exchanges/${id}/transfers`, body, {
      'x-imx-eth-address': alice.ethAddress,
      'x-imx-eth-signature': await kit.ethSign(bob, d.signable_message),
    })
    expect(forged.status).toBe(401)
    expect(await ethBalance(provider)).toBe(before)
    const transfer = await create(
      `/v2/exchanges/${id}/transfers`,
      body,
      await kit.walletHeaders(alice, d.signable_message),
    )
    expect(transfer.status, transfer.text).toBe(200)
    expect(await ethBalance(provider)).toBe(before + 100_000_000n)
    expect((await kit.get(`/v3/exchanges/${id}`)).body.status).toBe('completed')
  })

  test("error: a provider's receiving account cannot send with the wallet headers, though its keys are public", async () => {
    const moonpay = providerAccountOf('moonpay')
    const seed = 'embedded-wallets emulator exchange provider moonpay'
    const ethKey = keccak256(toBytes(`${seed} eth`))
    const starkKey = `0x${(BigInt(keccak256(toBytes(`${seed} stark`))) % starkOrder).toString(16).padStart(64, '0')}`
    await kit.mint({
      user: moonpay.ethAddress,
      token: eth,
      quantity: '100000000',
    })
    // Anyone may open an exchange for any wallet, the provider's included.
    const created = await kit.post('/v3/exchanges', {
      wallet_address: moonpay.ethAddress,
      provider: 'layerswap',
      type: 'offramp',
    })
    const id = created.body.id
    const signable = await kit.post(
      `/v2/exchanges/${id}/signable-transfer-details`,
      {
        sender: moonpay.ethAddress,
        token: eth,
        amount: '100000000',
        receiver: providerAccountOf('layerswap').ethAddress,
      },
    )
    expect(signable.status, signable.text).toBe(200)
    const d = signable.body
    const signature = await privateKeyToAccount(ethKey).signMessage({
      message: d.signable_message,
    })
    const before = await ethBalance(moonpay.ethAddress)
    const answer = await create(
      `/v2/exchanges/${id}/transfers`,
      {
        sender_stark_key: d.sender_stark_key,
        sender_vault_id: d.sender_vault_id,
        receiver_stark_key: d.receiver_stark_key,
        receiver_vault_id: d.receiver_vault_id,
        asset_id: d.asset_id,
        amount: d.amount,
        nonce: d.nonce,
        expiration_timestamp: d.expiration_timestamp,
        stark_signature: starkSign(d.payload_hash, starkKey),
      },
      {
        'x-imx-eth-address': moonpay.ethAddress,
        'x-imx-eth-signature': signature,
      },
    )
    expect(answer.status).toBe(403)
    expect(answer.body.message).toBe(
      `Stark key ${moonpay.starkKey} is an exchange provider's receiving account: it sends nothing.`,
    )
    expect(await ethBalance(moonpay.ethAddress)).toBe(before)
  })
})

describe('hostile input', () => {
  test('error: an unknown route is 404 in the error shape', async () => {
    const answer = await kit.get('/v9/nothing')
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: 'No route GET /v9/nothing.',
      details: null,
    })
  })

  test('error: bad JSON, huge numbers, bad hex and unknown vaults are typed 400s', async () => {
    const player = await kit.registered()
    const bodies: unknown[] = [
      'not json',
      [],
      { amount: '1e999' },
      {
        sender_stark_key: player.starkKey,
        sender_vault_id: 2 ** 40,
        receiver_vault_id: 1,
        receiver_stark_key: '0xzz',
        asset_id: '0x1',
        amount: '9'.repeat(80),
        nonce: -1,
        expiration_timestamp: 1,
        stark_signature: '0x12',
      },
      {
        sender_stark_key: player.starkKey,
        sender_vault_id: 999_999,
        receiver_vault_id: 999_998,
        receiver_stark_key: player.starkKey,
        asset_id: ethId,
        amount: '1',
        nonce: 1,
        expiration_timestamp: 4_000_000,
        stark_signature: `0x${'1'.repeat(128)}`,
      },
    ]
    for (const path of [
      '/v1/transfers',
      '/v2/transfers',
      '/v1/signable-transfer-details',
      '/v2/signable-transfer-details',
    ])
      for (const body of bodies) {
        const answer = await kit.post(path, body, player.accessToken)
        expect(answer.status, `${path} ${answer.text}`).toBe(400)
        expect(answer.body.code).toBe('VALIDATION_ERROR')
      }
    for (const query of [
      'page_size=0',
      'cursor=%%%',
      'min_timestamp=x',
      'metadata=x',
      'order_by=x',
      'user=0x1',
    ])
      expect((await kit.get(`/v1/transfers?${query}`)).status).toBe(400)
    expect((await kit.get('/v1/transfers/abc')).status).toBe(404)
    expect((await kit.get('/v1/assets/0x1/1')).status).toBe(400)
    expect((await kit.get(`/v2/balances/not-an-address`)).status).toBe(400)
  })

  test('behavior: CORS lets any page call the API with the SDK headers and DELETE', async () => {
    const answer = await fetch(`${kit.url}/v1/transfers`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://game.example',
        'access-control-request-method': 'DELETE',
        'access-control-request-headers':
          'x-sdk-version,x-imx-eth-signature,authorization',
      },
    })
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    expect(answer.headers.get('access-control-allow-methods')).toContain(
      'DELETE',
    )
    expect(
      answer.headers.get('access-control-allow-headers')?.toLowerCase(),
    ).toContain('x-imx-eth-signature')
  })
})
