import { Magic } from 'magic-sdk'
import { parseEther } from 'viem'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { commands } from 'vitest/browser'
import {
  type Connected,
  chain,
  connectPlayer,
  fund,
  info,
  noConfirmationWindowLeft,
  randomAddress,
  sendValue,
  trackWindows,
} from './passportWallet.js'

/*
 * Scenarios switched from a loopback page, as a dApp's test would through
 * the kit, and what this package's game wallet then does: the same errors
 * the published SDK gives. One file runs at a time, so a scenario (which
 * every wallet sees) touches this file's player only.
 */

const dev = new URL(info.mailbox).origin
const unavailablePage = `${info.passport.passportDomain}/transaction-confirmation/unavailable`

async function scenario(name: string, on: boolean) {
  const response = await fetch(`${dev}/scenarios/${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ on }),
  })
  expect(response.status).toBe(200)
}

async function resetScenarios() {
  const reset = await fetch(`${dev}/scenarios/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  expect(reset.status).toBe(200)
}

afterEach(resetScenarios)

describe('scenarios through the game wallet', () => {
  let player: Connected
  let windows: ReturnType<typeof trackWindows>

  beforeEach(async () => {
    localStorage.clear()
    windows = trackWindows()
    player = await connectPlayer({ label: 'scenarios' })
    await fund(player.wallet, parseEther('1'))
  })
  afterEach(() => noConfirmationWindowLeft(windows))

  test("guardian-unavailable: the unavailable page, then -32000 'Service unavailable'; after reset the send goes through", async () => {
    await scenario('guardian-unavailable', true)
    const pending = sendValue(player.provider, randomAddress(), 1n).then(
      () => ({}) as Record<string, unknown>,
      (error: unknown) => error as Record<string, unknown>,
    )
    await commands.popupClick(unavailablePage, 'confirmation-close')
    const error = await pending
    expect({ code: error.code, message: error.message }).toEqual({
      code: -32000,
      message: 'Service unavailable',
    })
    await scenario('guardian-unavailable', false)
    const hash = await sendValue(player.provider, randomAddress(), 1n)
    expect((await chain.waitForTransactionReceipt({ hash })).status).toBe(
      'success',
    )
  })

  test('relayer-failing: every send fails with status FAILED until the scenario is off', async () => {
    await scenario('relayer-failing', true)
    for (let i = 0; i < 2; i++) {
      const error = (await sendValue(player.provider, randomAddress(), 1n).then(
        () => ({}),
        (error: unknown) => error,
      )) as { code: unknown; message: unknown }
      expect({ code: error.code, message: error.message }).toEqual({
        code: -32000,
        message:
          'Transaction failed to submit with status FAILED. Error message: The relayer failed to submit the transaction.',
      })
    }
    await scenario('relayer-failing', false)
    const hash = await sendValue(player.provider, randomAddress(), 1n)
    expect((await chain.waitForTransactionReceipt({ hash })).status).toBe(
      'success',
    )
  })
})

describe('scenarios through the published magic-sdk', () => {
  test('provider-rate-limited: requests reject with a MagicRPCError -32603 naming HTTP 429; after reset they are answered', async () => {
    const magic = new Magic(info.magic.apiKey, {
      endpoint: info.magic.endpoint,
      network: { rpcUrl: info.rpcUrl, chainId: info.chainId },
    })
    await scenario('provider-rate-limited', true)
    let error: { code?: unknown; rawMessage?: unknown } = {}
    try {
      await magic.user.isLoggedIn()
    } catch (thrown) {
      error = thrown as typeof error
    }
    expect(error.code).toBe(-32603)
    expect(error.rawMessage).toMatch(
      /^The emulated provider answered HTTP 429: .*RATE_LIMITED/,
    )
    await scenario('provider-rate-limited', false)
    expect(await magic.user.isLoggedIn()).toBe(false)
  })
})
