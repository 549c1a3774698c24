import { mkdir } from 'node:fs/promises'
import {
  type Browser,
  type BrowserContext,
  chromium,
  type FrameLocator,
  type Locator,
  type Page,
} from 'playwright-core'
import {
  type Address,
  createPublicClient,
  decodeEventLog,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  formatEther,
  getAddress,
  type Hex,
  http,
  keccak256,
  pad,
  parseAbi,
  parseEther,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { explain } from '../../playground/src/ui/explain.js'
import { trimDecimals } from '../../playground/src/ui/format.js'
import type { Info } from '../../src/emulator/index.js'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { slots } from '../../src/emulator/ports.js'
import { chromiumArgs } from '../../vitest.config.js'
import {
  artifacts,
  connectGameWallet,
  disconnect,
  type Playground,
  screenshot,
} from './playgroundHarness.js'
import { canConnect, type Spawned, start, tsx } from './process.js'

/** Anvil's second test account, the send form's default recipient. */
const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** `expect.poll`'s options: the page follows the chain once a second. */
const poll = { timeout: 20_000 }

// `npm start` runs `node --import tsx scripts/start.ts`; the test runs the
// same without npm's wrapper process, which would not pass SIGINT on. The
// playground is driven as a person would: through its forms, the dev
// mailbox and the iframe wallet's own screens; what it shows is checked
// against the chain.
describe('npm start', () => {
  let app: Spawned | undefined
  let browser: Browser | undefined
  let context: BrowserContext
  let page: Page
  let ports: { base: number; anvil: number; playground: number }
  let lines: string[]
  let info: Info
  let chain: ReturnType<typeof createPublicClient>
  const errors: string[] = []
  const email = freshEmail('playground')
  let address: Address
  // The shared harness's view of this suite's own \`npm start\`, for its
  // connect helpers (this suite also checks the start-up lines and SIGINT).
  let playground: Playground

  beforeAll(async () => {
    ports = {
      base: await findFreePortRange(slots.length),
      anvil: await findFreePort(),
      playground: await findFreePort(),
    }
    app = start(process.execPath, [
      ...tsx,
      'scripts/start.ts',
      '--port-base',
      String(ports.base),
      '--anvil-port',
      String(ports.anvil),
      '--playground-port',
      String(ports.playground),
    ])
    lines = [
      await app.nextLine({ timeout: 60_000 }),
      await app.nextLine({ timeout: 5_000 }),
      await app.nextLine({ timeout: 5_000 }),
    ]
    info = JSON.parse(lines[1]!) as Info
    chain = createPublicClient({ transport: http(info.rpcUrl) })
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: chromiumArgs,
    })
    context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
    })
    page = await context.newPage()
    page.on('pageerror', (error) => errors.push(error.message))
    await mkdir(artifacts, { recursive: true })
    const opened = browser
    playground = {
      info,
      origin: `http://127.0.0.1:${ports.playground}`,
      browser: opened,
      errors,
      async open(viewport = { width: 1280, height: 900 }) {
        const other = await (await opened.newContext({ viewport })).newPage()
        other.on('pageerror', (error) => errors.push(error.message))
        await other.goto(`http://127.0.0.1:${ports.playground}/`)
        return other
      },
      mailboxCode,
      async stop() {},
    }
  })

  afterAll(async () => {
    await browser?.close().catch(() => {})
    app?.kill()
  })

  test("default: prints the playground URL, the emulator JSON line and the UI's page", () => {
    expect(lines[0]).toBe(`Playground: http://127.0.0.1:${ports.playground}/`)
    expect(JSON.parse(lines[1]!)).toMatchObject({
      chainId: 31337,
      rpcUrl: `http://127.0.0.1:${ports.anvil}`,
      mailbox: `http://127.0.0.1:${ports.base}/mailbox`,
      ui: `http://127.0.0.1:${ports.base}/ui`,
    })
    expect(lines[2]).toBe(`Emulator UI: http://127.0.0.1:${ports.base}/ui`)
  })

  test('behavior: the page says what it is, follows the chain and lists the ways to connect', async () => {
    await page.goto(`http://127.0.0.1:${ports.playground}/`)
    const intro = page.getByTestId('intro')
    await expect
      .poll(
        () => intro.getByRole('heading', { name: 'Try this first' }).count(),
        poll,
      )
      .toBe(1)
    expect(await intro.textContent()).toContain('Email me a code')

    expect(await textOf(page, 'chain-id', (text) => text === '31337')).toBe(
      '31337',
    )
    const before = Number(
      await textOf(page, 'block-number', (text) => /^\d+$/.test(text)),
    )
    expect(before).toBe(Number(await chain.getBlockNumber()))
    await rpc(ports.anvil, 'evm_mine')
    const after = Number(
      await textOf(page, 'block-number', (text) => Number(text) > before),
    )
    expect(after).toBe(before + 1)

    // One Connect button; its modal lists every way in, grouped by rdns:
    // each wagmi connector beside its own wallet's EIP-6963 announcement.
    expect(await page.getByTestId('connect-modal').count()).toBe(0)
    await page.getByTestId('connect-open').click()
    const modal = page.getByTestId('connect-modal')
    expect(
      await modal
        .getByRole('heading', { name: /through its wagmi connector/ })
        .allTextContents(),
    ).toEqual([
      'Magic: the iframe wallet, through its wagmi connector',
      'Immutable Passport: the game wallet, through its wagmi connector',
    ])
    await expect
      .poll(
        () =>
          modal
            .getByTestId('announced-wallet')
            .evaluateAll((buttons) =>
              buttons.map((button) => button.getAttribute('data-rdns')),
            ),
        poll,
      )
      .toEqual(['link.magic', 'com.immutable.passport'])
    expect(
      await modal
        .getByTestId('wallet-group')
        .evaluateAll((groups) =>
          groups.map((group) => group.getAttribute('data-rdns')),
        ),
    ).toEqual(['link.magic', 'com.immutable.passport'])
    // Each of ours once: no other wallet is listed apart from its connector.
    expect(await modal.getByTestId('providers-empty').count()).toBe(1)
    expect(
      await modal
        .getByTestId('wallet-group')
        .filter({ hasText: 'Immutable Passport' })
        .getByTestId('provider-name')
        .allTextContents(),
    ).toEqual([
      'Connect Immutable Passport',
      'Connect Immutable Passport (EIP-6963)',
    ])
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.screenshot({ path: screenshot('playground-connect-modal') })

    // Cancelling is not an error: the close button, Escape, the backdrop.
    await modal.getByTestId('connect-close').click()
    expect(await page.getByTestId('connect-modal').count()).toBe(0)
    await page.getByTestId('connect-open').click()
    await page.keyboard.press('Escape')
    expect(await page.getByTestId('connect-modal').count()).toBe(0)
    await page.getByTestId('connect-open').click()
    await page.mouse.click(5, 5)
    expect(await page.getByTestId('connect-modal').count()).toBe(0)
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    await page.getByTestId('connect-open').click()

    // Every link into the dev mailbox opens a new tab.
    const mailboxLinks = page.locator(`a[href^="${info.mailbox}"]`)
    expect(await mailboxLinks.count()).toBeGreaterThanOrEqual(3)
    for (const target of await mailboxLinks.evaluateAll((links) =>
      links.map((link) => link.getAttribute('target')),
    ))
      expect(target).toBe('_blank')

    await page.screenshot({ path: screenshot('playground'), fullPage: true })
    expect(errors).toEqual([])
  })

  test('behavior: logs in with an email code and shows the real balances', async () => {
    await page.getByTestId('magic-email').fill(email)
    await page.getByTestId('magic-login-headless').click()
    await page.getByTestId('magic-code').waitFor()
    // A wrong code first: the form says so and asks again.
    await page.getByTestId('magic-code').fill('000000')
    await page.getByTestId('magic-code-submit').click()
    await page.getByTestId('magic-code-problem').waitFor()
    expect(await page.getByTestId('magic-code-problem').textContent()).toBe(
      'Wrong code, try again.',
    )
    await page.getByTestId('magic-code').fill(await mailboxCode(email))
    await page.getByTestId('magic-code-submit').click()

    address = await accountAddress(page)
    await expect
      .poll(() => page.getByTestId('magic-user-email').textContent(), poll)
      .toBe(email)
    expect(await page.getByTestId('account-connector').textContent()).toBe(
      'Magic (wagmi connector magic)',
    )
    // A new user of the emulated wallet starts with 100 ETH and no tokens.
    expect(await chain.getBalance({ address })).toBe(parseEther('100'))
    await expectText(page, 'balance-eth', '100')
    await expectText(page, 'balance-erc20', '0')
    await page.getByTestId('nfts-empty').waitFor({ timeout: poll.timeout })
    expect(await page.getByTestId('transactions-empty').count()).toBe(1)
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    expect(errors).toEqual([])
  })

  test('behavior: gets test tokens: TEST, and an NFT that shows as an item from the indexer; the dev-chain faucet adds ETH', async () => {
    // "Get test tokens": 100 TEST and an NFT, two transactions.
    await page.getByTestId('get-tokens').click()
    await expectText(page, 'balance-erc20', '100')
    expect(await tokenBalance(info.contracts.erc20, address)).toBe(
      parseEther('100'),
    )
    const mint = page
      .getByTestId('transaction')
      .filter({ hasText: 'Mint 1 test NFT' })
    await expect
      .poll(() => mint.getAttribute('data-status'), poll)
      .toBe('success')
    const receipt = await chain.getTransactionReceipt({
      hash: (await mint
        .getByTestId('tx-hash')
        .getAttribute('data-value')) as Hex,
    })
    const [log] = receipt.logs
    const { args } = decodeEventLog({
      abi: nftTransfer,
      topics: log!.topics,
      data: log!.data,
    })
    expect(args.to).toBe(address)
    const tokenId = args.tokenId.toString()

    // The item, once the indexer has followed the block.
    const card = page.locator(`[data-testid="nft"][data-token-id="${tokenId}"]`)
    await card.waitFor({ timeout: poll.timeout })
    expect(await card.getAttribute('data-contract')).toBe(
      info.contracts.testErc721.toLowerCase(),
    )
    expect(await card.getByTestId('nft-name').textContent()).toBe(
      `Test NFT ${tokenId}`,
    )
    expect(await card.getByTestId('nft-collection').textContent()).toBe(
      'Test NFT',
    )
    expect(await card.getByTestId('nft-token-id').textContent()).toBe(tokenId)
    // No image in its metadata: a placeholder drawn from the token id.
    expect(await card.getByTestId('nft-placeholder').textContent()).toBe(
      `#${tokenId}`,
    )
    expect(await page.getByTestId('nft').count()).toBe(1)

    // The faucet adds exactly 1 ETH to what the mints' gas left.
    const before = await chain.getBalance({ address })
    await page.getByTestId('faucet-eth').click()
    await expect
      .poll(() => chain.getBalance({ address }), poll)
      .toBe(before + parseEther('1'))
    await expectText(
      page,
      'balance-eth',
      trimDecimals(formatEther(before + parseEther('1'))),
    )
    expect(await page.getByTestId('faucet-eth').textContent()).toBe(
      'Add 1 test ETH (dev-chain faucet)',
    )
    expect(errors).toEqual([])
  })

  test('behavior: the send form refuses what the balance cannot pay before anything is sent, and says why next to the field', async () => {
    const submit = page.getByTestId('send-submit')
    const problem = page.getByTestId('send-amount-problem')
    const eth = trimDecimals(formatEther(await chain.getBalance({ address })))
    await expectText(page, 'send-balance', `Balance: ${eth} ETH`)

    await page.getByTestId('send-amount').fill('1000000')
    expect(await problem.textContent()).toBe(
      `More than your balance of ${eth} ETH.`,
    )
    expect(await submit.isDisabled()).toBe(true)
    // All of it: nothing would be left for the network fee.
    await page.getByTestId('send-amount').fill(eth)
    expect(await problem.textContent()).toMatch(
      /^That leaves too little for the network fee \(about 0\.0000\d+ ETH\): send at most \d+\.\d+ ETH\.$/,
    )
    expect(await submit.isDisabled()).toBe(true)

    await page.getByTestId('send-asset').selectOption('TEST')
    await expectText(page, 'send-balance', 'Balance: 100 TEST')
    await page.getByTestId('send-amount').fill('100.5')
    expect(await problem.textContent()).toBe(
      'More than your balance of 100 TEST.',
    )
    expect(await submit.isDisabled()).toBe(true)
    await page.getByTestId('send-amount').fill('100')
    expect(await problem.count()).toBe(0)
    expect(await submit.isEnabled()).toBe(true)

    await page.getByTestId('send-amount').fill('1.2.3')
    expect(await problem.textContent()).toBe(
      'Enter a positive amount, e.g. 0.01 (at most 18 decimals).',
    )
    expect(await submit.isDisabled()).toBe(true)
    await page.getByTestId('send-amount').fill('1')
    await page.getByTestId('send-to').fill('0x1234')
    expect(await page.getByTestId('send-to-problem').textContent()).toBe(
      'Enter an address: 0x and 40 hex digits.',
    )
    expect(await submit.isDisabled()).toBe(true)
    await page.getByTestId('send-to').fill(recipient)
    expect(await submit.isEnabled()).toBe(true)
    // Nothing reached the wallet or the chain.
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    expect(await page.getByTestId('transaction').count()).toBe(2)
    expect(errors).toEqual([])
  })

  test('behavior: each send shows a pending toast that turns confirmed with its block; a send the chain would revert reads as the decoded error', async () => {
    // The chain holds what it is sent until told to mine, so that the
    // pending state can be seen; the account's balance is what the last
    // block says, which is what the form checks.
    await rpc(ports.anvil, 'evm_setAutomine', [false])
    try {
      await page.getByTestId('send-asset').selectOption('ETH')
      await page.getByTestId('send-amount').fill('0.25')
      await page.getByTestId('send-submit').click()
      const ethToast = toast(page, 'Send 0.25 ETH to 0x7099…79C8')
      await ethToast.waitFor({ timeout: poll.timeout })
      expect(await ethToast.getAttribute('data-state')).toBe('pending')
      expect(await ethToast.getByTestId('toast-status').textContent()).toBe(
        'Pending: waiting for the chain…',
      )

      await page.getByTestId('send-asset').selectOption('TEST')
      await page.getByTestId('send-amount').fill('60')
      await expect
        .poll(() => page.getByTestId('send-submit').isEnabled())
        .toBe(true)
      await page.getByTestId('send-submit').click()
      const testToast = toast(page, 'Send 60 TEST to 0x7099…79C8')
      await testToast.waitFor({ timeout: poll.timeout })
      expect(await testToast.getAttribute('data-state')).toBe('pending')

      // A second 60 TEST before the first is mined: the form sees 100 TEST
      // and lets it through; the wallet's gas estimate runs on the pending
      // state, where 40 are left, and the token reverts.
      await expect
        .poll(() => page.getByTestId('send-submit').isEnabled())
        .toBe(true)
      await page.getByTestId('send-submit').click()
      await page.getByTestId('wallet-error').waitFor({ timeout: poll.timeout })
      expect(await page.getByTestId('wallet-error-title').textContent()).toBe(
        'The contract refused the transaction',
      )
      expect(await page.getByTestId('wallet-error').textContent()).toBe(
        `Send 60 TEST to 0x7099…79C8 failed: ERC20InsufficientBalance(sender ${address}, balance 40000000000000000000, needed 60000000000000000000)`,
      )
      expect(await page.getByTestId('wallet-error-next').textContent()).toBe(
        'Send at most the token balance, or get more test tokens first.',
      )
      // The raw error stays behind the expander.
      const detail = page.getByTestId('wallet-error-detail')
      expect(await detail.isVisible()).toBe(false)
      expect(await detail.textContent()).toContain('custom error 0xe450d38c')
      await page.evaluate(() => window.scrollTo(0, 0))
      await page.screenshot({ path: screenshot('playground-wallet-revert') })

      await rpc(ports.anvil, 'evm_mine')
      // Not viem's cached number (kept for 4 s): the chain's, now.
      const block = await chain.getBlockNumber({ cacheTime: 0 })
      for (const shown of [ethToast, testToast]) {
        await expect
          .poll(() => shown.getAttribute('data-state'), poll)
          .toBe('confirmed')
        expect(await shown.getByTestId('toast-status').textContent()).toBe(
          `Confirmed in block ${block}`,
        )
      }
      const hash = (await ethToast
        .getByTestId('toast-hash')
        .getAttribute('data-value')) as Hex
      expect((await chain.getTransactionReceipt({ hash })).blockNumber).toBe(
        block,
      )
    } finally {
      await rpc(ports.anvil, 'evm_setAutomine', [true])
    }
    await page.screenshot({ path: screenshot('playground-wallet-toasts') })

    // Dismissed at once, or gone by themselves a few seconds after settling.
    await toast(page, 'Send 60 TEST to 0x7099…79C8')
      .getByTestId('toast-dismiss')
      .click()
    expect(await toast(page, 'Send 60 TEST to 0x7099…79C8').count()).toBe(0)
    await expect
      .poll(() => page.getByTestId('toast').count(), { timeout: 15_000 })
      .toBe(0)
    await page.getByTestId('wallet-error-dismiss').click()
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    await expectText(page, 'balance-erc20', '40')
    expect(errors).toEqual([])
  })

  test("behavior: the recent transactions list the account's sends newest first; a receipt's logs are decoded", async () => {
    const rows = page.getByTestId('transaction')
    expect(
      await rows.getByTestId('transaction-label').allTextContents(),
    ).toEqual([
      'Send 60 TEST to 0x7099…79C8',
      'Send 0.25 ETH to 0x7099…79C8',
      'Mint 1 test NFT',
      'Mint 100 TEST',
    ])
    expect(
      await rows.evaluateAll((items) =>
        items.map((item) => item.getAttribute('data-status')),
      ),
    ).toEqual(['success', 'success', 'success', 'success'])

    // The TEST transfer's receipt: one Transfer of the test token.
    const sendTest = rows.first()
    const hash = (await sendTest
      .getByTestId('tx-hash')
      .getAttribute('data-value')) as Hex
    expect(await sendTest.getByTestId('tx-receipt').count()).toBe(0)
    await sendTest.getByTestId('tx-open').click()
    const receipt = await chain.getTransactionReceipt({ hash })
    const shown = sendTest.getByTestId('tx-receipt')
    expect(await shown.getByTestId('receipt-status').textContent()).toBe(
      'success',
    )
    expect(await shown.getByTestId('receipt-block').textContent()).toBe(
      receipt.blockNumber.toString(),
    )
    expect(
      await shown.getByTestId('receipt-from').getAttribute('data-value'),
    ).toBe(address.toLowerCase())
    expect(
      await shown.getByTestId('receipt-to').getAttribute('data-value'),
    ).toBe(info.contracts.erc20.toLowerCase())
    const logs = shown.getByTestId('receipt-log')
    expect(await logs.count()).toBe(1)
    expect(await logs.getByTestId('log-event').textContent()).toBe('Transfer')
    expect(await logs.getByTestId('log-emitter').textContent()).toBe(
      'TestERC20 (TEST)',
    )
    expect(await argsOf(logs)).toEqual([
      ['from', address],
      ['to', recipient],
      ['value', '60000000000000000000'],
    ])
    expect(await logs.getByTestId('log-arg-tokens').textContent()).toBe(
      ' (60 TEST)',
    )
    expect(await tokenBalance(info.contracts.erc20, recipient)).toBe(
      parseEther('60'),
    )

    // The NFT's mint: ERC-721's Transfer, the token id indexed.
    const mint = rows.filter({ hasText: 'Mint 1 test NFT' })
    await mint.getByTestId('tx-open').click()
    const tokenId = await page
      .getByTestId('nft')
      .first()
      .getAttribute('data-token-id')
    expect(await argsOf(mint.getByTestId('receipt-log'))).toEqual([
      ['from', '0x0000000000000000000000000000000000000000'],
      ['to', address],
      ['tokenId', tokenId],
    ])
    await page.getByTestId('panel-transactions').scrollIntoViewIfNeeded()
    await page.screenshot({
      path: screenshot('playground-wallet-receipt'),
      fullPage: true,
    })
    await mint.getByTestId('tx-open').click()
    await sendTest.getByTestId('tx-open').click()
    expect(await shown.count()).toBe(0)
    expect(errors).toEqual([])
  })

  test('behavior: a transaction that reverts on chain turns its toast failed, with the reason in words', async () => {
    // The balance changes between the wallet's estimate and the block: the
    // test empties the account's TEST balance in the token's storage
    // (OpenZeppelin's `_balances` mapping, slot 0) while the send waits.
    const slot = keccak256(
      encodeAbiParameters(
        [{ type: 'address' }, { type: 'uint256' }],
        [address, 0n],
      ),
    )
    const stored = (await rpc(ports.anvil, 'eth_getStorageAt', [
      info.contracts.erc20,
      slot,
      'latest',
    ])) as Hex
    expect(BigInt(stored)).toBe(parseEther('40'))
    await rpc(ports.anvil, 'evm_setAutomine', [false])
    try {
      await page.getByTestId('send-asset').selectOption('TEST')
      await page.getByTestId('send-amount').fill('10')
      await page.getByTestId('send-submit').click()
      const sent = toast(page, 'Send 10 TEST to 0x7099…79C8')
      await sent.waitFor({ timeout: poll.timeout })
      expect(await sent.getAttribute('data-state')).toBe('pending')
      await rpc(ports.anvil, 'anvil_setStorageAt', [
        info.contracts.erc20,
        slot,
        pad('0x0', { size: 32 }),
      ])
      await rpc(ports.anvil, 'evm_mine')
      await expect
        .poll(() => sent.getAttribute('data-state'), poll)
        .toBe('failed')
      const reason = `ERC20InsufficientBalance(sender ${address}, balance 0, needed 10000000000000000000)`
      await expect
        .poll(() => sent.getByTestId('toast-status').textContent(), poll)
        .toBe(`Failed: ${reason}`)
      const row = page.getByTestId('transaction').first()
      expect(await row.getByTestId('transaction-label').textContent()).toBe(
        'Send 10 TEST to 0x7099…79C8',
      )
      expect(await row.getAttribute('data-status')).toBe('reverted')
      await row.getByTestId('tx-open').click()
      expect(await row.getByTestId('receipt-status').textContent()).toBe(
        'reverted',
      )
      expect(await row.getByTestId('receipt-reason').textContent()).toBe(reason)
      expect(await row.getByTestId('receipt-no-logs').count()).toBe(1)
      await row.getByTestId('tx-open').click()
      await sent.getByTestId('toast-dismiss').click()
    } finally {
      await rpc(ports.anvil, 'evm_setAutomine', [true])
      await rpc(ports.anvil, 'anvil_setStorageAt', [
        info.contracts.erc20,
        slot,
        stored,
      ])
    }
    // A block, so that the page reads the balance again.
    await rpc(ports.anvil, 'evm_mine')
    await expectText(page, 'balance-erc20', '40')
    expect(errors).toEqual([])
  })

  test('behavior: the revert the iframe wallet relays as text is the one Anvil answers, and explain reads it', async () => {
    // What Anvil itself answers for a transfer beyond the balance, read
    // through viem as the page's wagmi client would: the same words.
    const error = await chain
      .estimateGas({
        account: address,
        to: info.contracts.erc20,
        data: encodeTransfer(recipient, parseEther('1000')),
      })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      )
    expect(explain(error)).toMatchObject({
      kind: 'revert',
      message: `ERC20InsufficientBalance(sender ${address}, balance 40000000000000000000, needed 1000000000000000000000)`,
    })
  })

  test('behavior: signs a message and typed data, showing what was signed and who signed it', async () => {
    const message = `Signed in the e2e test at ${Date.now()}`
    await page.getByTestId('sign-message-input').fill(message)
    await page.getByTestId('sign-message-submit').click()
    await page.getByTestId('sign-message-result').waitFor()
    expect(await page.getByTestId('sign-message-signed').textContent()).toBe(
      message,
    )
    const signature = (await page
      .getByTestId('sign-message-signature')
      .getAttribute('data-value')) as Hex
    expect(await verifyMessage({ address, message, signature })).toBe(true)
    // Shortened on the page: the whole value is one click away.
    expect(await page.getByTestId('sign-message-signature').textContent()).toBe(
      `${signature.slice(0, 6)}…${signature.slice(-4)}`,
    )
    expect(
      await page.getByTestId('sign-message-signer').getAttribute('data-value'),
    ).toBe(address)
    expect(await page.getByTestId('sign-message-mine').textContent()).toBe(
      '✓ your account',
    )
    const contents = 'See you at block 100.'
    await page.getByTestId('typed-contents').fill(contents)
    const typedData = JSON.parse(
      (await page.getByTestId('typed-data-preview').textContent()) ?? '',
    )
    expect(typedData).toEqual({
      domain: {
        name: 'embedded-wallets playground',
        version: '1',
        chainId: 31337,
      },
      types: {
        Mail: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'contents', type: 'string' },
        ],
      },
      primaryType: 'Mail',
      message: { from: address, to: recipient, contents },
    })
    await page.getByTestId('typed-submit').click()
    await page.getByTestId('typed-result').waitFor()
    const typedSignature = (await page
      .getByTestId('typed-signature')
      .getAttribute('data-value')) as Hex
    expect(
      await verifyTypedData({
        ...typedData,
        address,
        signature: typedSignature,
      }),
    ).toBe(true)
    expect(
      await page.getByTestId('typed-signer').getAttribute('data-value'),
    ).toBe(address)

    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({
      path: screenshot('playground-magic'),
      fullPage: true,
    })

    // Editing the message drops the result, which described the old text.
    await page.getByTestId('sign-message-input').fill(`${message}!`)
    expect(await page.getByTestId('sign-message-result').count()).toBe(0)
    expect(await page.getByTestId('typed-result').count()).toBe(1)
    expect(errors).toEqual([])
  })

  test('behavior: the event log reads one line an event, JSON on demand, and clears', async () => {
    // The log lives in the dev drawer.
    await page.getByTestId('dev-open').click()
    const log = page.getByTestId('event-log')
    const lines = await log.locator('li').allTextContents()
    expect(lines.some((line) => line.includes(' wagmi connected — '))).toBe(
      true,
    )
    expect(
      lines.some((line) =>
        line.includes(' login email-otp-sent — the code is in the dev mailbox'),
      ),
    ).toBe(true)
    // The JSON shows only when asked for.
    expect(await log.getByTestId('event-json').count()).toBe(0)
    const connected = log
      .locator('li')
      .filter({ hasText: ' wagmi connected — ' })
    await connected.getByTestId('event-json-toggle').click()
    expect(
      JSON.parse((await connected.getByTestId('event-json').textContent())!),
    ).toEqual({ address, connector: { id: 'link.magic', type: 'magic' } })

    await page.getByTestId('event-log-clear').click()
    expect(await page.getByTestId('event-log-empty').count()).toBe(1)
    await page.getByTestId('dev-close').click()
    expect(errors).toEqual([])
  })

  test('behavior: a logout in another tab disconnects this one and clears what it showed', async () => {
    const other = await context.newPage()
    other.on('pageerror', (error) => errors.push(error.message))
    await other.goto(`http://127.0.0.1:${ports.playground}/`)
    // The same session: wagmi reconnects the other tab to the same account.
    expect(await accountAddress(other)).toBe(address)
    await other.getByTestId('chip-disconnect').click()
    await other.getByTestId('connect-open').waitFor()
    await other.close()

    // This tab was not told: it notices by asking the wallet again.
    await page.getByTestId('connect-open').waitFor({ timeout: 15_000 })
    expect(await page.getByTestId('panel-account').count()).toBe(0)
    expect(await page.getByTestId('panel-transactions').count()).toBe(0)
    const lines = await page
      .getByTestId('event-log')
      .locator('li')
      .allTextContents()
    expect(
      lines.some((line) =>
        line.includes(
          ' provider accountsChanged — no account: the session is gone',
        ),
      ),
    ).toBe(true)
    expect(lines.some((line) => line.includes(' wagmi disconnected'))).toBe(
      true,
    )
    expect(errors).toEqual([])
  })

  test('behavior: the announced wallet connects through its own login screens', async () => {
    const other = freshEmail('announced')
    await page.getByTestId('connect-open').click()
    await page
      .locator('[data-testid="announced-wallet"][data-rdns="link.magic"]')
      .click()
    const screens = await walletScreens(page)
    await screens.getByTestId('login-email-input').fill(other)
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: screenshot('playground-wallet-screens') })
    await screens.getByTestId('login-email-submit').click()
    await screens.getByTestId('email-otp-input').fill(await mailboxCode(other))
    await screens.getByTestId('email-otp-submit').click()

    const otherAddress = await accountAddress(page)
    expect(otherAddress).not.toBe(address)
    expect(await page.getByTestId('account-connector').textContent()).toBe(
      'Magic (its EIP-6963 provider, wagmi injected)',
    )
    await expect
      .poll(() => page.getByTestId('magic-user-email').textContent(), poll)
      .toBe(other)
    // Nothing of the first account is left on the page.
    expect(await page.getByTestId('transactions-empty').count()).toBe(1)
    expect(await page.getByTestId('sign-message-result').count()).toBe(0)

    // The chip names the wallet the page connected: its announcement.
    expect(await page.getByTestId('chip-wallet').textContent()).toBe('Magic')
    expect(await page.getByTestId('chip-address').getAttribute('title')).toBe(
      otherAddress,
    )
    await page.getByTestId('chip-disconnect').click()
    await page.getByTestId('connect-open').waitFor()
    expect(await page.getByTestId('account-chip').count()).toBe(0)
    expect(errors).toEqual([])
  })

  test("behavior: closing the wallet's login screens is a cancel, not an error", async () => {
    // The announced wallet's disconnect kept the wallet's session (only the
    // page forgot it): connecting through the connector needs no login.
    await page.getByTestId('connect-open').click()
    await page.getByTestId('magic-login-ui').click()
    await page.getByTestId('account-address').waitFor()
    await page.getByTestId('chip-disconnect').click()
    await page.getByTestId('connect-open').waitFor()

    // Logged out now: the connector opens the wallet's screens; close them.
    await page.getByTestId('connect-open').click()
    await page.getByTestId('magic-login-ui').click()
    const screens = await walletScreens(page)
    await screens.getByTestId('login-email-input').hover()
    await screens.getByTestId('close').click()
    await expect
      .poll(
        () => page.getByTestId('event-log').locator('li').allTextContents(),
        poll,
      )
      .toContainEqual(expect.stringContaining(' login cancelled'))
    expect(await page.getByTestId('magic-email').isEnabled()).toBe(true)
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    expect(errors).toEqual([])
  })

  test('behavior: the game wallet, connected through the Connect modal, gets the same account view, send form, toasts and decoded receipts', async () => {
    // Closing the game wallet's login popup is a cancel, not an error.
    const cancelled = page.waitForEvent('popup')
    await page
      .locator('[data-testid="connector"][data-rdns="com.immutable.passport"]')
      .click()
    await (await cancelled).close()
    await expect
      .poll(() => page.getByTestId('magic-email').isEnabled(), poll)
      .toBe(true)
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    await page.getByTestId('connect-close').click()

    const game = await connectGameWallet(playground, page, freshEmail('game'))
    expect(await accountAddress(page)).toBe(game)
    expect(await page.getByTestId('account-connector').textContent()).toBe(
      'Immutable Passport (wagmi connector passport)',
    )
    // A new smart-contract wallet: no ETH of its own, no tokens, no NFTs,
    // and none of the other account's transactions.
    await expectText(page, 'balance-eth', '0')
    await expectText(page, 'balance-erc20', '0')
    await page.getByTestId('nfts-empty').waitFor({ timeout: poll.timeout })
    expect(await page.getByTestId('transactions-empty').count()).toBe(1)

    await page.getByTestId('send-asset').selectOption('ETH')
    await page.getByTestId('send-to').fill(recipient)
    await page.getByTestId('send-amount').fill('0.001')
    expect(await page.getByTestId('send-amount-problem').textContent()).toBe(
      'More than your balance of 0 ETH.',
    )
    expect(await page.getByTestId('send-submit').isDisabled()).toBe(true)

    await page.getByTestId('faucet-eth').click()
    await expectText(page, 'balance-eth', '1')
    expect(await chain.getBalance({ address: game })).toBe(parseEther('1'))
    // The relayer pays the gas: the whole balance may be sent.
    await page.getByTestId('send-amount').fill('1')
    expect(await page.getByTestId('send-amount-problem').count()).toBe(0)

    // The wallet's first transaction deploys it; the NFT shows as an item.
    await page.getByTestId('mint-nft').click()
    const mint = page
      .getByTestId('transaction')
      .filter({ hasText: 'Mint 1 test NFT' })
    await expect
      .poll(() => mint.getAttribute('data-status'), poll)
      .toBe('success')
    const mintHash = (await mint
      .getByTestId('tx-hash')
      .getAttribute('data-value')) as Hex
    const minted = (await chain.getTransactionReceipt({ hash: mintHash })).logs
      .filter((log) => log.address === info.contracts.testErc721.toLowerCase())
      .map(
        (log) =>
          decodeEventLog({
            abi: nftTransfer,
            topics: log.topics,
            data: log.data,
          }).args,
      )
    expect(minted).toHaveLength(1)
    const tokenId = minted[0]!.tokenId.toString()
    expect(minted[0]!.to).toBe(game)
    await page
      .locator(`[data-testid="nft"][data-token-id="${tokenId}"]`)
      .waitFor({ timeout: poll.timeout })

    // A send through the same form: pending, then confirmed with its block.
    const before = await chain.getBalance({ address: recipient })
    await page.getByTestId('send-amount').fill('0.001')
    await page.getByTestId('send-submit').click()
    const sent = toast(page, 'Send 0.001 ETH to 0x7099…79C8')
    await sent.waitFor({ timeout: poll.timeout })
    await expect
      .poll(() => sent.getAttribute('data-state'), poll)
      .toBe('confirmed')
    const sentHash = (await sent
      .getByTestId('toast-hash')
      .getAttribute('data-value')) as Hex
    const sentReceipt = await chain.getTransactionReceipt({ hash: sentHash })
    expect(await sent.getByTestId('toast-status').textContent()).toBe(
      `Confirmed in block ${sentReceipt.blockNumber}`,
    )
    expect(await chain.getBalance({ address: recipient })).toBe(
      before + parseEther('0.001'),
    )
    const rows = page.getByTestId('transaction')
    expect(
      await rows.getByTestId('transaction-label').allTextContents(),
    ).toEqual(['Send 0.001 ETH to 0x7099…79C8', 'Mint 1 test NFT'])

    // The mint's receipt: relayed to the wallet, which calls the NFT; its
    // logs are the wallet's own events and the NFT's Transfer, all named.
    await mint.getByTestId('tx-open').click()
    const logs = mint.getByTestId('receipt-log')
    // Through the guest module, which deploys the wallet and calls it.
    expect(
      await logs.evaluateAll((items) =>
        items.map((item) => [
          item.getAttribute('data-event'),
          item.querySelector('[data-testid="log-emitter"]')?.textContent,
        ]),
      ),
    ).toEqual([
      ['TxExecuted', 'Sequence guest module'],
      ['NonceChange', 'your wallet'],
      ['Transfer', 'TestERC721 (TNFT)'],
      ['TxExecuted', 'your wallet'],
      ['TxExecuted', 'Sequence guest module'],
    ])
    expect(
      await argsOf(logs.filter({ has: page.getByText('TestERC721 (TNFT)') })),
    ).toEqual([
      ['from', '0x0000000000000000000000000000000000000000'],
      ['to', game],
      ['tokenId', tokenId],
    ])
    await page.getByTestId('panel-account').scrollIntoViewIfNeeded()
    await page.screenshot({
      path: screenshot('playground-game-wallet'),
      fullPage: true,
    })
    await page.setViewportSize({ width: 1920, height: 1080 })
    await page.screenshot({
      path: screenshot('playground-game-wallet-1920'),
      fullPage: true,
    })
    await page.setViewportSize({ width: 1280, height: 900 })
    await mint.getByTestId('tx-open').click()

    // The same sign form: the wallet is a contract, deployed by now, so the
    // chain checks its signature with ERC-1271.
    await page.getByTestId('sign-message-input').fill('From the game wallet')
    await page.getByTestId('sign-message-submit').click()
    await page.getByTestId('sign-message-result').waitFor({ timeout: 30_000 })
    const signature = (await page
      .getByTestId('sign-message-signature')
      .getAttribute('data-value')) as Hex
    expect(
      await chain.verifyMessage({
        address: game,
        message: 'From the game wallet',
        signature,
      }),
    ).toBe(true)
    expect(
      await page.getByTestId('sign-message-signer').getAttribute('data-value'),
    ).toBe(game)
    expect(await page.getByTestId('sign-message-mine').textContent()).toBe(
      '✓ your account',
    )

    // A send the guardian wants confirmed, rejected in its popup: the
    // banner says who said no and that nothing was sent.
    await setRule(page, 'game-rule-value', true)
    try {
      await page.getByTestId('send-amount').fill('0.02')
      const opened = page.waitForEvent('popup')
      await page.getByTestId('send-submit').click()
      await (await opened)
        .getByTestId('confirmation-reject')
        .click()
        .catch(() => {})
      await page.getByTestId('wallet-error').waitFor({ timeout: poll.timeout })
      expect(await page.getByTestId('wallet-error-title').textContent()).toBe(
        'You rejected the request',
      )
      expect(await page.getByTestId('wallet-error').textContent()).toBe(
        'Send 0.02 ETH to 0x7099…79C8 failed: Transaction rejected by user',
      )
      expect(await page.getByTestId('wallet-error-next').textContent()).toBe(
        'Nothing was sent or signed; try again when you are ready.',
      )
    } finally {
      await setRule(page, 'game-rule-value', false)
    }
    await page.getByTestId('wallet-error-dismiss').click()
    await page.getByTestId('send-amount').fill('0.001')

    // The guardian unavailable: its popup says so, the player closes it,
    // and the banner names the class of the failure and what to do.
    await setRule(page, 'game-rule-unavailable', true)
    try {
      const opened = page.waitForEvent('popup')
      await page.getByTestId('send-submit').click()
      const popup = await opened
      await popup
        .getByTestId('confirmation-close')
        .click()
        .catch((error: unknown) => {
          if (!popup.isClosed()) throw error
        })
      await page.getByTestId('wallet-error').waitFor({ timeout: poll.timeout })
      expect(await page.getByTestId('wallet-error-title').textContent()).toBe(
        'The wallet’s service is unavailable',
      )
      expect(await page.getByTestId('wallet-error').textContent()).toBe(
        'Send 0.001 ETH to 0x7099…79C8 failed: SERVICE_UNAVAILABLE_ERROR: Service unavailable. The guardian is unavailable.',
      )
      expect(await page.getByTestId('wallet-error-next').textContent()).toBe(
        'Wait a moment and try again; the wallet’s backend is not answering right now.',
      )
      await page.getByTestId('wallet-error-detail-toggle').click()
      expect(
        await page.getByTestId('wallet-error-detail').textContent(),
      ).toContain('(code -32000): Service unavailable')
      await page.evaluate(() => window.scrollTo(0, 0))
      await page.screenshot({
        path: screenshot('playground-wallet-unavailable'),
      })
    } finally {
      await setRule(page, 'game-rule-unavailable', false)
    }
    await page.getByTestId('wallet-error-dismiss').click()
    await disconnect(page)
    expect(errors).toEqual([])
  })

  test('behavior: SIGINT stops the playground and the emulator and exits 0', async () => {
    await page.close()
    app!.child.kill('SIGINT')
    expect(await app!.exited({ timeout: 20_000 })).toEqual({
      code: 0,
      signal: null,
    })
    for (const port of [ports.playground, ports.anvil, ports.base])
      expect(await canConnect(port)).toBe(false)
  })

  async function mailboxCode(to: string, kind?: string): Promise<string> {
    const deadline = Date.now() + 10_000
    while (Date.now() < deadline) {
      const response = await fetch(
        `${info.mailbox}?to=${encodeURIComponent(to)}`,
      )
      const messages = (await response.json()) as {
        kind: string
        code?: string
      }[]
      const message = messages.find(
        (item) => item.code && (kind === undefined || item.kind === kind),
      )
      if (message?.code) return message.code
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`no code for ${to}`)
  }

  function tokenBalance(token: Address, owner: Address): Promise<bigint> {
    return chain.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [owner],
    })
  }
})

/** A fresh address, so that codes and users never mix between runs. */
function freshEmail(label: string): string {
  return `${label}-${Date.now()}@example.com`
}

/** ERC-721's Transfer, to read a mint's token id from its receipt. */
const nftTransfer = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
])

/** The calldata of an ERC-20 `transfer`. */
function encodeTransfer(to: Address, value: bigint): Hex {
  return encodeFunctionData({
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, value],
  })
}

/** The connected account's address, once the account view shows one. */
async function accountAddress(page: Page): Promise<Address> {
  const shown = page.getByTestId('account-address')
  await shown.waitFor({ timeout: poll.timeout })
  return getAddress((await shown.getAttribute('data-value')) ?? '')
}

/** Waits until the element's text is `text`. */
async function expectText(page: Page, testId: string, text: string) {
  await expect
    .poll(() => page.getByTestId(testId).textContent(), poll)
    .toBe(text)
}

/** The toast of the transaction labelled `label`. */
function toast(page: Page, label: string): Locator {
  return page.getByTestId('toast').filter({
    has: page.getByTestId('toast-label').getByText(label, { exact: true }),
  })
}

/** A decoded log's arguments: name and full value, in order. */
async function argsOf(log: Locator): Promise<(string | null)[][]> {
  return log
    .getByTestId('log-arg')
    .evaluateAll((items) =>
      items.map((item) => [
        item.getAttribute('data-name'),
        item.getAttribute('data-value'),
      ]),
    )
}

/**
 * Turns a guardian rule on or off; the box follows the rules the emulator
 * answers, so it changes once they are saved.
 */
async function setRule(page: Page, testId: string, on: boolean) {
  const box = page.getByTestId(testId)
  if ((await box.isChecked()) !== on) await box.click()
  await expect.poll(() => box.isChecked(), poll).toBe(on)
}

/** The iframe wallet's screens, once they show over the page. */
async function walletScreens(page: Page): Promise<FrameLocator> {
  const shown = page.locator('iframe.magic-iframe').filter({ visible: true })
  await shown.waitFor()
  return page.frameLocator('iframe.magic-iframe >> visible=true')
}

/** Waits until the element's text passes `accept`, and returns the text. */
async function textOf(
  page: Page,
  testId: string,
  accept: (text: string) => boolean,
  timeout = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeout
  let text: string | null = null
  while (Date.now() < deadline) {
    text = await page
      .getByTestId(testId)
      .textContent({ timeout: deadline - Date.now() })
    if (text !== null && accept(text)) return text
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${testId} still shows ${JSON.stringify(text)}.`)
}

async function rpc(
  port: number,
  method: string,
  params: unknown[] = [],
): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${port}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: unknown; error?: unknown }
  if ('error' in body) throw new Error(JSON.stringify(body.error))
  return body.result
}
