/**
 * The order, cancel and trade routes driven by the published x-client
 * 2.14.0's generated API client and Stark signer, with exactly the calls
 * the published @imtbl/passport 2.14.0 makes for `createOrder`,
 * `cancelOrder` and `createTrade` (its guardian step aside); then the
 * creates that move assets as the published x-provider's workflows send
 * them, with the signed wallet headers (the published toolkit's `signRaw`
 * of the signable message) and no bearer token.
 */
import * as toolkit from '@imtbl/toolkit'
import * as xClient from '@imtbl/x-client'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { providerAccountOf } from './exchanges.js'
import { ethQuantum } from './ledger.js'
import { assetId } from './stark.js'
import { type Player, startStarkEx, type TestStarkEx } from './testkit.js'

type Headers = { headers: Record<string, string> }
type Data<value> = Promise<{ data: value }>
// biome-ignore lint/suspicious/noExplicitAny: the generated client's answers, read as the SDK reads them.
type Json = any
/** The parts of the published client this test calls (its declarations are not reachable here). */
type Client = {
  transfersApi: {
    getSignableTransferV1(request: unknown, options: Headers): Data<Json>
    createTransferV1(request: unknown): Data<Json>
    getSignableTransfer(request: unknown, options: Headers): Data<Json>
    createTransfer(request: unknown): Data<Json>
  }
  exchangeApi: {
    createExchange(request: unknown): Data<Json>
    getExchangeSignableTransfer(request: unknown): Data<Json>
    createExchangeTransfer(request: unknown): Data<Json>
  }
  ordersApi: {
    getSignableOrder(request: unknown, options: Headers): Data<Json>
    createOrderV3(request: unknown, options: Headers): Data<Json>
    getSignableCancelOrderV3(request: unknown, options: Headers): Data<Json>
    cancelOrderV3(request: unknown, options: Headers): Data<Json>
    getOrderV3(request: unknown): Data<Json>
  }
  tradesApi: {
    getSignableTrade(request: unknown, options: Headers): Data<Json>
    createTradeV3(request: unknown, options?: Headers): Data<Json>
  }
}
/** The published toolkit's EIP-191 signature as the workflows send it (r ‖ s ‖ v, v 00/01). */
const { signRaw } = toolkit as unknown as {
  signRaw(
    message: string,
    signer: { signMessage(message: string): Promise<string> },
  ): Promise<string>
}
const published = xClient as unknown as {
  IMXClient: new (config: unknown) => Client
  ImmutableConfiguration: new (options: { environment: string }) => unknown
  createImmutableXConfiguration(options: Record<string, unknown>): unknown
  createStarkSigner(privateKey: string): {
    signMessage(message: string): Promise<string>
  }
}

/** The published Stark signer of a player's key (it takes the key's hex without `0x`). */
const signerOf = (player: Player) =>
  published.createStarkSigner(player.starkPrivateKey.replace(/^0x/, ''))

const nft = '0xc0113c7100000000000000000000000000000777'
const convert = (token: { type: string; tokenId?: string }) =>
  token.type === 'ERC721'
    ? { type: 'ERC721', data: { token_id: token.tokenId, token_address: nft } }
    : { type: 'ETH', data: { decimals: 18 } }

let kit: TestStarkEx
let client: Client
let seller: Player
let buyer: Player

beforeAll(async () => {
  kit = await startStarkEx()
  const baseConfig = new published.ImmutableConfiguration({
    environment: 'sandbox',
  })
  client = new published.IMXClient({
    baseConfig,
    overrides: {
      immutableXConfig: published.createImmutableXConfiguration({
        basePath: kit.url,
        chainID: 11155111,
        coreContractAddress: '0x2d5C349fD8464DA06a3f90b4B0E9195F3d1b7F98',
        registrationContractAddress:
          '0xDbA6129C02E69405622fAdc3d5A7f8d23eac3b97',
        baseConfig,
      }),
    },
  })
  seller = await kit.registered()
  buyer = await kit.registered()
  await kit.mint({
    user: seller.ethAddress,
    token: { type: 'ERC721', data: { token_address: nft, token_id: '5' } },
    quantity: '1',
  })
  await kit.mint({
    user: buyer.ethAddress,
    token: { type: 'ETH', data: { decimals: 18 } },
    quantity: (10n ** 17n).toString(),
  })
})

afterAll(async () => {
  await kit?.stop()
})

/** 2.14.0's `createOrder` of an NFT: signable order, guardian, signature, create. */
async function createOrder(player: Player, fees: unknown, tokenId = '5') {
  const headers = { Authorization: `Bearer ${player.accessToken}` }
  const signable = await client.ordersApi.getSignableOrder(
    {
      getSignableOrderRequestV3: {
        user: player.ethAddress,
        amount_buy: (5n * 10n ** 16n).toString(),
        token_buy: convert({ type: 'ETH' }),
        amount_sell: '1',
        token_sell: convert({ type: 'ERC721', tokenId }),
        fees,
        split_fees: true,
        expiration_timestamp: undefined,
      },
    },
    { headers },
  )
  kit.approve(player.ethAddress, signable.data.payload_hash)
  const y = signable.data
  const stark_signature = await signerOf(player).signMessage(y.payload_hash)
  const created = await client.ordersApi.createOrderV3(
    {
      createOrderRequest: {
        include_fees: true,
        fees,
        stark_signature,
        amount_buy: y.amount_buy,
        amount_sell: y.amount_sell,
        asset_id_buy: y.asset_id_buy,
        asset_id_sell: y.asset_id_sell,
        expiration_timestamp: y.expiration_timestamp,
        nonce: y.nonce,
        stark_key: y.stark_key,
        vault_id_buy: y.vault_id_buy,
        vault_id_sell: y.vault_id_sell,
      },
    },
    { headers },
  )
  return { ...created.data }
}

test('behavior: the published client lists an NFT, cancels it, lists it again and a second player buys it', async () => {
  const fees = [{ address: buyer.ethAddress, fee_percentage: 1 }]
  const first = await createOrder(seller, fees)
  expect(first).toEqual({
    order_id: expect.any(Number),
    status: 'active',
    time: expect.any(Number),
  })

  // 2.14.0's `cancelOrder`: the DELETE carries its body through axios.
  const headers = { Authorization: `Bearer ${seller.accessToken}` }
  const cancelSignable = await client.ordersApi.getSignableCancelOrderV3(
    { getSignableCancelOrderRequest: { order_id: first.order_id } },
    { headers },
  )
  kit.approve(seller.ethAddress, cancelSignable.data.payload_hash)
  const cancelled = await client.ordersApi.cancelOrderV3(
    {
      id: first.order_id.toString(),
      cancelOrderRequest: {
        order_id: first.order_id,
        stark_signature: await signerOf(seller).signMessage(
          cancelSignable.data.payload_hash,
        ),
      },
    },
    { headers },
  )
  expect({
    order_id: cancelled.data.order_id,
    status: cancelled.data.status,
  }).toEqual({ order_id: first.order_id, status: 'cancelled' })

  const second = await createOrder(seller, fees)
  expect(second.order_id).toBe(first.order_id + 1)

  // 2.14.0's `createTrade`.
  const buyerHeaders = { Authorization: `Bearer ${buyer.accessToken}` }
  const signableTrade = await client.tradesApi.getSignableTrade(
    {
      getSignableTradeRequest: {
        expiration_timestamp: undefined,
        fees: undefined,
        order_id: second.order_id,
        user: buyer.ethAddress,
      },
    },
    { headers: buyerHeaders },
  )
  kit.approve(buyer.ethAddress, signableTrade.data.payload_hash)
  const g = signableTrade.data
  const { data: trade } = await client.tradesApi.createTradeV3(
    {
      createTradeRequest: {
        include_fees: true,
        fees: undefined,
        stark_signature: await signerOf(buyer).signMessage(g.payload_hash),
        order_id: second.order_id,
        fee_info: g.fee_info,
        amount_buy: g.amount_buy,
        amount_sell: g.amount_sell,
        asset_id_buy: g.asset_id_buy,
        asset_id_sell: g.asset_id_sell,
        expiration_timestamp: g.expiration_timestamp,
        nonce: g.nonce,
        stark_key: g.stark_key,
        vault_id_buy: g.vault_id_buy,
        vault_id_sell: g.vault_id_sell,
      },
    },
    { headers: buyerHeaders },
  )
  expect(trade).toEqual({ trade_id: expect.any(Number), status: '' })
  const order = await client.ordersApi.getOrderV3({
    id: second.order_id.toString(),
  })
  expect(order.data.status).toBe('filled')

  const eth = assetId({ type: 'ETH', quantum: ethQuantum })
  const token = assetId({ type: 'ERC721', tokenAddress: nft, tokenId: 5n })
  const held = (player: Player, asset: bigint) =>
    kit.deps.ledger.vaultOf(player.starkKey, asset)?.balance
  expect(held(buyer, token)).toBe(1n)
  expect(held(seller, token)).toBe(0n)
  // The seller's 1 % fee goes to the buyer: 5·10^8 − 5·10^6 to the seller.
  expect(held(seller, eth)).toBe(495_000_000n)
  expect(held(buyer, eth)).toBe(10n ** 9n - 500_000_000n + 5_000_000n)
})

test("behavior: the published workflows' transfer, batch, trade and exchange transfer creates pass with the wallet headers alone", async () => {
  const alice = await kit.registered()
  const bob = await kit.registered()
  for (const tokenId of ['11', '12', '13'])
    await kit.mint({
      user: alice.ethAddress,
      token: {
        type: 'ERC721',
        data: { token_address: nft, token_id: tokenId },
      },
      quantity: '1',
    })
  await kit.mint({
    user: alice.ethAddress,
    token: { type: 'ETH', data: { decimals: 18 } },
    quantity: (10n ** 17n).toString(),
  })
  // The signable calls carry the player's token, as the published Passport
  // sends them (the exchange registers them with the guardian); the creates
  // carry only what the published workflows send.
  const headers = { Authorization: `Bearer ${alice.accessToken}` }
  const wallet = kit.custodySigner(alice)
  const token = (tokenId: string) =>
    assetId({ type: 'ERC721', tokenAddress: nft, tokenId: BigInt(tokenId) })
  const held = (starkKey: string, asset: bigint) =>
    kit.deps.ledger.vaultOf(starkKey, asset)?.balance ?? 0n

  // The x-provider's `transfer`.
  const o = await client.transfersApi.getSignableTransferV1(
    {
      getSignableTransferRequest: {
        sender: alice.ethAddress,
        token: convert({ type: 'ERC721', tokenId: '11' }),
        amount: '1',
        receiver: bob.ethAddress,
      },
    },
    { headers },
  )
  kit.approve(alice.ethAddress, o.data.payload_hash)
  const transfer = await client.transfersApi.createTransferV1({
    createTransferRequest: {
      sender_stark_key: o.data.sender_stark_key,
      sender_vault_id: o.data.sender_vault_id,
      receiver_stark_key: o.data.receiver_stark_key,
      receiver_vault_id: o.data.receiver_vault_id,
      asset_id: o.data.asset_id,
      amount: o.data.amount,
      nonce: o.data.nonce,
      expiration_timestamp: o.data.expiration_timestamp,
      stark_signature: await signerOf(alice).signMessage(o.data.payload_hash),
    },
    xImxEthAddress: alice.ethAddress,
    xImxEthSignature: await signRaw(o.data.signable_message, wallet),
  })
  expect(transfer.data).toMatchObject({ status: 'success' })
  expect(held(bob.starkKey, token('11'))).toBe(1n)

  // The x-provider's `batchNftTransfer`.
  const batch = await client.transfersApi.getSignableTransfer(
    {
      getSignableTransferRequestV2: {
        sender_ether_key: alice.ethAddress,
        signable_requests: ['12', '13'].map((tokenId) => ({
          amount: '1',
          token: convert({ type: 'ERC721', tokenId }),
          receiver: bob.ethAddress,
        })),
      },
    },
    { headers },
  )
  kit.approve(alice.ethAddress, batch.data.signable_responses[0].payload_hash)
  const requests = []
  for (const c of batch.data.signable_responses)
    requests.push({
      sender_vault_id: c.sender_vault_id,
      receiver_stark_key: c.receiver_stark_key,
      receiver_vault_id: c.receiver_vault_id,
      asset_id: c.asset_id,
      amount: c.amount,
      nonce: c.nonce,
      expiration_timestamp: c.expiration_timestamp,
      stark_signature: await signerOf(alice).signMessage(c.payload_hash),
    })
  const batched = await client.transfersApi.createTransfer({
    createTransferRequestV2: {
      sender_stark_key: batch.data.sender_stark_key,
      requests,
    },
    xImxEthAddress: alice.ethAddress,
    xImxEthSignature: await signRaw(batch.data.signable_message, wallet),
  })
  expect(batched.data.transfer_ids).toHaveLength(2)
  expect([
    held(bob.starkKey, token('12')),
    held(bob.starkKey, token('13')),
  ]).toEqual([1n, 1n])

  // The x-provider's `createTrade`: alice buys the seller's listing.
  await kit.mint({
    user: seller.ethAddress,
    token: { type: 'ERC721', data: { token_address: nft, token_id: '14' } },
    quantity: '1',
  })
  const listing = await createOrder(seller, undefined, '14')
  const s = await client.tradesApi.getSignableTrade(
    {
      getSignableTradeRequest: {
        user: alice.ethAddress,
        order_id: listing.order_id,
        fees: undefined,
      },
    },
    { headers },
  )
  kit.approve(alice.ethAddress, s.data.payload_hash)
  const trade = await client.tradesApi.createTradeV3({
    createTradeRequest: {
      amount_buy: s.data.amount_buy,
      amount_sell: s.data.amount_sell,
      asset_id_buy: s.data.asset_id_buy,
      asset_id_sell: s.data.asset_id_sell,
      expiration_timestamp: s.data.expiration_timestamp,
      fee_info: s.data.fee_info,
      fees: undefined,
      include_fees: true,
      nonce: s.data.nonce,
      order_id: listing.order_id,
      stark_key: s.data.stark_key,
      vault_id_buy: s.data.vault_id_buy,
      vault_id_sell: s.data.vault_id_sell,
      stark_signature: await signerOf(alice).signMessage(s.data.payload_hash),
    },
    xImxEthAddress: alice.ethAddress,
    xImxEthSignature: await signRaw(s.data.signable_message, wallet),
  })
  expect(trade.data).toEqual({ trade_id: expect.any(Number), status: '' })
  expect(held(alice.starkKey, token('14'))).toBe(1n)

  // The x-provider's `exchangeTransfer` (its signable call carries nothing).
  const exchange = await client.exchangeApi.createExchange({
    createExchangeAPIRequest: {
      wallet_address: alice.ethAddress,
      provider: 'moonpay',
      type: 'offramp',
    },
  })
  const provider = providerAccountOf('moonpay')
  const e = await client.exchangeApi.getExchangeSignableTransfer({
    id: exchange.data.id,
    getSignableTransferRequest: {
      sender: alice.ethAddress,
      token: convert({ type: 'ETH' }),
      amount: (10n ** 16n).toString(),
      receiver: provider.ethAddress,
    },
  })
  const eth = assetId({ type: 'ETH', quantum: ethQuantum })
  const providerBefore = held(provider.starkKey, eth)
  const sent = await client.exchangeApi.createExchangeTransfer({
    id: exchange.data.id,
    createTransferRequest: {
      sender_stark_key: e.data.sender_stark_key,
      sender_vault_id: e.data.sender_vault_id,
      receiver_stark_key: e.data.receiver_stark_key,
      receiver_vault_id: e.data.receiver_vault_id,
      asset_id: e.data.asset_id,
      amount: e.data.amount,
      nonce: e.data.nonce,
      expiration_timestamp: e.data.expiration_timestamp,
      stark_signature: await signerOf(alice).signMessage(e.data.payload_hash),
    },
    xImxEthAddress: alice.ethAddress,
    xImxEthSignature: await signRaw(e.data.signable_message, wallet),
  })
  expect(sent.data).toMatchObject({ status: 'success' })
  expect(held(provider.starkKey, eth)).toBe(providerBefore + 10n ** 8n)
})
