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
import {
  type PublishedPassport214Class,
  type PublishedXClient,
  published214Config,
} from './fixtures/publishedPassport214.js'
import { freshEmail } from './passportLogin.js'
import {
  info,
  openedLogins,
  publishedApp,
  signIn,
} from './publishedPassport.js'

/*
 * The published @imtbl/passport 2.14.0, the last with the StarkEx layer,
 * unchanged, against the emulator: only its configuration points at it.
 * Two hosts it calls whatever its configuration (its StarkEx signer's key
 * custody, and the hosted exchange its x-client asks about some accounts'
 * Stark keys) are answered by the emulator at the browser's network layer
 * (setup/originRoutes.ts), as a game would point them with its own proxy.
 */

// Loaded after noTelemetry and nodeGlobals (above), which must be in place
// before the SDK's modules are evaluated.
const { Passport } = (await import('imtbl-passport-2.14.0')) as {
  Passport: PublishedPassport214Class
}
// Its declarations resolve only in part here (see publishedPassport214.ts).
const xClient = (await import('@imtbl/x-client')) as unknown as PublishedXClient

const { overrides } = info.passport
const app = publishedApp

/** The hosts 2.14.0 calls whatever its configuration says. */
const hosted = {
  /** Its StarkEx signer's key custody (it ignores `magicTeeBasePath`). */
  tee: 'https://tee.express.magiclabs.com',
  /** The exchange the x-client asks for an account's Stark key. */
  exchange: 'https://api.x.immutable.com',
} as const

/**
 * The exchange client 2.14.0 sends every StarkEx call but registration
 * through, on the emulated exchange. The L1 contracts serve only deposits
 * and withdrawals, which the published Passport does not support: StarkEx's
 * contracts are not on the local chain, and any address does.
 */
function immutableXClient() {
  return new xClient.IMXClient({
    baseConfig: { environment: 'sandbox' },
    overrides: {
      immutableXConfig: xClient.createImmutableXConfiguration({
        basePath: overrides.imxPublicApiDomain,
        chainID: info.chainId,
        coreContractAddress: '0x0000000000000000000000000000000000000001',
        registrationContractAddress:
          '0x0000000000000000000000000000000000000002',
      }),
    },
  })
}

/** The published 2.14.0 as a game on this page configures it. */
function createPassport() {
  return new Passport(
    published214Config(location.origin, app, {
      ...overrides,
      immutableXClient: immutableXClient(),
    }),
  )
}

/** A signed-in player of 2.14.0 and its StarkEx provider. */
async function connected(label: string) {
  const passport = createPassport()
  const { profile } = await signIn(passport, freshEmail(label))
  const provider = await passport.connectImx()
  return { passport, profile, provider }
}

/** What `run` threw (synchronously), or undefined. */
function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  return undefined
}

beforeAll(() =>
  commands.originsRoute([
    { from: hosted.tee, to: overrides.magicTeeBasePath },
    { from: hosted.exchange, to: overrides.imxPublicApiDomain },
  ]),
)
afterAll(() => commands.originsUnroute())
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
    const { provider } = await connected('sx-connect')
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
    // The signer starts deriving as the provider is made: its custody
    // wallet, then the signature of the Stark key's message.
    await expect.poll(custodyCalls).toEqual([
      { method: 'POST', url: tee(teePaths.wallet), status: 200 },
      { method: 'POST', url: tee(teePaths.signMessage), status: 200 },
    ])
    expect(await provider.isRegisteredOffchain()).toBe(false)
    await expect(provider.getAddress()).rejects.toMatchObject({
      type: 'USER_NOT_REGISTERED_ERROR',
      message: 'User has not been registered with StarkEx',
    })
  })

  test('error: deposit, prepareWithdrawal, completeWithdrawal and isRegisteredOnchain throw "Operation not supported" at once', async () => {
    const { provider } = await connected('sx-unsupported')
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
