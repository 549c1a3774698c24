import { parseEther, toHex } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { commands, page, userEvent } from 'vitest/browser'
import { overlayIds, overlayTestIds } from '../../src/passport/auth/overlay.js'
import { spyPopups } from './passportLogin.js'
import {
  type Connected,
  chain,
  connectPlayer,
  createWallet,
  fund,
  info,
  noConfirmationWindowLeft,
  randomAddress,
  sendValue,
  setGuardianRules,
  trackWindows,
} from './passportWallet.js'

/*
 * The game wallet with `confirmationPopup: 'on-demand'`, end to end: the
 * emulated guardian's verdicts, the real confirmation popup clicked through
 * Playwright, the transfers mined on Anvil.
 */

const { passportDomain } = info.passport
const transactionPage = `${passportDomain}/transaction-confirmation/zkevm/transaction?transactionID=`

let player: Connected
let windows: ReturnType<typeof trackWindows>

beforeEach(async () => {
  localStorage.clear()
  windows = trackWindows()
  player = await connectPlayer({
    passport: createWallet({ confirmationPopup: 'on-demand' }),
    label: 'on-demand',
  })
  await fund(player.wallet, parseEther('10'))
})
afterEach(async () => {
  vi.restoreAllMocks()
  document.getElementById(overlayIds.root)?.remove()
  await setGuardianRules(player.wallet, null)
  await noConfirmationWindowLeft(windows)
})

describe('confirmation popup on demand', () => {
  test('behavior: a send and a signature the guardian lets through open no window', async () => {
    const calls = spyPopups()
    const to = randomAddress()
    const hash = await sendValue(player.provider, to, 1000n)
    expect((await chain.waitForTransactionReceipt({ hash })).status).toBe(
      'success',
    )
    const signature = await player.provider.request({
      method: 'personal_sign',
      params: [toHex('hello'), player.wallet],
    })
    expect(signature).toMatch(/^0x[0-9a-f]+$/)
    expect(calls).toEqual([])
    expect(document.getElementById(overlayIds.root)).toBeNull()
  })

  test('behavior: with no live activation the blocked overlay shows; Try again opens the page; Approve sends it, mined', async () => {
    await setGuardianRules(player.wallet, {
      confirmAboveValue: parseEther('1').toString(),
    })
    expect(navigator.userActivation.isActive).toBe(false)
    const calls = spyPopups()
    const to = randomAddress()
    const pending = sendValue(player.provider, to, parseEther('1.5'))
    await expect.element(page.getByTestId(overlayTestIds.root)).toBeVisible()
    expect(calls).toEqual([])
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    expect(calls.map((call) => call.url.startsWith(transactionPage))).toEqual([
      true,
    ])
    await commands.popupClick(transactionPage, 'confirmation-approve')
    const hash = await pending
    expect((await chain.waitForTransactionReceipt({ hash })).status).toBe(
      'success',
    )
    expect(await chain.getBalance({ address: to })).toBe(parseEther('1.5'))
  })
})
