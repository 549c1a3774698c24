import type {} from '@vitest/browser-playwright'
import type { Page } from 'playwright'
import type { BrowserCommand } from 'vitest/node'

/*
 * Browser commands that act as the person in front of a popup on another
 * origin. The test page cannot reach into a cross-origin window, but the
 * browser can: these run in Node, find the popup among the browser
 * context's pages by its URL, and click or read it through Playwright, as
 * a person would.
 */

/** Waits for a page of the context whose URL starts with `prefix`. */
async function pageAt(
  pages: () => Page[],
  prefix: string,
  timeout = 10_000,
): Promise<Page> {
  const until = Date.now() + timeout
  for (;;) {
    // The newest match: an older window may still be closing.
    const found = pages().findLast(
      (candidate) =>
        !candidate.isClosed() && candidate.url().startsWith(prefix),
    )
    if (found) return found
    if (Date.now() > until)
      throw new Error(
        `No window at ${prefix} (open: ${pages()
          .map((candidate) => candidate.url())
          .join(', ')}).`,
      )
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Clicks the element with `testId` in the window at `prefix`. */
export const popupClick: BrowserCommand<
  [prefix: string, testId: string]
> = async (context, prefix, testId) => {
  const popup = await pageAt(() => context.context.pages(), prefix)
  try {
    await popup.getByTestId(testId).click({ timeout: 10_000 })
  } catch (error) {
    // A button that closes its own window (the unavailable page's Close)
    // may close it before Playwright sees the click finish: the click
    // happened.
    if (!popup.isClosed()) throw error
  }
}

/** The text of the element with `testId` in the window at `prefix`. */
export const popupText: BrowserCommand<
  [prefix: string, testId: string]
> = async (context, prefix, testId) => {
  const popup = await pageAt(() => context.context.pages(), prefix)
  return (
    (await popup.getByTestId(testId).textContent({ timeout: 10_000 })) ?? ''
  )
}

/** The title of the window at `prefix`. */
export const popupTitle: BrowserCommand<[prefix: string]> = async (
  context,
  prefix,
) => {
  const popup = await pageAt(() => context.context.pages(), prefix)
  return popup.title()
}

/**
 * Whether `page` is, or may yet be, a window at `prefix`: a popup still on
 * its first load from another site reads `about:blank` until that load
 * commits, so it counts until it shows where it went.
 */
async function atOrBound(page: Page, prefix: string): Promise<boolean> {
  if (page.isClosed()) return false
  const url = page.url()
  if (url.startsWith(prefix)) return true
  return url === 'about:blank' && (await page.opener()) !== null
}

/**
 * Waits until no window at `prefix` is left, nor a popup still loading
 * that may be one: a closed popup lingers a moment, and a new popup of the
 * same name opened meanwhile may get the closing window back.
 */
export const popupsGone: BrowserCommand<[prefix: string]> = async (
  context,
  prefix,
) => {
  const until = Date.now() + 10_000
  const left = async () => {
    const pages = context.context.pages()
    const found = await Promise.all(
      pages.map((candidate) => atOrBound(candidate, prefix)),
    )
    return pages.filter((_, index) => found[index])
  }
  for (;;) {
    const open = await left()
    if (open.length === 0) return
    if (Date.now() > until)
      throw new Error(
        `Windows still open at ${prefix}: ${open
          .map((page) => page.url())
          .join(', ')}.`,
      )
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * Closes every window at `prefix`, and every popup still on its first load
 * (which may be one): a test leaves none for the next (the published SDK
 * opens its loading page on every signing request and may leave it open
 * when its test ends; a window whose `close()` Chromium lost reads closed
 * to its opener, so only the browser can close it).
 */
export const popupsClose: BrowserCommand<[prefix: string]> = async (
  context,
  prefix,
) => {
  for (const page of context.context.pages())
    if (await atOrBound(page, prefix)) await page.close()
}

/** The URL of the window at `prefix`. */
export const popupUrl: BrowserCommand<[prefix: string]> = async (
  context,
  prefix,
) => (await pageAt(() => context.context.pages(), prefix)).url()

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** Clicks `[data-testid=testId]` in the window whose URL starts with `prefix`. */
    popupClick(prefix: string, testId: string): Promise<void>
    /** Reads `[data-testid=testId]` in the window whose URL starts with `prefix`. */
    popupText(prefix: string, testId: string): Promise<string>
    /** Waits until no window's URL starts with `prefix`. */
    popupsGone(prefix: string): Promise<void>
    /** Closes every window whose URL starts with `prefix`. */
    popupsClose(prefix: string): Promise<void>
    /** The URL of the window whose URL starts with `prefix`. */
    popupUrl(prefix: string): Promise<string>
    /** The title of the window whose URL starts with `prefix`. */
    popupTitle(prefix: string): Promise<string>
  }
}
