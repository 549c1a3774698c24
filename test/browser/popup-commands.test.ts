import { afterEach, describe, expect, test } from 'vitest'
import { commands } from 'vitest/browser'
import { create } from '../../src/passport/zkevm/confirmation.js'
import { info, trackWindows } from './passportWallet.js'

/*
 * The end of a wallet test, at the moment that used to leave a window
 * behind: the wallet lets go of its confirmation window before the loading
 * page has committed (a request the guardian asks nothing about, or one
 * refused before any network call, ends in milliseconds), so the window's
 * close waits for that page, and the test ends meanwhile. The loading
 * page's navigation is held at the browser (popupsHold) so that the moment
 * lasts as long as the test needs, instead of a few milliseconds.
 *
 * What went wrong there: Playwright lists a popup only once its first page
 * starts loading, so popupsGone and popupsClose did not see the window and
 * passed; the test page's own close() then reached it as its page
 * committed, which Chromium now and then loses (the window stays open on
 * the loading page), and the next wallet test's check found it there.
 */

const { passportDomain } = info.passport
const loading = `${passportDomain}/transaction-confirmation/loading`

afterEach(async () => {
  await commands.popupsRelease(loading)
  await commands.popupsClose(passportDomain)
})

/** A window.open that records the windows it opens. */
function recordWindows() {
  const real = window.open
  const opened: Window[] = []
  window.open = ((...args: Parameters<typeof window.open>) => {
    const opening = real.apply(window, args)
    if (opening) opened.push(opening)
    return opening
  }) as typeof window.open
  return { opened, restore: () => (window.open = real) }
}

describe('popup commands: a popup still on its first page', () => {
  test('behavior: popupsGone counts the window the wallet let go of before its loading page came, until the wallet closes it', async () => {
    const recorded = recordWindows()
    await commands.popupsHold(loading)
    create({ passportDomain }).open().close()
    recorded.restore()
    const [popup] = recorded.opened
    expect(popup?.closed).toBe(false)

    // The loading page cannot commit while held: the window is there the
    // whole time, so the check must not pass.
    await expect(commands.popupsGone(passportDomain, 300)).rejects.toThrow(
      `Windows still open at ${passportDomain}: (first page still loading).`,
    )

    // Once the page commits, the wallet's waiting close goes through.
    await commands.popupsRelease(loading)
    await commands.popupsGone(passportDomain)
    expect(popup?.closed).toBe(true)
  })

  test("behavior: a wallet test's end leaves its window on its first page to the browser, which closes it", async () => {
    const windows = trackWindows()
    await commands.popupsHold(loading)
    // A window the test opened and left, whose page has not come yet.
    const popup = window.open(loading, 'left-behind', 'width=400,height=400')
    expect(popup?.closed).toBe(false)

    // Not from the page: that close() can be lost as the page commits.
    expect(windows.closeLeft()).toBe(1)
    expect(popup?.closed).toBe(false)

    // Through the browser, though Playwright does not list the window yet.
    await commands.popupsClose(passportDomain)
    await expect.poll(() => popup?.closed).toBe(true)
    await commands.popupsRelease(loading)
    await commands.popupsGone(passportDomain)
  })
})
