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
import { create } from '../../src/passport/zkevm/confirmation.js'
import { closeWindows, spyOpen } from './fixtures/popupClient.js'

/*
 * The confirmation popup on demand (`confirmationPopup: 'on-demand'`): no
 * window for a request the guardian lets through; the page to confirm
 * opens from the request's click while its activation is live; once it is
 * not, the blocked overlay's Try again opens it from a new click. The
 * verdicts are the emulated guardian's, the popup the emulated passport
 * domain's page, acted in through Playwright.
 */

const { passportDomain } = inject('passportEmulator')
const wallet = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'
const chainId = 31337
const target = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const transactionPage = `${passportDomain}/transaction-confirmation/zkevm/transaction`

beforeAll(() => commands.popupsClose(passportDomain))

afterEach(async () => {
  vi.restoreAllMocks()
  closeWindows()
  document.getElementById(overlayIds.root)?.remove()
  document.getElementById('start')?.remove()
  await commands.popupsGone(passportDomain)
})

/** Records a pending transaction verdict through the control route. */
async function recordVerdict(): Promise<string> {
  const response = await fetch(`${passportDomain}/dev/verdicts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      kind: 'transaction',
      chainId,
      wallet,
      payload: {
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
              value: '1',
              data: '0x',
            },
          ],
        },
      },
    }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: string }).id
}

async function stateOf(id: string): Promise<string> {
  const response = await fetch(`${passportDomain}/dev/verdicts/${id}`)
  return ((await response.json()) as { state: string }).state
}

const pageOf = (id: string) =>
  `${transactionPage}?transactionID=${id}&etherAddress=${wallet}&chainType=evm&chainID=eip155:${chainId}`

const onDemand = () => create({ passportDomain, popup: 'on-demand' })

/** A button whose click runs `action`, as a game's Buy button would. */
function button(action: () => void) {
  const element = document.createElement('button')
  element.id = 'start'
  element.textContent = 'Start'
  element.addEventListener('click', action)
  document.body.append(element)
  return page.getByRole('button', { name: 'Start' })
}

describe('Confirmation on demand', () => {
  test('behavior: a request the guardian lets through opens no window and no overlay', async () => {
    const calls = spyOpen()
    const handle = onDemand().open()
    handle.close()
    expect(calls).toEqual([])
    expect(document.getElementById(overlayIds.root)).toBeNull()
  })

  test('behavior: with the activation expired the blocked overlay shows; its Try again opens the transaction page; approved resolves true', async () => {
    // No click started this request: nothing may count as one.
    expect(navigator.userActivation.isActive).toBe(false)
    const id = await recordVerdict()
    const calls = spyOpen()
    const handle = onDemand().open()
    expect(calls).toEqual([])
    const pending = handle.transaction({ transactionId: id, wallet, chainId })
    await expect.element(page.getByTestId(overlayTestIds.root)).toBeVisible()
    expect(document.getElementById(overlayIds.text)?.textContent).toBe(
      'Pop-up blocked. Please try again below. If the problem continues, adjust your browser settings.',
    )
    // Nothing was attempted without the activation, so nothing failed unseen.
    expect(calls).toEqual([])
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    expect(
      calls.map((call) => [call.url, call.target, call.active, !!call.window]),
    ).toEqual([[pageOf(id), 'Confirm this transaction', true, true]])
    await commands.popupClick(pageOf(id), 'confirmation-approve')
    expect(await pending).toBe(true)
    expect(await stateOf(id)).toBe('allowed')
    expect(document.getElementById(overlayIds.root)).toBeNull()
  })

  test('behavior: a request the guardian asks about opens its page from the click that started it (after the guardian round trip); approved resolves true', async () => {
    const id = await recordVerdict()
    const calls = spyOpen()
    let pending: Promise<boolean> | undefined
    const start = button(() => {
      const handle = onDemand().open()
      // The guardian's evaluation stands between the click and the popup.
      pending = stateOf(id).then(() =>
        handle.transaction({ transactionId: id, wallet, chainId }),
      )
    })
    await userEvent.click(start)
    await expect.poll(() => calls.length).toBe(1)
    expect(
      calls.map((call) => [call.url, call.target, call.active, !!call.window]),
    ).toEqual([[pageOf(id), 'Confirm this transaction', true, true]])
    expect(calls[0]?.features).toMatch(
      /^location=no,toolbar=no,width=480,height=720,left=\d+,top=\d+$/,
    )
    await commands.popupClick(pageOf(id), 'confirmation-approve')
    expect(await pending).toBe(true)
    expect(await stateOf(id)).toBe('allowed')
    await expect.poll(() => calls[0]?.window?.closed).toBe(true)
    expect(document.getElementById(overlayIds.root)).toBeNull()
  })

  test('behavior: eager (the default) still opens the loading page at once, before the guardian answers', async () => {
    const calls = spyOpen()
    const handle = create({ passportDomain }).open()
    expect(calls.map((call) => [call.url, call.target])).toEqual([
      [
        `${passportDomain}/transaction-confirmation/loading`,
        'Confirm this transaction',
      ],
    ])
    handle.close()
    await expect.poll(() => calls[0]?.window?.closed).toBe(true)
  })
})
