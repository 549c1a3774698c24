import { commands } from 'vitest/browser'
import {
  type PublishedPassport214,
  type PublishedPassport214Class,
  type PublishedXClient,
  published214Config,
} from './fixtures/publishedPassport214.js'
import { freshEmail } from './passportLogin.js'
import { info, publishedApp, signIn } from './publishedPassport.js'

/**
 * Browser-side helpers of the published @imtbl/passport 2.14.0's
 * compatibility tests (passport-compat-starkex*.test.ts): the SDK as a game
 * configures it against the emulator, its signed-in players, and the
 * routing of the two hosts it calls whatever its configuration says.
 *
 * Import fixtures/noTelemetry.js and fixtures/nodeGlobals.js before this
 * module: the SDK's modules, loaded here, need both in place.
 */

// Its declarations resolve only in part here (see fixtures/publishedPassport214.ts).
const { Passport } = (await import('imtbl-passport-2.14.0')) as {
  Passport: PublishedPassport214Class
}

/** The published @imtbl/x-client 2.14.0 (the one the SDK runs on). */
export const xClient = (await import(
  '@imtbl/x-client'
)) as unknown as PublishedXClient

/** What the emulator prints to pass as `overrides`. */
export const overrides = info.passport.overrides

/** The emulated exchange (`imxPublicApiDomain`). */
export const exchangeOrigin = overrides.imxPublicApiDomain

/** The hosts 2.14.0 calls whatever its configuration says. */
export const hosted = {
  /** Its StarkEx signer's key custody (it ignores `magicTeeBasePath`). */
  tee: 'https://tee.express.magiclabs.com',
  /** The exchange the x-client asks for an account's Stark key. */
  exchange: 'https://api.x.immutable.com',
} as const

/**
 * Answers the {@link hosted} hosts from the emulator (its key custody and
 * its exchange) for the rest of the file, as a game's own proxy would.
 * Call in `beforeAll`; {@link unrouteHosted} in `afterAll`.
 */
export function routeHosted(): Promise<void> {
  return commands.originsRoute([
    { from: hosted.tee, to: overrides.magicTeeBasePath },
    { from: hosted.exchange, to: exchangeOrigin },
  ])
}

/** Ends {@link routeHosted}. */
export async function unrouteHosted(): Promise<void> {
  await commands.originsUnroute()
}

/**
 * The exchange client 2.14.0 sends every StarkEx call but registration
 * through, on the emulated exchange. The L1 contracts serve only deposits
 * and withdrawals, which the published Passport does not support:
 * StarkEx's contracts are not on the local chain, and any address does.
 */
function immutableXClient() {
  return new xClient.IMXClient({
    baseConfig: { environment: 'sandbox' },
    overrides: {
      immutableXConfig: xClient.createImmutableXConfiguration({
        basePath: exchangeOrigin,
        chainID: info.chainId,
        coreContractAddress: '0x0000000000000000000000000000000000000001',
        registrationContractAddress:
          '0x0000000000000000000000000000000000000002',
      }),
    },
  })
}

/** The published 2.14.0 as a game on this page configures it. */
export function createPassport214(): PublishedPassport214 {
  return new Passport(
    published214Config(location.origin, publishedApp, {
      ...overrides,
      immutableXClient: immutableXClient(),
    }),
  )
}

/** A player signed in to 2.14.0 (through its login popup), and its StarkEx provider. */
export async function connectImx214(label: string) {
  const passport = createPassport214()
  const { profile } = await signIn(passport, freshEmail(label))
  const provider = await passport.connectImx()
  return { passport, profile, provider }
}
