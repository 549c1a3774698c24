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
import { paths as teePaths } from '../../src/passport/wire/tee.js'
import './fixtures/noTelemetry.js'
import './fixtures/nodeGlobals.js'
import { openedLogins } from './publishedPassport.js'
import {
  connectImx214,
  hosted,
  overrides,
  routeHosted,
  unrouteHosted,
} from './publishedPassport214.js'

/*
 * The published @imtbl/passport 2.14.0, the last with the StarkEx layer,
 * unchanged, against the emulator: only its configuration points at it.
 * Two hosts it calls whatever its configuration (its StarkEx signer's key
 * custody, and the hosted exchange its x-client asks about some accounts'
 * Stark keys) are answered by the emulator at the browser's network layer
 * (setup/originRoutes.ts), as a game would point them with its own proxy.
 */

/** What `run` threw (synchronously), or undefined. */
function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  return undefined
}

beforeAll(routeHosted)
afterAll(unrouteHosted)
beforeEach(() => localStorage.clear())
afterEach(async () => {
  vi.restoreAllMocks()
  for (const window of openedLogins.splice(0)) window.close()
  // 2.14.0 leaves its loading popup open after a guarded request.
  await commands.popupsClose(overrides.passportDomain)
})

describe('published @imtbl/passport 2.14.0 against the emulator: StarkEx before registration', () => {
  test('behavior: connectImx() after login derives the Stark key through the key custody at its hosted host, answered by the emulator', async () => {
    const before = (await commands.originsRouted()).length
    const { provider } = await connectImx214('sx-connect')
    const tee = (path: string) => `${hosted.tee}${path}`
    // Preflights aside: the browser asks one per URL only while it has
    // no answer cached.
    const custodyCalls = async () =>
      (await commands.originsRouted())
        .slice(before)
        .filter(
          ({ method, url }) =>
            method !== 'OPTIONS' && url.startsWith(`${hosted.tee}/`),
        )
    const notRegistered = {
      type: 'USER_NOT_REGISTERED_ERROR',
      message: 'User has not been registered with StarkEx',
    }
    // An exchange transfer waits for the Stark signer (and opens no
    // popup): had the derivation failed, it would reject with that error.
    await expect(
      provider.exchangeTransfer({
        type: 'ETH',
        amount: '1',
        receiver: '0x000000000000000000000000000000000000dEaD',
        transactionID: '1',
      }),
    ).rejects.toMatchObject(notRegistered)
    // The signer derived as the provider was made: its custody wallet,
    // then the signature of the Stark key's message.
    expect(await custodyCalls()).toEqual([
      { method: 'POST', url: tee(teePaths.wallet), status: 200 },
      { method: 'POST', url: tee(teePaths.signMessage), status: 200 },
    ])
    expect(await provider.isRegisteredOffchain()).toBe(false)
    await expect(provider.getAddress()).rejects.toMatchObject(notRegistered)
  })

  test('error: deposit, prepareWithdrawal, completeWithdrawal and isRegisteredOnchain throw "Operation not supported" at once', async () => {
    const { provider } = await connectImx214('sx-unsupported')
    const eth = { type: 'ETH', amount: '1000000000000000000' } as const
    const unsupported = {
      type: 'OPERATION_NOT_SUPPORTED_ERROR',
      message: 'Operation not supported',
    }
    expect(thrown(() => provider.deposit(eth))).toMatchObject(unsupported)
    expect(thrown(() => provider.prepareWithdrawal(eth))).toMatchObject(
      unsupported,
    )
    expect(
      thrown(() => provider.completeWithdrawal('0x1', { type: 'ETH' })),
    ).toMatchObject(unsupported)
    expect(thrown(() => provider.isRegisteredOnchain())).toMatchObject(
      unsupported,
    )
  })
})
