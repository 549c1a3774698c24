import type { Locator, Page } from 'playwright-core'
import {
  type Address,
  createPublicClient,
  createTestClient,
  getAddress,
  type Hex,
  http,
  parseAbi,
  parseEther,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Seaport from '../../playground/src/market/seaport.js'
import { createConfig, mr } from '../../src/api/index.js'
import {
  connectGameWallet,
  connectIframeWallet,
  disconnect,
  freshEmail,
  type Playground,
  screenshot,
  startPlayground,
} from './playgroundHarness.js'

/*
 * The playground's marketplace, driven as people would: a player of the
 * game wallet mints a test NFT and lists it, a user of the iframe wallet
 * buys it, and the trade shows with its exact parties and price; then the
 * other way round, and a listing cancelled by its maker. The order book,
 * the indexer and the chain are read beside the page to check what it
 * shows.
 */

let pg: Playground
let chain: ReturnType<typeof createPublicClient>
let orders: mr.OrdersApi
let chainName: string

const nftAbi = parseAbi([
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function royaltyInfo(uint256 tokenId, uint256 salePrice) view returns (address, uint256)',
])

/** `expect.poll`'s options: a block, the book's and the indexer's next read. */
const poll = { timeout: 30_000, interval: 250 }

beforeAll(async () => {
  pg = await startPlayground()
  chain = createPublicClient({ transport: http(pg.info.rpcUrl) })
  const config = createConfig({ basePath: pg.info.passport.apiUrl })
  orders = new mr.OrdersApi(config)
  const { data } = await new mr.ChainsApi(config).listChains()
  const found = data.result.find(
    (item) => item.id === `eip155:${pg.info.chainId}`,
  )
  chainName = found?.name ?? ''
}, 120_000)

afterAll(async () => {
  await pg?.stop()
})

/**
 * The game wallet's confirmation windows the page opens, by address; each
 * is answered as the player would: with the next of `answers`, approve
 * when none is left (the login popup is not one).
 */
function confirmPopups(page: Page): {
  readonly urls: string[]
  readonly answers: ('approve' | 'reject')[]
} {
  const seen = { urls: [] as string[], answers: [] as ('approve' | 'reject')[] }
  page.on('popup', (popup) => {
    void (async () => {
      await popup.waitForLoadState('domcontentloaded').catch(() => undefined)
      if (!popup.url().includes('/transaction-confirmation/')) return
      seen.urls.push(popup.url())
      const answer = seen.answers.shift() ?? 'approve'
      await popup
        .getByTestId(`confirmation-${answer}`)
        .click()
        .catch(() => undefined)
    })()
  })
  return seen
}

/**
 * Clicks the game wallet's Try again whenever its blocked-popup overlay
 * shows (the browser refused a window outside a click), as the player
 * would; `stop()` ends the watch and answers how many times it did.
 */
function retryBlockedPopups(page: Page): { stop(): number } {
  let clicks = 0
  let stopped = false
  // The blocked overlay only: the generic one, shown while the window is
  // open, re-launches it (a person who sees the window uses it).
  const button = page
    .getByTestId('passport-overlay')
    .filter({ hasText: 'Pop-up blocked.' })
    .getByTestId('passport-overlay-try-again')
  void (async () => {
    while (!stopped) {
      try {
        await button.waitFor({ state: 'visible', timeout: 1_000 })
        await button.click({ timeout: 1_000 })
        clicks++
      } catch {
        // Not shown (or gone before the click): look again.
      }
    }
  })()
  return {
    stop() {
      stopped = true
      return clicks
    },
  }
}

/** Sets the guardian's rules for one game wallet (its dev route). */
async function setGuardianRules(wallet: Address, rules: object | null) {
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

/**
 * Mints `tokenId` of the platform's collection to `owner` as a game's
 * backend does: a mint request with the platform's secret key (which a
 * page never holds), waited for until the chain has it.
 */
async function mintWithBackend(owner: Address, tokenId: bigint) {
  const nfts = new mr.NftsApi(
    createConfig({
      basePath: pg.info.passport.apiUrl,
      headers: { 'x-immutable-api-key': pg.info.passport.apiKey },
    }),
  )
  const referenceId = crypto.randomUUID()
  const request = {
    chainName,
    contractAddress: pg.info.contracts.erc721,
  }
  const accepted = await nfts.createMintRequest({
    ...request,
    createMintRequestRequest: {
      assets: [
        {
          reference_id: referenceId,
          owner_address: owner,
          token_id: String(tokenId),
          metadata: { name: 'Sword' },
        },
      ],
    },
  })
  expect(accepted.status).toBe(202)
  await expect
    .poll(
      async () =>
        (await nfts.getMintRequest({ ...request, referenceId })).data.result[0]
          ?.status,
      poll,
    )
    .toBe('succeeded')
}

/** The test NFT's contract, which the view's dev button mints. */
const testNft = (): Address => getAddress(pg.info.contracts.testErc721)

/** The row of the NFT `tokenId` (of the test NFT's contract) in "Your NFTs". */
function nftRow(page: Page, tokenId: bigint, contract = testNft()): Locator {
  return page.locator(
    `[data-testid="market-nft"][data-contract="${getAddress(contract)}"][data-token-id="${tokenId}"]`,
  )
}

/** The row of the listing of the NFT `tokenId` in "Listings". */
function listingRow(
  page: Page,
  tokenId: bigint,
  contract = testNft(),
): Locator {
  return page.locator(
    `[data-testid="market-listing"][data-contract="${getAddress(contract)}"][data-token-id="${tokenId}"]`,
  )
}

/** Mints a test NFT with the view's dev button; answers its id. */
async function mint(page: Page, owner: Address): Promise<bigint> {
  const market = page.getByTestId('panel-market')
  const before = await ownedIds(page)
  await market.getByTestId('market-mint').click()
  await expect
    .poll(() => orFailure(page, market.getByTestId('market-mint-step')), poll)
    .toMatch(/^Minted Test NFT #\d+\.$/)
  const text =
    (await market.getByTestId('market-mint-step').textContent()) ?? ''
  const tokenId = BigInt(/#(\d+)/.exec(text)?.[1] ?? '-1')
  expect(await ownerOf(tokenId)).toBe(owner)
  // The indexer lists it under the account's NFTs.
  await expect.poll(() => ownedIds(page), poll).toEqual([...before, tokenId])
  return tokenId
}

/**
 * The text of `locator`, or the marketplace's failure when the banner
 * shows one: a poll on it fails with what went wrong.
 */
async function orFailure(page: Page, locator: Locator): Promise<string> {
  const failure = page.getByTestId('market-error')
  if (await failure.count()) return `failure: ${await failure.textContent()}`
  return (await locator.textContent()) ?? ''
}

/** The test NFTs "Your NFTs" shows, by id. */
async function ownedIds(page: Page): Promise<bigint[]> {
  const ids = await page
    .getByTestId('panel-market')
    .locator(`[data-testid="market-nft"][data-contract="${testNft()}"]`)
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-token-id')))
  return ids.map((id) => BigInt(id ?? '-1')).sort((a, b) => Number(a - b))
}

function ownerOf(tokenId: bigint, contract = testNft()): Promise<Address> {
  return chain.readContract({
    address: contract,
    abi: nftAbi,
    functionName: 'ownerOf',
    args: [tokenId],
  })
}

/** Lists the NFT for `price` (ETH) with its List button; answers the listing. */
async function list(
  page: Page,
  seller: Address,
  tokenId: bigint,
  price: string,
  contract = testNft(),
): Promise<mr.Order> {
  const row = nftRow(page, tokenId, contract)
  await row.getByTestId('market-price').fill(price)
  const button = row.getByTestId('market-list')
  expect(await button.textContent()).toBe(`List for ${price} ETH`)
  await button.click()
  await expect
    .poll(() => orFailure(page, row.getByTestId('market-nft-listed')), poll)
    .toBe(`Listed for ${price} ETH, ACTIVE`)
  const { data } = await orders.listListings({
    chainName,
    accountAddress: seller,
    sellItemTokenId: String(tokenId),
  })
  expect(data.result).toHaveLength(1)
  const [listing] = data.result as [mr.Order]
  expect(listing).toMatchObject({
    type: 'LISTING',
    account_address: seller.toLowerCase(),
    buy: [{ type: 'NATIVE', amount: String(parseEther(price)) }],
    sell: [
      {
        type: 'ERC721',
        contract_address: contract.toLowerCase(),
        token_id: String(tokenId),
      },
    ],
    status: { name: 'ACTIVE' },
    protocol_data: {
      order_type: 'FULL_RESTRICTED',
      zone_address: pg.info.contracts.signedZone.toLowerCase(),
      seaport_address: pg.info.contracts.seaport.toLowerCase(),
      seaport_version: '1.5',
    },
  })
  // The page's Seaport module hashes the order as the seaport does.
  const components = Seaport.fromBook(listing)
  expect(Seaport.orderHash(components)).toBe(listing.order_hash)
  expect(
    await chain.readContract({
      address: pg.info.contracts.seaport as Address,
      abi: Seaport.abi,
      functionName: 'getOrderHash',
      args: [components],
    }),
  ).toBe(listing.order_hash)
  // The listing as Listings shows it, to its maker: no Buy, a Cancel.
  const shown = listingRow(page, tokenId, contract)
  await expect
    .poll(() => shown.getByTestId('market-listing-status').textContent(), poll)
    .toBe('ACTIVE')
  expect(await shown.getAttribute('data-listing-id')).toBe(listing.id)
  expect(await shown.getByTestId('market-listing-price').textContent()).toBe(
    `${price} ETH`,
  )
  expect(
    await shown.getByTestId('market-listing-seller').getAttribute('data-value'),
  ).toBe(seller.toLowerCase())
  expect(await shown.getByTestId('market-buy').count()).toBe(0)
  expect(await shown.getByTestId('market-cancel').count()).toBe(1)
  return listing
}

/**
 * Buys the listing with its Buy button and checks everything a sale
 * changes: the listing FILLED, the trade (page and book) with the exact
 * parties, price and fee, the NFT and the ETH on chain, the buyer's NFTs.
 */
async function buy(
  page: Page,
  listing: mr.Order,
  parties: { seller: Address; buyer: Address },
  price: string,
  collection = 'Test NFT',
) {
  const { seller, buyer } = parties
  const item = listing.sell[0] as { contract_address: string; token_id: string }
  const contract = getAddress(item.contract_address)
  const tokenId = BigInt(item.token_id)
  const wei = parseEther(price)
  // The book's fees, which the buyer pays on top: its protocol fee (2%)
  // and the collection's ERC-2981 royalty, if it has one.
  const royalty = await chain
    .readContract({
      address: contract,
      abi: nftAbi,
      functionName: 'royaltyInfo',
      args: [tokenId, wei],
    })
    .catch(() => undefined)
  const fees = [
    {
      type: 'PROTOCOL',
      amount: String((wei * 2n) / 100n),
      recipient_address: pg.info.accounts.deployer.address.toLowerCase(),
    },
    ...(royalty && royalty[1] > 0n
      ? [
          {
            type: 'ROYALTY',
            amount: String(royalty[1]),
            recipient_address: royalty[0].toLowerCase(),
          },
        ]
      : []),
  ]
  const fee = fees.reduce((sum, item) => sum + BigInt(item.amount), 0n)
  const row = listingRow(page, tokenId, contract)
  await expect
    .poll(() => row.getByTestId('market-listing-status').textContent(), poll)
    .toBe('ACTIVE')
  expect(await row.getByTestId('market-cancel').count()).toBe(0)
  const button = row.getByTestId('market-buy')
  const total = (await chain.getBalance({ address: seller })) + wei
  expect(await button.textContent()).toBe(`Buy for ${formatEth(wei + fee)} ETH`)
  const buyerBefore = await chain.getBalance({ address: buyer })
  await button.click()
  await expect
    .poll(() => orFailure(page, row.getByTestId('market-listing-status')), poll)
    .toBe('FILLED')
  expect(await row.getByTestId('market-listing-step').textContent()).toBe(
    'Bought: it is yours.',
  )

  // The trade, as the page shows it and as the book has it.
  const trade = page.locator(
    `[data-testid="market-trade"][data-order-id="${listing.id}"]`,
  )
  await trade.waitFor({ timeout: poll.timeout })
  const value = (id: string) => trade.getByTestId(id).getAttribute('data-value')
  expect(await value('market-trade-buyer')).toBe(buyer.toLowerCase())
  expect(await value('market-trade-seller')).toBe(seller.toLowerCase())
  expect(await trade.getByTestId('market-trade-price').textContent()).toBe(
    `${price} ETH`,
  )
  expect(await trade.getByTestId('market-trade-fees').textContent()).toBe(
    `+ ${formatEth(fee)} ETH fees`,
  )
  expect(await trade.getByTestId('market-trade-nft').textContent()).toBe(
    `${collection} #${tokenId}`,
  )
  const hash = (await value('market-trade-tx')) as Hex
  const { data } = await orders.listTrades({ chainName, accountAddress: buyer })
  const [booked] = data.result
  expect(data.result).toHaveLength(1)
  expect(booked).toMatchObject({
    order_id: listing.id,
    buyer_address: buyer.toLowerCase(),
    seller_address: seller.toLowerCase(),
    buy: [{ type: 'NATIVE', amount: String(wei) }],
    sell: listing.sell,
    fees,
    blockchain_metadata: { transaction_hash: hash },
  })
  expect(await trade.getAttribute('data-trade-id')).toBe(booked?.id)

  // On chain: the NFT is the buyer's; the seller got the price exactly,
  // the buyer paid the price, the fee and (an account) its gas.
  const receipt = await chain.getTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect(await ownerOf(tokenId, contract)).toBe(buyer)
  expect(await chain.getBalance({ address: seller })).toBe(total)
  const paid = buyerBefore - (await chain.getBalance({ address: buyer }))
  const gas =
    getAddress(receipt.from) === buyer
      ? receipt.gasUsed * receipt.effectiveGasPrice
      : 0n
  expect(paid).toBe(wei + fee + gas)

  // The buyer's NFTs list it; the listing offers nothing more.
  await nftRow(page, tokenId, contract).waitFor({ timeout: poll.timeout })
  expect(await row.getByTestId('market-buy').count()).toBe(0)
  expect(await row.getByTestId('market-cancel').count()).toBe(0)
}

/** What the page writes for an amount of wei: every digit, no trailing 0. */
function formatEth(wei: bigint): string {
  const whole = wei / 10n ** 18n
  const fraction = (wei % 10n ** 18n)
    .toString()
    .padStart(18, '0')
    .replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : `${whole}`
}

/** Whether nothing of the page is wider than its window. */
async function fits(page: Page) {
  return page.evaluate(() => {
    const market = document.querySelector('[data-testid="panel-market"]')
    return {
      page: document.documentElement.scrollWidth <= window.innerWidth,
      market: market ? market.scrollWidth <= market.clientWidth : false,
    }
  })
}

describe('npm start: the marketplace', () => {
  test('behavior: the game wallet mints and lists a test NFT (ACTIVE, no popup under the default rules); the iframe wallet buys it: FILLED, the trade with its exact buyer, seller and price, the NFT the buyer’s on chain', async () => {
    const page = await pg.open({ width: 1280, height: 900 })
    const popups = confirmPopups(page)
    const market = page.getByTestId('panel-market')
    expect(await market.getByTestId('market-nfts-empty').textContent()).toBe(
      'Connect a wallet to see and list your NFTs.',
    )

    const seller = await connectGameWallet(pg, page, freshEmail('seller'))
    await market.getByTestId('market-nfts-empty').waitFor()
    const tokenId = await mint(page, seller)
    const listing = await list(page, seller, tokenId, '0.25')
    // The guardian's default rules ask nothing: the approval, the
    // signature and the mint went through without a window.
    expect(popups.urls).toEqual([])
    // A smart contract wallet, deployed by its first transaction: the
    // book checked its signature through ERC-1271.
    expect(await chain.getCode({ address: seller })).toMatch(/^0x[0-9a-f]+$/)

    await disconnect(page)
    const buyer = await connectIframeWallet(pg, page, freshEmail('buyer'))
    expect(await chain.getBalance({ address: buyer })).toBe(parseEther('100'))
    await buy(page, listing, { seller, buyer }, '0.25')
    expect(popups.urls).toEqual([])
    // The status filter asks the book for one status.
    const filter = market.getByTestId('market-status-filter')
    await filter.selectOption('ACTIVE')
    await expect.poll(() => listingRow(page, tokenId).count(), poll).toBe(0)
    await filter.selectOption('FILLED')
    await expect
      .poll(
        () =>
          listingRow(page, tokenId)
            .getByTestId('market-listing-status')
            .textContent(),
        poll,
      )
      .toBe('FILLED')
    await filter.selectOption('ALL')

    // The section at both widths, with a listing and a trade in it.
    expect(await fits(page)).toEqual({ page: true, market: true })
    await market.screenshot({
      path: screenshot('playground-market-1280'),
      // The sticky top bar would cover the section's top.
      style: '.top-bar { visibility: hidden }',
    })
    await page.setViewportSize({ width: 1920, height: 1080 })
    expect(await fits(page)).toEqual({ page: true, market: true })
    await market.screenshot({
      path: screenshot('playground-market-1920'),
      // The sticky top bar would cover the section's top.
      style: '.top-bar { visibility: hidden }',
    })
    expect(pg.errors).toEqual([])
    await page.context().close()
  })

  test('behavior: the iframe wallet lists (prices the book could not take refused in the form); a game wallet without ETH is told what is missing, funded, buys it; a listing its maker cancels is CANCELLED and offered to no one', async () => {
    const page = await pg.open({ width: 1280, height: 900 })
    const popups = confirmPopups(page)
    const market = page.getByTestId('panel-market')
    const seller = await connectIframeWallet(pg, page, freshEmail('seller'))
    await market.getByTestId('market-nfts-empty').waitFor()
    const sold = await mint(page, seller)
    const kept = await mint(page, seller)
    // A price the order book could not take is refused in the form.
    const form = nftRow(page, sold)
    for (const [typed, problem] of [
      ['0', 'The price must be more than 0.'],
      ['1,5', 'Enter a price in ETH, e.g. 0.5 (at most 18 decimals).'],
      [
        '0.0000000000000000001',
        'Enter a price in ETH, e.g. 0.5 (at most 18 decimals).',
      ],
    ] as const) {
      await form.getByTestId('market-price').fill(typed)
      expect(await form.getByTestId('market-price-problem').textContent()).toBe(
        problem,
      )
      expect(await form.getByTestId('market-list').isDisabled()).toBe(true)
      expect(await form.getByTestId('market-list').textContent()).toBe('List')
    }
    const listing = await list(page, seller, sold, '0.1')
    const withdrawn = await list(page, seller, kept, '3')

    // The maker cancels the second listing off chain.
    await listingRow(page, kept).getByTestId('market-cancel').click()
    await expect
      .poll(
        () =>
          listingRow(page, kept)
            .getByTestId('market-listing-status')
            .textContent(),
        poll,
      )
      .toBe('CANCELLED')
    expect(
      (await orders.getListing({ chainName, listingId: withdrawn.id })).data
        .result.status,
    ).toEqual({
      name: 'CANCELLED',
      pending: false,
      cancellation_type: 'OFF_CHAIN',
    })
    expect(
      await listingRow(page, kept)
        .getByTestId('market-listing-step')
        .textContent(),
    ).toBe('Cancelled.')
    // Listed no more: the NFT may be listed again.
    await nftRow(page, kept).getByTestId('market-list').waitFor()

    await disconnect(page)
    const buyer = await connectGameWallet(pg, page, freshEmail('buyer'))
    // What the seller's flows ended with is not shown to the next account.
    expect(
      await listingRow(page, kept).getByTestId('market-listing-step').count(),
    ).toBe(0)
    // The game wallet starts without ETH: the page says so rather than
    // asking the wallet; nothing is sold.
    expect(await chain.getBalance({ address: buyer })).toBe(0n)
    await listingRow(page, sold).getByTestId('market-buy').click()
    await page.getByTestId('market-error').waitFor()
    expect(await page.getByTestId('market-error').textContent()).toContain(
      `Buy Test NFT #${sold} for 0.1 ETH failed: This account holds 0 ETH; buying costs 0.102 ETH (the price and the order book’s fees). Add ETH to it first.`,
    )
    expect(
      await listingRow(page, sold)
        .getByTestId('market-listing-status')
        .textContent(),
    ).toBe('ACTIVE')
    expect(popups.urls).toEqual([])
    // The test funds it, as a faucet would.
    await createTestClient({
      mode: 'anvil',
      transport: http(pg.info.rpcUrl),
    }).setBalance({ address: buyer, value: parseEther('1') })
    // Offered to no one once cancelled.
    expect(await listingRow(page, kept).getByTestId('market-buy').count()).toBe(
      0,
    )
    await buy(page, listing, { seller, buyer }, '0.1')
    expect(popups.urls).toEqual([])
    expect(await ownerOf(kept)).toBe(seller)
    expect(pg.errors).toEqual([])
    await page.context().close()
  })

  test('behavior: under guardian rules that confirm contract calls and typed data, the player confirms the mint and the approval, says no to the listing (cancelled, not a failure, nothing listed), then lists', async () => {
    const page = await pg.open({ width: 1280, height: 900 })
    const popups = confirmPopups(page)
    const seller = await connectGameWallet(pg, page, freshEmail('guarded'))
    await setGuardianRules(seller, {
      confirmUnknownContracts: true,
      confirmTypedData: true,
    })
    const overlay = retryBlockedPopups(page)
    try {
      const tokenId = await mint(page, seller)
      const row = nftRow(page, tokenId)
      await row.getByTestId('market-price').fill('1.5')
      // The player confirms the approval, then says no to the signature.
      popups.answers.push('approve', 'reject')
      await row.getByTestId('market-list').click()
      await expect
        .poll(() => orFailure(page, row.getByTestId('market-step')), poll)
        .toBe('Cancelled.')
      expect(await page.getByTestId('market-error').count()).toBe(0)
      const { data } = await orders.listListings({
        chainName,
        accountAddress: seller,
      })
      expect(data.result).toEqual([])

      await list(page, seller, tokenId, '1.5')
      const { passportDomain } = pg.info.passport
      const transaction = `${passportDomain}/transaction-confirmation/zkevm/transaction`
      const message = `${passportDomain}/transaction-confirmation/zkevm/message`
      // The mint, the approval, the refused signature; the signature again
      // (the seaport is approved already).
      expect(popups.urls.map((url) => url.split('?')[0])).toEqual([
        transaction,
        transaction,
        message,
        message,
      ])
    } finally {
      overlay.stop()
      await setGuardianRules(seller, null)
    }
    expect(pg.errors).toEqual([])
    await page.context().close()
  })

  test('behavior: an NFT of the platform’s collection, minted by a game’s backend (the secret key) while the view is off screen (it reads nothing then), is listed by the iframe wallet and bought by a game wallet the same way', async () => {
    const page = await pg.open({ width: 1280, height: 900 })
    const popups = confirmPopups(page)
    const seller = await connectIframeWallet(pg, page, freshEmail('holder'))
    // The view is below the fold: it reads nothing of the book meanwhile.
    const market = page.getByTestId('panel-market')
    const box = await market.boundingBox()
    expect(box && box.y > (page.viewportSize()?.height ?? 0)).toBe(true)
    const tradeReads: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/trades'))
        tradeReads.push(request.url())
    })
    const since = Date.now()
    const erc721 = getAddress(pg.info.contracts.erc721)
    const tokenId = BigInt(Date.now())
    await mintWithBackend(seller, tokenId)
    expect(await ownerOf(tokenId, erc721)).toBe(seller)
    // No read is an absence, seen only over time: two of the view's poll
    // intervals (1.5 s) in all, the mint's time included.
    const left = since + 2 * 1_500 + 200 - Date.now()
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
    expect(tradeReads).toEqual([])
    // On screen, it reads the book and the indexer again, and lists the
    // NFT under the account's.
    await market.scrollIntoViewIfNeeded()
    await expect.poll(() => tradeReads.length, poll).toBeGreaterThan(0)
    const row = nftRow(page, tokenId, erc721)
    await row.waitFor({ timeout: poll.timeout })
    expect(await row.getByTestId('market-nft-name').textContent()).toBe(
      `Emulator ERC-721 #${tokenId}`,
    )
    const listing = await list(page, seller, tokenId, '2', erc721)

    await disconnect(page)
    const buyer = await connectGameWallet(pg, page, freshEmail('collector'))
    await createTestClient({
      mode: 'anvil',
      transport: http(pg.info.rpcUrl),
    }).setBalance({ address: buyer, value: parseEther('3') })
    await buy(page, listing, { seller, buyer }, '2', 'Emulator ERC-721')
    expect(popups.urls).toEqual([])
    expect(pg.errors).toEqual([])
    await page.context().close()
  })
})
