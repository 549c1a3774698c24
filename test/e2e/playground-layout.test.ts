import type { FrameLocator, Page } from 'playwright-core'
import { createPublicClient, erc721Abi, http } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { totp } from '../../src/testing/totp.js'
import {
  connectGameWallet,
  connectIframeWallet,
  freshEmail,
  type Playground,
  screenshot,
  startPlayground,
} from './playgroundHarness.js'

/** `expect.poll`'s options. */
const poll = { timeout: 20_000 }

/** The page's sections, in order, as the top bar lists them. */
const sections = [
  'wallet',
  'marketplace',
  'starkex',
  'game-wallet',
  'iframe-wallet',
] as const

/** The widths the layout must hold at. */
const widths = [1280, 1920] as const

// The playground's layout, driven as a visitor would at both widths: with no
// wallet, with the iframe wallet and with the game wallet (each connected
// through the Connect modal). Nothing overflows, nothing is cut off, the
// navigation reaches every section, the dev drawer opens and closes, and
// the iframe wallet's screens open and close without an error.
describe('npm start: the playground layout', () => {
  let pg: Playground

  beforeAll(async () => {
    pg = await startPlayground()
  }, 120_000)

  afterAll(async () => {
    await pg?.stop()
  })

  test('behavior: with no wallet, the page has its sections, a way in, the navigation and the dev drawer', async () => {
    for (const width of widths) {
      const page = await pg.open({ width, height: 900 })
      await page.getByTestId('wallet-connect-cta').waitFor()
      // The wallet section says to connect, and its button opens the modal.
      expect(await page.getByTestId('panel-account').count()).toBe(0)
      await page.getByTestId('wallet-connect-cta-button').click()
      await page.getByTestId('connect-modal').waitFor()
      await page.getByTestId('connect-close').click()
      expect(await page.getByTestId('connect-modal').count()).toBe(0)

      await page.screenshot({
        path: screenshot(`playground-none-${width}`),
        fullPage: true,
      })
      await expectSections(page)
      await expectLaidOut(page)

      // Each link of the top bar brings its section into view, under the bar.
      for (const id of sections) {
        await page.getByTestId(`nav-${id}`).click()
        await expect
          .poll(() => page.evaluate(() => location.hash), poll)
          .toBe(`#${id}`)
        await expect.poll(() => inView(page, id), poll).toBe(true)
      }
      await page.close()
    }
    expect(pg.errors).toEqual([])
  })

  test('behavior: the dev drawer opens and closes, holds the mailbox while signed out and links to the emulator UI', async () => {
    const page = await pg.open({ width: 1280, height: 900 })
    const drawer = page.getByTestId('dev-drawer')
    await page.getByTestId('connect-open').waitFor()
    expect(await drawer.isVisible()).toBe(false)

    // Signed out, a login code shows beside the Connect modal's code form
    // and in the drawer's mailbox.
    const email = freshEmail('layout-code')
    await page.getByTestId('connect-open').click()
    await page.getByTestId('magic-email').fill(email)
    await page.getByTestId('magic-login-headless').click()
    await page.getByTestId('magic-code').waitFor()
    const code = await pg.mailboxCode(email)
    await expect
      .poll(() => page.getByTestId('latest-code-value').textContent(), poll)
      .toBe(code)
    await page.getByTestId('connect-close').click()
    expect(await page.getByTestId('connect-modal').count()).toBe(0)

    await page.getByTestId('dev-open').click()
    await drawer.waitFor()
    await page.getByTestId('mailbox-filter').fill(email)
    await expect
      .poll(() => drawer.getByTestId('mailbox-code').allTextContents(), poll)
      .toEqual([code])
    const link = page.getByTestId('dev-ui-link')
    expect(await link.getAttribute('href')).toBe(pg.info.ui)
    expect(await link.getAttribute('target')).toBe('_blank')
    for (const testId of ['chain-id', 'block-number', 'event-log'])
      expect(await drawer.getByTestId(testId).isVisible()).toBe(true)
    expect(
      await drawer.getByTestId(`contract-erc20`).getAttribute('data-value'),
    ).toBe(pg.info.contracts.erc20)
    await page.screenshot({ path: screenshot('playground-drawer-1280') })
    await expectLaidOut(page)

    // Escape, the backdrop and the close button each close it.
    await page.keyboard.press('Escape')
    await drawer.waitFor({ state: 'hidden' })
    await page.getByTestId('dev-open').click()
    await drawer.waitFor()
    await page.mouse.click(20, 450)
    await drawer.waitFor({ state: 'hidden' })
    await page.getByTestId('dev-open').click()
    await drawer.waitFor()
    await page.getByTestId('dev-close').click()
    await drawer.waitFor({ state: 'hidden' })
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    await page.close()
    expect(pg.errors).toEqual([])
  })

  test('behavior: with the iframe wallet, the layout holds and its screens open and close without an error', async () => {
    const page = await pg.open({ width: 1280, height: 900 })
    await page.getByTestId('magic-screens-need').waitFor()
    const address = await connectIframeWallet(
      pg,
      page,
      freshEmail('layout-iframe'),
    )
    await page.getByTestId('panel-account').waitFor()
    await page.getByTestId('magic-screens').waitFor()
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({
        path: screenshot(`playground-iframe-${width}`),
        fullPage: true,
      })
      await expectSections(page)
      await expectLaidOut(page)
    }
    await page.setViewportSize({ width: 1280, height: 900 })

    // The wallet's home: its address, then closed with its × (true).
    await page.getByTestId('magic-screen-show-ui').click()
    const home = await walletScreens(page)
    expect(
      (await home.getByTestId('wallet-address').textContent())?.toLowerCase(),
    ).toContain(address.toLowerCase())
    await closeScreen(page, home)
    await expectOutcome(page, 'show-ui', 'done')

    // The key, shown inside the iframe only.
    await page.getByTestId('magic-screen-reveal-key').click()
    const key = await walletScreens(page)
    expect(await key.getByTestId('private-key').count()).toBe(1)
    await closeScreen(page, key)
    await expectOutcome(page, 'reveal-key', 'done')

    // MFA set-up, closed half-way: a cancel, not a failure.
    await page.getByTestId('magic-screen-mfa').click()
    const mfa = await walletScreens(page)
    await mfa.getByTestId('mfa-secret').waitFor()
    await closeScreen(page, mfa)
    await expectOutcome(page, 'mfa', 'cancelled')
    expect(await page.getByTestId('magic-screen-mfa').textContent()).toBe(
      'Turn on MFA',
    )

    // NFT checkout, closed: nothing bought.
    await page.getByTestId('magic-screen-nft-checkout').click()
    await closeScreen(page, await walletScreens(page))
    await expectOutcome(page, 'nft-checkout', 'cancelled')
    // Confirmed, it mints the test NFT to the account.
    await page.getByTestId('magic-screen-nft-checkout').click()
    const checkout = await walletScreens(page)
    expect(await checkout.getByTestId('nft-contract').textContent()).toContain(
      pg.info.contracts.testErc721,
    )
    await checkout.getByTestId('nft-checkout-confirm').click()
    await expectOutcome(page, 'nft-checkout', 'done')
    const chain = createPublicClient({ transport: http(pg.info.rpcUrl) })
    expect(
      await chain.readContract({
        address: pg.info.contracts.testErc721,
        abi: erc721Abi,
        functionName: 'balanceOf',
        args: [address],
      }),
    ).toBe(1n)

    // Every other screen opens over the page and closes with its ×.
    for (const [id, state] of [
      ['show-address', 'done'],
      ['show-balances', 'done'],
      ['show-send', 'done'],
      ['show-nfts', 'done'],
      ['settings', 'done'],
      ['nft-purchase', 'cancelled'],
    ] as const) {
      await page.getByTestId(`magic-screen-${id}`).click()
      await closeScreen(page, await walletScreens(page))
      await expectOutcome(page, id, state)
    }
    // Changing the email starts with the wallet's check of the user;
    // closing it is a cancel.
    await page.getByTestId('magic-new-email').fill(freshEmail('layout-new'))
    await page.getByTestId('magic-screen-update-email').click()
    await closeScreen(page, await walletScreens(page))
    await expectOutcome(page, 'update-email', 'cancelled')
    // Recovery needs a recovery phone, which a new account has not.
    expect(await page.getByTestId('magic-screen-recover').isDisabled()).toBe(
      true,
    )

    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    await page.close()
    expect(pg.errors).toEqual([])
  })

  test('behavior: the iframe wallet turns MFA on and off, adds a recovery phone in Settings and recovers the account with it, each through its screens', async () => {
    const page = await pg.open({ width: 1280, height: 900 })
    const email = freshEmail('layout-security')
    const address = await connectIframeWallet(pg, page, email)
    await page.getByTestId('magic-screens').waitFor()
    const label = (id: string) =>
      page.getByTestId(`magic-screen-${id}`).textContent()

    // MFA on: the secret, its code, then the recovery codes.
    await page.getByTestId('magic-screen-mfa').click()
    const setup = await walletScreens(page)
    const secret = (await setup.getByTestId('mfa-secret').textContent()) ?? ''
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/)
    await setup.getByTestId('mfa-code-input').fill(totp(secret))
    await setup.getByTestId('mfa-code-submit').click()
    await setup.getByTestId('mfa-recovery-codes').waitFor()
    expect(
      await setup.getByTestId('mfa-recovery-codes').locator('li').count(),
    ).toBe(8)
    await setup.getByTestId('mfa-done').click()
    await expectOutcome(page, 'mfa', 'done')
    await expect.poll(() => label('mfa'), poll).toBe('Turn off MFA')

    // MFA off, with the authenticator's code.
    await page.getByTestId('magic-screen-mfa').click()
    const off = await walletScreens(page)
    await off.getByTestId('mfa-code-input').fill(totp(secret))
    await off.getByTestId('mfa-code-submit').click()
    await expectOutcome(page, 'mfa', 'done')
    await expect.poll(() => label('mfa'), poll).toBe('Turn on MFA')

    // A recovery phone, added in Settings with the SMS code it gets.
    expect(await page.getByTestId('magic-screen-recover').isDisabled()).toBe(
      true,
    )
    const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
    await page.getByTestId('magic-screen-settings').click()
    const settings = await walletScreens(page)
    expect(await settings.getByTestId('settings-mfa-state').textContent()).toBe(
      'Off',
    )
    await settings.getByTestId('settings-recovery').click()
    await settings.getByTestId('phone-number-input').fill(phone)
    await settings.getByTestId('phone-number-submit').click()
    await settings.getByTestId('sms-otp-input').waitFor()
    await settings
      .getByTestId('sms-otp-input')
      .fill(await pg.mailboxCode(phone))
    await settings.getByTestId('sms-otp-submit').click()
    await expectOutcome(page, 'settings', 'done')
    await expect
      .poll(() => page.getByTestId('magic-screen-recover').isDisabled(), poll)
      .toBe(false)

    // Recovery: the SMS code to that phone signs the account in again; it
    // keeps its email (the new-email step closed).
    await page.getByTestId('magic-screen-recover').click()
    const recover = await walletScreens(page)
    // The code is sent before its screen shows: read once it shows (the
    // mailbox still holds the code that added the phone).
    await recover.getByTestId('sms-otp-input').waitFor()
    await recover.getByTestId('sms-otp-input').fill(await pg.mailboxCode(phone))
    await recover.getByTestId('sms-otp-submit').click()
    await recover.getByTestId('new-email-input').waitFor()
    await closeScreen(page, recover)
    await expectOutcome(page, 'recover', 'done')
    expect(
      (
        await page.getByTestId('chip-address').getAttribute('title')
      )?.toLowerCase(),
    ).toBe(address.toLowerCase())

    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    await page.close()
    expect(pg.errors).toEqual([])
  })

  test('behavior: with the game wallet, the layout holds and its panels describe the connected wallet', async () => {
    const page = await pg.open({ width: 1280, height: 900 })
    const address = await connectGameWallet(pg, page, freshEmail('layout-game'))
    await page
      .locator('[data-testid="passport-status"][data-state="signed-in"]')
      .waitFor(poll)
    await page.getByTestId('panel-account').waitFor()
    expect(
      await page.getByTestId('game-address').getAttribute('data-value'),
    ).toBe(address)
    // The iframe wallet's screens are not the game wallet's.
    expect(await page.getByTestId('magic-screens-need').count()).toBe(1)
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({
        path: screenshot(`playground-game-${width}`),
        fullPage: true,
      })
      await expectSections(page)
      await expectLaidOut(page)
    }
    expect(await page.getByTestId('passport-error').count()).toBe(0)
    expect(await page.getByTestId('wallet-error').count()).toBe(0)
    await page.close()
    expect(pg.errors).toEqual([])
  })
})

/** Every section is there, in order, with its heading and one sentence. */
async function expectSections(page: Page) {
  const found = await page
    .locator('[data-testid^="section-"]')
    .filter({ has: page.locator('h2') })
    .evaluateAll((elements) =>
      elements
        .filter((element) => element.tagName === 'SECTION')
        .map((element) => ({
          id: element.id,
          heading: element.querySelector('h2')?.textContent ?? '',
          sentence:
            element.querySelector('[data-testid="section-sentence"]')
              ?.textContent ?? '',
        })),
    )
  expect(found.map((section) => section.id)).toEqual([...sections])
  for (const section of found) {
    expect(section.heading).not.toBe('')
    // One sentence: it ends with a full stop and has no other inside.
    expect(section.sentence).toMatch(/^[^.]+\.$/)
  }
}

/**
 * Nothing overflows the window sideways, and every visible input, select
 * and button lies inside the panel (or bar, drawer, modal) that holds it.
 */
async function expectLaidOut(page: Page) {
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    ),
  ).toBeLessThanOrEqual(0)
  const cut = await page.evaluate(() => {
    const nameOf = (element: HTMLElement) =>
      `${element.tagName.toLowerCase()}[${element.dataset.testid ?? (element.id || element.textContent)}]`
    const problems: string[] = []
    const holders =
      '.panel, .call-to-action, .top-bar-inner, .drawer, .connect-modal, .intro, .failure'
    for (const control of document.querySelectorAll<HTMLElement>(
      'input, select, textarea, button',
    )) {
      // Hidden ones (a closed drawer, folded details) take no room.
      if (!control.checkVisibility()) continue
      const box = control.getBoundingClientRect()
      const holder = control.closest(holders)
      if (!holder) {
        problems.push(`${nameOf(control)} is in no panel`)
        continue
      }
      const outer = holder.getBoundingClientRect()
      // The drawer and the modal scroll on their own: what lies below
      // their window is reached by scrolling, not cut off.
      const scrolls = holder.matches('.drawer, .connect-modal')
      if (
        box.left < outer.left - 0.5 ||
        box.right > outer.right + 0.5 ||
        (!scrolls &&
          (box.top < outer.top - 0.5 || box.bottom > outer.bottom + 0.5))
      )
        problems.push(`${nameOf(control)} sticks out of its panel`)
    }
    return problems
  })
  expect(cut).toEqual([])
}

/** Whether the section's heading is in the window, below the top bar. */
function inView(page: Page, id: string): Promise<boolean> {
  return page.evaluate((section) => {
    const heading = document.getElementById(`${section}-title`)
    const bar = document.querySelector('.top-bar')
    if (!heading || !bar) return false
    const top = heading.getBoundingClientRect().top
    return top >= bar.getBoundingClientRect().bottom && top < window.innerHeight
  }, id)
}

/** The iframe wallet's screens, once they show over the page. */
async function walletScreens(page: Page): Promise<FrameLocator> {
  await page.locator('iframe.magic-iframe').filter({ visible: true }).waitFor()
  return page.frameLocator('iframe.magic-iframe >> visible=true')
}

/** Closes the screen shown with its ×, and waits for it to go. */
async function closeScreen(page: Page, screens: FrameLocator) {
  await screens.getByTestId('close').click()
  await page
    .locator('iframe.magic-iframe')
    .filter({ visible: true })
    .waitFor({ state: 'detached', timeout: 10_000 })
}

/** Waits until a screen's row says how it ended. */
async function expectOutcome(page: Page, id: string, state: string) {
  await expect
    .poll(
      () =>
        page
          .getByTestId(`magic-screen-${id}-result`)
          .getAttribute('data-state', { timeout: 1_000 })
          .catch(() => null),
      poll,
    )
    .toBe(state)
}
