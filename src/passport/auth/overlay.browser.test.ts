import { afterEach, describe, expect, test, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import {
  overlayIds,
  overlayTestIds,
  overlayTexts,
  PopupOverlay,
} from './overlay.js'

const shown: PopupOverlay[] = []

/** An overlay removed after the test. */
function make(...args: ConstructorParameters<typeof PopupOverlay>) {
  const overlay = new PopupOverlay(...args)
  shown.push(overlay)
  return overlay
}

afterEach(() => {
  for (const overlay of shown.splice(0)) overlay.remove()
})

const noop = () => {}
const byTestId = (id: string) =>
  document.querySelector<HTMLElement>(`[data-testid="${id}"]`)

describe('PopupOverlay: texts and elements', () => {
  test('behavior: the blocked overlay shows the published text exactly', () => {
    make({}, true).append(noop, noop)
    expect(byTestId(overlayTestIds.text)?.textContent).toBe(
      'Pop-up blocked. Please try again below. If the problem continues, adjust your browser settings.',
    )
    expect(byTestId(overlayTestIds.root)?.dataset.variant).toBe('blocked')
  })

  test('behavior: the generic overlay shows the published text exactly', () => {
    make().append(noop, noop)
    expect(byTestId(overlayTestIds.text)?.textContent).toBe(
      "Secure pop-up not showing? We'll help you re-launch",
    )
    expect(byTestId(overlayTestIds.root)?.dataset.variant).toBe('generic')
  })

  test('behavior: every element has a stable id equal to its data-testid', () => {
    make({}, true).append(noop, noop)
    expect(overlayIds).toEqual({
      root: 'passport-overlay',
      contents: 'passport-overlay-contents',
      text: 'passport-overlay-text',
      tryAgain: 'passport-overlay-try-again',
      close: 'passport-overlay-close',
      style: 'passport-overlay-style',
    })
    for (const id of Object.values(overlayIds))
      expect(document.getElementById(id)?.dataset.testid).toBe(id)
  })

  test('behavior: Try again and close are buttons with their labels', () => {
    make({}, true).append(noop, noop)
    const tryAgain = byTestId(overlayTestIds.tryAgain) as HTMLButtonElement
    const close = byTestId(overlayTestIds.close) as HTMLButtonElement
    expect([tryAgain.type, tryAgain.textContent]).toEqual([
      'button',
      'Try again',
    ])
    expect([close.type, close.getAttribute('aria-label')]).toEqual([
      'button',
      'Close',
    ])
    expect(overlayTexts.tryAgain).toBe('Try again')
  })

  test('behavior: it covers the viewport above host content at z-index 2147483647', async () => {
    const host = document.createElement('div')
    host.style.cssText = 'position:fixed;inset:0;z-index:999999;background:red'
    document.body.append(host)
    try {
      make({}, true).append(noop, noop)
      const root = byTestId(overlayTestIds.root) as HTMLElement
      const style = getComputedStyle(root)
      expect([style.position, style.zIndex]).toEqual(['fixed', '2147483647'])
      expect(root.getBoundingClientRect().width).toBe(innerWidth)
      expect(root.getBoundingClientRect().height).toBe(innerHeight)
      const centre = document.elementFromPoint(5, innerHeight - 5)
      expect(root.contains(centre)).toBe(true)
      await expect
        .element(page.getByRole('button', { name: 'Try again' }))
        .toBeVisible()
    } finally {
      host.remove()
    }
  })

  test('behavior: it loads no external asset (no link, img or url())', () => {
    make({}, true).append(noop, noop)
    const root = byTestId(overlayTestIds.root) as HTMLElement
    expect(root.querySelectorAll('img, link, iframe').length).toBe(0)
    expect(
      document.querySelectorAll('link[id^="passport-overlay"]').length,
    ).toBe(0)
    expect(byTestId(overlayTestIds.style)?.textContent).not.toContain('url(')
  })
})

describe('PopupOverlay: buttons', () => {
  test('behavior: clicking Try again and close calls their handlers once each', async () => {
    const tryAgain = vi.fn()
    const close = vi.fn()
    make({}, true).append(tryAgain, close)
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    expect([tryAgain.mock.calls.length, close.mock.calls.length]).toEqual([
      1, 0,
    ])
    await userEvent.click(page.getByTestId(overlayTestIds.close))
    expect([tryAgain.mock.calls.length, close.mock.calls.length]).toEqual([
      1, 1,
    ])
  })

  test('behavior: update replaces the Try again handler instead of adding one', async () => {
    const first = vi.fn()
    const second = vi.fn()
    const overlay = make({}, true)
    overlay.append(first, noop)
    overlay.update(second)
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    expect([first.mock.calls.length, second.mock.calls.length]).toEqual([0, 1])
  })

  test('behavior: a second append keeps one overlay and rebinds both buttons', async () => {
    const first = vi.fn()
    const second = vi.fn()
    const overlay = make({}, true)
    expect(overlay.append(first, first)).toBe(true)
    expect(overlay.append(second, second)).toBe(true)
    expect(document.querySelectorAll(`#${overlayIds.root}`).length).toBe(1)
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    await userEvent.click(page.getByTestId(overlayTestIds.close))
    expect([first.mock.calls.length, second.mock.calls.length]).toEqual([0, 2])
  })
})

describe('PopupOverlay: options', () => {
  test.each([
    [{ disableGenericPopupOverlay: true }, false, false],
    [{ disableGenericPopupOverlay: true }, true, true],
    [{ disableBlockedPopupOverlay: true }, false, true],
    [{ disableBlockedPopupOverlay: true }, true, false],
    [
      { disableGenericPopupOverlay: true, disableBlockedPopupOverlay: true },
      true,
      false,
    ],
    [
      { disableGenericPopupOverlay: true, disableBlockedPopupOverlay: true },
      false,
      false,
    ],
    [{}, false, true],
    [{}, true, true],
  ])(
    'behavior: options %j, blocked=%s: shown=%s',
    (options, blocked, expected) => {
      const overlay = make(options, blocked)
      expect(overlay.enabled).toBe(expected)
      expect(overlay.append(noop, noop)).toBe(expected)
      expect(document.getElementById(overlayIds.root) !== null).toBe(expected)
      expect(document.getElementById(overlayIds.style) !== null).toBe(expected)
    },
  )
})

describe('PopupOverlay: removal', () => {
  test('behavior: remove takes off the overlay and its stylesheet, leaving no node', () => {
    const before = document.documentElement.outerHTML
    const overlay = make({}, true)
    overlay.append(noop, noop)
    expect(overlay.element?.isConnected).toBe(true)
    overlay.remove()
    expect(overlay.element).toBeUndefined()
    expect(document.querySelectorAll('[id^="passport-overlay"]').length).toBe(0)
    expect(document.documentElement.outerHTML).toBe(before)
  })

  test('behavior: remove twice, or before append, is harmless', () => {
    const overlay = make()
    overlay.remove()
    overlay.append(noop, noop)
    overlay.remove()
    overlay.remove()
    expect(document.querySelectorAll('[id^="passport-overlay"]').length).toBe(0)
  })

  test('behavior: the stylesheet stays while another overlay is still shown', () => {
    const first = make({}, true)
    const second = make()
    first.append(noop, noop)
    second.append(noop, noop)
    expect(document.querySelectorAll(`#${overlayIds.style}`).length).toBe(1)
    first.remove()
    expect(document.getElementById(overlayIds.style)).not.toBeNull()
    expect(byTestId(overlayTestIds.root)?.dataset.variant).toBe('generic')
    second.remove()
    expect(document.getElementById(overlayIds.style)).toBeNull()
  })

  test('behavior: an overlay can be shown again after remove', () => {
    const overlay = make({}, true)
    overlay.append(noop, noop)
    overlay.remove()
    expect(overlay.append(noop, noop)).toBe(true)
    expect(document.querySelectorAll(`#${overlayIds.root}`).length).toBe(1)
  })

  test('behavior: a removed overlay no longer calls its handlers', () => {
    const tryAgain = vi.fn()
    const overlay = make({}, true)
    overlay.append(tryAgain, noop)
    const button = byTestId(overlayTestIds.tryAgain) as HTMLButtonElement
    overlay.remove()
    button.click()
    expect(tryAgain).toHaveBeenCalledTimes(0)
  })
})
