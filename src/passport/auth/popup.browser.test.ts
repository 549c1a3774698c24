import { afterEach, describe, expect, test, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import {
  callbackUrl,
  closeWindows,
  popupOrigin,
  popupOtherOrigin,
  popupUrl,
  recordMessages,
  spyOpen,
  waitClosed,
} from '../../../test/browser/fixtures/popupClient.js'
import { overlayIds, overlayTestIds } from './overlay.js'
import {
  loginPopupDefaults,
  notifyOpener,
  openLoginPopup,
  PopupBlockedError,
  PopupClosedError,
  PopupResponseError,
  PopupTimeoutError,
  popupFeatures,
} from './popup.js'

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  closeWindows()
  document.getElementById(overlayIds.root)?.remove()
})

const closedByUser = {
  name: 'PopupClosedError',
  message: 'Popup closed by user',
}
const overlay = () => page.getByTestId(overlayTestIds.root)

describe('openLoginPopup: the window', () => {
  test('behavior: opens 410x450 named passportLoginPrompt, centred on this window', async () => {
    vi.stubGlobal('screenX', 100)
    vi.stubGlobal('screenY', 50)
    vi.stubGlobal('outerWidth', 1200)
    vi.stubGlobal('outerHeight', 700)
    const calls = spyOpen()
    const url = popupUrl(popupOrigin, { action: 'hold' })
    const pending = openLoginPopup({ url, origin: popupOrigin, timeout: 50 })
    await expect(pending).rejects.toBeInstanceOf(PopupTimeoutError)
    expect(
      calls.map(({ url, target, features }) => [url, target, features]),
    ).toEqual([
      [
        url,
        'passportLoginPrompt',
        'location=no,toolbar=no,width=410,height=450,left=495,top=175',
      ],
    ])
    expect(loginPopupDefaults).toEqual({
      width: 410,
      height: 450,
      target: 'passportLoginPrompt',
      closedCheckInterval: 500,
    })
  })

  test('behavior: a window smaller than the popup places it at left=0, top=0', () => {
    vi.stubGlobal('screenX', 0)
    vi.stubGlobal('screenY', 0)
    vi.stubGlobal('outerWidth', 300)
    vi.stubGlobal('outerHeight', 400)
    expect(popupFeatures({ width: 410, height: 450 })).toBe(
      'location=no,toolbar=no,width=410,height=450,left=0,top=0',
    )
  })

  test('behavior: the real popup gets a 410x450 viewport', async () => {
    const calls = spyOpen()
    const pending = openLoginPopup({ url: callbackUrl({ keepOpen: '1' }) })
    await pending
    const opened = calls[0]?.window as Window
    expect([opened.innerWidth, opened.innerHeight]).toEqual([410, 450])
  })
})

describe('openLoginPopup: a real popup on another origin', () => {
  test('behavior: resolves with the posted URL and its code and state, then closes the popup', async () => {
    const calls = spyOpen()
    const url = popupUrl(popupOrigin, { code: 'c-1', state: 's-1' })
    const result = await openLoginPopup({ url, origin: popupOrigin })
    expect(result.url).toBe(url)
    expect([result.params.get('code'), result.params.get('state')]).toEqual([
      'c-1',
      's-1',
    ])
    await waitClosed(calls[0]?.window ?? null)
  })

  test('behavior: a bare {code, state} message is accepted too', async () => {
    spyOpen()
    const url = popupUrl(popupOrigin, {
      shape: 'code',
      code: 'c-2',
      state: 's-2',
    })
    const result = await openLoginPopup({ url, origin: popupOrigin })
    expect(result.url).toBeUndefined()
    expect(result.params.toString()).toBe('code=c-2&state=s-2')
  })

  test('behavior: a message from the popup window on a wrong origin is ignored', async () => {
    spyOpen()
    const messages = recordMessages()
    const real = popupUrl(popupOrigin, { code: 'real', state: 's' })
    const url = popupUrl(popupOtherOrigin, {
      code: 'forged',
      state: 's',
      next: real,
    })
    const result = await openLoginPopup({ url, origin: popupOrigin })
    messages.stop()
    expect(result.params.get('code')).toBe('real')
    const origins = messages.seen.map((m) => m.origin)
    expect(origins).toEqual([popupOtherOrigin, popupOrigin])
  })

  test('behavior: a message from the right origin but another window is ignored', async () => {
    const calls = spyOpen()
    const messages = recordMessages()
    const url = popupUrl(popupOrigin, {
      action: 'hold',
      code: 'real',
      state: 's',
    })
    const pending = openLoginPopup({ url, origin: popupOrigin })
    const frame = document.createElement('iframe')
    frame.src = popupUrl(popupOrigin, {
      to: 'parent',
      code: 'forged',
      state: 's',
    })
    document.body.append(frame)
    try {
      await expect.poll(() => messages.seen.length).toBe(1)
      expect(messages.seen[0]?.source).toBe(frame.contentWindow)
      expect(messages.seen[0]?.origin).toBe(popupOrigin)
      calls[0]?.window?.postMessage('release', popupOrigin)
      const result = await pending
      expect(result.params.get('code')).toBe('real')
      expect(messages.seen[1]?.source).toBe(calls[0]?.window)
    } finally {
      messages.stop()
      frame.remove()
    }
  })

  test('behavior: the popup closing itself rejects with "Popup closed by user"', async () => {
    spyOpen()
    const url = popupUrl(popupOrigin, { action: 'close' })
    const started = performance.now()
    await expect(
      openLoginPopup({ url, origin: popupOrigin }),
    ).rejects.toMatchObject(closedByUser)
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  test('behavior: an unreadable callback URL rejects with "Invalid response from window"', async () => {
    spyOpen()
    const url = popupUrl(popupOrigin, { url: 'not a url' })
    const pending = openLoginPopup({ url, origin: popupOrigin })
    await expect(pending).rejects.toBeInstanceOf(PopupResponseError)
    await expect(pending).rejects.toThrow(/^Invalid response from window$/)
  })

  test('behavior: no callback within timeout rejects "Popup timed out" and closes the popup', async () => {
    const calls = spyOpen()
    const url = popupUrl(popupOrigin, { action: 'hold' })
    const pending = openLoginPopup({ url, origin: popupOrigin, timeout: 300 })
    await expect(pending).rejects.toThrow(/^Popup timed out$/)
    await waitClosed(calls[0]?.window ?? null)
  })

  test('behavior: aborting rejects with the signal reason and closes the popup', async () => {
    const calls = spyOpen()
    const controller = new AbortController()
    const url = popupUrl(popupOrigin, { action: 'hold' })
    const pending = openLoginPopup({
      url,
      origin: popupOrigin,
      signal: controller.signal,
    })
    const reason = new Error('cancelled by host')
    controller.abort(reason)
    await expect(pending).rejects.toBe(reason)
    await waitClosed(calls[0]?.window ?? null)
  })
})

describe('openLoginPopup: blocked popup', () => {
  test('behavior: shows the blocked overlay; Try again reopens from the click and resolves', async () => {
    const calls = spyOpen(1)
    const url = popupUrl(popupOrigin, { code: 'c-3', state: 's-3' })
    const pending = openLoginPopup({ url, origin: popupOrigin })
    await expect.element(overlay()).toBeVisible()
    expect(document.getElementById(overlayIds.text)?.textContent).toBe(
      'Pop-up blocked. Please try again below. If the problem continues, adjust your browser settings.',
    )
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    const result = await pending
    expect(result.params.get('code')).toBe('c-3')
    expect(
      calls.map((c) => [c.url, c.target, c.active, c.window !== null]),
    ).toEqual([
      [url, 'passportLoginPrompt', false, false],
      [url, 'passportLoginPrompt', true, true],
    ])
    expect(document.getElementById(overlayIds.root)).toBeNull()
    expect(document.getElementById(overlayIds.style)).toBeNull()
  })

  test('behavior: the overlay close button rejects with "Popup closed by user"', async () => {
    const calls = spyOpen(1)
    const pending = openLoginPopup({
      url: popupUrl(popupOrigin),
      origin: popupOrigin,
    })
    const rejected = expect(pending).rejects.toMatchObject(closedByUser)
    await userEvent.click(page.getByTestId(overlayTestIds.close))
    await rejected
    await expect(pending).rejects.toBeInstanceOf(PopupClosedError)
    expect(calls).toHaveLength(1)
    expect(document.querySelectorAll('[id^="passport-overlay"]').length).toBe(0)
  })

  test('behavior: still blocked on Try again keeps the overlay for another try', async () => {
    const calls = spyOpen(2)
    const url = popupUrl(popupOrigin, { code: 'c-4', state: 's-4' })
    const pending = openLoginPopup({ url, origin: popupOrigin })
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    expect(calls).toHaveLength(2)
    await expect.element(overlay()).toBeVisible()
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    expect((await pending).params.get('code')).toBe('c-4')
    expect(calls.map((c) => c.window !== null)).toEqual([false, false, true])
  })

  test('behavior: Try again while the reopened popup is up focuses it by name', async () => {
    const calls = spyOpen(1)
    const url = popupUrl(popupOrigin, {
      action: 'hold',
      code: 'c-5',
      state: 's',
    })
    const pending = openLoginPopup({ url, origin: popupOrigin })
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    expect(calls.map((c) => [c.url, c.target])).toEqual([
      [url, 'passportLoginPrompt'],
      [url, 'passportLoginPrompt'],
      ['', 'passportLoginPrompt'],
    ])
    expect(calls[2]?.window).toBe(calls[1]?.window)
    calls[1]?.window?.postMessage('release', popupOrigin)
    expect((await pending).params.get('code')).toBe('c-5')
  })

  test('behavior: disableBlockedPopupOverlay rejects "Popup blocked by user" with no overlay', async () => {
    spyOpen(1)
    const pending = openLoginPopup({
      url: popupUrl(popupOrigin),
      overlay: { disableBlockedPopupOverlay: true },
    })
    await expect(pending).rejects.toBeInstanceOf(PopupBlockedError)
    await expect(pending).rejects.toThrow(/^Popup blocked by user$/)
    expect(document.getElementById(overlayIds.root)).toBeNull()
  })

  test('behavior: disableGenericPopupOverlay leaves the blocked overlay on', async () => {
    spyOpen(1)
    const pending = openLoginPopup({
      url: popupUrl(popupOrigin),
      overlay: { disableGenericPopupOverlay: true },
    })
    const rejected = expect(pending).rejects.toMatchObject(closedByUser)
    await expect.element(overlay()).toBeVisible()
    await userEvent.click(page.getByTestId(overlayTestIds.close))
    await rejected
  })
})

/*
 * The callback side, run for real: the popup loads
 * test/browser/fixtures/popupCallback.html from this page's own origin (as a
 * dApp's redirect page is), which calls the real notifyOpener.
 */
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
