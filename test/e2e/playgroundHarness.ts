import { mkdir } from 'node:fs/promises'
import { type Browser, chromium, type Page } from 'playwright-core'
import { type Address, getAddress } from 'viem'
import type { Info } from '../../src/emulator/index.js'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { slots } from '../../src/emulator/ports.js'
import { chromiumArgs } from '../../vitest.config.js'
import { type Spawned, start, tsx } from './process.js'

/**
 * The playground as `npm start` runs it (Anvil, the emulator, the Vite
 * page), on free ports, with one headless Chromium to drive it. The e2e
 * suites of the playground's views share it so that each drives the page as
 * a person would, through the one Connect modal.
 */
export type Playground = {
  readonly info: Info
  /** The page's origin, `http://127.0.0.1:<port>`. */
  readonly origin: string
  readonly browser: Browser
  /** Page errors (`pageerror`) of every page opened through `open`. */
  readonly errors: string[]
  /** A new page (its own browser context) on the playground. */
  open(viewport?: { width: number; height: number }): Promise<Page>
  /** The latest code the dev mailbox holds for `to` (of `kind` if given). */
  mailboxCode(to: string, kind?: string): Promise<string>
  stop(): Promise<void>
}

/** Where the suites put their screenshots (`test/artifacts/`). */
export const artifacts = new URL('../artifacts/', import.meta.url)

/** The path of the screenshot `name` under `test/artifacts/`. */
export const screenshot = (name: string): string =>
  new URL(`${name}.png`, artifacts).pathname

/** Starts the playground; `stop()` ends it and the browser. */
export async function startPlayground(): Promise<Playground> {
  const base = await findFreePortRange(slots.length)
  const anvil = await findFreePort()
  const port = await findFreePort()
  const app: Spawned = start(process.execPath, [
    ...tsx,
    'scripts/start.ts',
    '--port-base',
    String(base),
    '--anvil-port',
    String(anvil),
    '--playground-port',
    String(port),
  ])
  let browser: Browser | undefined
  try {
    await app.nextLine({ timeout: 60_000 })
    const info = JSON.parse(await app.nextLine({ timeout: 5_000 })) as Info
    await app.nextLine({ timeout: 5_000 })
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: chromiumArgs,
    })
    await mkdir(artifacts, { recursive: true })
    const errors: string[] = []
    const opened = browser
    return {
      info,
      origin: `http://127.0.0.1:${port}`,
      browser: opened,
      errors,
      async open(viewport = { width: 1280, height: 900 }) {
        const context = await opened.newContext({ viewport })
        const page = await context.newPage()
        page.on('pageerror', (error) => errors.push(error.message))
        await page.goto(`http://127.0.0.1:${port}/`)
        return page
      },
      async mailboxCode(to, kind) {
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
      },
      async stop() {
        await opened.close().catch(() => {})
        app.kill()
      },
    }
  } catch (error) {
    await browser?.close().catch(() => {})
    app.kill()
    throw error
  }
}

/** A fresh email address, unique to this run. */
export function freshEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
}

/**
 * Connects the iframe wallet through the Connect modal's email-code form,
 * reading the code from the dev mailbox. Returns the account's address.
 */
export async function connectIframeWallet(
  playground: Playground,
  page: Page,
  email: string,
): Promise<Address> {
  await page.getByTestId('connect-open').click()
  await page.getByTestId('magic-email').fill(email)
  await page.getByTestId('magic-login-headless').click()
  await page.getByTestId('magic-code').waitFor()
  await page.getByTestId('magic-code').fill(await playground.mailboxCode(email))
  await page.getByTestId('magic-code-submit').click()
  await page.getByTestId('account-chip').waitFor({ timeout: 30_000 })
  return getAddress(
    (await page.getByTestId('chip-address').getAttribute('title')) ?? '',
  )
}

/**
 * Connects the game wallet through the Connect modal: its connector opens
 * the provider's login popup, where the player signs in with an email code.
 * Returns the account's (smart wallet's) address.
 */
export async function connectGameWallet(
  playground: Playground,
  page: Page,
  email: string,
): Promise<Address> {
  await page.getByTestId('connect-open').click()
  const popup = page.waitForEvent('popup')
  await page
    .locator('[data-testid="connector"][data-rdns="com.immutable.passport"]')
    .click()
  const login = await popup
  await login.getByTestId('login-email').fill(email)
  await login.getByTestId('login-send-code').click()
  await login
    .getByTestId('login-code')
    .fill(await playground.mailboxCode(email, 'passport-email-otp'))
  await login.getByTestId('login-verify').click()
  await page.getByTestId('account-chip').waitFor({ timeout: 30_000 })
  return getAddress(
    (await page.getByTestId('chip-address').getAttribute('title')) ?? '',
  )
}

/** Disconnects whichever wallet is connected, from the account chip. */
export async function disconnect(page: Page): Promise<void> {
  await page.getByTestId('chip-disconnect').click()
  await page.getByTestId('connect-open').waitFor()
}
