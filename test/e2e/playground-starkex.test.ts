import type { Page } from 'playwright-core'
import { getAddress, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ImxApiClients } from '../../src/api/ImxApiClients.js'
import { createConfig } from '../../src/api/index.js'
import {
  connectGameWallet,
  connectIframeWallet,
  disconnect,
  freshEmail,
  type Playground,
  screenshot,
  startPlayground,
} from './playgroundHarness.js'

/** `expect.poll`'s options: the view reads the exchange every 2 s. */
const poll = { timeout: 20_000, interval: 200 }

/** One player's page, after the game wallet connected through the Connect modal. */
type Player = { page: Page; address: string }

// The playground's StarkEx view, driven by two players as people would:
// each connects the game wallet through the one Connect modal, registers,
// mints through the dev faucet, and they transfer, list, cancel and trade.
// Every value the page shows is checked against the exchange's own answers.
describe('npm start: the StarkEx view', () => {
  let pg: Playground
  let exchange: ImxApiClients

  beforeAll(async () => {
    pg = await startPlayground()
    exchange = new ImxApiClients(
      createConfig({ basePath: pg.info.passport.overrides.imxPublicApiDomain }),
    )
  }, 120_000)

  afterAll(async () => {
    await pg?.stop()
  })

  const view = (page: Page) => page.getByTestId('panel-starkex')
  const testErc721 = () => pg.info.contracts.testErc721.toLowerCase()

  /** The player's ETH on the exchange, wei. */
  async function ethOf(address: string): Promise<bigint> {
    const { data } = await exchange.balanceApi.listBalances({ owner: address })
    const eth = data.result.find((balance) => balance.symbol === 'ETH')
    return BigInt(eth?.balance ?? '0')
  }

  /** Who holds a TestERC721 on the exchange (lowercase). */
  async function ownerOf(tokenId: string): Promise<string> {
    const { data } = await exchange.assetApi.getAsset({
      tokenAddress: testErc721(),
      tokenId,
    })
    return data.user.toLowerCase()
  }

  /** The ETH balance the view shows, wei. */
  const shownEth = (page: Page) =>
    view(page).getByTestId('starkex-balance-eth').getAttribute('data-wei')

  /** Brings the view on screen, as a person looks at it: it reads while shown. */
  const look = (page: Page) => view(page).scrollIntoViewIfNeeded()

  const text = (page: Page, id: string) =>
    view(page).getByTestId(id).textContent()

  /** Connects the game wallet, registers it with StarkEx and mints its test assets. */
  async function newPlayer(
    label: string,
    viewport?: { width: number; height: number },
  ): Promise<Player & { tokenId: string }> {
    const page = await pg.open(viewport)
    await connectGameWallet(pg, page, freshEmail(label))
    await look(page)
    const status = view(page).getByTestId('starkex-registered')
    await expect
      .poll(() => status.getAttribute('data-registered'), poll)
      .toBe('false')
    expect(await status.textContent()).toBe('Not registered')
    await view(page).screenshot({
      path: screenshot('playground-starkex-unregistered'),
      // The sticky top bar would cover the section's top.
      style: '.top-bar { visibility: hidden }',
    })
    await view(page).getByTestId('starkex-register').click()
    await expect
      .poll(() => status.getAttribute('data-registered'), poll)
      .toBe('true')
    expect(await status.textContent()).toBe('Registered')

    // The StarkEx address and the Stark key are the exchange's.
    const address = String(
      await view(page)
        .getByTestId('starkex-address')
        .getAttribute('data-value'),
    )
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    const { data: user } = await exchange.usersApi.getUsers({ user: address })
    const starkKey = view(page).getByTestId('starkex-stark-key')
    await starkKey.waitFor()
    expect(await starkKey.getAttribute('data-value')).toBe(user.accounts[0])
    expect(user.accounts[0]).toMatch(/^0x[0-9a-f]{64}$/)

    // The dev faucet: 1 ETH and the next TestERC721.
    await expect.poll(() => shownEth(page), poll).toBe('0')
    await view(page).getByTestId('starkex-mint').click()
    const minted = view(page).getByTestId('starkex-mint-result')
    await minted.waitFor({ timeout: 20_000 })
    const tokenId = /#(\d+)\.$/.exec(String(await minted.textContent()))?.[1]
    expect(await minted.textContent()).toBe(
      `Minted 1 ETH and TestERC721 #${tokenId}.`,
    )
    expect(await ownerOf(String(tokenId))).toBe(address.toLowerCase())
    expect(await ethOf(address)).toBe(parseEther('1'))
    await expect
      .poll(() => shownEth(page), poll)
      .toBe(parseEther('1').toString())
    expect(await text(page, 'starkex-balance-eth')).toBe('1 ETH')
    const nft = view(page).locator(
      `[data-testid="starkex-nft"][data-token-id="${tokenId}"]`,
    )
    await nft.waitFor()
    expect(await nft.getAttribute('data-token-address')).toBe(testErc721())
    return { page, address, tokenId: String(tokenId) }
  }

  test('behavior: without the game wallet the view says how to connect it; with the iframe wallet it names that wallet', async () => {
    const page = await pg.open()
    const note = view(page).getByTestId('starkex-connect-first')
    expect(await note.textContent()).toBe(
      'StarkEx belongs to the game wallet: connect it with the Connect button at the top to register, trade and transfer here.',
    )
    await connectIframeWallet(pg, page, freshEmail('starkex-iframe'))
    await expect
      .poll(() => note.textContent(), poll)
      .toMatch(
        /^StarkEx belongs to the game wallet, and .+ is connected: disconnect it and connect the game wallet with the Connect button at the top\.$/,
      )
    await disconnect(page)
    await page.context().close()
  }, 120_000)

  test('behavior: two players register, mint, transfer ETH, list (cancel, list again) and trade an NFT, with a guardian confirmation; both views follow without reload', async () => {
    const seller = await newPlayer('starkex-seller')
    const buyer = await newPlayer('starkex-buyer', {
      width: 1920,
      height: 1000,
    })
    expect(seller.address).not.toBe(buyer.address)
    expect(BigInt(buyer.tokenId)).toBeGreaterThan(BigInt(seller.tokenId))

    // A transfer is checked against the balance before anything is sent.
    const transfer = view(seller.page).getByTestId('starkex-transfer')
    await transfer.getByTestId('starkex-transfer-receiver').fill(buyer.address)
    await transfer.getByTestId('starkex-transfer-amount').fill('1.5')
    expect(await text(seller.page, 'starkex-transfer-problem')).toBe(
      'You hold 1 ETH on StarkEx: enter at most that.',
    )
    expect(
      await transfer.getByTestId('starkex-transfer-submit').isDisabled(),
    ).toBe(true)
    await transfer.getByTestId('starkex-transfer-amount').fill('0.00000000001')
    expect(await text(seller.page, 'starkex-transfer-problem')).toBe(
      'StarkEx moves ETH in steps of 0.0000000001: use 10 decimals at most.',
    )
    await transfer.getByTestId('starkex-transfer-receiver').fill('0x1234')
    expect(await text(seller.page, 'starkex-transfer-problem')).toBe(
      'Enter the receiver as a 0x address (40 hex digits).',
    )
    await transfer.getByTestId('starkex-transfer-receiver').fill(buyer.address)
    await transfer.getByTestId('starkex-transfer-amount').fill('0.25')
    expect(await transfer.getByTestId('starkex-transfer-problem').count()).toBe(
      0,
    )
    await transfer.getByTestId('starkex-transfer-submit').click()
    const sent = transfer.getByTestId('starkex-transfer-result')
    await sent.waitFor({ timeout: 20_000 })
    expect(await sent.textContent()).toMatch(
      new RegExp(
        `^Sent 0\\.25 ETH to ${buyer.address.slice(0, 6)}…${buyer.address.slice(-4)} \\(transfer \\d+\\)\\.$`,
      ),
    )
    expect(await ethOf(seller.address)).toBe(parseEther('0.75'))
    expect(await ethOf(buyer.address)).toBe(parseEther('1.25'))
    await expect
      .poll(() => shownEth(seller.page), poll)
      .toBe(parseEther('0.75').toString())
    // The receiver's view follows by itself (it polls while shown).
    await look(buyer.page)
    await expect
      .poll(() => shownEth(buyer.page), poll)
      .toBe(parseEther('1.25').toString())
    expect(await text(buyer.page, 'starkex-balance-eth')).toBe('1.25 ETH')

    // A transfer the exchange refuses (the receiver is no StarkEx player)
    // is reported in the page's banner, and moves nothing.
    const stranger = '0x000000000000000000000000000000000000dEaD'
    await transfer.getByTestId('starkex-transfer-receiver').fill(stranger)
    await transfer.getByTestId('starkex-transfer-amount').fill('0.1')
    await transfer.getByTestId('starkex-transfer-submit').click()
    const banner = seller.page.getByTestId('starkex-error')
    await banner.waitFor({ timeout: 20_000 })
    expect(await banner.textContent()).toMatch(/^Transferring failed: /)
    expect(await banner.textContent()).toContain(
      `The receiver ${stranger} is not registered with StarkEx.`,
    )
    expect(await ethOf(seller.address)).toBe(parseEther('0.75'))
    await seller.page.getByTestId('starkex-error-dismiss').click()
    await transfer.getByTestId('starkex-transfer-receiver').fill(buyer.address)

    // A sell order, cancelled, then listed again at another price.
    const sell = view(seller.page).getByTestId('starkex-sell')
    const listFor = async (price: string, tokenId = seller.tokenId) => {
      await sell
        .getByTestId('starkex-sell-nft')
        .selectOption(`${testErc721()}:${tokenId}`)
      await sell.getByTestId('starkex-sell-price').fill(price)
      await sell.getByTestId('starkex-sell-submit').click()
      const listed = sell.getByTestId('starkex-sell-result')
      await expect
        .poll(() => listed.textContent(), poll)
        .toMatch(
          new RegExp(
            `^Listed TestERC721 #${tokenId} for ${price.replace('.', '\\.')} ETH \\(order \\d+\\)\\.$`,
          ),
        )
      return Number(/order (\d+)/.exec(String(await listed.textContent()))?.[1])
    }
    const firstOrder = await listFor('0.6')
    const ownRow = view(seller.page).locator(
      `[data-testid="starkex-order"][data-order-id="${firstOrder}"]`,
    )
    await ownRow.waitFor()
    expect(await ownRow.getAttribute('data-mine')).toBe('true')
    expect(await ownRow.getByTestId('starkex-order-price').textContent()).toBe(
      '0.6 ETH',
    )
    const listedNft = view(seller.page).locator(
      `[data-testid="starkex-nft"][data-token-id="${seller.tokenId}"]`,
    )
    await expect
      .poll(() => listedNft.getAttribute('data-listed'), poll)
      .toBe('true')
    await ownRow.getByTestId('starkex-order-cancel').click()
    await ownRow.waitFor({ state: 'detached', timeout: 20_000 })
    expect(await text(seller.page, 'starkex-order-result')).toBe(
      `Order ${firstOrder} (TestERC721 #${seller.tokenId}) cancelled.`,
    )
    const { data: cancelled } = await exchange.ordersApi.getOrderV3({
      id: String(firstOrder),
    })
    expect(cancelled.status).toBe('cancelled')
    const orderId = await listFor('0.5')
    expect(orderId).not.toBe(firstOrder)
    const { data: order } = await exchange.ordersApi.getOrderV3({
      id: String(orderId),
    })
    expect(order).toMatchObject({
      status: 'active',
      user: seller.address.toLowerCase(),
      sell: {
        type: 'ERC721',
        data: { token_address: testErc721(), token_id: seller.tokenId },
      },
      buy: { type: 'ETH', data: { quantity: parseEther('0.5').toString() } },
    })

    // The buyer sees the order appear without reloading, and buys it; the
    // guardian asks the buyer to confirm trades, in the wallet's popup.
    await look(buyer.page)
    const offer = view(buyer.page).locator(
      `[data-testid="starkex-order"][data-order-id="${orderId}"]`,
    )
    await offer.waitFor({ timeout: 20_000 })
    expect(await offer.getAttribute('data-mine')).toBe('false')
    expect(await offer.getByTestId('starkex-order-nft').textContent()).toBe(
      `TestERC721 #${seller.tokenId}`,
    )
    expect(await offer.getByTestId('starkex-order-price').textContent()).toBe(
      '0.5 ETH',
    )
    await setGuardianRules(buyer.address, { confirmStarkEx: ['trade'] })
    try {
      const bought = view(buyer.page).getByTestId('starkex-order-result')
      // Rejected in the popup: no failure, nothing moved.
      const rejecting = buyer.page.waitForEvent('popup')
      await offer.getByTestId('starkex-order-buy').click()
      await (await rejecting).getByTestId('confirmation-reject').click()
      await expect
        .poll(() => bought.getAttribute('data-declined'), poll)
        .toBe('true')
      expect(await bought.textContent()).toBe(
        `You declined it in the wallet: order ${orderId} is as it was.`,
      )
      expect(await buyer.page.getByTestId('starkex-error').count()).toBe(0)
      expect(await ownerOf(seller.tokenId)).toBe(seller.address.toLowerCase())
      expect(await ethOf(buyer.address)).toBe(parseEther('1.25'))
      // Confirmed in the popup: the trade goes through.
      const popup = buyer.page.waitForEvent('popup')
      await offer.getByTestId('starkex-order-buy').click()
      const confirmation = await popup
      await confirmation.getByTestId('confirmation-approve').click()
      await expect
        .poll(() => bought.getAttribute('data-declined'), poll)
        .toBe('false')
      expect(await bought.textContent()).toMatch(
        new RegExp(
          `^Bought TestERC721 #${seller.tokenId} for 0\\.5 ETH \\(trade \\d+\\)\\.$`,
        ),
      )
    } finally {
      await setGuardianRules(buyer.address, null)
    }

    // Both sides moved, on the exchange and in both views.
    expect(await ownerOf(seller.tokenId)).toBe(buyer.address.toLowerCase())
    expect(await ethOf(seller.address)).toBe(parseEther('1.25'))
    expect(await ethOf(buyer.address)).toBe(parseEther('0.75'))
    const { data: filled } = await exchange.ordersApi.getOrderV3({
      id: String(orderId),
    })
    expect(filled.status).toBe('filled')
    await expect
      .poll(() => shownEth(buyer.page), poll)
      .toBe(parseEther('0.75').toString())
    await expect
      .poll(() => shownEth(seller.page), poll)
      .toBe(parseEther('1.25').toString())
    expect(await text(seller.page, 'starkex-balance-eth')).toBe('1.25 ETH')
    expect(await text(buyer.page, 'starkex-balance-eth')).toBe('0.75 ETH')
    await view(buyer.page)
      .locator(`[data-testid="starkex-nft"][data-token-id="${seller.tokenId}"]`)
      .waitFor({ timeout: 20_000 })
    await listedNft.waitFor({ state: 'detached', timeout: 20_000 })
    expect(
      await view(seller.page).locator('[data-testid="starkex-order"]').count(),
    ).toBe(0)

    // The trade, as each side sees it.
    const { data: trades } = await exchange.tradesApi.listTradesV3({
      pageSize: 100,
    })
    const trade = trades.result.find((item) => item.a.order_id === orderId)
    expect(trade).toMatchObject({
      status: 'success',
      a: {
        order_id: orderId,
        token_type: 'ERC721',
        token_id: seller.tokenId,
        sold: '1',
      },
      b: { token_type: 'ETH', sold: parseEther('0.5').toString() },
    })
    for (const [player, role, other] of [
      [seller, 'sold', buyer],
      [buyer, 'bought', seller],
    ] as const) {
      const row = view(player.page).locator(
        `[data-testid="starkex-trade"][data-trade-id="${trade?.transaction_id}"]`,
      )
      await row.waitFor({ timeout: 20_000 })
      expect(await row.getAttribute('data-role')).toBe(role)
      expect(await row.getByTestId('starkex-trade-role').textContent()).toBe(
        role,
      )
      expect(await row.getByTestId('starkex-trade-nft').textContent()).toBe(
        `TestERC721 #${seller.tokenId}`,
      )
      expect(await row.getByTestId('starkex-trade-price').textContent()).toBe(
        '0.5 ETH',
      )
      const withWhom = row.getByTestId('starkex-trade-with')
      await withWhom.waitFor()
      expect(
        getAddress(String(await withWhom.getAttribute('data-value'))),
      ).toBe(getAddress(other.address))
    }

    // The buyer sends the NFT they minted to the seller.
    const nftTransfer = view(buyer.page).getByTestId('starkex-transfer')
    await nftTransfer
      .getByTestId('starkex-transfer-asset')
      .selectOption(`${testErc721()}:${buyer.tokenId}`)
    expect(
      await nftTransfer.getByTestId('starkex-transfer-amount').count(),
    ).toBe(0)
    await nftTransfer
      .getByTestId('starkex-transfer-receiver')
      .fill(seller.address)
    await nftTransfer.getByTestId('starkex-transfer-submit').click()
    const nftSent = nftTransfer.getByTestId('starkex-transfer-result')
    await expect
      .poll(() => nftSent.textContent(), poll)
      .toMatch(
        new RegExp(
          `^Sent TestERC721 #${buyer.tokenId} to ${seller.address.slice(0, 6)}…${seller.address.slice(-4)} \\(transfer \\d+\\)\\.$`,
        ),
      )
    expect(await ownerOf(buyer.tokenId)).toBe(seller.address.toLowerCase())
    await look(seller.page)
    await view(seller.page)
      .locator(`[data-testid="starkex-nft"][data-token-id="${buyer.tokenId}"]`)
      .waitFor({ timeout: 20_000 })
    await view(buyer.page)
      .locator(`[data-testid="starkex-nft"][data-token-id="${buyer.tokenId}"]`)
      .waitFor({ state: 'detached', timeout: 20_000 })

    // Each side's transfers, sent and received, newest first, as the
    // exchange lists them.
    const { data: sentBySeller } = await exchange.transfersApi.listTransfers({
      user: seller.address,
    })
    const { data: sentByBuyer } = await exchange.transfersApi.listTransfers({
      user: buyer.address,
    })
    expect(sentBySeller.result).toHaveLength(1)
    expect(sentByBuyer.result).toHaveLength(1)
    const ethTransfer = sentBySeller.result[0]
    const nftMove = sentByBuyer.result[0]
    expect(ethTransfer).toMatchObject({
      receiver: buyer.address.toLowerCase(),
      token: { type: 'ETH', data: { quantity: parseEther('0.25').toString() } },
    })
    expect(nftMove).toMatchObject({
      receiver: seller.address.toLowerCase(),
      token: {
        type: 'ERC721',
        data: { token_address: testErc721(), token_id: buyer.tokenId },
      },
    })
    const rows = async (page: Page) => {
      const list = view(page).getByTestId('starkex-transfer-row')
      await expect.poll(() => list.count(), poll).toBe(2)
      return Promise.all(
        (await list.all()).map(async (row) => ({
          id: Number(await row.getAttribute('data-transfer-id')),
          direction: await row.getAttribute('data-direction'),
          what: await row.getByTestId('starkex-transfer-what').textContent(),
          party: await row
            .getByTestId('starkex-transfer-party')
            .getAttribute('data-value'),
        })),
      )
    }
    expect(await rows(seller.page)).toEqual([
      {
        id: nftMove?.transaction_id,
        direction: 'received',
        what: `TestERC721 #${buyer.tokenId}`,
        party: buyer.address.toLowerCase(),
      },
      {
        id: ethTransfer?.transaction_id,
        direction: 'sent',
        what: '0.25 ETH',
        party: buyer.address.toLowerCase(),
      },
    ])
    expect(await rows(buyer.page)).toEqual([
      {
        id: nftMove?.transaction_id,
        direction: 'sent',
        what: `TestERC721 #${buyer.tokenId}`,
        party: seller.address.toLowerCase(),
      },
      {
        id: ethTransfer?.transaction_id,
        direction: 'received',
        what: '0.25 ETH',
        party: seller.address.toLowerCase(),
      },
    ])

    // An order the buyer's ETH does not cover: the view says by how much
    // and offers no Buy.
    await look(seller.page)
    const dearOrder = await listFor('1', buyer.tokenId)
    await look(buyer.page)
    const dear = view(buyer.page).locator(
      `[data-testid="starkex-order"][data-order-id="${dearOrder}"]`,
    )
    await dear.waitFor({ timeout: 20_000 })
    expect(await dear.getByTestId('starkex-order-buy').isDisabled()).toBe(true)
    expect(await dear.getByTestId('starkex-order-short').textContent()).toBe(
      'needs 0.25 ETH more',
    )

    // Nothing failed on either page, and the layout holds at both widths.
    for (const player of [seller, buyer]) {
      expect(await player.page.getByTestId('starkex-error').count()).toBe(0)
      expect(
        await player.page.evaluate(
          () =>
            document.documentElement.scrollWidth <=
            document.documentElement.clientWidth,
        ),
      ).toBe(true)
    }
    await view(seller.page).screenshot({
      path: screenshot('playground-starkex-1280'),
      // The sticky top bar would cover the section's top.
      style: '.top-bar { visibility: hidden }',
    })
    await view(buyer.page).screenshot({
      path: screenshot('playground-starkex-1920'),
      // The sticky top bar would cover the section's top.
      style: '.top-bar { visibility: hidden }',
    })
    expect(pg.errors).toEqual([])
  }, 300_000)

  /** Sets (or, with `null`, removes) one StarkEx player's guardian rules. */
  async function setGuardianRules(
    wallet: string,
    rules: { confirmStarkEx: readonly string[] } | null,
  ) {
    const response = await fetch(
      `${pg.info.passport.apiUrl}/dev/guardian/rules?wallet=${wallet}`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rules),
      },
    )
    expect(response.status).toBe(200)
  }
})
