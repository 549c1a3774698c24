// TEMPORARY stand-in for embedded-wallets/testing/playwright until wt/t19-pw lands.
import { test as base, expect, type Page } from '@playwright/test'
import {
  type Info,
  startWorkerEmulator,
  type TestKit,
} from 'embedded-wallets/testing'

export { expect }

type Wallets = {
  newUser(): { email: string; phone: string }
  magic: { completeLogin(page: Page, who: { email: string }): Promise<void> }
  passport: {
    completeLogin(page: Page, who: { email: string }): Promise<void>
    approve(page: Page): Promise<void>
  }
}

export const test = base.extend<
  { kit: TestKit; wallets: Wallets },
  { emulator: Info; workerKit: TestKit }
>({
  emulator: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
    async ({}, use, workerInfo) => {
      const { info, stop } = await startWorkerEmulator({
        workerIndex: workerInfo.parallelIndex,
      })
      await use(info)
      await stop()
    },
    { scope: 'worker' },
  ],
  workerKit: [
    async ({ emulator }, use) => {
      const { createTestKit } = await import('embedded-wallets/testing')
      await use(createTestKit(emulator))
    },
    { scope: 'worker' },
  ],
  kit: async ({ workerKit }, use) => {
    const id = await workerKit.snapshot()
    await use(workerKit)
    await workerKit.revert(id)
  },
  wallets: async ({ emulator, kit }, use, testInfo) => {
    let n = 0
    const popupAt = async (page: Page, origin: string) => {
      for (;;) {
        const found = page
          .context()
          .pages()
          .find((p) => p.url().startsWith(origin))
        if (found) return found
        await page.context().waitForEvent('page', { timeout: 15_000 })
      }
    }
    await use({
      newUser: () => {
        n++
        return {
          email: `u${testInfo.workerIndex}-${n}-${Date.now()}@example.com`,
          phone: '+15555550123',
        }
      },
      magic: {
        async completeLogin(page, { email }) {
          const since = new Date()
          const frame = page.frameLocator('iframe.magic-iframe >> visible=true')
          await frame.getByTestId('login-email-input').fill(email)
          await frame.getByTestId('login-email-submit').click()
          const code = await kit.waitForCode(email, {
            since,
            timeoutMs: 15_000,
          })
          await frame.getByTestId('email-otp-input').fill(code)
          await frame.getByTestId('email-otp-submit').click()
        },
      },
      passport: {
        async completeLogin(page, { email }) {
          const popup = await popupAt(
            page,
            emulator.passport.authenticationDomain,
          )
          const since = new Date()
          await popup.getByTestId('login-email').fill(email)
          await popup.getByTestId('login-send-code').click()
          const code = await kit.waitForCode(email, {
            since,
            timeoutMs: 15_000,
          })
          await popup.getByTestId('login-code').fill(code)
          await popup.getByTestId('login-verify').click()
        },
        async approve(page) {
          const popup = await popupAt(page, emulator.passport.passportDomain)
          await popup.getByTestId('confirmation-approve').click()
        },
      },
    })
  },
})
