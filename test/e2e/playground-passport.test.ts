import { mkdir } from 'node:fs/promises'
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Page,
} from 'playwright-core'
import {
  createPublicClient,
  getAddress,
  type Hex,
  http,
  parseEther,
  toHex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { slots } from '../../src/emulator/ports.js'
import { chromiumArgs } from '../../vitest.config.js'
import { type Spawned, start, tsx } from './process.js'

const screenshot = new URL(
  '../artifacts/playground-passport.png',
  import.meta.url,
)
const walletScreenshot = new URL(
  '../artifacts/playground-passport-wallet.png',
  import.meta.url,
)
const chipScreenshot = new URL(
  '../artifacts/playground-connected-chip.png',
  import.meta.url,
)

/** The browser's locale and time zone, so that dates read the same everywhere. */
const locale = { locale: 'en-US', timezoneId: 'UTC' } as const

/** `expect.poll`'s options: the page may be loading the app after a redirect. */
const poll = { timeout: 15_000 }

// The game wallet's panel of the playground, driven as a person would: the
// emulated provider's pages (login popup, device verification, logout) are
// real pages of the same browser.
describe('npm start: the game wallet panel', () => {
  let app: Spawned | undefined
  let browser: Browser | undefined
  let context: BrowserContext
  let page: Page
  let ports: { base: number; anvil: number; playground: number }
  let origin: string
  let info: {
    rpcUrl: string
    chainId: number
    contracts: { erc20: string }
    passport: Record<string, string> & { apiUrl: string; relayerUrl: string }
  }
  const errors: string[] = []

  beforeAll(async () => {
    ports = {
      base: await findFreePortRange(slots.length),
      anvil: await findFreePort(),
      playground: await findFreePort(),
    }
    origin = `http://127.0.0.1:${ports.playground}`
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
    await app.nextLine({ timeout: 60_000 })
    info = JSON.parse(await app.nextLine({ timeout: 5_000 }))
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: chromiumArgs,
    })
    context = await browser.newContext({
      viewport: { width: 1100, height: 800 },
      ...locale,
    })
    page = await context.newPage()
    page.on('pageerror', (error) => errors.push(error.message))
  })

  afterAll(async () => {
    await browser?.close().catch(() => {})
    app?.kill()
  })

  test("default: the JSON line names the playground's own callback pages", () => {
    expect(info.passport).toMatchObject({
      authenticationDomain: `http://127.0.0.1:${ports.base + 2}`,
      redirectUri: `${origin}/passport/redirect`,
      logoutRedirectUri: `${origin}/passport/logout`,
    })
  })

  test('behavior: signs in with the popup, refreshes and logs out silently', async () => {
    await page.goto(`${origin}/`)
    await waitForState(page, 'signed-out')
    const email = freshEmail('popup')
    const popup = page.waitForEvent('popup')
    await page.getByTestId('passport-login-popup').click()
    await signIn(await popup, email)

    await waitForState(page, 'signed-in')
    expect(await page.getByTestId('passport-profile-email').textContent()).toBe(
      email,
    )
    // The claims in words, every one in the JSON folded under them.
    const claims = JSON.parse(
      (await page.getByTestId('passport-id-token-claims-json').textContent()) ??
        '',
    )
    expect(claims).toMatchObject({
      email,
      iss: info.passport.authenticationDomain,
    })
    expect(
      await page.getByTestId('passport-id-token-claims-email').textContent(),
    ).toBe(email)
    expect(
      await page.getByTestId('passport-id-token-claims-iss').textContent(),
    ).toBe(info.passport.authenticationDomain)
    expect(
      await page.getByTestId('passport-id-token-claims-json').isVisible(),
    ).toBe(false)
    // The token itself, shortened, whole in its title.
    const idToken = page.getByTestId('passport-id-token-claims-token')
    expect((await idToken.getAttribute('title'))?.split('.')).toHaveLength(3)
    expect((await idToken.textContent())?.length).toBeLessThan(30)
    // Issue and expiry as date and time, in the browser's zone.
    expect(
      await page.getByTestId('passport-id-token-claims-expiry').textContent(),
    ).toBe(dateTime(claims.exp))
    expect(
      await page.getByTestId('passport-id-token-claims-issued').textContent(),
    ).toBe(dateTime(claims.iat))
    await expect.poll(() => eventCount(page, 'loggedIn'), poll).toBe(1)
    // Logged by the kind of sign-in, not by the instance's logout mode.
    expect(await eventSources(page, 'loggedIn')).toEqual(['passport (popup)'])
    // The sign-in's result: the profile it resolved to.
    expect(
      JSON.parse((await page.getByTestId('passport-output').textContent())!),
    ).toMatchObject({ email })

    await page.getByTestId('passport-refresh').click()
    await expect.poll(() => eventCount(page, 'loggedIn'), poll).toBe(2)
    await idle(page)
    expect(await eventSources(page, 'loggedIn')).toEqual([
      'passport (refresh)',
      'passport (popup)',
    ])
    expect(await page.getByTestId('passport-profile-email').textContent()).toBe(
      email,
    )

    await page.getByTestId('passport-logout-silent').click()
    await idle(page)
    await waitForState(page, 'signed-out')
    expect(await page.getByTestId('passport-profile').count()).toBe(0)
    // The sign-in's result went with the session: what shows is the logout's.
    expect(await page.getByTestId('passport-output-label').textContent()).toBe(
      'Log out (silent)',
    )
    expect(
      await page.getByTestId('passport-output').textContent(),
    ).not.toContain(email)
    await expect.poll(() => eventCount(page, 'loggedOut'), poll).toBe(1)
    expect(await eventSources(page, 'loggedOut')).toEqual([
      'passport (silent logout)',
    ])
    expect(await page.getByTestId('passport-error').count()).toBe(0)
    expect(errors).toEqual([])
  })

  test('behavior: signs in with the device code and logs out by redirect', async () => {
    // Cancel stops a first device flow's polling.
    await page.getByTestId('passport-login-device').click()
    await page.getByTestId('passport-device-code').waitFor()
    await page.getByTestId('passport-device-cancel').click()
    await page.getByTestId('passport-device').waitFor({ state: 'detached' })
    // Chromium's AbortError: 'signal is aborted without reason'.
    expect(await page.getByTestId('passport-error').textContent()).toBe(
      'Device code failed: AUTHENTICATION_ERROR: signal is aborted without reason',
    )
    await waitForState(page, 'signed-out')

    await page.getByTestId('passport-login-device').click()
    const code = await page.getByTestId('passport-device-code').textContent()
    const link = await page
      .getByTestId('passport-device-link')
      .getAttribute('href')
    expect(link).toContain(info.passport.authenticationDomain)

    const email = freshEmail('device')
    const device = await context.newPage()
    await device.goto(link!)
    await approveDevice(device, email, code!)
    await device.close()

    await waitForState(page, 'signed-in', 30_000)
    expect(await page.getByTestId('passport-profile-email').textContent()).toBe(
      email,
    )
    await expect
      .poll(async () => (await eventSources(page, 'loggedIn'))[0], poll)
      .toBe('passport (device code)')

    await mkdir(new URL('.', screenshot), { recursive: true })
    await page.screenshot({ path: screenshot.pathname, fullPage: true })

    const left = page.waitForURL(
      (url) => url.origin === info.passport.authenticationDomain,
      { waitUntil: 'commit' },
    )
    await page.getByTestId('passport-logout-redirect').click()
    await left
    await page.waitForURL(`${origin}/`, { timeout: 20_000 })
    // Back on the app from the logout page, with the log kept across.
    await expect
      .poll(() => eventCount(page, 'back from the provider'), poll)
      .toBe(1)
    await waitForState(page, 'signed-out')
    expect(await eventCount(page, 'loggedOut')).toBe(2)
    expect((await eventSources(page, 'loggedOut'))[0]).toBe(
      'passport (redirect logout)',
    )
    await page.getByTestId('passport-login-popup').waitFor()

    expect(errors).toEqual([])
  })

  test('behavior: PKCE and the redirect sign-in come back to the app signed in', async () => {
    const email = freshEmail('pkce')
    for (const flow of ['pkce', 'redirect']) {
      await page.getByTestId(`passport-login-${flow}`).click()
      await signIn(page, email)
      await page.waitForURL(`${origin}/`, { timeout: 20_000 })
      await waitForState(page, 'signed-in')
      expect(
        await page.getByTestId('passport-profile-email').textContent(),
      ).toBe(email)
      await page.getByTestId('passport-logout-silent').click()
      await idle(page)
      await waitForState(page, 'signed-out')
    }
    expect(errors).toEqual([])
  })

  test("behavior: the game wallet's panels, with the wallet connected through the Connect modal: its contract, the guardian's confirmations, the relayer's outcomes, session activity and linked wallets", async () => {
    const chain = createPublicClient({ transport: http(info.rpcUrl) })
    await page.goto(`${origin}/`)
    await waitForState(page, 'signed-out')
    // Before connecting, each panel that needs the wallet says so.
    expect(await page.getByTestId('game-needs-wallet').count()).toBe(3)
    await page.getByTestId('connect-open').click()
    const popup = page.waitForEvent('popup')
    await page
      .locator('[data-testid="connector"][data-rdns="com.immutable.passport"]')
      .click()
    await signIn(await popup, freshEmail('wallet'))
    await page.getByTestId('account-chip').waitFor({ timeout: 20_000 })
    await waitForState(page, 'signed-in')
    const address = getAddress(
      (await page.getByTestId('chip-address').getAttribute('title'))!,
    )
    // The game wallet's own send and sign forms and account box are gone:
    // the wallet section's serve it.
    for (const gone of ['game-send-submit', 'game-sign-message-submit'])
      expect(await page.getByTestId(gone).count()).toBe(0)
    expect(
      await page.getByTestId('game-address').getAttribute('data-value'),
    ).toBe(address)
    expect(await page.getByTestId('game-needs-wallet').count()).toBe(0)
    await expectText(
      page,
      'game-deployed',
      'not yet (the first transaction deploys it)',
    )

    // The contract's own ETH, from the dev faucet.
    await page.getByTestId('game-fund').click()
    await expectText(page, 'game-eth', '1')
    expect(await chain.getBalance({ address })).toBe(parseEther('1'))

    // A guardian rule: a send above 0.01 ETH from the shared form waits for
    // the player's approval in the wallet's popup.
    const recipient = getAddress(
      toHex(crypto.getRandomValues(new Uint8Array(20))),
    )
    await setRule(page, 'game-rule-value', true)
    await page.getByTestId('send-to').fill(recipient)
    await page.getByTestId('send-amount').fill('0.02')
    const confirmation = page.waitForEvent('popup')
    await page.getByTestId('send-submit').click()
    const confirm = await confirmation
    await confirm.getByTestId('confirmation-approve').click()
    await expect
      .poll(() => chain.getBalance({ address: recipient }), poll)
      .toBe(parseEther('0.02'))
    await expectText(page, 'game-deployed', 'yes')
    await setRule(page, 'game-rule-value', false)

    // Typed data under the rule "confirm typed data": approved in the
    // popup, then checked on chain by the shared form.
    await setRule(page, 'game-rule-typedData', true)
    const typedConfirmation = page.waitForEvent('popup')
    await page.getByTestId('typed-submit').click()
    const typedPopup = await typedConfirmation
    await typedPopup.getByTestId('confirmation-approve').click()
    await page.getByTestId('typed-result').waitFor(poll)
    expect(await page.getByTestId('typed-signer').textContent()).toBe(address)
    await setRule(page, 'game-rule-typedData', false)

    // The guardian unavailable: the popup says so and the player closes it;
    // the banner says it in words, not as the guardian's JSON.
    await setRule(page, 'game-rule-unavailable', true)
    const unavailable = page.waitForEvent('popup')
    await page.getByTestId('sign-message-submit').click()
    const unavailablePopup = await unavailable
    // Close shuts the window in the click's own turn: Playwright may see
    // the page go while it finishes the click.
    await unavailablePopup
      .getByTestId('confirmation-close')
      .click()
      .catch((error: unknown) => {
        if (!unavailablePopup.isClosed()) throw error
      })
    await page.getByTestId('wallet-error').waitFor(poll)
    const banner = (await page.getByTestId('wallet-error').textContent()) ?? ''
    // (How the wallet section words it is the banner's; here: unavailable,
    // and no JSON.)
    expect(banner).toMatch(/unavailable/i)
    expect(banner).not.toContain('{')
    await setRule(page, 'game-rule-unavailable', false)
    await page.getByTestId('wallet-error-dismiss').click()

    // The relayer's outcomes: a batch goes through, then one the relayer
    // fails and one it reverts on chain, each read back by its id.
    await page.getByTestId('game-batch-send').click()
    await expectBatch(page, 1, 'confirmed')
    const batchHash = (await page
      .getByTestId('game-batch')
      .first()
      .getByTestId('game-batch-hash')
      .getAttribute('data-value')) as Hex
    expect(
      (await chain.getTransactionReceipt({ hash: batchHash })).status,
    ).toBe('success')
    await page.getByTestId('game-relayer-next').selectOption('fail')
    await page.getByTestId('game-batch-send').click()
    await expectBatch(page, 2, 'failed')
    expect(await page.getByTestId('game-relayer-next').inputValue()).toBe(
      'normal',
    )
    await page.getByTestId('game-relayer-next').selectOption('revert')
    await page.getByTestId('game-batch-send').click()
    await expectBatch(page, 3, 'reverted')
    expect(await page.getByTestId('passport-error').count()).toBe(0)

    // Session activity: with a rule for the playground's client id, the
    // connected wallet checks with the API and sends the background call.
    await page.getByTestId('game-activity-delay').fill('1')
    await page.getByTestId('game-activity-set').click()
    await expectText(
      page,
      'game-activity-rule',
      `Rule for ${info.passport.clientId}: totalSupply() on ${shortHex(info.contracts.erc20)}, every 1 s.`,
    )
    await page.getByTestId('game-activity-add').click()
    await expect
      .poll(async () => {
        await page.getByTestId('game-activity-refresh').click()
        return page.getByTestId('game-activity-checks').textContent()
      }, poll)
      .toContain('sendCount 1')
    await page.getByTestId('game-activity-remove').click()
    await expectText(
      page,
      'game-activity-rule',
      `No rule for ${info.passport.clientId}: the API answers its checks 404.`,
    )

    // Link a wallet made in the page: it is listed.
    await page.getByTestId('game-link-new').click()
    const linked = await page
      .getByTestId('game-link-address')
      .getAttribute('data-value')
    expect(linked).toMatch(/^0x[0-9a-fA-F]{40}$/)
    await expect
      .poll(
        async () =>
          (
            await page
              .getByTestId('game-linked-address')
              .evaluateAll((items) =>
                items.map((item) => item.getAttribute('data-value')),
              )
          ).map((value) => value?.toLowerCase()),
        poll,
      )
      .toEqual([linked!.toLowerCase()])

    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: walletScreenshot.pathname, fullPage: true })

    // Logging out of the game wallet's session: the connected provider says
    // the account is gone, and the page disconnects.
    await page.getByTestId('passport-logout-silent').click()
    await waitForState(page, 'signed-out')
    await page.getByTestId('connect-open').waitFor(poll)
    await expect
      .poll(
        () => page.getByTestId('event-log').locator('li').allTextContents(),
        poll,
      )
      .toContainEqual(
        expect.stringContaining(' provider accountsChanged — no account'),
      )
    expect(await page.getByTestId('game-needs-wallet').count()).toBe(3)
    expect(await page.getByTestId('passport-error').count()).toBe(0)
    expect(errors).toEqual([])
  })

  test('behavior: the game wallet connects through the one Connect modal, and the shared forms send and sign with it', async () => {
    const chain = createPublicClient({ transport: http(info.rpcUrl) })
    await page.goto(`${origin}/`)
    await waitForState(page, 'signed-out')
    const connector = page.locator(
      '[data-testid="connector"][data-rdns="com.immutable.passport"]',
    )

    // Closing the login popup is a cancel: logged, no error shown.
    await page.getByTestId('connect-open').click()
    const cancelled = page.waitForEvent('popup')
    await connector.click()
    await (await cancelled).close()
    await expect
      .poll(
        () => page.getByTestId('event-log').locator('li').allTextContents(),
        poll,
      )
      .toContainEqual(expect.stringContaining(' login cancelled'))
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    expect(await page.getByTestId('connect-modal').count()).toBe(1)

    // Connecting signs in through the popup and registers the wallet.
    const popup = page.waitForEvent('popup')
    await connector.click()
    await signIn(await popup, freshEmail('connect'))
    await page.getByTestId('account-chip').waitFor({ timeout: 20_000 })
    const address = getAddress(
      (await page.getByTestId('chip-address').getAttribute('title'))!,
    )
    expect(await page.getByTestId('chip-wallet').textContent()).toBe(
      'Immutable Passport',
    )
    expect(
      await page.getByTestId('chip-wallet').getAttribute('data-rdns'),
    ).toBe('com.immutable.passport')
    expect(await page.getByTestId('chip-address').textContent()).toBe(
      `${address.slice(0, 6)}…${address.slice(-4)}`,
    )
    expect(await page.getByTestId('chip-chain').textContent()).toBe(
      `Emulator (Anvil) · ${info.chainId}`,
    )
    // Copy puts the whole address on the clipboard.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin,
    })
    await page.getByTestId('chip-copy').click()
    await expectText(page, 'chip-copy', 'Copied')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      address,
    )
    // The same player in the game wallet's panel: one sign-in.
    await waitForState(page, 'signed-in')
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: chipScreenshot.pathname })
    await page.setViewportSize({ width: 1100, height: 800 })

    // The account panel's faucet and the shared send form, through the
    // relayer: wagmi actions on the game wallet's connector.
    const balanceOf = (account: Hex) =>
      chain.readContract({
        address: info.contracts.erc20 as Hex,
        abi: [
          {
            type: 'function',
            name: 'balanceOf',
            stateMutability: 'view',
            inputs: [{ name: 'account', type: 'address' }],
            outputs: [{ name: '', type: 'uint256' }],
          },
        ],
        functionName: 'balanceOf',
        args: [account],
      })
    await page.getByTestId('get-tokens').click()
    await expect.poll(() => balanceOf(address), poll).toBe(parseEther('100'))
    const recipient = getAddress(
      toHex(crypto.getRandomValues(new Uint8Array(20))),
    )
    await page.getByTestId('send-to').fill(recipient)
    await page.getByTestId('send-asset').selectOption('TEST')
    await page.getByTestId('send-amount').fill('2.5')
    await page.getByTestId('send-submit').click()
    await expect.poll(() => balanceOf(recipient), poll).toBe(parseEther('2.5'))
    expect(await balanceOf(address)).toBe(parseEther('97.5'))
    await expect
      .poll(() => page.getByTestId('balance-erc20').textContent(), poll)
      .toBe('97.5')

    // The shared sign form: the smart-contract wallet's signature is
    // checked on chain (ERC-1271) as the account's.
    await page.getByTestId('sign-message-submit').click()
    await page.getByTestId('sign-message-result').waitFor()
    expect(await page.getByTestId('sign-message-signer').textContent()).toBe(
      address,
    )

    await page.getByTestId('chip-disconnect').click()
    await page.getByTestId('connect-open').waitFor()
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    expect(errors).toEqual([])
  })

  /** Signs in on the provider's login page shown in `target`. */
  async function signIn(target: Page, email: string) {
    await target.getByTestId('login-email').fill(email)
    await target.getByTestId('login-send-code').click()
    await target.getByTestId('login-code').fill(await mailboxCode(email))
    await target.getByTestId('login-verify').click()
  }

  /**
   * Goes through the provider's device pages (code, sign-in, approval) in
   * whatever order it shows them, until it says the device is signed in.
   */
  async function approveDevice(device: Page, email: string, code: string) {
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline) {
      await device.waitForLoadState()
      if (await device.getByTestId('device-success').count()) return
      if (await device.getByTestId('device-approve').count()) {
        expect(
          await device.getByTestId('device-confirm-code').textContent(),
        ).toBe(code)
        await device.getByTestId('device-approve').click()
      } else if (await device.getByTestId('login-email').count())
        await signIn(device, email)
      else if (await device.getByTestId('device-continue').count())
        await device.getByTestId('device-continue').click()
      else await device.waitForTimeout(100)
    }
    throw new Error(`the device page is stuck at ${device.url()}`)
  }

  async function mailboxCode(to: string): Promise<string> {
    const deadline = Date.now() + 10_000
    while (Date.now() < deadline) {
      const response = await fetch(
        `http://127.0.0.1:${ports.base}/mailbox?to=${encodeURIComponent(to)}`,
      )
      const messages = (await response.json()) as {
        kind: string
        code?: string
      }[]
      const message = messages.find((m) => m.kind === 'passport-email-otp')
      if (message?.code) return message.code
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`no code for ${to}`)
  }
})

/** A JWT time claim as the page writes it (`Nov 24, 2026, 8:27:23 AM`). */
function dateTime(seconds: number): string {
  return new Intl.DateTimeFormat(locale.locale, {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: locale.timezoneId,
  }).format(new Date(seconds * 1000))
}

/** A fresh address, so that codes and users never mix between runs. */
function freshEmail(label: string): string {
  return `passport-${label}-${Date.now()}@example.com`
}

/** Waits until the panel's session state is `state`. */
async function waitForState(page: Page, state: string, timeout = 20_000) {
  await page
    .locator(`[data-testid="passport-status"][data-state="${state}"]`)
    .waitFor({ timeout })
}

/** Waits until the panel's running action has finished. */
async function idle(page: Page) {
  await page
    .getByTestId('passport-working')
    .waitFor({ state: 'detached', timeout: 20_000 })
}

/** How many lines of the panel's event log are `event`. */
async function eventCount(page: Page, event: string): Promise<number> {
  const lines = await page
    .getByTestId('passport-event-log')
    .locator('li')
    .allTextContents()
  return lines.filter((line) => line.includes(` ${event}`)).length
}

/** The sources of the panel's log lines that are `event`, newest first. */
function eventSources(page: Page, event: string): Promise<string[]> {
  return page
    .getByTestId('passport-event-log')
    .locator('li')
    .evaluateAll(
      (lines, name) =>
        lines
          .filter(
            (line) =>
              line.querySelector('[data-testid="event-name"]')?.textContent ===
              name,
          )
          .map(
            (line) => line.querySelector('.event-source')?.textContent ?? '',
          ),
      event,
    )
}

/** Waits until the element's text is `text`. */
async function expectText(page: Page, testId: string, text: string) {
  await expect
    .poll(() => page.getByTestId(testId).textContent(), poll)
    .toBe(text)
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

/** `0x1234…abcd`, as the page shortens addresses. */
function shortHex(value: string): string {
  return `${value.slice(0, 6)}…${value.slice(-4)}`
}

/**
 * Waits until the relayer panel lists `count` batches, the newest in
 * `state` (its EIP-5792 status in words).
 */
async function expectBatch(page: Page, count: number, state: string) {
  const rows = page.getByTestId('game-batch')
  await expect.poll(() => rows.count(), poll).toBe(count)
  await expect
    .poll(() => rows.first().getAttribute('data-state'), {
      timeout: 30_000,
    })
    .toBe(state)
}
