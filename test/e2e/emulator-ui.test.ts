import { mkdir } from 'node:fs/promises'
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Page,
} from 'playwright-core'
import { getAddress, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { slots } from '../../src/emulator/ports.js'
import { chromiumArgs } from '../../vitest.config.js'
import { type Spawned, start, tsx } from './process.js'

const artifacts = new URL('../artifacts/', import.meta.url)

/** `expect.poll`'s options: what the UI shows arrives by its event stream. */
const poll = { timeout: 20_000 }

// The emulator's UI beside the playground (npm start), both driven as a
// developer would: what the playground does shows up on the UI's page
// without a reload, and the UI's controls act on the emulator.
describe('npm start: the emulator UI', () => {
  let app: Spawned | undefined
  let browser: Browser | undefined
  let context: BrowserContext
  let page: Page
  let ui: Page
  let lines: string[]
  let info: {
    ui: string
    mailbox: string
    contracts: { erc20: string }
    passport: { passportDomain: string }
  }
  let playground: string
  const errors: string[] = []

  beforeAll(async () => {
    const ports = {
      base: await findFreePortRange(slots.length),
      anvil: await findFreePort(),
      playground: await findFreePort(),
    }
    playground = `http://127.0.0.1:${ports.playground}`
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
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: chromiumArgs,
    })
    context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'en-US',
      timezoneId: 'UTC',
    })
    ui = await context.newPage()
    page = await context.newPage()
    for (const each of [ui, page])
      each.on('pageerror', (error) => errors.push(error.message))
    await mkdir(artifacts, { recursive: true })
  })

  afterAll(async () => {
    await browser?.close().catch(() => {})
    app?.kill()
  })

  test('default: prints the UI page after the JSON line, which names it', () => {
    expect(info.ui).toBe(info.mailbox.replace(/\/mailbox$/, '/ui'))
    expect(lines[2]).toBe(`Emulator UI: ${info.ui}`)
  })

  test('behavior: logins, sessions, relayed transactions, the chain and verdicts show live; sessions end and verdicts settle from the UI', async () => {
    await ui.goto(info.ui)
    await ui.getByTestId('ui-live').filter({ hasText: 'live' }).waitFor()
    // A mark on the page: still there at the end, so nothing reloaded it.
    await ui.evaluate(() => {
      ;(window as { mark?: number }).mark = 1
    })
    // Every scenario is listed, off.
    await expect.poll(() => ui.getByTestId('ui-scenario').count(), poll).toBe(8)

    // The iframe wallet: a headless email login in the playground.
    await page.goto(`${playground}/`)
    const magicEmail = `ui-magic-${Date.now()}@example.com`
    await page.getByTestId('connect-open').click()
    await page.getByTestId('magic-email').fill(magicEmail)
    await page.getByTestId('magic-login-headless').click()
    await page.getByTestId('magic-code').waitFor()
    // The code, as the UI's mailbox shows it.
    const mail = ui.getByTestId('ui-mail').filter({ hasText: magicEmail })
    await mail.first().waitFor(poll)
    const code = await mail.first().getByTestId('ui-mail-code').textContent()
    expect(code).toMatch(/^\d{6}$/)
    await page.getByTestId('magic-code').fill(code!)
    await page.getByTestId('magic-code-submit').click()
    await expect
      .poll(() => page.getByTestId('magic-user-email').textContent(), poll)
      .toBe(magicEmail)

    const magicUser = ui.getByTestId('ui-user').filter({ hasText: magicEmail })
    await magicUser.waitFor(poll)
    const magicSession = ui
      .getByTestId('ui-magic-session')
      .filter({ hasText: magicEmail })
    await magicSession.waitFor(poll)
    await magicSession.getByTestId('ui-session-end').click()
    await magicSession.waitFor({ state: 'detached', ...poll })
    // The user stays: only the session ended.
    expect(await magicUser.count()).toBe(1)

    // The game wallet, connected through the Connect modal: the identity
    // provider's popup. (The page may have noticed the ended session and
    // disconnected already; else it disconnects here.)
    await page
      .getByTestId('chip-disconnect')
      .click({ timeout: 2_000 })
      .catch(() => {})
    await page.getByTestId('connect-open').waitFor(poll)
    const email = `ui-passport-${Date.now()}@example.com`
    await page.getByTestId('connect-open').click()
    const popup = page.waitForEvent('popup')
    await page
      .locator('[data-testid="connector"][data-rdns="com.immutable.passport"]')
      .click()
    const login = await popup
    await login.getByTestId('login-email').fill(email)
    await login.getByTestId('login-send-code').click()
    const passportMail = ui.getByTestId('ui-mail').filter({ hasText: email })
    await passportMail.first().waitFor(poll)
    await login
      .getByTestId('login-code')
      .fill(
        (await passportMail.first().getByTestId('ui-mail-code').textContent())!,
      )
    await login.getByTestId('login-verify').click()
    await page
      .locator('[data-testid="passport-status"][data-state="signed-in"]')
      .waitFor(poll)
    const passportSession = ui
      .getByTestId('ui-passport-session')
      .filter({ hasText: email })
    await passportSession.waitFor(poll)

    // Its wallet: registered on connect, listed with the player.
    await page.getByTestId('account-chip').waitFor(poll)
    const wallet = getAddress(
      (await page.getByTestId('chip-address').getAttribute('title'))!,
    )
    const player = ui.getByTestId('ui-user').filter({
      has: ui.getByTestId('ui-user-who').getByText(email, { exact: true }),
    })
    // Its custody key (the iframe wallet's provider holds it) is named
    // by the player.
    await ui
      .getByTestId('ui-user-who')
      .getByText(`custody key of ${email}`, { exact: true })
      .waitFor(poll)
    await expect
      .poll(() => player.getByTestId('ui-user-game-wallet').textContent(), poll)
      .toBe(wallet)

    // A send through the relayer: its status and its decoded call.
    await page.getByTestId('game-fund').click()
    await expect
      .poll(() => page.getByTestId('game-eth').textContent(), poll)
      .toBe('1')
    const recipient = getAddress(
      toHex(crypto.getRandomValues(new Uint8Array(20))),
    )
    await page.getByTestId('send-to').fill(recipient)
    await page.getByTestId('send-amount').fill('0.001')
    await page.getByTestId('send-submit').click()
    const relayed = ui.getByTestId('ui-relayed').first()
    await expect
      .poll(() => relayed.getByTestId('ui-relayed-status').textContent(), poll)
      .toBe('SUCCESSFUL')
    expect(await relayed.getByTestId('ui-relayed-calls').textContent()).toBe(
      `${recipient.slice(0, 8)}…${recipient.slice(-4)}.transfer · 1000000000000000 wei`,
    )
    const hash = await relayed.getByTestId('ui-relayed-hash').textContent()
    // On the chain: the wallet's execute (its deployment, by the guest
    // module, the first time) with the batch opened beneath it.
    const mined = ui.locator(`[data-testid="ui-tx"][data-hash="${hash}"]`)
    await mined.waitFor(poll)
    expect(await mined.getByTestId('ui-tx-status').textContent()).toBe(
      'success',
    )
    expect(await mined.getByTestId('ui-tx-call').textContent()).toContain(
      `.transfer · 1000000000000000 wei`,
    )

    // The faucet's two mints: calls of the test tokens, decoded by their
    // ABIs; both settled before the next send is planned to revert.
    await page.getByTestId('get-tokens').click()
    await expect
      .poll(() => ui.getByTestId('ui-relayed-calls').allTextContents(), poll)
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            new RegExp(`^erc20\\.mint\\(${wallet}, \\d+\\)$`),
          ),
          expect.stringMatching(new RegExp(`^\\w+\\.mint\\(${wallet}\\)$`)),
        ]),
      )
    await expect
      .poll(() => ui.getByTestId('ui-relayed-status').allTextContents(), poll)
      .toEqual(expect.not.arrayContaining(['PENDING']))

    // A send the relayer reverts on chain: REVERTED, and the chain's
    // reason beside the mined transaction.
    await page.getByTestId('game-relayer-next').selectOption('revert')
    await page.getByTestId('send-submit').click()
    const reverted = ui.getByTestId('ui-relayed').first()
    await expect
      .poll(() => reverted.getByTestId('ui-relayed-status').textContent(), poll)
      .toBe('REVERTED')
    expect(await reverted.getByTestId('ui-relayed-message').textContent()).toBe(
      'The transaction reverted on chain without a reason.',
    )
    const revertedHash = await reverted
      .getByTestId('ui-relayed-hash')
      .textContent()
    const revertedTx = ui.locator(
      `[data-testid="ui-tx"][data-hash="${revertedHash}"]`,
    )
    await revertedTx.waitFor(poll)
    expect(await revertedTx.getByTestId('ui-tx-status').textContent()).toBe(
      'reverted',
    )
    expect(await revertedTx.getByTestId('ui-tx-revert').textContent()).toBe(
      'The transaction reverted on chain without a reason.',
    )

    // A send the guardian asks the player to confirm: it waits on the UI,
    // which approves it.
    const rule = page.getByTestId('game-rule-value')
    if (!(await rule.isChecked())) await rule.click()
    await page.getByTestId('send-amount').fill('0.02')
    const confirmation = page.waitForEvent('popup')
    await page.getByTestId('send-submit').click()
    const confirm = await confirmation
    const waiting = ui
      .getByTestId('ui-verdict')
      .filter({ has: ui.getByTestId('ui-verdict-approve') })
      .first()
    await waiting.waitFor(poll)
    const verdictId = await waiting.getAttribute('data-verdict')
    await ui.getByTestId('ui-panel-verdicts').screenshot({
      path: new URL('emulator-ui-verdict-waiting.png', artifacts).pathname,
    })
    await waiting.getByTestId('ui-verdict-approve').click()
    const settled = ui.locator(
      `[data-testid="ui-verdict"][data-verdict="${verdictId}"]`,
    )
    await expect
      .poll(() => settled.getByTestId('ui-verdict-state').textContent(), poll)
      .toBe('allowed')
    expect(await settled.getByTestId('ui-verdict-approve').count()).toBe(0)
    // The guardian's own record says so.
    const record = await fetch(
      `${info.passport.passportDomain}/dev/verdicts/${verdictId}`,
    )
    expect(await record.json()).toMatchObject({
      id: verdictId,
      state: 'allowed',
    })
    // The confirmation page learns it and answers the wallet as the
    // player's click would: the send goes through.
    expect(confirm.url()).toContain('/transaction-confirmation/')
    await expect
      .poll(
        () =>
          ui
            .getByTestId('ui-relayed')
            .first()
            .getByTestId('ui-relayed-calls')
            .textContent(),
        poll,
      )
      .toBe(
        `${recipient.slice(0, 8)}…${recipient.slice(-4)}.transfer · 20000000000000000 wei`,
      )

    await ui.screenshot({
      path: new URL('emulator-ui.png', artifacts).pathname,
      fullPage: true,
    })

    // The player's session ends from the UI.
    await passportSession.getByTestId('ui-session-end').click()
    await passportSession.waitFor({ state: 'detached', ...poll })

    expect(await ui.evaluate(() => (window as { mark?: number }).mark)).toBe(1)
    expect(errors).toEqual([])
  })

  test('behavior: a scenario switched on in the UI is on for the services, and one a test switches shows live in the UI', async () => {
    const dev = info.mailbox.replace(/\/mailbox$/, '')
    const scenarios = async () =>
      (
        (await (await fetch(`${dev}/scenarios`)).json()) as {
          name: string
          on: boolean
        }[]
      )
        .filter((scenario) => scenario.on)
        .map((scenario) => scenario.name)
    const guardian = ui.getByTestId('ui-scenario-guardian-unavailable')
    const node = ui.getByTestId('ui-scenario-node-down')
    expect(await guardian.isChecked()).toBe(false)

    await guardian.click()
    await expect.poll(scenarios, poll).toEqual(['guardian-unavailable'])
    await expect.poll(() => guardian.isChecked(), poll).toBe(true)

    // As a test's kit does, from outside the page.
    const put = await fetch(`${dev}/scenarios/node-down`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ on: true }),
    })
    expect(put.status).toBe(200)
    await expect.poll(() => node.isChecked(), poll).toBe(true)
    await ui.screenshot({
      path: new URL('emulator-ui-scenarios.png', artifacts).pathname,
      fullPage: true,
    })

    const reset = await fetch(`${dev}/scenarios/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(reset.status).toBe(200)
    await expect.poll(() => guardian.isChecked(), poll).toBe(false)
    await expect.poll(() => node.isChecked(), poll).toBe(false)
    expect(await scenarios()).toEqual([])
    expect(await ui.evaluate(() => (window as { mark?: number }).mark)).toBe(1)
    expect(errors).toEqual([])
  })
})
