import { afterEach, describe, expect, test, vi } from 'vitest'
import type { User } from '../auth/user.js'
import { PassportError } from '../errors.js'
import { Passport } from '../Passport.js'
import { type Reply, startTestServer } from './_test/server.js'
import { getLinkedAddresses, linkExternalWallet } from './linking.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

const registered: User = {
  accessToken: 'access-token-1',
  profile: { sub: 'email|player-1' },
  zkEvm: {
    ethAddress: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
    userAdminAddress: '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF',
  },
}

const params = {
  type: 'io.metamask',
  walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  signature: '0xsig',
  nonce: 'nonce-1',
}

const linked = {
  address: params.walletAddress,
  type: 'io.metamask',
  created_at: '2026-11-25T08:00:00Z',
  updated_at: '2026-11-25T08:00:00Z',
  clientName: 'Game',
}

async function server(reply: Reply) {
  const started = await startTestServer(() => reply)
  closers.push(started.close)
  return started
}

/** What a call threw, as `[type, message]`. */
async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(error).toBeInstanceOf(PassportError)
  const { type, message } = error as PassportError
  return [type, message]
}

describe('linkExternalWallet', () => {
  test('default: posts the link with the bearer token and returns the linked wallet', async () => {
    const api = await server({ status: 200, body: linked })
    const result = await linkExternalWallet(
      { apiBase: api.url, getUser: async () => registered },
      params,
    )
    expect(result).toEqual(linked)
    expect(api.received.map((r) => [r.method, r.url])).toEqual([
      ['POST', '/passport-profile/v2/linked-wallets'],
    ])
    expect(api.received[0]?.headers.authorization).toBe('Bearer access-token-1')
    expect(api.received[0]?.headers['content-type']).toBe('application/json')
    expect(JSON.parse(api.received[0]?.body ?? '')).toEqual({
      type: 'io.metamask',
      wallet_address: params.walletAddress,
      signature: '0xsig',
      nonce: 'nonce-1',
    })
  })

  test('behavior: a user registered on StarkEx only may link; the base path is kept', async () => {
    const api = await server({ status: 200, body: linked })
    const { zkEvm: _, ...rest } = registered
    const imxUser: User = {
      ...rest,
      imx: {
        ethAddress: '0x1',
        starkAddress: '0x2',
        userAdminAddress: '0x3',
      },
    }
    await linkExternalWallet(
      { apiBase: `${api.url}/passport-mr/`, getUser: async () => imxUser },
      params,
    )
    expect(api.received.map((r) => r.url)).toEqual([
      '/passport-mr/passport-profile/v2/linked-wallets',
    ])
  })

  test.each([
    ['ALREADY_LINKED', 'LINK_WALLET_ALREADY_LINKED_ERROR'],
    ['MAX_WALLETS_LINKED', 'LINK_WALLET_MAX_WALLETS_LINKED_ERROR'],
    ['DUPLICATE_NONCE', 'LINK_WALLET_DUPLICATE_NONCE_ERROR'],
    ['VALIDATION_ERROR', 'LINK_WALLET_VALIDATION_ERROR'],
    ['SOMETHING_ELSE', 'LINK_WALLET_GENERIC_ERROR'],
  ])('error: the API code %s gives %s with its message', async (code, type) => {
    const api = await server({
      status: 400,
      body: { code, message: `${code} happened` },
    })
    expect(
      await failure(
        linkExternalWallet(
          { apiBase: api.url, getUser: async () => registered },
          params,
        ),
      ),
    ).toEqual([type, `${code} happened`])
  })

  test('error: a failed answer without an error body gives "Link wallet request failed with status code {status}"', async () => {
    const api = await server({ status: 502 })
    expect(
      await failure(
        linkExternalWallet(
          { apiBase: api.url, getUser: async () => registered },
          params,
        ),
      ),
    ).toEqual([
      'LINK_WALLET_GENERIC_ERROR',
      'Link wallet request failed with status code 502',
    ])
  })

  test('error: no answer gives "Link wallet request failed" plus the cause', async () => {
    const api = await server({ status: 200 })
    await api.close()
    const [type, message] = await failure(
      linkExternalWallet(
        { apiBase: api.url, getUser: async () => registered },
        params,
      ),
    )
    expect([type, message]).toEqual([
      'LINK_WALLET_GENERIC_ERROR',
      'Link wallet request failed: fetch failed',
    ])
  })

  test('error: signed out gives NOT_LOGGED_IN_ERROR "User is not logged in", nothing sent', async () => {
    const api = await server({ status: 200, body: linked })
    expect(
      await failure(
        linkExternalWallet(
          { apiBase: api.url, getUser: async () => null },
          params,
        ),
      ),
    ).toEqual(['NOT_LOGGED_IN_ERROR', 'User is not logged in'])
    expect(api.received).toEqual([])
  })

  test('error: not registered gives USER_NOT_REGISTERED_ERROR "User has not been registered", nothing sent', async () => {
    const api = await server({ status: 200, body: linked })
    const { zkEvm: _, ...unregistered } = registered
    expect(
      await failure(
        linkExternalWallet(
          { apiBase: api.url, getUser: async () => unregistered },
          params,
        ),
      ),
    ).toEqual(['USER_NOT_REGISTERED_ERROR', 'User has not been registered'])
    expect(api.received).toEqual([])
  })
})

describe('getLinkedAddresses', () => {
  test('default: reads linked_addresses of the profile with the bearer token', async () => {
    const api = await server({
      status: 200,
      body: {
        sub: 'email|player-1',
        linked_addresses: [params.walletAddress],
      },
    })
    expect(
      await getLinkedAddresses({
        apiBase: api.url,
        getUser: async () => registered,
      }),
    ).toEqual([params.walletAddress])
    expect(
      api.received.map((r) => [r.method, r.url, r.headers.authorization]),
    ).toEqual([
      ['GET', '/passport-profile/v1/user/info', 'Bearer access-token-1'],
    ])
  })

  test('behavior: signed out answers [] without a request', async () => {
    const api = await server({ status: 200, body: { linked_addresses: [] } })
    expect(
      await getLinkedAddresses({ apiBase: api.url, getUser: async () => null }),
    ).toEqual([])
    expect(api.received).toEqual([])
  })

  test('error: an API error gives SERVICE_UNAVAILABLE_ERROR with its message', async () => {
    const api = await server({
      status: 401,
      body: { code: 'UNAUTHORISED_REQUEST', message: 'Token expired' },
    })
    expect(
      await failure(
        getLinkedAddresses({
          apiBase: api.url,
          getUser: async () => registered,
        }),
      ),
    ).toEqual(['SERVICE_UNAVAILABLE_ERROR', 'Token expired'])
  })
})

describe('Passport: linkExternalWallet and getLinkedAddresses', () => {
  const authenticationDomain = 'https://auth.example'
  const clientId = 'game-client'

  /** A JWT with these claims; the cached session reads, not verifies, it. */
  function jwt(claims: Record<string, unknown>): string {
    const part = (value: unknown) =>
      Buffer.from(JSON.stringify(value)).toString('base64url')
    return `${part({ alg: 'none' })}.${part(claims)}.`
  }

  const exp = Math.floor(Date.now() / 1000) + 86_400
  const accessToken = jwt({ sub: 'email|player-1', exp })

  /** A localStorage holding a signed-in, registered player. */
  function signedIn(): globalThis.Storage {
    const map = new Map<string, string>()
    map.set(
      `oidc.user:${authenticationDomain}:${clientId}`,
      JSON.stringify({
        access_token: accessToken,
        id_token: jwt({
          sub: 'email|player-1',
          exp,
          passport: {
            zkevm_eth_address: registered.zkEvm?.ethAddress,
            zkevm_user_admin_address: registered.zkEvm?.userAdminAddress,
          },
        }),
        token_type: 'Bearer',
        session_state: null,
        profile: { sub: 'email|player-1' },
        expires_at: exp,
      }),
    )
    return {
      get length() {
        return map.size
      },
      key: (index: number) => [...map.keys()][index] ?? null,
      getItem: (key: string) => map.get(key) ?? null,
      setItem: (key: string, value: string) => void map.set(key, value),
      removeItem: (key: string) => void map.delete(key),
      clear: () => map.clear(),
    }
  }

  function passportAt(apiBase: string) {
    return new Passport({
      baseConfig: { environment: 'sandbox' },
      clientId,
      redirectUri: 'https://game.example/callback',
      overrides: {
        authenticationDomain,
        magicPublishableApiKey: 'pk',
        magicProviderId: 'provider',
        passportDomain: 'https://passport.example',
        imxPublicApiDomain: 'https://api.example',
        zkEvmRpcUrl: 'https://rpc.example',
        relayerUrl: 'https://api.example/relayer-mr',
        indexerMrBasePath: 'https://api.example',
        orderBookMrBasePath: 'https://api.example',
        passportMrBasePath: apiBase,
      },
    })
  }

  afterEach(() => {
    vi.unstubAllGlobals()
  })

  test('default: the facade links with the session access token at passportMrBasePath', async () => {
    vi.stubGlobal('localStorage', signedIn())
    const api = await server({ status: 200, body: linked })
    const passport = passportAt(api.url)
    expect(await passport.linkExternalWallet(params)).toEqual(linked)
    expect(api.received.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/passport-profile/v2/linked-wallets', `Bearer ${accessToken}`],
    ])
  })

  test('behavior: signed out, linking rejects NOT_LOGGED_IN_ERROR and the linked addresses are []', async () => {
    const api = await server({ status: 200, body: linked })
    const passport = passportAt(api.url)
    expect(await failure(passport.linkExternalWallet(params))).toEqual([
      'NOT_LOGGED_IN_ERROR',
      'User is not logged in',
    ])
    expect(await passport.getLinkedAddresses()).toEqual([])
    expect(api.received).toEqual([])
  })
})
