import { parseEther } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { commands } from 'vitest/browser'
import { type Opened, spyPopups } from './passportLogin.js'
import {
  type Connected,
  chain,
  connectPlayer,
  fund,
  info,
  noConfirmationWindowLeft,
  randomAddress,
  readNonce,
  rejection,
  relayerNext,
  sendValue,
  setGuardianRules,
  trackWindows,
} from './passportWallet.js'

/*
 * The guardian's confirmation through the REAL popup (the emulated passport
 * domain's pages, clicked through Playwright as the player would), and the
 * relayer's failures, each steered for the test's own wallet only.
 */

const { passportDomain } = info.passport
const transactionPage = `${passportDomain}/transaction-confirmation/zkevm/transaction?transactionID=`
const messagePage = `${passportDomain}/transaction-confirmation/zkevm/message?messageID=`
const unavailablePage = `${passportDomain}/transaction-confirmation/unavailable`

let player: Connected
let windows: ReturnType<typeof trackWindows>

beforeEach(async () => {
  localStorage.clear()
  windows = trackWindows()
  player = await connectPlayer({ label: 'guardian' })
  await fund(player.wallet, parseEther('10'))
})
afterEach(async () => {
  vi.restoreAllMocks()
  await setGuardianRules(player.wallet, null)
  await noConfirmationWindowLeft(windows)
})

/** The last confirmation popup opened, once it shows a page at `prefix`. */
async function popupShowing(calls: Opened[], prefix: string) {
  await commands.popupTitle(prefix)
  return calls.at(-1) as Opened
}

describe('guardian confirmation', () => {
  test('behavior: above the limit the popup asks; Approve sends it, mined', async () => {
    await setGuardianRules(player.wallet, {
      confirmAboveValue: parseEther('1').toString(),
    })
    const to = randomAddress()
    const calls = spyPopups()
    const pending = sendValue(player.provider, to, parseEther('1.5'))
    expect(
      await commands.popupText(transactionPage, 'confirmation-value'),
    ).toBe('1500000000000000000 wei (1.5 ETH)')
    await commands.popupClick(transactionPage, 'confirmation-approve')
    const hash = await pending
    expect((await chain.waitForTransactionReceipt({ hash })).status).toBe(
      'success',
    )
    expect(await chain.getBalance({ address: to })).toBe(parseEther('1.5'))
    expect(calls.length).toBe(1)
  })

  test('error: Reject is -32003 "Transaction rejected by user"; nothing is sent', async () => {
    await setGuardianRules(player.wallet, {
      confirmAboveValue: parseEther('1').toString(),
    })
    const pending = rejection(
      sendValue(player.provider, randomAddress(), parseEther('2')),
    )
    await commands.popupClick(transactionPage, 'confirmation-reject')
    expect(await pending).toEqual({
      code: -32003,
      message: 'Transaction rejected by user',
    })
    expect(await chain.getCode({ address: player.wallet })).toBeUndefined()
  })

  test('error: closing the popup is a rejection', async () => {
    await setGuardianRules(player.wallet, {
      confirmAboveValue: parseEther('1').toString(),
    })
    const calls = spyPopups()
    const pending = rejection(
      sendValue(player.provider, randomAddress(), parseEther('2')),
    )
    const popup = await popupShowing(calls, transactionPage)
    popup.window?.close()
    expect(await pending).toEqual({
      code: -32003,
      message: 'Transaction rejected by user',
    })
    expect(await readNonce(player.wallet)).toBe(0n)
  })

  test('error: an unavailable guardian (403) shows the unavailable page; once closed, "Service unavailable" with its own type, not the API body', async () => {
    await setGuardianRules(player.wallet, { unavailable: true })
    const pending = sendValue(player.provider, randomAddress(), 1n).then(
      () => ({}) as Record<string, unknown>,
      (error: unknown) => error as Record<string, unknown>,
    )
    await commands.popupClick(unavailablePage, 'confirmation-close')
    const error = await pending
    expect({
      code: error.code,
      message: error.message,
      type: error.type,
      details: error.details,
    }).toEqual({
      code: -32000,
      message: 'Service unavailable',
      type: 'SERVICE_UNAVAILABLE_ERROR',
      // The guardian's own words, not its JSON answer.
      details: 'The guardian is unavailable.',
    })
  })

  test('behavior: typed data the guardian asks about is signed on Approve (and verifies), refused on Reject', async () => {
    await setGuardianRules(player.wallet, { confirmTypedData: true })
    const { wallet, provider } = player
    const typed = {
      domain: { name: 'Game', chainId: info.chainId },
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { contents: 'trade my sword' },
    } as const
    const sign = () =>
      provider.request({
        method: 'eth_signTypedData_v4',
        params: [wallet, JSON.stringify(typed)],
      }) as Promise<`0x${string}`>

    const approved = sign()
    expect(
      await commands.popupText(messagePage, 'confirmation-typed-data'),
    ).toContain('trade my sword')
    await commands.popupClick(messagePage, 'confirmation-approve')
    expect(
      await chain.verifyTypedData({
        address: wallet,
        signature: await approved,
        ...typed,
      }),
    ).toBe(true)
    await commands.popupsGone(passportDomain)

    const rejected = rejection(sign())
    await commands.popupClick(messagePage, 'confirmation-reject')
    expect(await rejected).toEqual({
      code: -32003,
      message: 'Signature rejected by user',
    })
  })
})

describe('relayer failures', () => {
  test.each([
    ['fail', 'FAILED', 'Out of gas.'],
    ['cancel', 'CANCELLED', 'Cancelled by the operator.'],
    // A forced revert is a real one on chain (the relayer adds a call the
    // factory refuses, with no data): its message is the chain's reason.
    [
      'revert',
      'REVERTED',
      'The transaction reverted on chain without a reason.',
    ],
  ] as const)(
    'error: %s → -32000 with status %s and its message, the relayer answer (and hash once on chain) as data; the next send goes through',
    async (outcome, status, message) => {
      await relayerNext(player.wallet, outcome, message)
      const error = (await sendValue(player.provider, randomAddress(), 1n).then(
        () => ({}),
        (error: unknown) => error,
      )) as { code: unknown; message: unknown; data?: Record<string, unknown> }
      expect({ code: error.code, message: error.message }).toEqual({
        code: -32000,
        message: `Transaction failed to submit with status ${status}. Error message: ${message}`,
      })
      // The relayer's answer stays with the error: its status message and,
      // once the transaction was on chain, its hash.
      expect(error.data).toMatchObject({ status, statusMessage: message })
      if (outcome === 'revert') {
        const hash = error.data?.hash as `0x${string}`
        expect((await chain.waitForTransactionReceipt({ hash })).status).toBe(
          'reverted',
        )
      }
      // The nonce it held was never used: the next send takes it.
      const hash = await sendValue(player.provider, randomAddress(), 1n)
      expect((await chain.waitForTransactionReceipt({ hash })).status).toBe(
        'success',
      )
      expect(await readNonce(player.wallet)).toBe(1n)
    },
  )
})
