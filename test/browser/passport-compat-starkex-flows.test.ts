import { type Address, parseEther } from 'viem'
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  test,
  vi,
} from 'vitest'
import { commands } from 'vitest/browser'
import './fixtures/noTelemetry.js'
import './fixtures/nodeGlobals.js'
import type { PublishedImxProvider } from './fixtures/publishedPassport214.js'
import { randomAddress } from './passportWallet.js'
import { openedLogins } from './publishedPassport.js'
import {
  as214,
  ethOf,
  exchangeOrigin,
  exchangeRead,
  mintEth,
  mintNfts,
  overrides,
  ownerOf,
  type Player214,
  registered214,
  routeHosted,
  unrouteHosted,
} from './publishedPassport214.js'

/*
 * The published @imtbl/passport 2.14.0's StarkEx flows, unchanged, against
 * the emulated exchange: two registered players, assets credited through
 * the exchange's dev route, then transfers, an order cancelled and made
 * again, a trade, a batch NFT transfer and an exchange transfer, each
 * checked through the exchange's own read routes with exact values. No
 * guardian rule asks here (passport-compat-starkex-guardian.test.ts has
 * those). The two players share this page, their sessions swapped in
 * turn (see registered214).
 */

beforeAll(routeHosted)
afterAll(unrouteHosted)
beforeEach(() => localStorage.clear())
afterEach(async () => {
  vi.restoreAllMocks()
  for (const window of openedLogins.splice(0)) window.close()
  // 2.14.0 never closes the loading popup of a guarded request the
  // guardian approved (a published bug).
  await commands.popupsClose(overrides.passportDomain)
})

/** A transfer as the exchange lists it. */
function transferRecord(
  id: number,
  from: Player214,
  to: Player214,
  token: Record<string, unknown>,
) {
  return {
    transaction_id: id,
    status: 'success',
    user: from.user,
    receiver: to.user,
    timestamp: expect.any(String),
    token,
  }
}

/** The exchange's record of a token moved (ids aside). */
const nftToken = (collection: Address, id: string) => ({
  type: 'ERC721',
  data: expect.objectContaining({
    token_id: id,
    token_address: collection.toLowerCase(),
    quantity: '1',
  }),
})
const ethToken = (wei: bigint) => ({
  type: 'ETH',
  data: expect.objectContaining({ decimals: 18, quantity: wei.toString() }),
})

describe('published @imtbl/passport 2.14.0 against the emulator: assets between two players', () => {
  test('behavior: transfer() of an ERC721 and of ETH moves them to the other player', async () => {
    const bob = await registered214('sx-transfer-bob')
    const alice = await registered214('sx-transfer-alice')
    const collection = randomAddress()
    await mintNfts(alice, collection, ['1'])
    await mintEth(alice, parseEther('1'))

    const nft = await as214(alice).transfer({
      type: 'ERC721',
      tokenId: '1',
      tokenAddress: collection,
      receiver: bob.address,
    })
    expect(nft).toEqual({
      sent_signature: expect.stringMatching(/^0x[0-9a-f]{128}$/),
      status: 'success',
      time: expect.any(Number),
      transfer_id: expect.any(Number),
    })
    expect(await ownerOf(collection, '1')).toBe(bob.user)
    expect(await exchangeRead(`/v1/transfers/${nft.transfer_id}`)).toEqual(
      transferRecord(nft.transfer_id, alice, bob, nftToken(collection, '1')),
    )

    const value = await as214(alice).transfer({
      type: 'ETH',
      amount: parseEther('0.25').toString(),
      receiver: bob.address,
    })
    expect(value.status).toBe('success')
    expect(await ethOf(alice)).toBe(parseEther('0.75').toString())
    expect(await ethOf(bob)).toBe(parseEther('0.25').toString())
    expect(await exchangeRead(`/v1/transfers/${value.transfer_id}`)).toEqual(
      transferRecord(
        value.transfer_id,
        alice,
        bob,
        ethToken(parseEther('0.25')),
      ),
    )
  })

  test("behavior: createOrder(), cancelOrder(), createOrder() again, and the other player's createTrade() fills it: both sides and the fee move", async () => {
    const bob = await registered214('sx-trade-bob')
    const alice = await registered214('sx-trade-alice')
    const collection = randomAddress()
    const feeRecipient = randomAddress()
    await mintNfts(alice, collection, ['7'])
    await mintEth(bob, parseEther('1'))
    const listing: Parameters<PublishedImxProvider['createOrder']>[0] = {
      sell: { type: 'ERC721', tokenId: '7', tokenAddress: collection },
      buy: { type: 'ETH', amount: parseEther('0.5').toString() },
      fees: [{ address: feeRecipient, fee_percentage: 2 }],
    }

    const first = await as214(alice).createOrder(listing)
    expect(first).toEqual({
      order_id: expect.any(Number),
      status: 'active',
      time: expect.any(Number),
    })
    expect(await exchangeRead(`/v3/orders/${first.order_id}`)).toMatchObject({
      order_id: first.order_id,
      status: 'active',
      user: alice.user,
    })
    expect(
      await as214(alice).cancelOrder({ order_id: first.order_id }),
    ).toEqual({
      order_id: first.order_id,
      status: 'cancelled',
    })
    expect(await exchangeRead(`/v3/orders/${first.order_id}`)).toMatchObject({
      status: 'cancelled',
    })

    const second = await as214(alice).createOrder(listing)
    expect(second.order_id).not.toBe(first.order_id)
    expect(await exchangeRead(`/v3/orders/${second.order_id}`)).toMatchObject({
      order_id: second.order_id,
      status: 'active',
      user: alice.user,
      sell: nftToken(collection, '7'),
      buy: {
        type: 'ETH',
        data: expect.objectContaining({
          quantity: parseEther('0.5').toString(),
          // What the seller receives: the price less its 2% fee.
          quantity_with_fees: parseEther('0.49').toString(),
        }),
      },
    })

    const trade = await as214(bob).createTrade({
      order_id: second.order_id,
      user: bob.address,
    })
    expect(trade).toEqual({ trade_id: expect.any(Number), status: '' })
    expect(await exchangeRead(`/v3/orders/${second.order_id}`)).toMatchObject({
      status: 'filled',
    })
    expect(await exchangeRead(`/v3/trades/${trade.trade_id}`)).toMatchObject({
      transaction_id: trade.trade_id,
      status: 'success',
    })
    expect(await ownerOf(collection, '7')).toBe(bob.user)
    expect(await ethOf(bob)).toBe(parseEther('0.5').toString())
    expect(await ethOf(alice)).toBe(parseEther('0.49').toString())
  })

  test('behavior: batchNftTransfer() moves every NFT of the batch to its receiver', async () => {
    const bob = await registered214('sx-batch-bob')
    const alice = await registered214('sx-batch-alice')
    const collection = randomAddress()
    await mintNfts(alice, collection, ['1', '2', '3'])

    const batch = await as214(alice).batchNftTransfer([
      { receiver: bob.address, tokenId: '1', tokenAddress: collection },
      { receiver: bob.address, tokenId: '3', tokenAddress: collection },
    ])
    expect(batch).toEqual({
      transfer_ids: [expect.any(Number), expect.any(Number)],
    })
    const [one, three] = batch.transfer_ids as [number, number]
    expect(await exchangeRead(`/v1/transfers/${one}`)).toEqual(
      transferRecord(one, alice, bob, nftToken(collection, '1')),
    )
    expect(await exchangeRead(`/v1/transfers/${three}`)).toEqual(
      transferRecord(three, alice, bob, nftToken(collection, '3')),
    )
    expect(await ownerOf(collection, '1')).toBe(bob.user)
    expect(await ownerOf(collection, '2')).toBe(alice.user)
    expect(await ownerOf(collection, '3')).toBe(bob.user)
  })

  test('behavior: exchangeTransfer() of an off-ramp (POST /v3/exchanges) sends ETH to the provider and completes the exchange', async () => {
    const alice = await registered214('sx-offramp')
    await mintEth(alice, parseEther('1'))
    const created = await fetch(`${exchangeOrigin}/v3/exchanges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        wallet_address: alice.address,
        provider: 'moonpay',
        type: 'offramp',
      }),
    })
    expect(created.status).toBe(200)
    const { id } = (await created.json()) as { id: number }
    const { data } = (await exchangeRead(`/v3/exchanges/${id}`)) as {
      data: { provider_wallet_address: string }
    }

    const sent = await as214(alice).exchangeTransfer({
      type: 'ETH',
      amount: parseEther('0.3').toString(),
      receiver: data.provider_wallet_address,
      transactionID: String(id),
    })
    expect(sent).toEqual({
      sent_signature: expect.stringMatching(/^0x[0-9a-f]{128}$/),
      status: 'success',
      time: expect.any(Number),
      transfer_id: expect.any(Number),
    })
    expect(await ethOf(alice)).toBe(parseEther('0.7').toString())
    expect(await exchangeRead(`/v3/exchanges/${id}`)).toMatchObject({
      id,
      status: 'completed',
      wallet_address: alice.user,
      data: {
        provider_wallet_address: data.provider_wallet_address,
        transfer_id: String(sent.transfer_id),
      },
    })
  })
})
