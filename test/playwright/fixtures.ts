import type { Page } from '@playwright/test'
import { test as base } from '../../src/testing/playwright.js'

export { expect } from '../../src/testing/playwright.js'

/** A test page of ./pages: its file and which SDK it runs. */
export type PageName = 'magic' | 'passport'

/**
 * The suite's `test`: the package's fixtures, plus `open`, which opens a
 * test page with the worker's emulator set on every page of the test's
 * browser context (the page, its popups, its callback page).
 */
export const test = base.extend<{
  open(
    name: PageName,
    options?: {
      sdk?: 'ours' | 'published'
      /** More of the page's query. */
      query?: Record<string, string>
      page?: Page
    },
  ): Promise<Page>
}>({
  open: async ({ page, emulator }, use) => {
    const pagesUrl = process.env.PAGES_URL
    if (!pagesUrl)
      throw new Error('PAGES_URL is not set: run the suite through its config.')
    await page.context().addInitScript((info) => {
      globalThis.emulatorInfo = info
    }, emulator)
    await use(async (name, options = {}) => {
      const target = options.page ?? page
      const query = new URLSearchParams({
        sdk: options.sdk ?? 'ours',
        ...options.query,
      })
      await target.goto(`${pagesUrl}/${name}.html?${query}`)
      await target.locator('body[data-ready="true"]').waitFor()
      return target
    })
  },
})
