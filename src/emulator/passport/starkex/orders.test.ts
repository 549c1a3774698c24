import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { starkExDigest } from '../../guardian.js'
import { ethQuantum } from './ledger.js'
import { feeEscrowOwner } from './market.js'
import { cancelHash } from './orders.js'
import {
  assetId,
  assetIdText,
  limitOrderHash,
  payloadHashText,
} from './stark.js'
import {
  type Answer,
  type Player,
  starkSign,
  startStarkEx,
  type TestStarkEx,
} from './testkit.js'

const nft = '0xc0113c7100000000000000000000000000000001'
const eth = { type: 'ETH', data: { decimals: 18 } } as const
const tokenOf = (tokenId: string) =>
  ({ type: 'ERC721', data: { token_address: nft, token_id: tokenId } }) as const
const nftAsset = (tokenId: string) =>
  assetId({ type: 'ERC721', tokenAddress: nft, tokenId: BigInt(tokenId) })
const ethAsset = assetId({ type: 'ETH', quantum: ethQuantum })

/** An unregistered fee recipient: its fees go to its escrow vault. */
const outsider = '0x00000000000000000000000000000000000fee01'

let kit: TestStarkEx
let maker: Player
let taker: Player
let royalty: Player

beforeAll(async () => {
  kit = await startStarkEx()
  maker = await kit.registered()
  taker = await kit.registered()
  royalty = await kit.registered()
  for (const tokenId of ['1', '2', '3', '4'])
    expect(
      (
        await kit.mint({
          user: maker.ethAddress,
          token: tokenOf(tokenId),
          quantity: '1',
        })
      ).status,
    ).toBe(200)
  expect(
    (
      await kit.mint({
        user: taker.ethAddress,
        token: eth,
        quantity: (10n ** 18n).toString(),
      })
    ).status,
  ).toBe(200)
})

afterAll(async () => {
  await kit?.stop()
})

/** The quantized balance of a Stark key's (or owner's) vault of an asset. */
function balance(owner: string, asset: bigint): bigint {
  return kit.deps.ledger.vaultOf(owner, asset)?.balance ?? 0n
}

/** Every vault's balance, to show a refusal moved nothing. */
function snapshot(): string {
  const all = []
  for (let id = 1; ; id++) {
    const vault = kit.deps.ledger.vault(id)
    if (!vault) break
    all.push(`${vault.id}:${vault.balance}`)
  }
  return all.join(',')
}

const sellNft = (tokenId: string, extra: Record<string, unknown> = {}) => ({
  user: maker.ethAddress,
  amount_sell: '1',
  token_sell: tokenOf(tokenId),
  amount_buy: (10n ** 17n).toString(),
  token_buy: eth,
  fees: [{ address: royalty.ethAddress, fee_percentage: 2.5 }],
  split_fees: true,
  ...extra,
})

/** The create body of a signable order answer, as the published SDK builds it. */
function createBody(signable: Answer['body'], signer: Player, fees: unknown) {
  return {
    include_fees: true,
    fees,
    stark_signature: starkSign(signable.payload_hash, signer.starkPrivateKey),
    amount_buy: signable.amount_buy,
    amount_sell: signable.amount_sell,
    asset_id_buy: signable.asset_id_buy,
    asset_id_sell: signable.asset_id_sell,
    expiration_timestamp: signable.expiration_timestamp,
    nonce: signable.nonce,
    stark_key: signable.stark_key,
    vault_id_buy: signable.vault_id_buy,
    vault_id_sell: signable.vault_id_sell,
  }
}

/** Creates an approved order of the maker; its id and signable. */
async function listed(tokenId: string, extra: Record<string, unknown> = {}) {
  const request = sellNft(tokenId, extra)
  const signable = await kit.post(
    '/v3/signable-order-details',
    request,
    maker.accessToken,
  )
  expect(signable.status, signable.text).toBe(200)
  kit.approve(maker.ethAddress, signable.body.payload_hash)
  const created = await kit.post(
    '/v3/orders',
    createBody(signable.body, maker, request.fees),
    maker.accessToken,
  )
  expect(created.status, created.text).toBe(200)
  return { id: created.body.order_id as number, signable: signable.body }
}

const buyFees = [{ address: outsider, fee_percentage: 1 }]

/** A signable trade of the taker against `orderId`. */
async function signableTrade(orderId: number, player = taker) {
  return kit.post(
    '/v3/signable-trade-details',
    { order_id: orderId, user: player.ethAddress, fees: buyFees },
    player.accessToken,
  )
}

function tradeBody(orderId: number, signable: Answer['body'], player = taker) {
  return {
    ...createBody(signable, player, buyFees),
    order_id: orderId,
    fee_info: signable.fee_info,
  }
}

describe('orders', () => {
  test('behavior: a signable order answers the limit order with fees it hashes, and registers it with the guardian', async () => {
    const answer = await kit.post(
      '/v3/signable-order-details',
      sellNft('1'),
      maker.accessToken,
    )
    expect(answer.status, answer.text).toBe(200)
    const body = answer.body
    const makerEthVault = kit.deps.ledger.vaultOf(maker.starkKey, ethAsset)!
    const makerNftVault = kit.deps.ledger.vaultOf(
      maker.starkKey,
      nftAsset('1'),
    )!
    expect(body).toMatchObject({
      amount_sell: '1',
      amount_buy: '1000000000',
      asset_id_sell: assetIdText(nftAsset('1')),
      asset_id_buy: assetIdText(ethAsset),
      stark_key: maker.starkKey,
      vault_id_sell: makerNftVault.id,
      vault_id_buy: makerEthVault.id,
      // 2.5 % of 10^9 quantized units, paid from the ETH the maker receives.
      fee_info: {
        asset_id: assetIdText(ethAsset),
        fee_limit: '25000000',
        source_vault_id: makerEthVault.id,
      },
    })
    expect(body.payload_hash).toBe(
      payloadHashText(
        limitOrderHash({
          vaultSell: BigInt(body.vault_id_sell),
          vaultBuy: BigInt(body.vault_id_buy),
          amountSell: 1n,
          amountBuy: 1_000_000_000n,
          assetSell: nftAsset('1'),
          assetBuy: ethAsset,
          nonce: BigInt(body.nonce),
          expiration: BigInt(body.expiration_timestamp),
          feeAsset: ethAsset,
          feeVaultId: BigInt(makerEthVault.id),
          feeLimit: 25_000_000n,
        }),
      ),
    )
    expect(kit.guardian.starkExTransaction(body.payload_hash)).toMatchObject({
      type: 'order',
      wallet: maker.ethAddress,
      details: {
        user: maker.ethAddress,
        sell: {
          type: 'ERC721',
          asset_id: assetIdText(nftAsset('1')),
          token_address: nft,
          token_id: '1',
          amount: '1',
        },
        buy: {
          type: 'ETH',
          asset_id: assetIdText(ethAsset),
          amount: '100000000000000000',
        },
        fees: [
          {
            address: royalty.ethAddress,
            fee_percentage: 2.5,
            amount: '2500000000000000',
          },
        ],
        expiration_timestamp: body.expiration_timestamp,
      },
    })
  })

  test('error: an order for another user is 403, an unregistered player 400', async () => {
    const other = await kit.post(
      '/v3/signable-order-details',
      sellNft('1'),
      taker.accessToken,
    )
    expect(other.status).toBe(403)
    expect(other.body.code).toBe('AUTHENTICATION_ERROR')
    const stranger = await kit.player()
    const unregistered = await kit.post(
      '/v3/signable-order-details',
      { ...sellNft('1'), user: stranger.ethAddress },
      stranger.accessToken,
    )
    expect(unregistered.status).toBe(400)
    expect(unregistered.body.code).toBe('VALIDATION_ERROR')
    const anonymous = await kit.post('/v3/signable-order-details', sellNft('1'))
    expect(anonymous.status).toBe(401)
  })

  test('error: fees of 100 % or more, or with a bad recipient, are refused', async () => {
    for (const fees of [
      [{ address: outsider, fee_percentage: 100 }],
      [
        { address: outsider, fee_percentage: 60 },
        { address: outsider, fee_percentage: 40 },
      ],
      [{ address: 'nobody', fee_percentage: 1 }],
      [{ address: outsider, fee_percentage: 0 }],
      [{ address: outsider, fee_percentage: 0.00001 }],
    ]) {
      const answer = await kit.post(
        '/v3/signable-order-details',
        sellNft('1', { fees }),
        maker.accessToken,
      )
      expect(answer.status, JSON.stringify(fees)).toBe(400)
    }
  })

  test('error: an order of what the maker does not hold is refused', async () => {
    const answer = await kit.post(
      '/v3/signable-order-details',
      {
        ...sellNft('1'),
        user: taker.ethAddress,
      },
      taker.accessToken,
    )
    expect(answer.status).toBe(400)
    expect(answer.body.message).toBe(
      `${taker.ethAddress} holds 0 base units of the token it sells, less than the 1 the order needs.`,
    )
  })

  test('behavior: an order is created only once the guardian approved it, then cancelled, and created again', async () => {
    const request = sellNft('1')
    const signable = await kit.post(
      '/v3/signable-order-details',
      request,
      maker.accessToken,
    )
    const body = createBody(signable.body, maker, request.fees)
    const unguarded = await kit.post('/v3/orders', body, maker.accessToken)
    expect(unguarded.status).toBe(403)
    expect(unguarded.body).toMatchObject({
      code: 'AUTHENTICATION_ERROR',
      message: `The guardian has not approved payload hash ${signable.body.payload_hash}.`,
    })
    kit.approve(maker.ethAddress, signable.body.payload_hash)
    const before = kit.clock.now
    const created = await kit.post('/v3/orders', body, maker.accessToken)
    expect(created.status, created.text).toBe(200)
    expect(created.body).toEqual({
      order_id: expect.any(Number),
      status: 'active',
      time: Math.floor(before / 1000),
    })
    const id = created.body.order_id as number

    // A replayed create: its nonce is spent.
    const replay = await kit.post('/v3/orders', body, maker.accessToken)
    expect(replay.status).toBe(400)
    expect(replay.body.message).toBe(
      `Nonce ${signable.body.nonce} of Stark key ${maker.starkKey} was used already.`,
    )

    const read = await kit.get(`/v3/orders/${id}?include_fees=true`)
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({
      order_id: id,
      status: 'active',
      user: maker.ethAddress.toLowerCase(),
      amount_sold: '0',
      sell: {
        type: 'ERC721',
        data: { token_address: nft, token_id: '1', quantity: '1' },
      },
      buy: {
        type: 'ETH',
        data: {
          quantity: '100000000000000000',
          quantity_with_fees: '97500000000000000',
        },
      },
      fees: [
        {
          address: royalty.ethAddress.toLowerCase(),
          amount: '2500000000000000',
          type: 'maker',
          token: { type: 'ETH', data: { decimals: 18 } },
        },
      ],
    })

    // Cancel: the hash binds the order id and the order's own hash.
    const signableCancel = await kit.post(
      '/v3/signable-cancel-order-details',
      { order_id: id },
      maker.accessToken,
    )
    expect(signableCancel.status).toBe(200)
    const cancel = payloadHashText(cancelHash(id, signable.body.payload_hash))
    expect(signableCancel.body).toMatchObject({
      order_id: id,
      payload_hash: cancel,
    })
    expect(kit.guardian.starkExTransaction(cancel)).toMatchObject({
      type: 'cancelOrder',
      wallet: maker.ethAddress,
    })
    const foreign = await kit.post(
      '/v3/signable-cancel-order-details',
      { order_id: id },
      taker.accessToken,
    )
    expect(foreign.status).toBe(403)
    const del = (signature: string, token = maker.accessToken) =>
      kit.request('DELETE', `/v3/orders/${id}`, {
        body: { order_id: id, stark_signature: signature },
        token,
      })
    const forged = await del(starkSign(cancel, taker.starkPrivateKey))
    expect(forged.status).toBe(400)
    expect(forged.body.message).toBe(
      `The Stark signature does not sign payload_hash ${cancel} for Stark key ${maker.starkKey}.`,
    )
    const signature = starkSign(cancel, maker.starkPrivateKey)
    const unapproved = await del(signature)
    expect(unapproved.status).toBe(403)
    expect((await kit.get(`/v3/orders/${id}`)).body.status).toBe('active')
    kit.approve(maker.ethAddress, cancel)
    expect(
      kit.guardian.isAllowed({
        chainId: 0,
        wallet: maker.ethAddress,
        digest: starkExDigest(cancel),
      }),
    ).toBe(true)
    const cancelled = await del(signature)
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.body).toEqual({ order_id: id, status: 'cancelled' })
    expect((await kit.get(`/v3/orders/${id}`)).body.status).toBe('cancelled')
    const again = await del(signature)
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('CONFLICT_ERROR')

    // Listed again: a new signable, a new nonce, a new order.
    const relisted = await listed('1')
    expect(relisted.id).not.toBe(id)
    expect(relisted.signable.nonce).not.toBe(signable.body.nonce)
    expect((await kit.get(`/v3/orders/${relisted.id}`)).body.status).toBe(
      'active',
    )
    // A second active order of the same token is a conflict.
    const twice = await kit.post(
      '/v3/signable-order-details',
      sellNft('1'),
      maker.accessToken,
    )
    expect(twice.status).toBe(409)
  })

  test('error: a forged signature, changed fees or an unknown hash are refused and create nothing', async () => {
    const request = sellNft('2')
    const signable = await kit.post(
      '/v3/signable-order-details',
      request,
      maker.accessToken,
    )
    kit.approve(maker.ethAddress, signable.body.payload_hash)
    const count = (await kit.get(`/v3/orders?user=${maker.ethAddress}`)).body
      .result.length
    const body = createBody(signable.body, maker, request.fees)
    const forged = await kit.post(
      '/v3/orders',
      {
        ...body,
        stark_signature: starkSign(
          signable.body.payload_hash,
          taker.starkPrivateKey,
        ),
      },
      maker.accessToken,
    )
    expect(forged.status).toBe(400)
    expect(forged.body.message).toBe(
      `The Stark signature does not sign payload_hash ${signable.body.payload_hash} for Stark key ${maker.starkKey}.`,
    )
    // Same total, another recipient: the hash holds, the recipients differ.
    const redirected = await kit.post(
      '/v3/orders',
      { ...body, fees: [{ address: outsider, fee_percentage: 2.5 }] },
      maker.accessToken,
    )
    expect(redirected.status).toBe(400)
    expect(redirected.body.message).toBe(
      `The fees differ from those issued with payload_hash ${signable.body.payload_hash}.`,
    )
    // Other amounts: another hash, signed by no one.
    const changed = await kit.post(
      '/v3/orders',
      { ...body, amount_buy: '1' },
      maker.accessToken,
    )
    expect(changed.status).toBe(400)
    const foreign = await kit.post('/v3/orders', body, taker.accessToken)
    expect(foreign.status).toBe(403)
    expect(
      (await kit.get(`/v3/orders?user=${maker.ethAddress}`)).body.result.length,
    ).toBe(count)
  })

  test('error: an order created after its own expiration is refused', async () => {
    const request = sellNft('3', {
      expiration_timestamp: Math.floor(kit.clock.now / 1000) + 2 * 3600,
    })
    const signable = await kit.post(
      '/v3/signable-order-details',
      request,
      maker.accessToken,
    )
    expect(signable.status).toBe(200)
    kit.approve(maker.ethAddress, signable.body.payload_hash)
    const now = kit.clock.now
    kit.clock.now = now + 3 * 3_600_000
    try {
      const late = await kit.post(
        '/v3/orders',
        createBody(signable.body, maker, request.fees),
        maker.accessToken,
      )
      expect(late.status).toBe(400)
      expect(late.body.message).toBe(
        `The order with payload_hash ${signable.body.payload_hash} has expired.`,
      )
    } finally {
      kit.clock.now = now
    }
  })
})

describe('trades', () => {
  test('behavior: a trade fills the order: the NFT to the taker, the ETH to the maker less its fee, each fee to its recipient', async () => {
    const order = await listed('2')
    const signable = await signableTrade(order.id)
    expect(signable.status, signable.text).toBe(200)
    const takerEth = kit.deps.ledger.vaultOf(taker.starkKey, ethAsset)!
    expect(signable.body).toMatchObject({
      amount_sell: '1000000000',
      amount_buy: '1',
      asset_id_sell: assetIdText(ethAsset),
      asset_id_buy: assetIdText(nftAsset('2')),
      stark_key: taker.starkKey,
      vault_id_sell: takerEth.id,
      // 1 % of 10^9 quantized units, paid on top of the price.
      fee_info: {
        asset_id: assetIdText(ethAsset),
        fee_limit: '10000000',
        source_vault_id: takerEth.id,
      },
    })
    expect(
      kit.guardian.starkExTransaction(signable.body.payload_hash),
    ).toMatchObject({
      type: 'trade',
      wallet: taker.ethAddress,
      details: { order_id: order.id },
    })
    // A second signable for the same order, to try a second fill later.
    const second = await signableTrade(order.id)
    kit.approve(taker.ethAddress, second.body.payload_hash)

    const before = {
      makerNft: balance(maker.starkKey, nftAsset('2')),
      takerNft: balance(taker.starkKey, nftAsset('2')),
      makerEth: balance(maker.starkKey, ethAsset),
      takerEth: balance(taker.starkKey, ethAsset),
      royalty: balance(royalty.starkKey, ethAsset),
      escrow: balance(feeEscrowOwner(outsider as `0x${string}`), ethAsset),
    }
    const body = tradeBody(order.id, signable.body)

    const unguarded = await kit.post('/v3/trades', body, taker.accessToken)
    expect(unguarded.status).toBe(403)
    const forged = await kit.post(
      '/v3/trades',
      {
        ...body,
        stark_signature: starkSign(
          signable.body.payload_hash,
          maker.starkPrivateKey,
        ),
      },
      taker.accessToken,
    )
    expect(forged.status).toBe(400)
    kit.approve(taker.ethAddress, signable.body.payload_hash)
    const wrongOrder = await kit.post(
      '/v3/trades',
      { ...body, order_id: order.id + 1000 },
      taker.accessToken,
    )
    expect(wrongOrder.status).toBe(400)
    const wrongFeeInfo = await kit.post(
      '/v3/trades',
      { ...body, fee_info: { ...body.fee_info, fee_limit: '0' } },
      taker.accessToken,
    )
    expect(wrongFeeInfo.status).toBe(400)
    expect(balance(taker.starkKey, ethAsset)).toBe(before.takerEth)

    const trade = await kit.post('/v3/trades', body, taker.accessToken)
    expect(trade.status, trade.text).toBe(200)
    expect(trade.body).toEqual({ trade_id: expect.any(Number), status: '' })

    expect(balance(maker.starkKey, nftAsset('2'))).toBe(before.makerNft - 1n)
    expect(balance(taker.starkKey, nftAsset('2'))).toBe(before.takerNft + 1n)
    expect(balance(taker.starkKey, ethAsset)).toBe(
      before.takerEth - 1_000_000_000n - 10_000_000n,
    )
    expect(balance(maker.starkKey, ethAsset)).toBe(
      before.makerEth + 1_000_000_000n - 25_000_000n,
    )
    expect(balance(royalty.starkKey, ethAsset)).toBe(
      before.royalty + 25_000_000n,
    )
    expect(balance(feeEscrowOwner(outsider as `0x${string}`), ethAsset)).toBe(
      before.escrow + 10_000_000n,
    )

    const filled = await kit.get(`/v3/orders/${order.id}`)
    expect(filled.body).toMatchObject({ status: 'filled', amount_sold: '1' })
    const read = await kit.get(`/v3/trades/${trade.body.trade_id}`)
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({
      transaction_id: trade.body.trade_id,
      status: 'success',
      a: {
        order_id: order.id,
        sold: '1',
        token_type: 'ERC721',
        token_address: nft,
        token_id: '2',
      },
      b: { sold: '100000000000000000', token_type: 'ETH' },
    })
    const takerOrder = await kit.get(`/v3/orders/${read.body.b.order_id}`)
    expect(takerOrder.body).toMatchObject({
      status: 'filled',
      user: taker.ethAddress.toLowerCase(),
      maker_taker_type: 'taker',
    })

    // Replayed: the nonce is spent.
    const replay = await kit.post('/v3/trades', body, taker.accessToken)
    expect(replay.status).toBe(400)
    expect(replay.body.message).toBe(
      `Nonce ${signable.body.nonce} of Stark key ${taker.starkKey} was used already.`,
    )
    // A second fill of the filled order: refused, nothing moves.
    const moved = snapshot()
    const secondFill = await kit.post(
      '/v3/trades',
      tradeBody(order.id, second.body),
      taker.accessToken,
    )
    expect(secondFill.status).toBe(409)
    expect(secondFill.body).toMatchObject({
      code: 'CONFLICT_ERROR',
      message: `Order ${order.id} is filled: only an active order can be filled.`,
    })
    expect(snapshot()).toBe(moved)
    expect((await signableTrade(order.id)).status).toBe(409)
  })

  test('error: an expired order cannot be filled', async () => {
    const order = await listed('3', {
      expiration_timestamp: Math.floor(kit.clock.now / 1000) + 2 * 3600,
    })
    const signable = await signableTrade(order.id)
    expect(signable.status).toBe(200)
    kit.approve(taker.ethAddress, signable.body.payload_hash)
    const now = kit.clock.now
    kit.clock.now = now + 3 * 3_600_000
    try {
      expect((await kit.get(`/v3/orders/${order.id}`)).body.status).toBe(
        'expired',
      )
      const moved = snapshot()
      const trade = await kit.post(
        '/v3/trades',
        tradeBody(order.id, signable.body),
        taker.accessToken,
      )
      expect(trade.status).toBe(409)
      expect(trade.body.message).toBe(
        `Order ${order.id} is expired: only an active order can be filled.`,
      )
      expect(snapshot()).toBe(moved)
    } finally {
      kit.clock.now = now
    }
  })

  test('error: a maker cannot fill its own order', async () => {
    const { body } = await kit.get(
      `/v3/orders?user=${maker.ethAddress}&status=active`,
    )
    const id = body.result[0].order_id
    const own = await signableTrade(id, maker)
    expect(own.status).toBe(400)
  })
})

describe('lists', () => {
  test('behavior: the order list filters by user, status, tokens and quantities', async () => {
    const ids = async (query: string) =>
      (await kit.get(`/v3/orders?${query}`)).body.result.map(
        (o: { order_id: number }) => o.order_id,
      )
    const all = (await kit.get('/v3/orders?page_size=200&direction=asc')).body
      .result as { order_id: number; status: string; user: string }[]
    const mine = all.filter((o) => o.user === maker.ethAddress.toLowerCase())
    expect(await ids(`user=${maker.ethAddress}&direction=asc`)).toEqual(
      mine.map((o) => o.order_id),
    )
    expect(new Set(all.map((o) => o.status))).toEqual(
      new Set(
        ['cancelled', 'active', 'filled', 'expired'].filter((s) =>
          all.some((o) => o.status === s),
        ),
      ),
    )
    for (const status of ['active', 'filled', 'cancelled', 'expired'])
      expect(await ids(`status=${status}&direction=asc`)).toEqual(
        all.filter((o) => o.status === status).map((o) => o.order_id),
      )
    expect(await ids('status=cancelled')).toHaveLength(1)
    const filled = all.filter((o) => o.status === 'filled')
    expect(filled).toHaveLength(2)
    expect(
      await ids(`sell_token_type=ERC721&sell_token_id=2&direction=asc`),
    ).toEqual([filled[0]!.order_id])
    expect(await ids(`buy_token_type=ERC721&status=filled`)).toEqual([
      filled[1]!.order_id,
    ])
    expect(
      await ids(`sell_token_address=${nft}&sell_token_id=1&status=active`),
    ).toHaveLength(1)
    expect(
      await ids('buy_token_type=ETH&buy_min_quantity=100000000000000001'),
    ).toEqual([])
    expect(
      (await ids('buy_token_type=ETH&buy_max_quantity=100000000000000000'))
        .length,
    ).toBe(all.filter((o) => o.user === maker.ethAddress.toLowerCase()).length)
    const page = await kit.get('/v3/orders?page_size=1&direction=asc')
    expect(
      page.body.result.map((o: { order_id: number }) => o.order_id),
    ).toEqual([all[0]!.order_id])
    expect(page.body.remaining).toBe(1)
    const next = await kit.get(
      `/v3/orders?page_size=1&direction=asc&cursor=${page.body.cursor}`,
    )
    expect(next.body.result[0].order_id).toBe(all[1]!.order_id)
    for (const query of [
      'sell_metadata=%7B%7D',
      'buy_token_name=ETH',
      'status=open',
      'order_by=price',
      'user=someone',
      'min_timestamp=yesterday',
    ]) {
      const refused = await kit.get(`/v3/orders?${query}`)
      expect(refused.status, query).toBe(400)
    }
    const aux = await kit.get(
      `/v3/orders/${filled[0]!.order_id}?auxiliary_fee_percentages=1&auxiliary_fee_recipients=${outsider}`,
    )
    expect(aux.body.taker_fees).toMatchObject({
      quantity_with_fees: '101000000000000000',
      fees: [{ address: outsider, amount: '1000000000000000', type: 'taker' }],
    })
  })

  test("behavior: the trade list filters by the parties' tokens and time", async () => {
    const trades = (await kit.get('/v3/trades')).body.result
    expect(trades).toHaveLength(1)
    const id = trades[0].transaction_id
    const ids = async (query: string) =>
      (await kit.get(`/v3/trades?${query}`)).body.result.map(
        (t: { transaction_id: number }) => t.transaction_id,
      )
    expect(await ids('party_a_token_type=ERC721')).toEqual([id])
    expect(await ids(`party_a_token_address=${nft}`)).toEqual([id])
    expect(await ids('party_b_token_type=ETH')).toEqual([id])
    expect(await ids('party_a_token_type=ETH')).toEqual([])
    expect(await ids('party_b_token_id=2')).toEqual([])
    expect(
      await ids(
        `min_timestamp=${new Date(kit.clock.now + 60_000).toISOString()}`,
      ),
    ).toEqual([])
    expect(
      await ids(
        `max_timestamp=${new Date(kit.clock.now + 60_000).toISOString()}`,
      ),
    ).toEqual([id])
    expect((await kit.get('/v3/trades?order_by=price')).status).toBe(400)
    expect((await kit.get('/v3/trades/999999')).status).toBe(404)
  })
})

describe('buy orders', () => {
  test('behavior: a buy order pays its price and fee from its ETH vault; the holder who fills it receives the price less its own fee', async () => {
    const request = {
      user: taker.ethAddress,
      amount_sell: (5n * 10n ** 16n).toString(),
      token_sell: eth,
      amount_buy: '1',
      token_buy: tokenOf('4'),
      fees: [{ address: outsider, fee_percentage: 2 }],
    }
    const signable = await kit.post(
      '/v3/signable-order-details',
      request,
      taker.accessToken,
    )
    expect(signable.status, signable.text).toBe(200)
    const takerEth = kit.deps.ledger.vaultOf(taker.starkKey, ethAsset)!
    expect(signable.body).toMatchObject({
      amount_sell: '500000000',
      amount_buy: '1',
      vault_id_sell: takerEth.id,
      fee_info: {
        asset_id: assetIdText(ethAsset),
        fee_limit: '10000000',
        source_vault_id: takerEth.id,
      },
    })
    kit.approve(taker.ethAddress, signable.body.payload_hash)
    const created = await kit.post(
      '/v3/orders',
      createBody(signable.body, taker, request.fees),
      taker.accessToken,
    )
    expect(created.status, created.text).toBe(200)
    const id = created.body.order_id as number
    expect((await kit.get(`/v3/orders/${id}`)).body).toMatchObject({
      status: 'active',
      sell: { type: 'ETH', data: { quantity_with_fees: '51000000000000000' } },
    })

    const holderFees = [{ address: royalty.ethAddress, fee_percentage: 0.5 }]
    const fill = await kit.post(
      '/v3/signable-trade-details',
      { order_id: id, user: maker.ethAddress, fees: holderFees },
      maker.accessToken,
    )
    expect(fill.status, fill.text).toBe(200)
    const makerEth = kit.deps.ledger.vaultOf(maker.starkKey, ethAsset)!
    expect(fill.body).toMatchObject({
      amount_sell: '1',
      amount_buy: '500000000',
      asset_id_sell: assetIdText(nftAsset('4')),
      vault_id_buy: makerEth.id,
      fee_info: { fee_limit: '2500000', source_vault_id: makerEth.id },
    })
    kit.approve(maker.ethAddress, fill.body.payload_hash)
    const escrow = feeEscrowOwner(outsider as `0x${string}`)
    const before = {
      buyer: balance(taker.starkKey, ethAsset),
      holder: balance(maker.starkKey, ethAsset),
      escrow: balance(escrow, ethAsset),
      royalty: balance(royalty.starkKey, ethAsset),
    }
    const trade = await kit.post(
      '/v3/trades',
      {
        ...createBody(fill.body, maker, holderFees),
        order_id: id,
        fee_info: fill.body.fee_info,
      },
      maker.accessToken,
    )
    expect(trade.status, trade.text).toBe(200)
    expect(balance(taker.starkKey, ethAsset)).toBe(
      before.buyer - 500_000_000n - 10_000_000n,
    )
    expect(balance(maker.starkKey, ethAsset)).toBe(
      before.holder + 500_000_000n - 2_500_000n,
    )
    expect(balance(escrow, ethAsset)).toBe(before.escrow + 10_000_000n)
    expect(balance(royalty.starkKey, ethAsset)).toBe(
      before.royalty + 2_500_000n,
    )
    expect(balance(taker.starkKey, nftAsset('4'))).toBe(1n)
    expect(balance(maker.starkKey, nftAsset('4'))).toBe(0n)
    expect((await kit.get(`/v3/orders/${id}`)).body.status).toBe('filled')
  })

  test('behavior: an order whose maker no longer holds what it sells reads inactive and cannot be filled', async () => {
    // The taker now holds token 2 and lists it; then sends it away.
    const request = {
      ...sellNft('2'),
      user: taker.ethAddress,
      fees: [],
    }
    const signable = await kit.post(
      '/v3/signable-order-details',
      request,
      taker.accessToken,
    )
    expect(signable.status, signable.text).toBe(200)
    kit.approve(taker.ethAddress, signable.body.payload_hash)
    const created = await kit.post(
      '/v3/orders',
      createBody(signable.body, taker, []),
      taker.accessToken,
    )
    expect(created.status, created.text).toBe(200)
    const id = created.body.order_id as number
    const from = kit.deps.ledger.vaultOf(taker.starkKey, nftAsset('2'))!
    const to = kit.deps.ledger.openVault(royalty.starkKey, nftAsset('2'))
    kit.deps.ledger.apply([{ from: from.id, to: to.id, amount: 1n }])
    expect((await kit.get(`/v3/orders/${id}`)).body.status).toBe('inactive')
    expect(
      (await kit.get(`/v3/orders?status=inactive`)).body.result.map(
        (o: { order_id: number }) => o.order_id,
      ),
    ).toEqual([id])
    const fill = await kit.post(
      '/v3/signable-trade-details',
      { order_id: id, user: maker.ethAddress },
      maker.accessToken,
    )
    expect(fill.status).toBe(409)
    expect(fill.body.message).toBe(
      `Order ${id} is inactive: its maker no longer holds what it sells.`,
    )
  })
})

// Last: its order and trade would change the lists' counts above.
describe('fee escrow', () => {
  test('behavior: fees paid to an address before it registers wait in its escrow and are its own once it registers', async () => {
    const newcomer = await kit.player()
    const minted = await kit.mint({
      user: maker.ethAddress,
      token: tokenOf('9'),
      quantity: '1',
    })
    expect(minted.status, minted.text).toBe(200)
    const order = await listed('9', {
      fees: [{ address: newcomer.ethAddress, fee_percentage: 2 }],
    })
    const signable = await signableTrade(order.id)
    expect(signable.status, signable.text).toBe(200)
    kit.approve(taker.ethAddress, signable.body.payload_hash)
    const trade = await kit.post(
      '/v3/trades',
      tradeBody(order.id, signable.body),
      taker.accessToken,
    )
    expect(trade.status, trade.text).toBe(200)
    const escrow = feeEscrowOwner(newcomer.ethAddress)
    // 2 % of the price, 10^9 quantized units.
    expect(balance(escrow, ethAsset)).toBe(20_000_000n)

    const registered = await kit.register(newcomer)
    expect(registered.status, registered.text).toBe(201)
    expect(balance(escrow, ethAsset)).toBe(0n)
    expect(balance(newcomer.starkKey, ethAsset)).toBe(20_000_000n)
  })
})

describe('trades with the signed wallet headers', () => {
  test('behavior: a trade created with the wallet headers alone fills the order; the guardian is still asked', async () => {
    // A token and funds of its own, so that the other tests' state stays as it was.
    for (const [user, token, quantity] of [
      [maker.ethAddress, tokenOf('901'), '1'],
      [taker.ethAddress, eth, (10n ** 17n + 10n ** 15n).toString()],
    ] as const)
      expect((await kit.mint({ user, token, quantity })).status).toBe(200)
    const order = await listed('901')
    const signable = await signableTrade(order.id)
    expect(signable.status, signable.text).toBe(200)
    const body = tradeBody(order.id, signable.body)
    const headers = await kit.walletHeaders(
      taker,
      signable.body.signable_message,
    )
    const moved = snapshot()
    const unguarded = await kit.request('POST', '/v3/trades', {
      body,
      headers,
    })
    expect(unguarded.status).toBe(403)
    expect(unguarded.body.message).toBe(
      `The guardian has not approved payload hash ${signable.body.payload_hash}.`,
    )
    kit.approve(taker.ethAddress, signable.body.payload_hash)
    const refusal = `x-imx-eth-signature does not sign the signable message of payload hash ${signable.body.payload_hash} by ${taker.ethAddress}.`
    for (const wrong of [
      // Another message of the taker's key.
      await kit.walletHeaders(taker, `${signable.body.signable_message}.`),
      // The right message, signed by the maker's key.
      {
        'x-imx-eth-address': taker.ethAddress,
        'x-imx-eth-signature': await kit.ethSign(
          maker,
          signable.body.signable_message,
        ),
      },
    ]) {
      const answer = await kit.request('POST', '/v3/trades', {
        body,
        headers: wrong,
      })
      expect(answer.status).toBe(401)
      expect(answer.body.message).toBe(refusal)
    }
    const otherAddress = await kit.request('POST', '/v3/trades', {
      body,
      headers: await kit.walletHeaders(maker, signable.body.signable_message),
    })
    expect(otherAddress.status).toBe(401)
    expect(otherAddress.body.message).toBe(
      `x-imx-eth-address ${maker.ethAddress} is not ${taker.ethAddress}, the Ethereum address of Stark key ${taker.starkKey}.`,
    )
    expect(snapshot()).toBe(moved)

    const before = balance(taker.starkKey, nftAsset('901'))
    const trade = await kit.request('POST', '/v3/trades', { body, headers })
    expect(trade.status, trade.text).toBe(200)
    expect(trade.body).toEqual({ trade_id: expect.any(Number), status: '' })
    expect(balance(taker.starkKey, nftAsset('901'))).toBe(before + 1n)
    expect((await kit.get(`/v3/orders/${order.id}`)).body.status).toBe('filled')
  })
})
