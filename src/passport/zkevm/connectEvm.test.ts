import { afterEach, describe, expect, test, vi } from 'vitest'
import { fileBackends } from '../../../test/unit/setup/zkevm.js'
import { fromTokenResponse, storageKey } from '../auth/user.js'
import { resolve } from '../config.js'
import * as Internal from '../internal.js'
import { Passport } from '../Passport.js'
import { paths } from '../wire/api.js'
import { connectEvm, custodyIdToken } from './connect.js'
import { JsonRpcError } from './errors.js'
import type { SessionActivityError } from './sessionActivity.js'

/** The game wallet's backends on a chain of id 15003. */
const b = fileBackends({ chainId: 15003 })

const destroyers: (() => void)[] = []
afterEach(() => {
  for (const destroy of destroyers.splice(0)) destroy()
})

/** The overrides pointing the game wallet at the backends. */
function overrides() {
  const { identity, api, node, relayer } = b()
  return {
    authenticationDomain: identity.issuer,
    magicPublishableApiKey: 'pk_test',
    magicProviderId: 'provider-1',
    passportDomain: 'http://127.0.0.1:2',
    imxPublicApiDomain: api.url,
    zkEvmRpcUrl: node.url,
    relayerUrl: relayer.url,
    indexerMrBasePath: api.url,
    orderBookMrBasePath: api.url,
    passportMrBasePath: api.url,
  }
}

describe('Passport.connectEvm', () => {
  test('default: a provider that reads the chain and refuses account methods before sign-in', async () => {
    const passport = new Passport({
      baseConfig: { environment: 'sandbox' },
      clientId: b().identity.clientId,
      redirectUri: 'http://127.0.0.1:8/callback',
      overrides: overrides(),
    })
    const provider = await passport.connectEvm({ announceProvider: false })
    const connected = new Promise((resolve) => provider.on('connect', resolve))
    expect(provider.isPassport).toBe(true)
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x3a9b')
    expect(await connected).toEqual({ chainId: '0x3a9b' })
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: '0x0000000000000000000000000000000000000001' }],
      } as never),
    ).rejects.toMatchObject({
      code: 4100,
      message: 'Unauthorised - call eth_requestAccounts first',
    })
  })
})

/**
 * A Passport on the backends with a registered player signed in: their
 * tokens, refreshed after the registration (the id token then carries the
 * wallet), stored where the SDK keeps them.
 */
async function signedInPassport(
  options: {
    environment?: 'sandbox' | 'production'
    errorMonitor?: (error: SessionActivityError) => void
  } = {},
) {
  const player = await b().player()
  await b().register(player)
  const tokens = await b().refresh(player)
  b().reset()
  const { issuer, clientId } = b().identity
  const passport = new Passport({
    baseConfig: { environment: options.environment ?? 'sandbox' },
    clientId,
    redirectUri: 'http://127.0.0.1:8/callback',
    overrides: { ...overrides(), zkEvmChainId: 15003 },
    ...(options.errorMonitor ? { errorMonitor: options.errorMonitor } : {}),
  })
  const { storage } = Internal.of(passport)
  await storage.setItem(
    storageKey(issuer, clientId),
    JSON.stringify(
      fromTokenResponse(
        {
          id_token: tokens.idToken,
          access_token: tokens.accessToken,
          refresh_token: tokens.refreshToken,
          token_type: 'Bearer',
          expires_in: 86_400,
        },
        { now: Date.now() },
      ),
    ),
  )
  return { passport, wallet: player.wallet }
}

describe('Passport: no seams on the public class', () => {
  test('default: an instance has no public members of its own (no zkEvmSeams)', () => {
    const passport = new Passport({
      baseConfig: { environment: 'sandbox' },
      clientId: 'client-1',
      redirectUri: 'http://127.0.0.1:8/callback',
    })
    expect(Object.keys(passport)).toEqual([])
    expect('zkEvmSeams' in passport).toBe(false)
  })

  test('behavior: the internal connectEvm takes the parts a test injects', async () => {
    const { passport, wallet } = await signedInPassport()
    const started: string[] = []
    const provider = await connectEvm(
      passport,
      { announceProvider: false },
      {
        sessionActivity: ({ wallet, clientId }) =>
          started.push(`${wallet}:${clientId}`),
      },
    )
    destroyers.push(() => (provider as { destroy?: () => void }).destroy?.())
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([wallet])
    // The player was signed in when the provider started.
    await vi.waitFor(() =>
      expect(started).toEqual([`${wallet}:${b().identity.clientId}`]),
    )
    expect(() => Internal.of({})).toThrow('Not a Passport instance.')
  })
})

describe('Passport: errorMonitor', () => {
  test("behavior: session activity's failures go to the host's error monitor, never to the player", async () => {
    const monitored: SessionActivityError[] = []
    const { passport, wallet } = await signedInPassport({
      errorMonitor: (error) => monitored.push(error),
    })
    b().api.always(
      { path: paths.sessionActivityCheck },
      { status: 500, body: { code: 'INTERNAL_SERVER_ERROR' } },
    )
    const provider = await passport.connectEvm({ announceProvider: false })
    await vi.waitFor(() => expect(monitored).toHaveLength(1))
    expect(b().api.requests.map((request) => request.path)).toEqual([
      paths.sessionActivityCheck,
    ])
    expect(monitored[0]).toMatchObject({
      name: 'SessionActivity.SessionActivityError',
      reason: 'getDetails',
      message: 'Failed to get details',
    })
    // The player's requests go on as if nothing happened.
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([wallet])
  })

  test("error: an environment other than sandbox or production is reported as 'Environment not supported'; nothing is checked", async () => {
    const monitored: string[] = []
    const { passport } = await signedInPassport({
      environment: 'dev' as 'sandbox',
      errorMonitor: (error) => monitored.push(error.message),
    })
    await passport.connectEvm({ announceProvider: false })
    await vi.waitFor(() =>
      expect(monitored).toEqual(['Environment not supported']),
    )
    expect(b().api.to(paths.sessionActivityCheck)).toEqual([])
  })
})

describe('custodyIdToken', () => {
  test("error: the custody key for a player who logged out is 4100 'User has been logged out' (NOT_LOGGED_IN_ERROR)", async () => {
    const error = await custodyIdToken({ getUser: async () => null }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(JsonRpcError)
    expect(error).toMatchObject({
      code: 4100,
      message: 'User has been logged out',
      type: 'NOT_LOGGED_IN_ERROR',
    })
  })

  test("default: the signed-in player's id token", async () => {
    const player = { accessToken: 'a', idToken: 'id-1', profile: { sub: 'p' } }
    expect(await custodyIdToken({ getUser: async () => player })).toBe('id-1')
  })
})

describe('resolve: zkEVM overrides', () => {
  const base = {
    baseConfig: { environment: 'sandbox' as const },
    clientId: 'client-1',
    redirectUri: 'http://127.0.0.1:8/callback',
  }

  test('default: the environments carry the wallet contracts; no custody endpoint', () => {
    const config = resolve(base)
    expect(config.walletContracts).toEqual({
      factory: '0x8Fa5088dF65855E0DaF87FA6591659893b24871d',
      mainModule: '0x8FD900677aabcbB368e0a27566cCd0C7435F1926',
      coSigner: '0xcff469E561D9dCe5B1185CD2AC1Fa961F8fbDe61',
    })
    expect(config.magicEndpoint).toBeUndefined()
  })

  test('behavior: overrides set the chain id, custody endpoint and wallet contracts (all three or none)', () => {
    const all = resolve({
      ...base,
      overrides: {
        ...overrides(),
        zkEvmChainId: 15003,
        magicEndpoint: 'http://127.0.0.1:10',
        zkEvmWalletFactory: '0x0000000000000000000000000000000000000001',
        zkEvmWalletMainModule: '0x0000000000000000000000000000000000000002',
        zkEvmCoSigner: '0x0000000000000000000000000000000000000003',
      },
    })
    expect(all.chainId).toBe(15003)
    expect(all.magicEndpoint).toBe('http://127.0.0.1:10')
    expect(all.walletContracts).toEqual({
      factory: '0x0000000000000000000000000000000000000001',
      mainModule: '0x0000000000000000000000000000000000000002',
      coSigner: '0x0000000000000000000000000000000000000003',
    })
    const partial = resolve({
      ...base,
      overrides: {
        ...overrides(),
        zkEvmWalletFactory: '0x0000000000000000000000000000000000000001',
      },
    })
    expect(partial.walletContracts).toBeUndefined()
    expect(partial.chainId).toBeUndefined()
  })
})
