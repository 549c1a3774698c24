import { afterEach, describe, expect, test, vi } from 'vitest'
import { storageKey } from '../auth/user.js'
import { resolve } from '../config.js'
import * as Internal from '../internal.js'
import { Passport } from '../Passport.js'
import { paths } from '../wire/api.js'
import { serve, startNode } from './_test/backend.js'
import { connectEvm, custodyIdToken } from './connect.js'
import { JsonRpcError } from './errors.js'
import type { SessionActivityError } from './sessionActivity.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

function overrides(rpcUrl: string) {
  return {
    authenticationDomain: 'http://127.0.0.1:1',
    magicPublishableApiKey: 'pk_test',
    magicProviderId: 'provider-1',
    passportDomain: 'http://127.0.0.1:2',
    imxPublicApiDomain: 'http://127.0.0.1:3',
    zkEvmRpcUrl: rpcUrl,
    relayerUrl: 'http://127.0.0.1:4',
    indexerMrBasePath: 'http://127.0.0.1:5',
    orderBookMrBasePath: 'http://127.0.0.1:6',
    passportMrBasePath: 'http://127.0.0.1:7',
  }
}

describe('Passport.connectEvm', () => {
  test('default: a provider that reads the chain and refuses account methods before sign-in', async () => {
    const node = await startNode({ chainId: 15003 })
    closers.push(node.close)
    const passport = new Passport({
      baseConfig: { environment: 'sandbox' },
      clientId: 'client-1',
      redirectUri: 'http://127.0.0.1:8/callback',
      overrides: overrides(node.url),
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

const wallet = '0x00000000000000000000000000000000000000aa'
const admin = '0x00000000000000000000000000000000000000bb'

/** An unsigned JWT (the session reads claims, never checks a signature). */
function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) =>
    Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'none' })}.${part(claims)}.`
}

/** A Passport against `node` and `api`, with a registered player signed in. */
async function signedInPassport(options: {
  rpcUrl: string
  apiUrl: string
  environment?: 'sandbox' | 'production'
  errorMonitor?: (error: SessionActivityError) => void
}) {
  const passport = new Passport({
    baseConfig: { environment: options.environment ?? 'sandbox' },
    clientId: 'client-1',
    redirectUri: 'http://127.0.0.1:8/callback',
    overrides: {
      ...overrides(options.rpcUrl),
      indexerMrBasePath: options.apiUrl,
      zkEvmChainId: 15003,
    },
    ...(options.errorMonitor ? { errorMonitor: options.errorMonitor } : {}),
  })
  const exp = Math.floor(Date.now() / 1000) + 7200
  const { storage } = Internal.of(passport)
  await storage.setItem(
    storageKey('http://127.0.0.1:1', 'client-1'),
    JSON.stringify({
      id_token: jwt({
        sub: 'player-1',
        exp,
        passport: {
          zkevm_eth_address: wallet,
          zkevm_user_admin_address: admin,
        },
      }),
      access_token: jwt({ sub: 'player-1', exp }),
      session_state: null,
      token_type: 'Bearer',
      profile: { sub: 'player-1' },
    }),
  )
  return passport
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
    const node = await startNode({ chainId: 15003 })
    closers.push(node.close)
    const passport = await signedInPassport({
      rpcUrl: node.url,
      apiUrl: 'http://127.0.0.1:5',
    })
    const started: string[] = []
    const provider = await connectEvm(
      passport,
      { announceProvider: false },
      {
        sessionActivity: ({ wallet, clientId }) =>
          started.push(`${wallet}:${clientId}`),
      },
    )
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([wallet])
    // The player was signed in when the provider started.
    await vi.waitFor(() => expect(started).toEqual([`${wallet}:client-1`]))
    expect(() => Internal.of({})).toThrow('Not a Passport instance.')
  })
})

describe('Passport: errorMonitor', () => {
  test("behavior: session activity's failures go to the host's error monitor, never to the player", async () => {
    const node = await startNode({ chainId: 15003 })
    closers.push(node.close)
    const checks: string[] = []
    const api = await serve(({ url }) => {
      checks.push(url.pathname)
      return { status: 500, body: { code: 'INTERNAL_SERVER_ERROR' } }
    })
    closers.push(api.close)
    const monitored: SessionActivityError[] = []
    const passport = await signedInPassport({
      rpcUrl: node.url,
      apiUrl: api.url,
      errorMonitor: (error) => monitored.push(error),
    })
    const provider = await passport.connectEvm({ announceProvider: false })
    await vi.waitFor(() => expect(monitored).toHaveLength(1))
    expect(checks).toEqual([paths.sessionActivityCheck])
    expect(monitored[0]).toMatchObject({
      name: 'SessionActivity.SessionActivityError',
      reason: 'getDetails',
      message: 'Failed to get details',
    })
    // The player's requests go on as if nothing happened.
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([wallet])
  })

  test("error: an environment other than sandbox or production is reported as 'Environment not supported'; nothing is checked", async () => {
    const node = await startNode({ chainId: 15003 })
    closers.push(node.close)
    const checks: string[] = []
    const api = await serve(({ url }) => {
      checks.push(url.pathname)
      return { status: 404, body: {} }
    })
    closers.push(api.close)
    const monitored: string[] = []
    const passport = await signedInPassport({
      rpcUrl: node.url,
      apiUrl: api.url,
      environment: 'dev' as 'sandbox',
      errorMonitor: (error) => monitored.push(error.message),
    })
    await passport.connectEvm({ announceProvider: false })
    await vi.waitFor(() =>
      expect(monitored).toEqual(['Environment not supported']),
    )
    expect(checks).toEqual([])
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
        ...overrides('http://127.0.0.1:9'),
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
        ...overrides('http://127.0.0.1:9'),
        zkEvmWalletFactory: '0x0000000000000000000000000000000000000001',
      },
    })
    expect(partial.walletContracts).toBeUndefined()
    expect(partial.chainId).toBeUndefined()
  })
})
