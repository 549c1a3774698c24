import { decodeJwt } from 'jose'
import type { Address } from 'viem'
import { expect } from 'vitest'
import { commands } from 'vitest/browser'
import {
  type DevMintRequest,
  devMintPath,
} from '../../src/passport/wire/starkex.js'
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
 * configures it against the emulator, its signed-in and registered
 * players, the routing of the two hosts it calls whatever its
 * configuration says, and the emulated exchange's dev and read routes.
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

/** The `passport` claims of a player's id token. */
export async function imxClaims(passport: PublishedPassport214) {
  const claims = decodeJwt((await passport.getIdToken()) ?? '') as {
    passport?: Record<string, string>
  }
  return claims.passport
}

/** Where the SDK keeps the signed-in user (one per origin and client). */
const userKey = `oidc.user:${publishedApp.auth}:${publishedApp.client}`

/** A registered player of 2.14.0 (see {@link registered214}). */
export type Player214 = Awaited<ReturnType<typeof registered214>>

/**
 * Signs a new player in to 2.14.0, connects its StarkEx provider and
 * registers it off chain.
 *
 * The SDK keeps one signed-in user per origin, so a page with two players
 * swaps their sessions in and out of that entry: act as a player through
 * {@link as214}, and its Passport reads its own user, as on two devices.
 */
export async function registered214(label: string) {
  // A cached user would answer the sign-in without a popup.
  localStorage.removeItem(userKey)
  const { passport, provider } = await connectImx214(label)
  await provider.registerOffchain()
  const address = ((await imxClaims(passport))?.imx_eth_address ??
    '') as Address
  return {
    passport,
    provider,
    /** Its StarkEx Ethereum address (`imx_eth_address`, checksummed). */
    address,
    /** The same, as the exchange's answers spell it. */
    user: address.toLowerCase(),
    /** Its session (the SDK's stored user, with the imx claims). */
    session: localStorage.getItem(userKey) ?? '',
  }
}

/** Makes `player`'s session the page's signed-in user; returns its provider. */
export function as214(player: Player214) {
  localStorage.setItem(userKey, player.session)
  return player.provider
}

/** A GET of the exchange's read routes: its JSON body (which must be a 200). */
export async function exchangeRead(path: string): Promise<unknown> {
  const response = await fetch(`${exchangeOrigin}${path}`)
  const body: unknown = await response.json()
  expect(response.status, JSON.stringify(body)).toBe(200)
  return body
}

/**
 * Credits a player's vault through the exchange's dev route (loopback
 * only: this page is on a loopback origin).
 */
export async function devMint(request: DevMintRequest): Promise<void> {
  const response = await fetch(`${exchangeOrigin}${devMintPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  })
  expect(response.status, await response.clone().text()).toBe(200)
}

/** Credits `player` with `wei` of ETH. */
export function mintEth(player: Player214, wei: bigint): Promise<void> {
  return devMint({
    user: player.address,
    token: { type: 'ETH', data: { decimals: 18 } },
    quantity: wei.toString(),
  })
}

/** Credits `player` with the NFTs `ids` of `collection`. */
export async function mintNfts(
  player: Player214,
  collection: Address,
  ids: readonly string[],
): Promise<void> {
  for (const id of ids)
    await devMint({
      user: player.address,
      token: {
        type: 'ERC721',
        data: { token_address: collection, token_id: id },
      },
      quantity: '1',
    })
}

/** A player's ETH at the exchange, in wei. */
export async function ethOf(player: Player214): Promise<string> {
  const balance = (await exchangeRead(
    `/v2/balances/${player.address}/eth`,
  )) as { balance: string }
  return balance.balance
}

/** Who holds an NFT at the exchange (its address in lowercase). */
export async function ownerOf(collection: Address, id: string) {
  const asset = (await exchangeRead(`/v1/assets/${collection}/${id}`)) as {
    user: string
  }
  return asset.user
}
