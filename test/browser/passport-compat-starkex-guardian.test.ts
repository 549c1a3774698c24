import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  test,
  vi,
} from 'vitest'
import { commands } from 'vitest/browser'
import type { StarkExType } from '../../src/emulator/guardian.js'
import './fixtures/noTelemetry.js'
import './fixtures/nodeGlobals.js'
import { randomAddress, setGuardianRules } from './passportWallet.js'
import { openedLogins } from './publishedPassport.js'
import {
  as214,
  exchangeRead,
  mintNfts,
  overrides,
  ownerOf,
  type Player214,
  registered214,
  routeHosted,
  unrouteHosted,
} from './publishedPassport214.js'

/*
 * The published @imtbl/passport 2.14.0's StarkEx requests through the
 * emulated guardian, unchanged: each guarded request opens its loading
 * popup on the passport domain, asks the guardian about its payload hash
 * (chainType starkex), and goes on only if the guardian does not ask.
 * Where the guardian asks, 2.14.0 never reaches the confirmation page (its
 * StarkEx guardian client holds a confirmation screen that never opened):
 * these tests pin that published behaviour; our own client's confirmation
 * is tested in passport-starkex*.test.ts.
 */

const { passportDomain } = overrides
const loadingPage = `${passportDomain}/transaction-confirmation/loading`
const title = 'Confirm this transaction'

/** The players whose guardian rules the test set, to reset after. */
const ruled: Player214[] = []

beforeAll(routeHosted)
afterAll(unrouteHosted)
beforeEach(() => localStorage.clear())
afterEach(async () => {
  vi.restoreAllMocks()
  for (const window of openedLogins.splice(0)) window.close()
  for (const player of ruled.splice(0))
    await setGuardianRules(player.address, null)
  // 2.14.0 leaves the loading popup of an approved request open.
  await commands.popupsClose(passportDomain)
})

/** One `window.open` of the page: what was asked, and the window. */
type Opened = {
  url: string
  target: string
  features: string
  window: Window | null
}

/** Records the page's `window.open` calls, passing them through. */
function recordPopups(): Opened[] {
  const open = window.open.bind(window)
  const calls: Opened[] = []
  vi.spyOn(window, 'open').mockImplementation((url, target, features) => {
    const opened = open(url, target, features)
    calls.push({
      url: String(url),
      target: String(target),
      features: String(features),
      window: opened,
    })
    return opened
  })
  return calls
}

/** The size a popup was asked for (its features spread over lines). */
function sizeOf(features: string) {
  const parts = new Map(
    features.split(',').map((part) => {
      const [name = '', value = ''] = part.split('=')
      return [name.trim(), value.trim()]
    }),
  )
  return { width: parts.get('width'), height: parts.get('height') }
}

/**
 * Records the guardian requests the SDK sends (its HTTP client speaks
 * XMLHttpRequest), as method and path with query.
 */
function recordGuardian(): string[] {
  const seen: string[] = []
  const { open } = XMLHttpRequest.prototype
  vi.spyOn(XMLHttpRequest.prototype, 'open').mockImplementation(function (
    this: XMLHttpRequest,
    ...args: unknown[]
  ) {
    const url = new URL(String(args[1]), location.href)
    if (url.pathname.startsWith('/guardian/'))
      seen.push(`${String(args[0])} ${url.pathname}${url.search}`)
    return (open as (...args: unknown[]) => void).apply(this, args)
  } as XMLHttpRequest['open'])
  return seen
}

/**
 * The guardian calls of one StarkEx request, as 2.14.0 sends them: the
 * transaction looked up by its payload hash, then evaluated.
 */
function oneEvaluation(seen: readonly string[]): void {
  const hash = /^GET \/guardian\/v1\/transactions\/([0-9a-f]+)\?/.exec(
    seen[0] ?? '',
  )?.[1]
  expect(seen).toEqual([
    `GET /guardian/v1/transactions/${hash}?chainType=starkex`,
    `POST /guardian/v1/transactions/${hash}/evaluate`,
  ])
}

/** The sender still holds its NFT, and made no transfer and no order. */
async function nothingApplied(sender: Player214, collection: string) {
  expect(await ownerOf(collection as `0x${string}`, '1')).toBe(sender.user)
  const none = { result: [], cursor: expect.any(String), remaining: 0 }
  expect(await exchangeRead(`/v1/transfers?user=${sender.address}`)).toEqual(
    none,
  )
  expect(await exchangeRead(`/v3/orders?user=${sender.address}`)).toEqual(none)
}

/** Two registered players, the first (the one acting) with the NFTs `ids`. */
async function twoPlayers(label: string, ids: readonly string[]) {
  const receiver = await registered214(`${label}-receiver`)
  const sender = await registered214(label)
  const collection = randomAddress()
  await mintNfts(sender, collection, ids)
  return { sender, receiver, collection }
}

describe('published @imtbl/passport 2.14.0: StarkEx requests the guardian lets through', () => {
  test('behavior: transfer() opens the loading page, asks the guardian by payload hash, and is applied; the loading page stays open (a published bug)', async () => {
    const { sender, receiver, collection } = await twoPlayers('sx-guard', ['1'])
    const popups = recordPopups()
    const guardian = recordGuardian()
    await as214(sender).transfer({
      type: 'ERC721',
      tokenId: '1',
      tokenAddress: collection,
      receiver: receiver.address,
    })
    expect(await ownerOf(collection, '1')).toBe(receiver.user)
    oneEvaluation(guardian)
    expect(popups.map(({ url, target }) => ({ url, target }))).toEqual([
      { url: loadingPage, target: title },
    ])
    expect(sizeOf(popups[0]?.features ?? '')).toEqual({
      width: '480',
      height: '720',
    })
    // Approved, and still open: the request's own client never closes it.
    expect(popups[0]?.window?.closed).toBe(false)
    expect(await commands.popupUrl(loadingPage)).toBe(loadingPage)
  })

  test('behavior: batchNftTransfer() opens its loading page at 480x784 and asks the guardian once for the whole batch', async () => {
    const { sender, receiver, collection } = await twoPlayers(
      'sx-guard-batch',
      ['1', '2'],
    )
    const popups = recordPopups()
    const guardian = recordGuardian()
    await as214(sender).batchNftTransfer([
      { receiver: receiver.address, tokenId: '1', tokenAddress: collection },
      { receiver: receiver.address, tokenId: '2', tokenAddress: collection },
    ])
    expect(await ownerOf(collection, '1')).toBe(receiver.user)
    expect(await ownerOf(collection, '2')).toBe(receiver.user)
    oneEvaluation(guardian)
    expect(popups.map(({ url }) => url)).toEqual([loadingPage])
    expect(sizeOf(popups[0]?.features ?? '')).toEqual({
      width: '480',
      height: '784',
    })
  })
})

describe('published @imtbl/passport 2.14.0: StarkEx requests the guardian asks about', () => {
  /** Each guarded request, the rule type that asks about it, and its error type. */
  const requests: {
    type: StarkExType
    error: string
    send(
      provider: Player214['provider'],
      to: string,
      collection: string,
    ): Promise<unknown>
  }[] = [
    {
      type: 'transfer',
      error: 'TRANSFER_ERROR',
      send: (provider, to, collection) =>
        provider.transfer({
          type: 'ERC721',
          tokenId: '1',
          tokenAddress: collection,
          receiver: to,
        }),
    },
    {
      type: 'batchNftTransfer',
      error: 'TRANSFER_ERROR',
      send: (provider, to, collection) =>
        provider.batchNftTransfer([
          { receiver: to, tokenId: '1', tokenAddress: collection },
        ]),
    },
    {
      type: 'order',
      error: 'CREATE_ORDER_ERROR',
      send: (provider, _to, collection) =>
        provider.createOrder({
          sell: { type: 'ERC721', tokenId: '1', tokenAddress: collection },
          buy: { type: 'ETH', amount: '100000000000000000' },
        }),
    },
  ]

  test.each(requests)(
    'error: under a rule asking to confirm "$type", 2.14.0 rejects at once with "Transaction rejected by user" (a published bug): no confirmation page, nothing applied',
    async ({ type, error, send }) => {
      const { sender, receiver, collection } = await twoPlayers(
        `sx-guard-ask-${type}`,
        ['1'],
      )
      ruled.push(sender)
      await setGuardianRules(sender.address, { confirmStarkEx: [type] })
      const popups = recordPopups()
      const guardian = recordGuardian()
      await expect(
        send(as214(sender), receiver.address, collection),
      ).rejects.toMatchObject({
        type: error,
        message: 'Transaction rejected by user',
      })
      oneEvaluation(guardian)
      // Only the loading page was ever opened: no confirmation page.
      expect(popups.map(({ url }) => url)).toEqual([loadingPage])
      await nothingApplied(sender, collection)
    },
  )

  test('error: with the guardian unavailable, a transfer rejects with "Service unavailable" and nothing is applied', async () => {
    const { sender, receiver, collection } = await twoPlayers(
      'sx-guard-unavailable',
      ['1'],
    )
    ruled.push(sender)
    await setGuardianRules(sender.address, { unavailable: true })
    await expect(
      as214(sender).transfer({
        type: 'ERC721',
        tokenId: '1',
        tokenAddress: collection,
        receiver: receiver.address,
      }),
    ).rejects.toMatchObject({
      type: 'SERVICE_UNAVAILABLE_ERROR',
      message: 'Service unavailable',
    })
    await nothingApplied(sender, collection)
  })
})
