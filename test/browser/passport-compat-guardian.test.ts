import { type Address, getAddress, type Hex, parseEther, toHex } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { commands } from 'vitest/browser'
import './fixtures/noTelemetry.js'
import {
  type PublishedPassportClass,
  publishedConfig,
} from './fixtures/publishedPassport.js'
import { freshEmail, type Opened, spyPopups } from './passportLogin.js'
import {
  chain,
  fund,
  randomAddress,
  readNonce,
  rejection,
  setGuardianRules,
} from './passportWallet.js'
import {
  connectPublished,
  info,
  openedLogins,
  overrides,
  publishedApp,
} from './publishedPassport.js'

/*
 * The published @imtbl/passport 2.24.8, unchanged, through the guardian's
 * confirmation: the guardian (steered for the test's wallet only) asks,
 * the SDK opens its own popup on the emulated passport domain, and the
 * player clicks in that popup (through Playwright, as a person would).
 * Our own wallet's equivalent is passport-wallet-guardian.test.ts.
 */

// Loaded after noTelemetry (above), which must patch fetch first.
const { Passport } = (await import('@imtbl/passport')) as {
  Passport: PublishedPassportClass
}

const { passportDomain } = overrides
const loadingPage = `${passportDomain}/transaction-confirmation/loading`
const transactionPage = `${passportDomain}/transaction-confirmation/zkevm/transaction?`
const messagePage = `${passportDomain}/transaction-confirmation/zkevm/message?`

let wallet: Address | undefined
let release: () => void
/** The guardian evaluations the SDK sent (paths), in order. */
let evaluations: string[]

beforeEach(() => {
  localStorage.clear()
  wallet = undefined
  evaluations = []
  release = holdEvaluationsUntilLoading()
})
afterEach(async () => {
  release()
  vi.restoreAllMocks()
  for (const window of openedLogins.splice(0)) window.close()
  if (wallet) await setGuardianRules(wallet, null)
  await commands.popupsClose(passportDomain)
})

/**
 * Holds each guardian evaluation the SDK sends (axios, so through
 * XMLHttpRequest) until its loading popup shows, as it always has by then
 * against the hosted guardian, whose answer takes a network round trip.
 *
 * Why: the SDK opens the popup at the loading page and, once the guardian
 * asks, sets the window's `location.href` to the confirmation page. When
 * that assignment lands while Chromium is still committing the loading page
 * (a cross-site navigation, so into a new process), Chromium drops it: the
 * confirmation page is never requested and the popup stays on "Loading…"
 * while the SDK waits. The emulator answers on loopback within that window
 * a few times in a hundred; a page on the same site as the popup, or a
 * loading answer that commits nothing, never loses it.
 */
function holdEvaluationsUntilLoading(): () => void {
  const { open, send } = XMLHttpRequest.prototype
  const urls = new WeakMap<XMLHttpRequest, string>()
  XMLHttpRequest.prototype.open = function (
    this: XMLHttpRequest,
    ...args: Parameters<XMLHttpRequest['open']>
  ) {
    urls.set(this, String(args[1]))
    return (open as (...args: unknown[]) => void).apply(this, args)
  } as XMLHttpRequest['open']
  XMLHttpRequest.prototype.send = function (
    this: XMLHttpRequest,
    body?: Document | XMLHttpRequestBodyInit | null,
  ) {
    const { pathname } = new URL(urls.get(this) ?? '', location.href)
    if (!/^\/guardian\/v1\/.+\/evaluate$/.test(pathname))
      return send.call(this, body)
    evaluations.push(pathname)
    const go = () => send.call(this, body)
    commands.popupTitle(loadingPage).then(go, go)
  }
  return () => {
    XMLHttpRequest.prototype.open = open
    XMLHttpRequest.prototype.send = send
  }
}

/** A registered player of the published SDK, its wallet funded. */
async function player(label: string) {
  const passport = new Passport(
    publishedConfig(location.origin, publishedApp, overrides),
  )
  const { provider, accounts } = await connectPublished(
    passport,
    freshEmail(label),
  )
  wallet = getAddress(accounts[0] as string)
  await fund(wallet, parseEther('10'))
  return { provider, wallet }
}

type Provider = Awaited<ReturnType<typeof player>>['provider']

/**
 * Sends 1 wei (no rule asks about it), which deploys the wallet: the
 * published SDK signs messages with the wallet's own ERC-1271 signature,
 * without an ERC-6492 wrapper, so they verify on chain only once the
 * wallet has code.
 */
async function deploy(provider: Provider, wallet: Address) {
  const hash = (await provider.request({
    method: 'eth_sendTransaction',
    params: [{ from: wallet, to: randomAddress(), value: toHex(1n) }],
  })) as Hex
  expect((await chain.waitForTransactionReceipt({ hash })).status).toBe(
    'success',
  )
  await commands.popupsGone(passportDomain)
}

/** The guardian's evaluation routes, as the SDK calls them. */
const evaluate = {
  transaction: '/guardian/v1/transactions/evm/evaluate',
  eip712: '/guardian/v1/messages/evaluate',
  erc191: '/guardian/v1/erc191-messages/evaluate',
} as const

/** The query of a confirmation page's URL, as the SDK wrote it. */
function query(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams)
}

describe('published @imtbl/passport: the guardian asks, the player answers in its popup', () => {
  test('behavior: a transfer above the limit opens the transaction page; Approve relays it and it is mined', async () => {
    const { provider, wallet } = await player('compat-approve')
    await setGuardianRules(wallet, {
      confirmAboveValue: parseEther('1').toString(),
    })
    const calls = spyPopups()
    const to = randomAddress()
    const pending = provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: wallet, to, value: toHex(parseEther('1.5')) }],
    }) as Promise<Hex>

    const url = await commands.popupUrl(transactionPage)
    expect(query(url)).toEqual({
      transactionID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      etherAddress: wallet,
      chainType: 'evm',
      chainID: `eip155:${info.chainId}`,
    })
    expect(
      await commands.popupText(transactionPage, 'confirmation-value'),
    ).toBe('1500000000000000000 wei (1.5 ETH)')
    await commands.popupClick(transactionPage, 'confirmation-approve')
    const hash = await pending
    const receipt = await chain.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await chain.getBalance({ address: to })).toBe(parseEther('1.5'))
    // One window, opened on the loading page under the published name,
    // sent on to the transaction page, and closed by the SDK.
    expect(calls.map(({ url, target }) => ({ url, target }))).toEqual([
      { url: loadingPage, target: 'Confirm this transaction' },
    ])
    await commands.popupsGone(passportDomain)
    expect(calls[0]?.window?.closed).toBe(true)
    expect(evaluations).toEqual([evaluate.transaction])
  })

  test('error: Reject in its popup is -32003 "Transaction rejected by user"; nothing is sent', async () => {
    const { provider, wallet } = await player('compat-reject')
    await setGuardianRules(wallet, {
      confirmAboveValue: parseEther('1').toString(),
    })
    const pending = rejection(
      provider.request({
        method: 'eth_sendTransaction',
        params: [
          { from: wallet, to: randomAddress(), value: toHex(parseEther('2')) },
        ],
      }),
    )
    await commands.popupClick(transactionPage, 'confirmation-reject')
    expect(await pending).toEqual({
      code: -32003,
      message: 'Transaction rejected by user',
    })
    await commands.popupsGone(passportDomain)
    expect(await chain.getCode({ address: wallet })).toBeUndefined()
    expect(await readNonce(wallet)).toBe(0n)
    expect(evaluations).toEqual([evaluate.transaction])
  })

  test('behavior: personal_sign the guardian asks about (ERC-191) opens the message page; Approve signs, and it verifies on chain', async () => {
    const { provider, wallet } = await player('compat-erc191')
    await deploy(provider, wallet)
    await setGuardianRules(wallet, { confirmErc191: true })
    const message = 'trade my shield for 3 potions'
    const calls = spyPopups()
    const pending = provider.request({
      method: 'personal_sign',
      params: [toHex(message), wallet],
    }) as Promise<Hex>

    const url = await commands.popupUrl(messagePage)
    expect(query(url)).toEqual({
      messageID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      etherAddress: wallet,
      messageType: 'erc191',
    })
    expect(await commands.popupText(messagePage, 'confirmation-message')).toBe(
      message,
    )
    await commands.popupClick(messagePage, 'confirmation-approve')
    const signature = await pending
    expect(
      await chain.verifyMessage({ address: wallet, message, signature }),
    ).toBe(true)
    expect(calls.map(({ url }) => url)).toEqual([loadingPage])
    await commands.popupsGone(passportDomain)
    expect(evaluations).toEqual([evaluate.transaction, evaluate.erc191])
  })

  test('error: personal_sign rejected in its popup is -32003 "Signature rejected by user"', async () => {
    const { provider, wallet } = await player('compat-erc191-reject')
    await setGuardianRules(wallet, { confirmErc191: true })
    const pending = rejection(
      provider.request({
        method: 'personal_sign',
        params: [toHex('never signed'), wallet],
      }),
    )
    await commands.popupClick(messagePage, 'confirmation-reject')
    expect(await pending).toEqual({
      code: -32003,
      message: 'Signature rejected by user',
    })
    await commands.popupsGone(passportDomain)
    expect(evaluations).toEqual([evaluate.erc191])
  })

  test('behavior: typed data the guardian asks about (EIP-712) opens the message page; Approve signs, and it verifies on chain', async () => {
    const { provider, wallet } = await player('compat-eip712')
    await deploy(provider, wallet)
    await setGuardianRules(wallet, { confirmTypedData: true })
    const typedData = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        Mail: [{ name: 'contents', type: 'string' }],
      },
      primaryType: 'Mail',
      domain: { name: 'Game', chainId: info.chainId },
      message: { contents: 'trade my sword' },
    } as const
    const calls = spyPopups()
    const pending = provider.request({
      method: 'eth_signTypedData_v4',
      params: [wallet, JSON.stringify(typedData)],
    }) as Promise<Hex>

    const url = await commands.popupUrl(messagePage)
    expect(query(url)).toEqual({
      messageID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      etherAddress: wallet,
      messageType: 'eip712',
    })
    expect(
      await commands.popupText(messagePage, 'confirmation-typed-data'),
    ).toContain('trade my sword')
    await commands.popupClick(messagePage, 'confirmation-approve')
    const signature = await pending
    expect(
      await chain.verifyTypedData({
        address: wallet,
        signature,
        domain: typedData.domain,
        types: { Mail: typedData.types.Mail },
        primaryType: 'Mail',
        message: typedData.message,
      }),
    ).toBe(true)
    expect(calls.map(({ url }) => url)).toEqual([loadingPage])
    await commands.popupsGone(passportDomain)
    expect(evaluations).toEqual([evaluate.transaction, evaluate.eip712])
  })

  test('behavior: when the guardian does not ask, the SDK still opens its loading page for each request and closes it by itself', async () => {
    const { provider, wallet } = await player('compat-no-ask')
    const calls: Opened[] = spyPopups()
    await deploy(provider, wallet)
    const message = 'no confirmation needed'
    const signature = (await provider.request({
      method: 'personal_sign',
      params: [toHex(message), wallet],
    })) as Hex
    expect(
      await chain.verifyMessage({ address: wallet, message, signature }),
    ).toBe(true)
    const shown = { url: loadingPage, target: 'Confirm this transaction' }
    expect(calls.map(({ url, target }) => ({ url, target }))).toEqual([
      shown,
      shown,
    ])
    await commands.popupsGone(passportDomain)
    expect(calls.map(({ window }) => window?.closed)).toEqual([true, true])
    expect(evaluations).toEqual([evaluate.transaction, evaluate.erc191])
  })
})
