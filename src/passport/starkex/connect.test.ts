import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startPlatform } from '../../emulator/passport/testkit.js'
import { fromTokenResponse, storageKey } from '../auth/user.js'
import * as Internal from '../internal.js'
import { Passport } from '../Passport.js'
import { connectImx, connectImxSilent } from './connect.js'

/**
 * `Passport.connectImx` / `connectImxSilent` on a real session of the
 * emulated identity provider: what each answers before and after sign-in.
 */
let platform: Awaited<ReturnType<typeof startPlatform>>
beforeAll(async () => {
  platform = await startPlatform()
})
afterAll(() => platform.stop())

function createPassport(): Passport {
  const { url } = platform.api
  return new Passport({
    baseConfig: { environment: 'sandbox' },
    clientId: platform.identity.clientId,
    redirectUri: 'http://127.0.0.1:8/callback',
    overrides: {
      authenticationDomain: platform.identity.issuer,
      magicPublishableApiKey: 'pk_test',
      magicProviderId: 'provider-1',
      passportDomain: 'http://127.0.0.1:2',
      imxPublicApiDomain: url,
      zkEvmRpcUrl: 'http://127.0.0.1:3',
      relayerUrl: url,
      indexerMrBasePath: url,
      orderBookMrBasePath: url,
      passportMrBasePath: url,
      zkEvmChainId: platform.chainId,
    },
  })
}

/** Stores a session as a sign-in would. */
async function signIn(passport: Passport) {
  const player = await platform.player()
  const { storage } = Internal.of(passport)
  await storage.setItem(
    storageKey(platform.identity.issuer, platform.identity.clientId),
    JSON.stringify(
      fromTokenResponse(
        {
          id_token: player.idToken,
          access_token: player.accessToken,
          refresh_token: player.refreshToken,
          token_type: 'Bearer',
          expires_in: 86_400,
        },
        { now: Date.now() },
      ),
    ),
  )
  return player
}

describe('Passport.connectImxSilent', () => {
  test('default: null without a session', async () => {
    expect(await createPassport().connectImxSilent()).toBeNull()
  })

  test('behavior: with a session, the provider of that player (not yet registered on StarkEx)', async () => {
    const passport = createPassport()
    await signIn(passport)
    const provider = await passport.connectImxSilent()
    expect(provider).not.toBeNull()
    expect(await provider?.isRegisteredOffchain()).toBe(false)
    await expect(provider?.getAddress()).rejects.toMatchObject({
      type: 'USER_NOT_REGISTERED_ERROR',
      message: 'User has not been registered with StarkEx',
    })
  })
})

describe('Passport.connectImx', () => {
  test('behavior: the cached session is used without prompting', async () => {
    const passport = createPassport()
    await signIn(passport)
    const provider = await passport.connectImx()
    expect(await provider.isRegisteredOffchain()).toBe(false)
  })

  test('error: a user without an id token is WALLET_CONNECTION_ERROR "Failed to initialise"', async () => {
    // The session always repairs a stored user without one (it refreshes),
    // so the user comes from a session double here.
    const passport = createPassport()
    const parts = Internal.of(passport)
    const user = { accessToken: 'a', profile: { sub: 'p' } }
    const host = {}
    Internal.register(host, {
      ...parts,
      session: {
        ...parts.session,
        getUser: async () => user,
        login: async () => user,
      } as typeof parts.session,
    })
    for (const connect of [connectImx, connectImxSilent])
      await expect(connect(host)).rejects.toMatchObject({
        type: 'WALLET_CONNECTION_ERROR',
        message: 'Failed to initialise',
      })
  })
})
