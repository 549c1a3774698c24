import { mkdir } from 'node:fs/promises'
import {
  type Browser,
  type BrowserContext,
  chromium,
  type FrameLocator,
  type Page,
} from 'playwright-core'
import {
  type Address,
  createPublicClient,
  erc20Abi,
  type Hex,
  http,
  parseEther,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { slots } from '../../src/emulator/ports.js'
import { chromiumArgs } from '../../vitest.config.js'
import { canConnect, type Spawned, start, tsx } from './process.js'

const artifacts = new URL('../artifacts/', import.meta.url)
const screenshot = (name: string) => new URL(`${name}.png`, artifacts).pathname

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
  let info: {
    rpcUrl: string
    mailbox: string
    contracts: Record<string, Address>
  }
  let chain: ReturnType<typeof createPublicClient>
  const errors: string[] = []
  const email = freshEmail('playground')
  let address: Address

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
    info = JSON.parse(lines[1]!)
    chain = createPublicClient({ transport: http(info.rpcUrl) })
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: chromiumArgs,
    })
    context = await browser.newContext({
      viewport: { width: 1100, height: 800 },
    })
    page = await context.newPage()
    page.on('pageerror', (error) => errors.push(error.message))
    await mkdir(artifacts, { recursive: true })
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
    await page.setViewportSize({ width: 1100, height: 800 })
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

    address = (await textOf(page, 'account-address', (text) =>
      /^0x[0-9a-fA-F]{40}$/.test(text),
    )) as Address
    await expect
      .poll(() => page.getByTestId('magic-user-email').textContent(), poll)
      .toBe(email)
    expect(await page.getByTestId('account-connector').textContent()).toBe(
      'Magic (wagmi connector magic)',
    )
    // A new user of the emulated wallet starts with 100 ETH and no tokens.
    expect(await chain.getBalance({ address })).toBe(parseEther('100'))
    await expect
      .poll(() => page.getByTestId('balance-eth').textContent(), poll)
      .toBe('100')
    await expect
      .poll(() => page.getByTestId('balance-erc20').textContent(), poll)
      .toBe('0')
    expect(await page.getByTestId('balance-erc721').textContent()).toBe('0')
    expect(await page.getByTestId('transactions-empty').count()).toBe(1)
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    expect(errors).toEqual([])
  })

  test('behavior: mints test tokens, sends ETH and TEST, and each hash opens its receipt', async () => {
    await page.getByTestId('get-tokens').click()
    await expect
      .poll(() => page.getByTestId('balance-erc20').textContent(), poll)
      .toBe('100')
    await expect
      .poll(() => page.getByTestId('balance-erc721').textContent(), poll)
      .toBe('1')
    expect(await tokenBalance(info.contracts.erc20!, address)).toBe(
      parseEther('100'),
    )

    await page.getByTestId('send-to').fill(recipient)
    await page.getByTestId('send-amount').fill('0.25')
    await page.getByTestId('send-submit').click()
    await waitForTransactions(page, 3)
    await page.getByTestId('send-asset').selectOption('TEST')
    await page.getByTestId('send-amount').fill('2.5')
    await page.getByTestId('send-submit').click()
    await waitForTransactions(page, 4)

    const rows = page.getByTestId('transaction')
    expect(
      await rows.getByTestId('transaction-label').allTextContents(),
    ).toEqual([
      'Send 2.5 TEST to 0x7099…79C8',
      'Send 0.25 ETH to 0x7099…79C8',
      'Mint 1 test NFT',
      'Mint 100 TEST',
    ])
    await expect
      .poll(() => page.getByTestId('balance-erc20').textContent(), poll)
      .toBe('97.5')
    expect(await tokenBalance(info.contracts.erc20!, recipient)).toBe(
      parseEther('2.5'),
    )

    // The ETH transfer's hash opens its receipt, which matches the chain's.
    const sendEth = rows.nth(1)
    const hash = (await sendEth.getByTestId('tx-hash').textContent()) as Hex
    expect(await sendEth.getByTestId('tx-receipt').count()).toBe(0)
    await sendEth.getByTestId('tx-hash').click()
    const receipt = await chain.getTransactionReceipt({ hash })
    const shown = sendEth.getByTestId('tx-receipt')
    expect(await shown.getByTestId('receipt-status').textContent()).toBe(
      'success',
    )
    expect(await shown.getByTestId('receipt-block').textContent()).toBe(
      receipt.blockNumber.toString(),
    )
    expect(await shown.getByTestId('receipt-from').textContent()).toBe(
      address.toLowerCase(),
    )
    expect(await shown.getByTestId('receipt-to').textContent()).toBe(
      recipient.toLowerCase(),
    )
    const transaction = await chain.getTransaction({ hash })
    expect(transaction.value).toBe(parseEther('0.25'))
    expect(transaction.from).toBe(address.toLowerCase())
    await sendEth.getByTestId('tx-hash').click()
    expect(await shown.count()).toBe(0)
    expect(errors).toEqual([])
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
      .textContent()) as Hex
    expect(await verifyMessage({ address, message, signature })).toBe(true)
    expect(await page.getByTestId('sign-message-signer').textContent()).toBe(
      address,
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
      .textContent()) as Hex
    expect(
      await verifyTypedData({
        ...typedData,
        address,
        signature: typedSignature,
      }),
    ).toBe(true)
    expect(await page.getByTestId('typed-signer').textContent()).toBe(address)

    const firstHash = page.getByTestId('tx-hash').first()
    await firstHash.click()
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({
      path: screenshot('playground-magic'),
      fullPage: true,
    })
    await firstHash.click()

    // Editing the message drops the result, which described the old text.
    await page.getByTestId('sign-message-input').fill(`${message}!`)
    expect(await page.getByTestId('sign-message-result').count()).toBe(0)
    expect(await page.getByTestId('typed-result').count()).toBe(1)
    expect(errors).toEqual([])
  })

  test("behavior: a failure shows in the banner with the wallet's own message", async () => {
    // What the form can tell by itself is said next to the field.
    await page.getByTestId('send-asset').selectOption('ETH')
    await page.getByTestId('send-to').fill('0x1234')
    await page.getByTestId('send-submit').click()
    expect(await page.locator('#send-to-problem').textContent()).toBe(
      'Enter an address: 0x and 40 hex digits.',
    )
    expect(await page.getByTestId('wallet-error').count()).toBe(0)

    // What the wallet refuses goes to the banner.
    await page.getByTestId('send-to').fill(recipient)
    await page.getByTestId('send-amount').fill('1000000')
    await page.getByTestId('send-submit').click()
    await page.getByTestId('wallet-error').waitFor()
    const text = await page.getByTestId('wallet-error').textContent()
    expect(text).toMatch(/^Send 1000000 ETH to 0x7099…79C8 failed: /)
    expect(text).toContain(
      'Magic RPC Error: [-32603] Insufficient funds for gas * price + value',
    )
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: screenshot('playground-error') })

    await page.getByTestId('wallet-error-dismiss').click()
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    expect(errors).toEqual([])
  })

  test('behavior: the event log reads one line an event, JSON on demand, and clears', async () => {
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
    expect(errors).toEqual([])
  })

  test('behavior: a logout in another tab disconnects this one and clears what it showed', async () => {
    const other = await context.newPage()
    other.on('pageerror', (error) => errors.push(error.message))
    await other.goto(`http://127.0.0.1:${ports.playground}/`)
    // The same session: wagmi reconnects the other tab to the same account.
    expect(
      await textOf(other, 'account-address', (text) => text === address),
    ).toBe(address)
    await other.getByTestId('disconnect').click()
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

    const otherAddress = await textOf(page, 'account-address', (text) =>
      /^0x[0-9a-fA-F]{40}$/.test(text),
    )
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
    await page.getByTestId('disconnect').click()
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

  async function mailboxCode(to: string): Promise<string> {
    const deadline = Date.now() + 10_000
    while (Date.now() < deadline) {
      const response = await fetch(
        `${info.mailbox}?to=${encodeURIComponent(to)}`,
      )
      const [message] = (await response.json()) as { code?: string }[]
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

/** The iframe wallet's screens, once they show over the page. */
async function walletScreens(page: Page): Promise<FrameLocator> {
  const shown = page.locator('iframe.magic-iframe').filter({ visible: true })
  await shown.waitFor()
  return page.frameLocator('iframe.magic-iframe >> visible=true')
}

/** Waits until the page lists `count` transactions, all mined successfully. */
async function waitForTransactions(page: Page, count: number) {
  const rows = page.getByTestId('transaction')
  await expect.poll(() => rows.count(), poll).toBe(count)
  await expect
    .poll(
      () =>
        rows.evaluateAll((items) =>
          items.every((item) => item.getAttribute('data-status') === 'success'),
        ),
      poll,
    )
    .toBe(true)
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
