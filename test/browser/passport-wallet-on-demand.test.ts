import { type Hex, parseEther, toHex } from 'viem'
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
const messagePage = `${passportDomain}/transaction-confirmation/zkevm/message?messageID=`

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

/**
 * Runs `action` from a real click on a button of the page, as a game's Buy
 * button would, and resolves what it returns.
 */
async function fromClick<value>(action: () => Promise<value>): Promise<value> {
  let started: Promise<value> | undefined
  const element = document.createElement('button')
  element.textContent = 'Buy'
  element.addEventListener('click', () => {
    started = action()
  })
  document.body.append(element)
  try {
    await userEvent.click(page.getByRole('button', { name: 'Buy' }))
  } finally {
    element.remove()
  }
  if (!started) throw new Error('The click started nothing.')
  return started
}

describe('confirmation popup on demand, from a click', () => {
  // The custody key's signature is made side by side with the guardian's
  // evaluation; the popup used to open while its answer was on its way,
  // and Chromium never delivered it: the send waited for good.
  test('behavior: a send the guardian asks about opens its page within the click; Approve sends it, mined', async () => {
    await setGuardianRules(player.wallet, {
      confirmAboveValue: parseEther('1').toString(),
    })
    const calls = spyPopups()
    const to = randomAddress()
    const pending = fromClick(() =>
      sendValue(player.provider, to, parseEther('1.5')),
    )
    await expect.poll(() => calls.length).toBe(1)
    expect(calls.map((call) => call.url.startsWith(transactionPage))).toEqual([
      true,
    ])
    // Opened from the click: the seed's generic overlay covers the page
    // while the popup is up, never the blocked one.
    expect(document.getElementById(overlayIds.root)?.dataset.variant).toBe(
      'generic',
    )
    await commands.popupClick(transactionPage, 'confirmation-approve')
    const hash = await pending
    expect((await chain.waitForTransactionReceipt({ hash })).status).toBe(
      'success',
    )
    expect(await chain.getBalance({ address: to })).toBe(parseEther('1.5'))
    expect(document.getElementById(overlayIds.root)).toBeNull()
  })

  test('behavior: typed data the guardian asks about opens its page within the click; Approve signs it, valid for the wallet', async () => {
    await setGuardianRules(player.wallet, { confirmTypedData: true })
    const calls = spyPopups()
    const typedData = {
      domain: { name: 'Game', version: '1', chainId: info.chainId },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        Move: [{ name: 'to', type: 'string' }],
      },
      primaryType: 'Move',
      message: { to: 'e4' },
    } as const
    const pending = fromClick(
      () =>
        player.provider.request({
          method: 'eth_signTypedData_v4',
          params: [player.wallet, JSON.stringify(typedData)],
        }) as Promise<Hex>,
    )
    await expect.poll(() => calls.length).toBe(1)
    expect(calls.map((call) => call.url.startsWith(messagePage))).toEqual([
      true,
    ])
    await commands.popupClick(messagePage, 'confirmation-approve')
    const signature = await pending
    expect(
      await chain.verifyTypedData({
        address: player.wallet,
        signature,
        ...typedData,
      }),
    ).toBe(true)
  })
})
