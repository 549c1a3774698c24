import { describe, expect, inject, test } from 'vitest'
import { page } from 'vitest/browser'
import * as Messages from '../../src/magic/wire/messages.js'
import { type MagicFrame, openMagicFrame, typeOf } from './magicFrame.js'
import { anvil } from './magicLogin.js'
import { waitForCode } from './mailbox.js'

/**
 * The emulated iframe's own screens (`showUI: true`), driven inside the
 * cross-origin iframe with Playwright's frame locator.
 */
describe('emulated iframe: screens', () => {
  const { endpoint, apiKey, mailbox, rpcUrl, chainId } = inject('magicEmulator')
  const { incoming } = Messages

  const isType =
    (frame: MagicFrame, name: Messages.IncomingType) =>
    (message: { msgType: string }) =>
      message.msgType === typeOf(frame, name)

  async function loginWithUi(
    frame: MagicFrame,
    email: string,
    options: { wrongCodeFirst?: boolean } = {},
  ) {
    const from = frame.received.length
    const id = await frame.send('magic_auth_login_with_email_otp', [
      { email, showUI: true },
    ])
    await frame.waitFor(isType(frame, incoming.showOverlay), { from })
    const code = await waitForCode({ mailbox, to: email })
    const ui = page.frameLocator(page.elementLocator(frame.iframe))
    if (options.wrongCodeFirst) {
      const wrong = code.slice(0, -1) + ((Number(code.at(-1)) + 1) % 10)
      await ui.getByTestId('email-otp-input').fill(wrong)
      await ui.getByTestId('email-otp-submit').click()
      await ui.getByTestId('email-otp-error').hover()
    }
    await ui.getByTestId('email-otp-input').fill(code)
    await ui.getByTestId('email-otp-submit').click()
    const message = await frame.response(id)
    await frame.waitFor(isType(frame, incoming.hideOverlay), { from })
    return message
  }

  test('email OTP login typed into the iframe (a wrong code first)', async () => {
    const frame = await openMagicFrame({ endpoint, apiKey })
    try {
      const email = `ui-${crypto.randomUUID()}@example.com`
      const message = await loginWithUi(frame, email, {
        wrongCodeFirst: true,
      })
      const { result } = message.response as { result?: unknown }
      expect(typeof result).toBe('string')
      expect(typeof message.rt).toBe('string')
      const hideIndex = frame.received.findIndex(
        isType(frame, incoming.hideOverlay),
      )
      const responseIndex = frame.received.indexOf(message)
      expect(hideIndex).toBeGreaterThan(-1)
      expect(hideIndex).toBeLessThan(responseIndex)
    } finally {
      frame.destroy()
    }
  })

  /** Opens a wallet screen: the overlay must come (not an early response). */
  async function openScreen(frame: MagicFrame, method: string) {
    const from = frame.received.length
    const id = await frame.send(method)
    const first = await frame.waitFor(
      (message) =>
        isType(frame, incoming.showOverlay)(message) ||
        (isType(frame, incoming.response)(message) &&
          (message.response as { id?: unknown }).id === id),
      { from },
    )
    expect(first).toMatchObject({
      msgType: typeOf(frame, incoming.showOverlay),
    })
    return { id, from }
  }

  /** Clicks the screen's `close`: the request resolves, the overlay hides. */
  async function closeScreen(
    frame: MagicFrame,
    screen: { id: number; from: number },
  ) {
    await uiOf(frame).getByTestId('close').click()
    const message = await frame.response(screen.id)
    expect(message.response).toMatchObject({ result: true })
    await frame.waitFor(isType(frame, incoming.hideOverlay), {
      from: screen.from,
    })
  }

  const uiOf = (frame: MagicFrame) =>
    page.frameLocator(page.elementLocator(frame.iframe))

  /** A logged-in frame whose user holds 1.5 ETH on Anvil. */
  async function fundedUser(frame: MagicFrame, name: string) {
    await loginWithUi(frame, `${name}-${crypto.randomUUID()}@example.com`)
    const info = await frame.request('magic_get_info')
    const { publicAddress } = info.result as { publicAddress: string }
    // 0x14d1120d7b160000 wei = 1.5 ETH.
    await anvil(rpcUrl, 'anvil_setBalance', [
      publicAddress,
      '0x14d1120d7b160000',
    ])
    return publicAddress
  }

  test('magic_show_balances shows the real ETH balance; close resolves', async () => {
    const frame = await openMagicFrame({
      endpoint,
      apiKey,
      network: { rpcUrl, chainId },
    })
    try {
      await fundedUser(frame, 'balances')
      const screen = await openScreen(frame, 'magic_show_balances')
      await uiOf(frame)
        .getByTestId('balances-eth')
        .filter({ hasText: /^1\.5$/ })
        .hover()
      await closeScreen(frame, screen)
    } finally {
      frame.destroy()
    }
  })

  test('send tokens from the iframe moves real ETH; on-ramp says emulated', async () => {
    const frame = await openMagicFrame({
      endpoint,
      apiKey,
      network: { rpcUrl, chainId },
    })
    try {
      await fundedUser(frame, 'send')
      const to = `0x${[...crypto.getRandomValues(new Uint8Array(20))]
        .map((byte) => byte.toString(16).padStart(2, '0'))
        .join('')}`
      const send = await openScreen(frame, 'magic_show_send_tokens_ui')
      const ui = uiOf(frame)
      await ui.getByTestId('send-tokens-to').fill(to)
      await ui.getByTestId('send-tokens-amount').fill('0.25')
      await ui.getByTestId('send-tokens-submit').click()
      await ui.getByTestId('send-tokens-hash').hover()
      // 0.25 ETH = 0x3782dace9d90000 wei.
      expect(await anvil(rpcUrl, 'eth_getBalance', [to, 'latest'])).toBe(
        '0x3782dace9d90000',
      )
      await closeScreen(frame, send)

      const onramp = await openScreen(frame, 'magic_show_fiat_onramp')
      await ui
        .getByTestId('onramp-emulated')
        .filter({ hasText: 'emulated' })
        .hover()
      await closeScreen(frame, onramp)
    } finally {
      frame.destroy()
    }
  })
})
