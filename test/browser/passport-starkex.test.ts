import * as Stark from '@scure/starknet'
import { type Address, parseEther } from 'viem'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import { commands } from 'vitest/browser'
import { createConfig } from '../../src/api/config.js'
import { ImxApiClients } from '../../src/api/ImxApiClients.js'
import type { IMXProvider, Passport } from '../../src/passport/index.js'
import {
  type DevMintRequest,
  devMintPath,
} from '../../src/passport/wire/starkex.js'
import {
  completeInPopup,
  freshEmail,
  popupAt,
  spyPopups,
} from './passportLogin.js'
import {
  createWallet,
  type GuardianRules,
  noConfirmationWindowLeft,
  overrides,
  setGuardianRules,
  trackWindows,
} from './passportWallet.js'

/*
 * The StarkEx layer end to end: our `connectImx()` against the emulated
 * exchange (`imxPublicApiDomain`), the guardian's StarkEx evaluations and
 * its confirmation page, and the key-custody iframe the Stark key is
 * derived from. Two players share this page one after the other (one
 * signed-in user per origin, as the published SDK keeps it): each switch
 * logs the other out and signs in again through the real login popup.
 * Balances and owners are read back through the generated legacy client.
 */

const { passportDomain } = overrides
const imxPublicApiDomain = String(overrides.imxPublicApiDomain)
const exchange = new ImxApiClients(
  createConfig({ basePath: imxPublicApiDomain }),
)
const transactionPage = `${passportDomain}/transaction-confirmation/transaction?transactionId=`
/** A collection of the tests' own: nothing else mints into it. */
const collection =
  `0x${crypto.randomUUID().replaceAll('-', '').slice(0, 40).padStart(40, 'a')}` as Address

type Player = { email: string; address: string }
const players: { a?: Player; b?: Player } = {}
let passport: Passport | undefined
let provider: IMXProvider | undefined
let orderId: number | undefined

afterEach(() => {
  vi.restoreAllMocks()
})
afterAll(async () => {
  await passport?.logout().catch(() => undefined)
})

/**
 * Signs `email` in on a new Passport (the previous player logged out)
 * through the real login popup, and connects its StarkEx provider.
 */
async function signIn(email: string): Promise<IMXProvider> {
  await passport?.logout()
  localStorage.clear()
  passport = createWallet()
  const calls = spyPopups()
  const pending = passport.connectImx()
  await completeInPopup(await popupAt(calls), email)
  provider = await pending
  vi.mocked(window.open).mockRestore()
  return provider
}

/** The player's provider, signing them in unless they are. */
let current: Player | undefined
async function as(player: Player | undefined): Promise<IMXProvider> {
  if (!player) throw new Error('The players are not registered yet.')
  if (current !== player || !provider) {
    await signIn(player.email)
    current = player
  }
  return provider as IMXProvider
}

/** Credits `user` through the exchange's loopback-only dev route. */
async function mint(body: DevMintRequest): Promise<void> {
  const response = await fetch(`${imxPublicApiDomain}${devMintPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status, await response.clone().text()).toBeLessThan(300)
}

/** A player's ETH balance in wei (0 without a vault). */
async function ethOf(player: Player | undefined): Promise<bigint> {
  const { data } = await exchange.balanceApi.listBalances({
    owner: String(player?.address),
  })
  const eth = data.result.find((balance) => balance.symbol === 'ETH')
  return BigInt(eth?.balance ?? '0')
}

/** The owner of one of the tests' NFTs. */
async function ownerOf(tokenId: string): Promise<string> {
  const { data } = await exchange.assetApi.getAsset({
    tokenAddress: collection,
    tokenId,
  })
  return String(data.user).toLowerCase()
}

const eth = (value: string) => parseEther(value).toString()

describe('connectImx', () => {
  test('behavior: two players register off chain; a second registration passes (409 means registered)', async () => {
    for (const key of ['a', 'b'] as const) {
      const email = freshEmail(`starkex-${key}`)
      const imx = await signIn(email)
      expect(await imx.isRegisteredOffchain()).toBe(false)
      await imx.registerOffchain()
      expect(await imx.isRegisteredOffchain()).toBe(true)
      const address = await imx.getAddress()
      expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
      // The exchange lists the player's Stark key.
      const { data } = await exchange.usersApi.getUsers({ user: address })
      expect(data.accounts[0]).toMatch(/^0x[0-9a-f]{64}$/)
      expect(await imx.registerOffchain()).toEqual({ tx_hash: '' })
      players[key] = { email, address }
      current = players[key]
    }
    expect(players.a?.address).not.toBe(players.b?.address)
  })

  test('behavior: an NFT and ETH credited through the dev route show in the balances and owners', async () => {
    const { a, b } = players
    await mint({
      user: String(a?.address),
      token: {
        type: 'ERC721',
        data: { token_address: collection, token_id: '1' },
      },
      quantity: '1',
    })
    await mint({
      user: String(a?.address),
      token: { type: 'ETH', data: { decimals: 18 } },
      quantity: eth('1'),
    })
    await mint({
      user: String(b?.address),
      token: { type: 'ETH', data: { decimals: 18 } },
      quantity: eth('2'),
    })
    expect(await ethOf(a)).toBe(parseEther('1'))
    expect(await ethOf(b)).toBe(parseEther('2'))
    expect(await ownerOf('1')).toBe(String(a?.address).toLowerCase())
  })

  test('behavior: a transfer moves ETH from one player to the other', async () => {
    const { a, b } = players
    const imx = await as(a)
    const windows = trackWindows()
    const result = await imx.transfer({
      type: 'ETH',
      amount: eth('0.1'),
      receiver: String(b?.address),
    })
    expect(result.transfer_id).toBeTypeOf('number')
    expect(await ethOf(a)).toBe(parseEther('0.9'))
    expect(await ethOf(b)).toBe(parseEther('2.1'))
    // The loading popup of an approved transaction closes.
    await noConfirmationWindowLeft(windows)
  })

  test('behavior: an order is created, cancelled and created again', async () => {
    const imx = await as(players.a)
    const order = {
      sell: { type: 'ERC721' as const, tokenId: '1', tokenAddress: collection },
      buy: { type: 'ETH' as const, amount: eth('0.5') },
    }
    const first = await imx.createOrder(order)
    expect(first.status).toBe('active')
    expect(await imx.cancelOrder({ order_id: first.order_id })).toEqual({
      order_id: first.order_id,
      status: 'cancelled',
    })
    const { data: cancelled } = await exchange.ordersApi.getOrderV3({
      id: String(first.order_id),
    })
    expect(cancelled.status).toBe('cancelled')
    const second = await imx.createOrder(order)
    expect(second.order_id).not.toBe(first.order_id)
    orderId = second.order_id
  })

  test('behavior: a trade fills the order: both sides move', async () => {
    const { a, b } = players
    const imx = await as(b)
    const trade = await imx.createTrade({
      order_id: Number(orderId),
      user: String(b?.address),
    })
    expect(trade.trade_id).toBeTypeOf('number')
    expect(await ownerOf('1')).toBe(String(b?.address).toLowerCase())
    expect(await ethOf(b)).toBe(parseEther('1.6'))
    expect(await ethOf(a)).toBe(parseEther('1.4'))
    const { data: filled } = await exchange.ordersApi.getOrderV3({
      id: String(orderId),
    })
    expect(filled.status).toBe('filled')
  })

  test('behavior: a batch NFT transfer the guardian asks about is confirmed in the 480x784 popup', async () => {
    const { a, b } = players
    // Two NFTs of its own, whatever the trade before did.
    for (const token_id of ['2', '3'])
      await mint({
        user: String(b?.address),
        token: {
          type: 'ERC721',
          data: { token_address: collection, token_id },
        },
        quantity: '1',
      })
    const imx = await as(b)
    const rules: GuardianRules & { confirmStarkEx: readonly string[] } = {
      confirmStarkEx: ['batchNftTransfer'],
    }
    await setGuardianRules(b?.address as Address, rules)
    const windows = trackWindows()
    const features: string[] = []
    const open = window.open.bind(window)
    vi.spyOn(window, 'open').mockImplementation((url, target, feature) => {
      features.push(String(feature))
      return open(url, target, feature)
    })
    try {
      const pending = imx.batchNftTransfer(
        ['2', '3'].map((tokenId) => ({
          tokenId,
          tokenAddress: collection,
          receiver: String(a?.address),
        })),
      )
      await commands.popupClick(transactionPage, 'confirmation-approve')
      const result = await pending
      expect(result.transfer_ids).toHaveLength(2)
      expect(features[0]).toContain('width=480')
      expect(features[0]).toContain('height=784')
      expect(await ownerOf('2')).toBe(String(a?.address).toLowerCase())
      expect(await ownerOf('3')).toBe(String(a?.address).toLowerCase())
    } finally {
      await setGuardianRules(b?.address as Address, null)
      await noConfirmationWindowLeft(windows)
    }
  })

  test("behavior: an exchange transfer sends ETH to the exchange's provider", async () => {
    const { b } = players
    const imx = await as(b)
    const { data: created } = await exchange.exchangeApi.createExchange({
      createExchangeAPIRequest: {
        wallet_address: String(b?.address),
        provider: 'moonpay',
        type: 'offramp',
      },
    })
    const { data: record } = await exchange.exchangeApi.getExchange({
      id: String(created.id),
    })
    const before = await ethOf(b)
    const result = await imx.exchangeTransfer({
      type: 'ETH',
      amount: eth('0.2'),
      receiver: String(record.data?.provider_wallet_address),
      transactionID: String(created.id),
    })
    expect(result.transfer_id).toBeTypeOf('number')
    expect(await ethOf(b)).toBe(before - parseEther('0.2'))
  })

  test('error: deposit, withdrawals and on-chain registration are "Operation not supported"', async () => {
    const imx = await as(players.b)
    for (const call of [
      () => imx.deposit({ type: 'ETH', amount: '1' }),
      () => imx.prepareWithdrawal({ type: 'ETH', amount: '1' }),
      () => imx.completeWithdrawal('0x1', { type: 'ETH' }),
      () => imx.isRegisteredOnchain(),
    ])
      expect(call).toThrowError(
        expect.objectContaining({
          type: 'OPERATION_NOT_SUPPORTED_ERROR',
          message: 'Operation not supported',
        }),
      )
  })

  test('error: the exchange refuses a forged Stark signature and a replayed nonce', async () => {
    const { a, b } = players
    await as(b)
    const token = await passport?.getAccessToken()
    const headers = { Authorization: `Bearer ${token}` }
    const signable = async () =>
      (
        await exchange.transfersApi.getSignableTransferV1(
          {
            getSignableTransferRequest: {
              sender: String(b?.address),
              token: { type: 'ETH', data: { decimals: 18 } },
              amount: eth('0.01'),
              receiver: String(a?.address),
            },
          },
          { headers },
        )
      ).data
    const body = (
      details: Awaited<ReturnType<typeof signable>>,
      signature: string,
    ) => ({
      createTransferRequest: {
        sender_stark_key: String(details.sender_stark_key),
        sender_vault_id: details.sender_vault_id,
        receiver_stark_key: details.receiver_stark_key,
        receiver_vault_id: details.receiver_vault_id,
        asset_id: details.asset_id,
        amount: details.amount,
        nonce: details.nonce,
        expiration_timestamp: details.expiration_timestamp,
        stark_signature: signature,
      },
    })

    // Signed by a key that is not the player's.
    const forged = await signable()
    const stranger = Stark.utils.randomPrivateKey()
    const { r, s } = Stark.sign(forged.payload_hash, stranger)
    const forgedSignature = `0x${r.toString(16).padStart(64, '0')}${s.toString(16).padStart(64, '0')}`
    await expect(
      exchange.transfersApi.createTransferV1(body(forged, forgedSignature), {
        headers,
      }),
    ).rejects.toMatchObject({ status: 400 })

    // The provider's own, valid request sent again.
    const sent: string[] = []
    const realFetch = window.fetch.bind(window)
    vi.spyOn(window, 'fetch').mockImplementation((input, init) => {
      if (String(input).endsWith('/v1/transfers') && init?.body)
        sent.push(String(init.body))
      return realFetch(input, init)
    })
    const before = await ethOf(b)
    await provider?.transfer({
      type: 'ETH',
      amount: eth('0.01'),
      receiver: String(a?.address),
    })
    expect(await ethOf(b)).toBe(before - parseEther('0.01'))
    const [original] = sent
    expect(original).toBeTruthy()
    await expect(
      exchange.transfersApi.createTransferV1(
        { createTransferRequest: JSON.parse(String(original)) },
        { headers },
      ),
    ).rejects.toMatchObject({ status: 400 })
    expect(await ethOf(b)).toBe(before - parseEther('0.01'))
  })
})
