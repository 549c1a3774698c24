import { mkdir } from 'node:fs/promises'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { slots } from '../../src/emulator/ports.js'
import { chromiumArgs } from '../../vitest.config.js'
import { canConnect, type Spawned, start, tsx } from './process.js'

const screenshot = new URL('../artifacts/playground.png', import.meta.url)
const magicScreenshot = new URL(
  '../artifacts/playground-magic.png',
  import.meta.url,
)

// `npm start` runs `tsx scripts/start.ts`; the test runs the same without
// npm's wrapper process, which would not pass SIGINT on.
describe('npm start', () => {
  let app: Spawned | undefined
  let browser: Browser | undefined
  let page: Page
  let ports: { base: number; anvil: number; playground: number }
  let lines: string[]

  beforeAll(async () => {
    ports = {
      base: await findFreePortRange(slots.length),
      anvil: await findFreePort(),
      playground: await findFreePort(),
    }
    app = start(process.execPath, [
      tsx,
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
    ]
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: chromiumArgs,
    })
    page = await browser.newPage({ viewport: { width: 1100, height: 800 } })
  })

  afterAll(async () => {
    await browser?.close().catch(() => {})
    app?.kill()
  })

  test('default: prints the playground URL and the emulator JSON line', () => {
    expect(lines[0]).toBe(`Playground: http://127.0.0.1:${ports.playground}/`)
    expect(JSON.parse(lines[1]!)).toMatchObject({
      chainId: 31337,
      rpcUrl: `http://127.0.0.1:${ports.anvil}`,
      mailbox: `http://127.0.0.1:${ports.base}/mailbox`,
    })
  })

  test('behavior: the page shows the chain id and the live block number', async () => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`http://127.0.0.1:${ports.playground}/`)

    expect(await textOf(page, 'chain-id', (text) => text === '31337')).toBe(
      '31337',
    )
    const before = Number(
      await textOf(page, 'block-number', (text) => /^\d+$/.test(text)),
    )
    expect(before).toBe(await rpcBlockNumber(ports.anvil))
    // The iframe wallet's wagmi connector; the panel's own client also
    // announces itself through EIP-6963, and wagmi skips that duplicate rdns.
    await page.getByTestId('provider-rdns').first().waitFor()
    expect(await page.getByTestId('provider-rdns').allTextContents()).toEqual([
      'link.magic',
    ])

    await rpc(ports.anvil, 'evm_mine')
    const after = Number(
      await textOf(page, 'block-number', (text) => Number(text) > before),
    )
    expect(after).toBe(before + 1)

    await mkdir(new URL('.', screenshot), { recursive: true })
    await page.screenshot({ path: screenshot.pathname, fullPage: true })
    expect(errors).toEqual([])
  })

  test('behavior: the iframe wallet panel logs in headless and sends a transaction', async () => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    const email = `playground-${Date.now()}@example.com`
    await page.getByTestId('magic-email').fill(email)
    await page.getByTestId('magic-login-headless').click()
    await page.getByTestId('magic-code').waitFor()
    await page.getByTestId('magic-code').fill(await mailboxCode(email))
    await page.getByTestId('magic-code-submit').click()

    const address = await textOf(page, 'magic-user-address', (text) =>
      /^0x[0-9a-fA-F]{40}$/.test(text),
    )
    expect(await page.getByTestId('magic-user-email').textContent()).toBe(email)

    await page.getByTestId('magic-send').click()
    const output = JSON.parse(
      await textOf(page, 'magic-output', (text) => text.includes('"status"')),
    )
    expect(output.status).toBe('success')
    const transaction = (await rpc(ports.anvil, 'eth_getTransactionByHash', [
      output.hash,
    ])) as { from: string }
    expect(transaction.from.toLowerCase()).toBe(address.toLowerCase())

    await page.screenshot({ path: magicScreenshot.pathname, fullPage: true })
    expect(errors).toEqual([])
  })

  async function mailboxCode(to: string): Promise<string> {
    const deadline = Date.now() + 10_000
    while (Date.now() < deadline) {
      const response = await fetch(
        `http://127.0.0.1:${ports.base}/mailbox?to=${encodeURIComponent(to)}`,
      )
      const [message] = (await response.json()) as { code?: string }[]
      if (message?.code) return message.code
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`no code for ${to}`)
  }

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
})

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

async function rpcBlockNumber(port: number): Promise<number> {
  return Number(await rpc(port, 'eth_blockNumber'))
}
