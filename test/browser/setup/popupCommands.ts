import type {} from '@vitest/browser-playwright'
import type { Page, Route } from 'playwright'
import type { BrowserCommand, BrowserCommandContext } from 'vitest/node'

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

/** A window as the browser lists it: `url` is '' until its first page commits. */
type Target = { targetId: string; url: string }

/**
 * The windows of the test page's browser context at `prefix`, and every
 * popup still on its first load (which may be one), as the browser itself
 * lists them, through a DevTools session of the test page.
 *
 * Playwright's `pages()` is not enough: it reports a popup only once the
 * popup's first page has started loading (the documented moment of its
 * `popup` event), so a window opened a moment ago, its page still on the
 * way, is open in the browser and missing there. The DevTools protocol's
 * target list has every window from its `window.open` on.
 */
async function browserWindows(context: BrowserCommandContext, prefix: string) {
  const session = await context.context.newCDPSession(context.page)
  const { targetInfo } = await session.send('Target.getTargetInfo')
  const list = async (): Promise<Target[]> => {
    const { targetInfos } = await session.send('Target.getTargets')
    return targetInfos.filter(
      (target) =>
        target.type === 'page' &&
        target.browserContextId === targetInfo.browserContextId &&
        (target.url.startsWith(prefix) ||
          (target.openerId !== undefined &&
            (target.url === '' || target.url === 'about:blank'))),
    )
  }
  return {
    list,
    /** Closes a window from the browser's side, whatever it is loading. */
    close: (target: Target) =>
      session
        .send('Target.closeTarget', { targetId: target.targetId })
        // Gone by itself meanwhile.
        .catch(() => undefined),
    detach: () => session.detach().catch(() => undefined),
  }
}

/**
 * Waits until no window at `prefix` is left, nor a popup still loading
 * that may be one, for up to `timeout` ms: a closed popup lingers a
 * moment, and a new popup of the same name opened meanwhile may get the
 * closing window back.
 */
export const popupsGone: BrowserCommand<
  [prefix: string, timeout?: number]
> = async (context, prefix, timeout = 10_000) => {
  const until = Date.now() + timeout
  const windows = await browserWindows(context, prefix)
  try {
    for (;;) {
      const open = await windows.list()
      if (open.length === 0) return
      if (Date.now() > until)
        throw new Error(
          `Windows still open at ${prefix}: ${open
            .map((target) => target.url || '(first page still loading)')
            .join(', ')}.`,
        )
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  } finally {
    await windows.detach()
  }
}

/**
 * Closes every window at `prefix`, and every popup still on its first load
 * (which may be one), through the browser, and waits until they are gone:
 * a test leaves none for the next (the published SDK opens its loading
 * page on every signing request and may leave it open when its test ends).
 * The test page's own `close()` is not enough: Chromium loses a `close()`
 * made as a popup's first page commits, and the window stays open on that
 * page while its opener may read it closed.
 */
export const popupsClose: BrowserCommand<[prefix: string]> = async (
  context,
  prefix,
) => {
  const windows = await browserWindows(context, prefix)
  try {
    const closing = await windows.list()
    for (const target of closing) await windows.close(target)
    const ids = new Set(closing.map((target) => target.targetId))
    const until = Date.now() + 10_000
    for (;;) {
      const left = (await windows.list()).filter((target) =>
        ids.has(target.targetId),
      )
      if (left.length === 0) return
      if (Date.now() > until)
        throw new Error(
          `Windows would not close at ${prefix}: ${left
            .map((target) => target.url || '(first page still loading)')
            .join(', ')}.`,
        )
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  } finally {
    await windows.detach()
  }
}

/**
 * Holds the browser's navigations to pages at `prefix` until {@link
 * popupsRelease}: a popup opened meanwhile stays on its first load, which
 * is otherwise over in milliseconds, so a test can act in that moment.
 */
export const popupsHold: BrowserCommand<[prefix: string]> = async (
  context,
  prefix,
) => {
  const held: Route[] = []
  const matches = (url: URL) => url.href.startsWith(prefix)
  const handler = (route: Route) => {
    // Pages only: the test page's own requests there go on.
    if (route.request().isNavigationRequest()) held.push(route)
    else return route.fallback()
  }
  await context.context.route(matches, handler)
  holds.set(prefix, async () => {
    await context.context.unroute(matches, handler)
    // The window may have been closed meanwhile.
    for (const route of held.splice(0))
      await route.continue().catch(() => undefined)
  })
}

/** Lets the requests {@link popupsHold} held for `prefix` go on. */
export const popupsRelease: BrowserCommand<[prefix: string]> = async (
  _context,
  prefix,
) => {
  const release = holds.get(prefix)
  holds.delete(prefix)
  await release?.()
}

/** The release of each prefix held. */
const holds = new Map<string, () => Promise<void>>()

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
    /**
     * Waits (up to `timeout` ms, @default 10_000) until no window's URL
     * starts with `prefix`, nor a popup's first page is still loading.
     */
    popupsGone(prefix: string, timeout?: number): Promise<void>
    /**
     * Closes, through the browser, every window whose URL starts with
     * `prefix` and every popup whose first page is still loading.
     */
    popupsClose(prefix: string): Promise<void>
    /** Holds the requests for pages at `prefix` until {@link popupsRelease}. */
    popupsHold(prefix: string): Promise<void>
    /** Lets the requests held for `prefix` go on. */
    popupsRelease(prefix: string): Promise<void>
    /** The URL of the window whose URL starts with `prefix`. */
    popupUrl(prefix: string): Promise<string>
    /** The title of the window whose URL starts with `prefix`. */
    popupTitle(prefix: string): Promise<string>
  }
}
