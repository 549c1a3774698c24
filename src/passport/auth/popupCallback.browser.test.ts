import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  callbackUrl,
  closeWindows,
  popupOrigin,
  recordMessages,
  spyOpen,
  waitClosed,
} from '../../../test/browser/fixtures/popupClient.js'
import { notifyOpener, openLoginPopup } from './popup.js'

/*
 * The callback side, run for real: the popup loads
 * test/browser/fixtures/popupCallback.html from this page's own origin (as a
 * dApp's redirect page is), which calls the real notifyOpener.
 */

afterEach(() => {
  vi.restoreAllMocks()
  closeWindows()
})

describe('notifyOpener: the redirect page in the popup', () => {
  test('behavior: posts {source, url, keepOpen} to its opener at its origin, then closes itself', async () => {
    const messages = recordMessages()
    const url = callbackUrl({ code: 'c-6', state: 's-6' })
    const opened = window.open(url, 'callbackFixture', 'width=300,height=300')
    await expect.poll(() => messages.seen.length).toBe(2)
    messages.stop()
    expect(
      messages.seen.map((m) => [m.origin, m.source === opened, m.data]),
    ).toEqual([
      [location.origin, true, { source: 'oidc-client', url, keepOpen: false }],
      [location.origin, true, { fixtureDone: true }],
    ])
    await waitClosed(opened)
  })

  test('behavior: pinned to openerOrigin, the callback never reaches an opener of another origin', async () => {
    const messages = recordMessages()
    const url = callbackUrl({ openerOrigin: popupOrigin, keepOpen: '1' })
    const opened = window.open(url, 'callbackFixture', 'width=300,height=300')
    try {
      await expect.poll(() => messages.seen.length).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 100))
      messages.stop()
      expect(messages.seen.map((m) => m.data)).toEqual([{ fixtureDone: true }])
    } finally {
      opened?.close()
    }
  })

  test('behavior: without an opener it posts nothing, stays open and returns false', () => {
    expect(window.opener).toBeNull()
    const close = vi.spyOn(window, 'close')
    expect(notifyOpener({ url: 'http://127.0.0.1/cb?code=x' })).toBe(false)
    expect(close).toHaveBeenCalledTimes(0)
  })

  test('behavior: with openLoginPopup on the same origin, the popup closing right after posting still resolves', async () => {
    const calls = spyOpen()
    const url = callbackUrl({ code: 'c-8', state: 's-8' })
    const result = await openLoginPopup({ url, closedCheckInterval: 1 })
    expect([result.url, result.params.get('state')]).toEqual([url, 's-8'])
    await waitClosed(calls[0]?.window ?? null)
  })

  test('behavior: with openLoginPopup on the same origin, keepOpen leaves the popup open', async () => {
    const calls = spyOpen()
    const url = callbackUrl({ keepOpen: '1', code: 'c-7', state: 's-7' })
    const result = await openLoginPopup({ url })
    expect([result.url, result.params.get('code')]).toEqual([url, 'c-7'])
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(calls[0]?.window?.closed).toBe(false)
  })
})
