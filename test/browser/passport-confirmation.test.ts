import {
  afterEach,
  beforeAll,
  describe,
  expect,
  inject,
  test,
  vi,
} from 'vitest'
import { commands, page, userEvent } from 'vitest/browser'
import { overlayIds, overlayTestIds } from '../../src/passport/auth/overlay.js'
import { sizes } from '../../src/passport/wire/confirmation.js'
import {
  ConfirmationError,
  create,
} from '../../src/passport/zkevm/confirmation.js'
import {
  closeWindows,
  recordMessages,
  spyOpen,
} from './fixtures/popupClient.js'

/*
 * The guardian's confirmation popup, both sides for real: the wallet's
 * module (src/passport/zkevm/confirmation.ts) opens the emulated passport
 * domain's pages (src/emulator/passport/confirmation/) in a real popup; the
 * test records a verdict as the platform API would (the loopback-only
 * `/dev/verdicts`), plays the person in the popup through Playwright
 * (setup/popupCommands.ts) and reads the verdict's state back.
 */

const { passportDomain } = inject('passportEmulator')
const wallet = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'
const chainId = 31337
const transactionPage = `${passportDomain}/transaction-confirmation/zkevm/transaction`
const messagePage = `${passportDomain}/transaction-confirmation/zkevm/message`
const unavailablePage = `${passportDomain}/transaction-confirmation/unavailable`
const target = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

// Start without another file's popups of the same passport domain.
beforeAll(() => commands.popupsClose(passportDomain))

afterEach(async () => {
  vi.restoreAllMocks()
  closeWindows()
  document.getElementById(overlayIds.root)?.remove()
  // Every test's popup has the same name: let the last one go for good.
  await commands.popupsGone(passportDomain)
})

type Verdict = {
  id: string
  kind: string
  chainId: number
  wallet: string
  digest: string
  state: string
}

/**
 * The start of the URL of the popup's page for this verdict: the test acts
 * in that window only, never in one a previous test left closing.
 */
function pageOf(verdict: Verdict): string {
  return verdict.kind === 'transaction'
    ? `${transactionPage}?transactionID=${verdict.id}&`
    : `${messagePage}?messageID=${verdict.id}&`
}

/** Records a pending verdict through the control route. */
async function recordVerdict(
  kind: 'transaction' | 'message' | 'erc191',
  payload: unknown,
): Promise<Verdict> {
  const response = await fetch(`${passportDomain}/dev/verdicts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind, chainId, wallet, payload }),
  })
  expect(response.status).toBe(201)
  return (await response.json()) as Verdict
}

async function stateOf(id: string): Promise<string> {
  const response = await fetch(`${passportDomain}/dev/verdicts/${id}`)
  return ((await response.json()) as Verdict).state
}

/** The guardian's evaluation body of one ETH transfer. */
const transferPayload = {
  chainType: 'evm',
  chainId: `eip155:${chainId}`,
  transactionData: {
    nonce: '0',
    userAddress: wallet,
    metaTransactions: [
      {
        delegateCall: false,
        revertOnError: true,
        gasLimit: '0',
        target,
        value: '1500000000000000000',
        data: '0x',
      },
    ],
  },
}

const confirmation = () => create({ passportDomain })

/**
 * Watches the module's `message` listeners and 1 s closed-popup timers:
 * `left()` lists those still active (listeners added and not removed,
 * intervals set and not cleared).
 */
function watchCleanup() {
  const listeners = new Set<unknown>()
  const timers = new Set<unknown>()
  const realAdd = window.addEventListener.bind(window)
  const realRemove = window.removeEventListener.bind(window)
  const realSet = window.setInterval.bind(window)
  const realClear = window.clearInterval.bind(window)
  vi.spyOn(window, 'addEventListener').mockImplementation(
    (
      type: string,
      listener: EventListenerOrEventListenerObject | null,
      options?: boolean | AddEventListenerOptions,
    ) => {
      if (type === 'message') listeners.add(listener)
      if (listener) realAdd(type, listener, options)
    },
  )
  vi.spyOn(window, 'removeEventListener').mockImplementation(
    (
      type: string,
      listener: EventListenerOrEventListenerObject | null,
      options?: boolean | EventListenerOptions,
    ) => {
      if (type === 'message') listeners.delete(listener)
      if (listener) realRemove(type, listener, options)
    },
  )
  vi.spyOn(window, 'setInterval').mockImplementation(((
    handler: TimerHandler,
    ms?: number,
    ...args: unknown[]
  ) => {
    const id = realSet(handler, ms, ...args)
    if (ms === 1000) timers.add(id)
    return id
  }) as typeof setInterval)
  vi.spyOn(window, 'clearInterval').mockImplementation((id) => {
    timers.delete(id)
    realClear(id)
  })
  return { left: () => ({ listeners: listeners.size, timers: timers.size }) }
}

describe('Confirmation: a transaction', () => {
  test('default: opens the loading page 480x720 named "Confirm this transaction", the player approves, resolves true and the verdict is allowed', async () => {
    const verdict = await recordVerdict('transaction', transferPayload)
    const calls = spyOpen()
    const cleanup = watchCleanup()
    const handle = confirmation().open()
    expect(calls.map((call) => [call.url, call.target])).toEqual([
      [
        `${passportDomain}/transaction-confirmation/loading`,
        'Confirm this transaction',
      ],
    ])
    expect(calls[0]?.features).toMatch(
      /^location=no,toolbar=no,width=480,height=720,left=\d+,top=\d+$/,
    )
    const pending = handle.transaction({
      transactionId: verdict.id,
      wallet,
      chainId,
    })
    expect(cleanup.left()).toEqual({ listeners: 1, timers: 1 })
    expect(
      await commands.popupText(pageOf(verdict), 'confirmation-target'),
    ).toBe(target)
    expect(
      await commands.popupText(pageOf(verdict), 'confirmation-value'),
    ).toBe('1500000000000000000 wei (1.5 ETH)')
    expect(await commands.popupTitle(pageOf(verdict))).toBe(
      'Confirm this transaction',
    )
    await commands.popupClick(pageOf(verdict), 'confirmation-approve')
    expect(await pending).toBe(true)
    expect(await stateOf(verdict.id)).toBe('allowed')
    await expect.poll(() => calls[0]?.window?.closed).toBe(true)
    // The generic overlay was shown while the popup was up, and is gone;
    // so are the listener and the timer.
    expect(document.getElementById(overlayIds.root)).toBeNull()
    expect(cleanup.left()).toEqual({ listeners: 0, timers: 0 })
  })

  test('behavior: navigates the popup to the transaction page with the published query; the answer comes from the popup on the passport domain', async () => {
    const verdict = await recordVerdict('transaction', transferPayload)
    const calls = spyOpen()
    // Listening before the wallet does: once the wallet resolves, the test
    // goes on (and stops recording) before later listeners see the event.
    const messages = recordMessages()
    const handle = confirmation().open()
    const pending = handle.transaction({
      transactionId: verdict.id,
      wallet,
      chainId,
    })
    expect(await commands.popupUrl(pageOf(verdict))).toBe(
      `${transactionPage}?transactionID=${verdict.id}&etherAddress=${wallet}&chainType=evm&chainID=eip155:${chainId}`,
    )
    await commands.popupText(pageOf(verdict), 'confirmation-details')
    await commands.popupClick(pageOf(verdict), 'confirmation-reject')
    expect(await pending).toBe(false)
    messages.stop()
    expect(
      messages.seen.map((m) => [
        m.origin,
        m.source === calls[0]?.window,
        (m.data as { messageType?: string }).messageType,
      ]),
    ).toEqual([
      [passportDomain, true, 'confirmation_window_ready'],
      [passportDomain, true, 'transaction_rejected'],
    ])
    expect(messages.seen[1]?.data).toEqual({
      eventType: 'imx_passport_confirmation',
      messageType: 'transaction_rejected',
    })
    expect(calls[0]?.window?.closed).toBe(true)
  })

  test('behavior: the player rejects: resolves false and the verdict is rejected', async () => {
    const verdict = await recordVerdict('transaction', transferPayload)
    spyOpen()
    const handle = confirmation().open()
    const pending = handle.transaction({
      transactionId: verdict.id,
      wallet,
      chainId,
    })
    await commands.popupClick(pageOf(verdict), 'confirmation-reject')
    expect(await pending).toBe(false)
    expect(await stateOf(verdict.id)).toBe('rejected')
  })

  test('behavior: the player closes the popup: resolves false, the verdict stays pending', async () => {
    const verdict = await recordVerdict('transaction', transferPayload)
    const calls = spyOpen()
    const cleanup = watchCleanup()
    const handle = confirmation().open()
    const pending = handle.transaction({
      transactionId: verdict.id,
      wallet,
      chainId,
    })
    await commands.popupText(pageOf(verdict), 'confirmation-details')
    calls[0]?.window?.close()
    expect(await pending).toBe(false)
    expect(await stateOf(verdict.id)).toBe('pending')
    expect(cleanup.left()).toEqual({ listeners: 0, timers: 0 })
    expect(document.getElementById(overlayIds.root)).toBeNull()
  })

  test('error: an unknown transaction id: the page answers transaction_error, rejects "Error during transaction confirmation"', async () => {
    const calls = spyOpen()
    const cleanup = watchCleanup()
    const handle = confirmation().open()
    const pending = handle.transaction({
      transactionId: crypto.randomUUID(),
      wallet,
      chainId,
    })
    const rejected = expect(pending).rejects.toThrow(
      /^Error during transaction confirmation$/,
    )
    await rejected
    await expect(pending).rejects.toBeInstanceOf(ConfirmationError)
    await expect.poll(() => calls[0]?.window?.closed).toBe(true)
    expect(cleanup.left()).toEqual({ listeners: 0, timers: 0 })
  })

  test('error: a request for another wallet gets the error page', async () => {
    const verdict = await recordVerdict('transaction', transferPayload)
    spyOpen()
    const handle = confirmation().open()
    const pending = handle.transaction({
      transactionId: verdict.id,
      wallet: target,
      chainId,
    })
    await expect(pending).rejects.toThrow(
      /^Error during transaction confirmation$/,
    )
    expect(await stateOf(verdict.id)).toBe('pending')
  })
})

describe('Confirmation: a StarkEx transaction', () => {
  test('behavior: navigates the popup to the StarkEx page with transactionId (the payload hash), etherAddress and chainType=starkex; closing it is a "no"', async () => {
    // A pending StarkEx request, registered as the exchange and the
    // guardian would: the page answers an unknown one with an error.
    const payloadHash = [...crypto.getRandomValues(new Uint8Array(31))]
      .map((byte) => byte.toString(16).padStart(2, '0'))
      .join('')
      .replace(/^0*/, '5')
    const registered = await fetch(`${passportDomain}/dev/verdicts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'starkex',
        wallet,
        payloadHash,
        type: 'transfer',
      }),
    })
    expect(registered.status).toBe(201)
    const calls = spyOpen()
    const cleanup = watchCleanup()
    const handle = create({ passportDomain }).open(sizes.batchTransfer)
    const pending = handle.starkExTransaction({
      transactionId: payloadHash,
      wallet,
    })
    await commands.popupTitle(
      `${passportDomain}/transaction-confirmation/transaction?transactionId=${payloadHash}&etherAddress=${wallet}&chainType=starkex`,
    )
    expect(calls[0]?.features).toContain('width=480')
    expect(calls[0]?.features).toContain('height=784')
    calls[0]?.window?.close()
    expect(await pending).toBe(false)
    expect(cleanup.left()).toEqual({ listeners: 0, timers: 0 })
  })

  test('behavior: in the game bridge nothing opens and nothing is confirmed', async () => {
    const calls = spyOpen()
    const handle = create({
      passportDomain,
      crossSdkBridgeEnabled: true,
    }).open()
    expect(
      await handle.starkExTransaction({ transactionId: 'x', wallet }),
    ).toBe(false)
    expect(calls).toEqual([])
  })
})

describe('Confirmation: a message', () => {
  test('default: shows the text of an ERC-191 message; approved resolves true and the verdict is allowed', async () => {
    const text = 'Hello <b>player</b>'
    const verdict = await recordVerdict('erc191', text)
    spyOpen()
    const handle = confirmation().open()
    const pending = handle.message({
      messageId: verdict.id,
      wallet,
      messageType: 'erc191',
    })
    expect(
      await commands.popupText(pageOf(verdict), 'confirmation-message'),
    ).toBe(text)
    await commands.popupClick(pageOf(verdict), 'confirmation-approve')
    expect(await pending).toBe(true)
    expect(await stateOf(verdict.id)).toBe('allowed')
  })

  test('behavior: EIP-712 typed data is shown and can be rejected', async () => {
    const typedData = {
      domain: { name: 'Game', chainId },
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { contents: 'gm' },
    }
    const verdict = await recordVerdict('message', typedData)
    spyOpen()
    const handle = confirmation().open()
    const pending = handle.message({
      messageId: verdict.id,
      wallet,
      messageType: 'eip712',
    })
    expect(
      JSON.parse(
        await commands.popupText(pageOf(verdict), 'confirmation-typed-data'),
      ),
    ).toEqual(typedData)
    await commands.popupClick(pageOf(verdict), 'confirmation-reject')
    expect(await pending).toBe(false)
    expect(await stateOf(verdict.id)).toBe('rejected')
  })

  test('error: an ERC-191 id on the eip712 page rejects "Error during message confirmation"', async () => {
    const verdict = await recordVerdict('erc191', 'hi')
    spyOpen()
    const pending = confirmation().open().message({
      messageId: verdict.id,
      wallet,
      messageType: 'eip712',
    })
    await expect(pending).rejects.toThrow(/^Error during message confirmation$/)
  })
})

describe('Confirmation: one window for the wallet', () => {
  test('behavior: requests running together share one window: only the first opens it; it closes when the last lets go', async () => {
    const calls = spyOpen()
    const cleanup = watchCleanup()
    const popups = confirmation()
    const handles = [popups.open(), popups.open(), popups.open()]
    expect(calls.length).toBe(1)
    handles[1]?.close()
    handles[0]?.close()
    // The third request still holds it: still open, still loading.
    expect(calls[0]?.window?.closed).toBe(false)
    expect(
      await commands.popupUrl(
        `${passportDomain}/transaction-confirmation/loading`,
      ),
    ).toBe(`${passportDomain}/transaction-confirmation/loading`)
    handles[2]?.close()
    handles[2]?.close()
    await expect.poll(() => calls[0]?.window?.closed).toBe(true)
    expect(document.getElementById(overlayIds.root)).toBeNull()
    expect(cleanup.left()).toEqual({ listeners: 0, timers: 0 })
    // A later request opens a new one.
    popups.open().close()
    expect(calls.length).toBe(2)
  })

  test('behavior: a request made while the last window still loads takes that window up instead of reloading it; every window closes, whatever the timing', async () => {
    const calls = spyOpen()
    const popups = confirmation()
    for (let round = 0; round < 12; round++) {
      // Let go before the loading page can commit: the window's close
      // waits for it, and the next request takes it up meanwhile.
      popups.open().close()
      const next = popups.open()
      expect(calls.length).toBe(round + 1)
      // The next request ends at varied moments of the loading page's
      // commit, where a close is lost if a second load is under way.
      await new Promise((resolve) => setTimeout(resolve, (round % 6) * 4))
      next.close()
      // Closed as the page sees it, and for real: a lost close reads
      // closed too, but leaves the window on the loading page.
      await expect.poll(() => calls[round]?.window?.closed).toBe(true)
      await commands.popupsGone(passportDomain)
    }
  })

  test('behavior: requests the guardian asks about take turns, first asked first shown; one asking nothing never moves the page', async () => {
    const first = await recordVerdict('transaction', transferPayload)
    const second = await recordVerdict('erc191', 'Hello, guardian')
    const calls = spyOpen()
    const popups = confirmation()
    const asking = popups.open()
    const other = popups.open()
    const silent = popups.open()
    const firstAnswer = asking.transaction({
      transactionId: first.id,
      wallet,
      chainId,
    })
    const secondAnswer = other.message({
      messageId: second.id,
      wallet,
      messageType: 'erc191',
    })
    await commands.popupText(pageOf(first), 'confirmation-details')
    // The silent request's guardian asked nothing: it lets go, and the
    // page the player reads stays.
    silent.close()
    expect(calls.length).toBe(1)
    await commands.popupClick(pageOf(first), 'confirmation-approve')
    expect(await firstAnswer).toBe(true)
    // The same window now shows the second request's page.
    await commands.popupClick(pageOf(second), 'confirmation-reject')
    expect(await secondAnswer).toBe(false)
    expect(await stateOf(first.id)).toBe('allowed')
    expect(await stateOf(second.id)).toBe('rejected')
    expect(calls.length).toBe(1)
    await expect.poll(() => calls[0]?.window?.closed).toBe(true)
  })

  test('behavior: the player closing the window says no to every waiting request; one still running asks again in a new window', async () => {
    const first = await recordVerdict('transaction', transferPayload)
    const second = await recordVerdict('transaction', transferPayload)
    const third = await recordVerdict('transaction', transferPayload)
    const calls = spyOpen()
    const popups = confirmation()
    const [a, b, running] = [popups.open(), popups.open(), popups.open()]
    const answers = [
      a.transaction({ transactionId: first.id, wallet, chainId }),
      b.transaction({ transactionId: second.id, wallet, chainId }),
    ]
    await commands.popupText(pageOf(first), 'confirmation-details')
    calls[0]?.window?.close()
    expect(await Promise.all(answers)).toEqual([false, false])
    // The request still running (its guardian check not back yet) holds
    // its claim; a new request's click opens the window again, and the
    // running one is shown there when its guardian asks.
    const next = popups.open()
    expect(calls.length).toBe(2)
    const later = running.transaction({
      transactionId: third.id,
      wallet,
      chainId,
    })
    await commands.popupClick(pageOf(third), 'confirmation-approve')
    expect(await later).toBe(true)
    expect(calls[1]?.window?.closed).toBe(false)
    next.close()
    await expect.poll(() => calls[1]?.window?.closed).toBe(true)
    expect(await stateOf(first.id)).toBe('pending')
    expect(await stateOf(second.id)).toBe('pending')
  })
})

describe('Confirmation: the unavailable screen', () => {
  test('behavior: shows the unavailable page and resolves once the player closes it', async () => {
    const calls = spyOpen()
    const handle = confirmation().open()
    let resolved = false
    const pending = handle.unavailable().then(() => {
      resolved = true
    })
    expect(
      await commands.popupText(unavailablePage, 'confirmation-unavailable'),
    ).toMatch(/unavailable/)
    expect(resolved).toBe(false)
    await commands.popupClick(unavailablePage, 'confirmation-close')
    await pending
    expect(calls[0]?.window?.closed).toBe(true)
  })
})

describe('Confirmation: who may answer', () => {
  test('behavior: answers from another window or another origin are ignored; the popup decides', async () => {
    const verdict = await recordVerdict('transaction', transferPayload)
    const calls = spyOpen()
    const handle = confirmation().open()
    const pending = handle.transaction({
      transactionId: verdict.id,
      wallet,
      chainId,
    })
    await commands.popupText(pageOf(verdict), 'confirmation-details')
    const popup = calls[0]?.window as Window
    const confirmed = {
      eventType: 'imx_passport_confirmation',
      messageType: 'transaction_confirmed',
    }
    // A real post from this window (another window, another origin).
    const messages = recordMessages()
    window.postMessage(confirmed, '*')
    await expect.poll(() => messages.seen.length).toBe(1)
    messages.stop()
    // The passport domain's origin, but not the popup's window.
    dispatchEvent(
      new MessageEvent('message', {
        data: confirmed,
        origin: passportDomain,
        source: window,
      }),
    )
    // The popup's window, but not the passport domain's origin.
    dispatchEvent(
      new MessageEvent('message', {
        data: confirmed,
        origin: 'http://127.0.0.1:1',
        source: popup,
      }),
    )
    await commands.popupClick(pageOf(verdict), 'confirmation-reject')
    expect(await pending).toBe(false)
    expect(await stateOf(verdict.id)).toBe('rejected')
  })

  test('error: an unknown message type from the popup closes it and rejects "Unsupported message type"', async () => {
    const verdict = await recordVerdict('transaction', transferPayload)
    const calls = spyOpen()
    const cleanup = watchCleanup()
    const pending = confirmation()
      .open()
      .transaction({ transactionId: verdict.id, wallet, chainId })
    await commands.popupText(pageOf(verdict), 'confirmation-details')
    const popup = calls[0]?.window as Window
    dispatchEvent(
      new MessageEvent('message', {
        data: {
          eventType: 'imx_passport_confirmation',
          messageType: 'message_confirmed',
        },
        origin: passportDomain,
        source: popup,
      }),
    )
    await expect(pending).rejects.toThrow(/^Unsupported message type$/)
    await expect.poll(() => popup.closed).toBe(true)
    expect(cleanup.left()).toEqual({ listeners: 0, timers: 0 })
  })
})

describe('Confirmation: blocked popup', () => {
  test('behavior: the blocked overlay shows; Try again opens the transaction page from the click; approved resolves true', async () => {
    const verdict = await recordVerdict('transaction', transferPayload)
    const calls = spyOpen(1)
    const handle = confirmation().open()
    await expect.element(page.getByTestId(overlayTestIds.root)).toBeVisible()
    expect(document.getElementById(overlayIds.text)?.textContent).toBe(
      'Pop-up blocked. Please try again below. If the problem continues, adjust your browser settings.',
    )
    const pending = handle.transaction({
      transactionId: verdict.id,
      wallet,
      chainId,
    })
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    expect(
      calls.map((call) => [call.target, call.active, call.window !== null]),
    ).toEqual([
      ['Confirm this transaction', false, false],
      ['Confirm this transaction', true, true],
    ])
    expect(calls[1]?.url).toBe(
      `${transactionPage}?transactionID=${verdict.id}&etherAddress=${wallet}&chainType=evm&chainID=eip155:${chainId}`,
    )
    await commands.popupClick(pageOf(verdict), 'confirmation-approve')
    expect(await pending).toBe(true)
    expect(await stateOf(verdict.id)).toBe('allowed')
    expect(document.getElementById(overlayIds.root)).toBeNull()
  })

  test('behavior: closing the blocked overlay resolves false', async () => {
    const verdict = await recordVerdict('transaction', transferPayload)
    spyOpen(1)
    const cleanup = watchCleanup()
    const handle = confirmation().open()
    const pending = handle.transaction({
      transactionId: verdict.id,
      wallet,
      chainId,
    })
    await userEvent.click(page.getByTestId(overlayTestIds.close))
    expect(await pending).toBe(false)
    expect(document.getElementById(overlayIds.root)).toBeNull()
    expect(cleanup.left()).toEqual({ listeners: 0, timers: 0 })
  })

  test('error: blocked with the blocked overlay disabled rejects "Failed to open confirmation screen"', async () => {
    spyOpen(1)
    const handle = create({
      passportDomain,
      overlay: { disableBlockedPopupOverlay: true },
    }).open()
    await expect(
      handle.transaction({ transactionId: 'x', wallet, chainId }),
    ).rejects.toThrow(/^Failed to open confirmation screen$/)
    expect(document.getElementById(overlayIds.root)).toBeNull()
  })

  test('behavior: in the game bridge nothing opens and nothing is confirmed', async () => {
    const calls = spyOpen()
    const handle = create({
      passportDomain,
      crossSdkBridgeEnabled: true,
    }).open()
    expect(
      await handle.transaction({ transactionId: 'x', wallet, chainId }),
    ).toBe(false)
    expect(calls).toEqual([])
  })
})
