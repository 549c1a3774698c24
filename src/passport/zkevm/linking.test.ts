import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { filePlatform, userOf } from '../../../test/unit/setup/zkevm.js'
import { claimsOf } from '../../emulator/passport/identity/testkit.js'
import type { Player } from '../../emulator/passport/testkit.js'
import { jsonOf } from '../../emulator/testkit.js'
import { fromTokenResponse, type User } from '../auth/user.js'
import { PassportError } from '../errors.js'
import { Passport } from '../Passport.js'
import { linkWalletTypedData, paths } from '../wire/api.js'
import { getLinkedAddresses, linkExternalWallet } from './linking.js'

/** The platform API (with the identity provider that signs its players in). */
const b = filePlatform()

/** A registered player and the session's user of them. */
async function registered(): Promise<{ player: Player; user: User }> {
  const player = await b().player()
  await b().register(player)
  b().reset()
  return { player, user: userOf(player, true) }
}

/**
 * An external wallet's link of `player`'s wallet: its EIP-712 LinkWallet
 * signature over the two addresses and the nonce.
 */
async function linkOf(
  player: Player,
  options: { nonce?: string; signer?: `0x${string}` } = {},
) {
  const external = privateKeyToAccount(options.signer ?? generatePrivateKey())
  const nonce = options.nonce ?? crypto.randomUUID()
  const signature = await external.signTypedData({
    domain: linkWalletTypedData.domain,
    types: { LinkWallet: linkWalletTypedData.types.LinkWallet },
    primaryType: linkWalletTypedData.primaryType,
    message: {
      walletAddress: external.address.toLowerCase() as Address,
      immutablePassportAddress: player.wallet.toLowerCase() as Address,
      condition: linkWalletTypedData.condition,
      nonce,
    },
  })
  return {
    type: 'io.metamask',
    walletAddress: external.address as string,
    signature: signature as string,
    nonce,
  }
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

/** The API's answer to its last request. */
const lastAnswer = () => jsonOf(b().api.requests.at(-1)?.response)

describe('linkExternalWallet', () => {
  test('default: posts the link with the bearer token and returns the linked wallet', async () => {
    const { player, user } = await registered()
    const params = await linkOf(player)
    const result = await linkExternalWallet(
      { apiBase: b().api.url, getUser: async () => user },
      params,
    )
    expect(result).toEqual(lastAnswer())
    expect(result).toMatchObject({
      address: params.walletAddress,
      type: 'io.metamask',
    })
    const received = b().api.requests
    expect(received.map((r) => [r.method, r.url, r.status])).toEqual([
      ['POST', '/passport-profile/v2/linked-wallets', 200],
    ])
    expect(received[0]?.headers.authorization).toBe(
      `Bearer ${player.accessToken}`,
    )
    expect(received[0]?.headers['content-type']).toBe('application/json')
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({
      type: 'io.metamask',
      wallet_address: params.walletAddress,
      signature: params.signature,
      nonce: params.nonce,
    })
  })

  test('behavior: a throttled link (429) is sent again through the fetch helper after Retry-After; the request names the SDK version', async () => {
    const { player, user } = await registered()
    const params = await linkOf(player)
    b().api.answer(
      { path: paths.linkedWallets },
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { code: 'TOO_MANY_REQUESTS_ERROR', message: 'Slow down.' },
      },
    )
    const result = await linkExternalWallet(
      { apiBase: b().api.url, getUser: async () => user },
      params,
    )
    expect(result.address).toBe(params.walletAddress)
    const received = b().api.requests
    expect(received.map((r) => [r.status, r.scripted])).toEqual([
      [429, true],
      [200, false],
    ])
    expect(received[1]?.body).toBe(received[0]?.body)
    for (const request of received) {
      expect(request.headers.authorization).toBe(`Bearer ${player.accessToken}`)
      expect(request.headers['x-sdk-version']).toBe('ts-immutable-sdk-2.2.0')
    }
  })

  test('behavior: a user registered on StarkEx only may link; the base path is kept', async () => {
    const { player, user } = await registered()
    // The emulated API serves no base path: answered for it here.
    b().api.answer(
      { path: '/passport-mr/passport-profile/v2/linked-wallets' },
      { status: 200, body: { address: '0x1', type: 'io.metamask' } },
    )
    const { zkEvm: _, ...rest } = user
    const imxUser: User = {
      ...rest,
      imx: {
        ethAddress: '0x1',
        starkAddress: '0x2',
        userAdminAddress: '0x3',
      },
    }
    await linkExternalWallet(
      { apiBase: `${b().api.url}/passport-mr/`, getUser: async () => imxUser },
      await linkOf(player),
    )
    expect(b().api.requests.map((r) => r.url)).toEqual([
      '/passport-mr/passport-profile/v2/linked-wallets',
    ])
  })

  test("error: the API's VALIDATION_ERROR (a signature that is not the wallet's) gives LINK_WALLET_VALIDATION_ERROR with its message", async () => {
    const { player, user } = await registered()
    const params = { ...(await linkOf(player)), nonce: 'another-nonce' }
    expect(
      await failure(
        linkExternalWallet(
          { apiBase: b().api.url, getUser: async () => user },
          params,
        ),
      ),
    ).toEqual([
      'LINK_WALLET_VALIDATION_ERROR',
      "signature is not wallet_address's EIP-712 LinkWallet signature for this player and nonce.",
    ])
    expect(lastAnswer()).toMatchObject({ code: 'VALIDATION_ERROR' })
  })

  test("error: the API's ALREADY_LINKED (a wallet another player linked) gives LINK_WALLET_ALREADY_LINKED_ERROR with its message", async () => {
    const first = await registered()
    const second = await registered()
    const key = generatePrivateKey()
    await linkExternalWallet(
      { apiBase: b().api.url, getUser: async () => first.user },
      await linkOf(first.player, { signer: key }),
    )
    expect(
      await failure(
        linkExternalWallet(
          { apiBase: b().api.url, getUser: async () => second.user },
          await linkOf(second.player, { signer: key }),
        ),
      ),
    ).toEqual([
      'LINK_WALLET_ALREADY_LINKED_ERROR',
      'This wallet is linked to a Passport account already.',
    ])
    expect(lastAnswer()).toMatchObject({ code: 'ALREADY_LINKED' })
  })

  test("error: the API's DUPLICATE_NONCE gives LINK_WALLET_DUPLICATE_NONCE_ERROR with its message", async () => {
    const { player, user } = await registered()
    const link = (params: Awaited<ReturnType<typeof linkOf>>) =>
      linkExternalWallet(
        { apiBase: b().api.url, getUser: async () => user },
        params,
      )
    await link(await linkOf(player, { nonce: 'nonce-1' }))
    expect(
      await failure(link(await linkOf(player, { nonce: 'nonce-1' }))),
    ).toEqual([
      'LINK_WALLET_DUPLICATE_NONCE_ERROR',
      'This nonce was used already.',
    ])
    expect(lastAnswer()).toMatchObject({ code: 'DUPLICATE_NONCE' })
  })

  test("error: the API's MAX_WALLETS_LINKED gives LINK_WALLET_MAX_WALLETS_LINKED_ERROR with its message", async () => {
    const { player, user } = await registered()
    const link = async () =>
      linkExternalWallet(
        { apiBase: b().api.url, getUser: async () => user },
        await linkOf(player),
      )
    for (let i = 0; i < 5; i++) await link()
    expect(await failure(link())).toEqual([
      'LINK_WALLET_MAX_WALLETS_LINKED_ERROR',
      'A player may link at most 5 wallets.',
    ])
    expect(lastAnswer()).toMatchObject({ code: 'MAX_WALLETS_LINKED' })
  })

  test('error: another API code gives LINK_WALLET_GENERIC_ERROR with its message', async () => {
    const { player, user } = await registered()
    b().api.answer(
      { path: paths.linkedWallets },
      {
        status: 400,
        body: { code: 'SOMETHING_ELSE', message: 'SOMETHING_ELSE happened' },
      },
    )
    expect(
      await failure(
        linkExternalWallet(
          { apiBase: b().api.url, getUser: async () => user },
          await linkOf(player),
        ),
      ),
    ).toEqual(['LINK_WALLET_GENERIC_ERROR', 'SOMETHING_ELSE happened'])
  })

  test('error: a failed answer without an error body gives "Link wallet request failed with status code {status}"', async () => {
    const { player, user } = await registered()
    b().api.answer({ path: paths.linkedWallets }, { status: 502 })
    expect(
      await failure(
        linkExternalWallet(
          { apiBase: b().api.url, getUser: async () => user },
          await linkOf(player),
        ),
      ),
    ).toEqual([
      'LINK_WALLET_GENERIC_ERROR',
      'Link wallet request failed with status code 502',
    ])
  })

  test('error: no answer gives "Link wallet request failed" plus the cause', async () => {
    const { player, user } = await registered()
    b().api.answer({ path: paths.linkedWallets }, 'drop')
    const [type, message] = await failure(
      linkExternalWallet(
        { apiBase: b().api.url, getUser: async () => user },
        await linkOf(player),
      ),
    )
    expect([type, message]).toEqual([
      'LINK_WALLET_GENERIC_ERROR',
      'Link wallet request failed: fetch failed',
    ])
  })

  test('error: signed out gives NOT_LOGGED_IN_ERROR "User is not logged in", nothing sent', async () => {
    const { player } = await registered()
    expect(
      await failure(
        linkExternalWallet(
          { apiBase: b().api.url, getUser: async () => null },
          await linkOf(player),
        ),
      ),
    ).toEqual(['NOT_LOGGED_IN_ERROR', 'User is not logged in'])
    expect(b().api.requests).toEqual([])
  })

  test('error: not registered gives USER_NOT_REGISTERED_ERROR "User has not been registered", nothing sent', async () => {
    const { player, user } = await registered()
    const { zkEvm: _, ...unregistered } = user
    expect(
      await failure(
        linkExternalWallet(
          { apiBase: b().api.url, getUser: async () => unregistered },
          await linkOf(player),
        ),
      ),
    ).toEqual(['USER_NOT_REGISTERED_ERROR', 'User has not been registered'])
    expect(b().api.requests).toEqual([])
  })
})

describe('getLinkedAddresses', () => {
  test('default: reads linked_addresses of the profile with the bearer token', async () => {
    const { player, user } = await registered()
    const params = await linkOf(player)
    await linkExternalWallet(
      { apiBase: b().api.url, getUser: async () => user },
      params,
    )
    b().reset()
    expect(
      await getLinkedAddresses({
        apiBase: b().api.url,
        getUser: async () => user,
      }),
    ).toEqual([params.walletAddress])
    expect(
      b().api.requests.map((r) => [r.method, r.url, r.headers.authorization]),
    ).toEqual([
      ['GET', '/passport-profile/v1/user/info', `Bearer ${player.accessToken}`],
    ])
  })

  test('behavior: a throttled read (429) is sent again through the fetch helper', async () => {
    const { user } = await registered()
    b().api.answer(
      { path: paths.userInfo },
      { status: 429, headers: { 'retry-after': '0' } },
    )
    expect(
      await getLinkedAddresses({
        apiBase: b().api.url,
        getUser: async () => user,
      }),
    ).toEqual([])
    expect(b().api.requests.map((r) => [r.path, r.status])).toEqual([
      [paths.userInfo, 429],
      [paths.userInfo, 200],
    ])
  })

  test('error: a failed answer without an error body gives SERVICE_UNAVAILABLE_ERROR "Request failed with status code {status}"', async () => {
    const { user } = await registered()
    b().api.answer({ path: paths.userInfo }, { status: 502 })
    expect(
      await failure(
        getLinkedAddresses({
          apiBase: b().api.url,
          getUser: async () => user,
        }),
      ),
    ).toEqual([
      'SERVICE_UNAVAILABLE_ERROR',
      'Request failed with status code 502',
    ])
  })

  test("error: no answer gives SERVICE_UNAVAILABLE_ERROR with the network's reason", async () => {
    const { user } = await registered()
    b().api.answer({ path: paths.userInfo }, 'drop')
    expect(
      await failure(
        getLinkedAddresses({
          apiBase: b().api.url,
          getUser: async () => user,
        }),
      ),
    ).toEqual(['SERVICE_UNAVAILABLE_ERROR', 'fetch failed'])
  })

  test('behavior: signed out answers [] without a request', async () => {
    expect(
      await getLinkedAddresses({
        apiBase: b().api.url,
        getUser: async () => null,
      }),
    ).toEqual([])
    expect(b().api.requests).toEqual([])
  })

  test('error: an API error gives SERVICE_UNAVAILABLE_ERROR with its message', async () => {
    const { player, user } = await registered()
    // An access token past its expiry: the API refuses it (401).
    const expired = await b().identity.sign(
      claimsOf(player.accessToken, {
        exp: Math.floor(Date.now() / 1000) - 60,
      }),
      { typ: 'at+jwt' },
    )
    const [type, message] = await failure(
      getLinkedAddresses({
        apiBase: b().api.url,
        getUser: async () => ({ ...user, accessToken: expired }),
      }),
    )
    const answer = lastAnswer() as { code: string; message: string }
    expect(b().api.requests.at(-1)?.status).toBe(401)
    expect(answer.code).toBe('UNAUTHORISED_REQUEST')
    expect([type, message]).toEqual([
      'SERVICE_UNAVAILABLE_ERROR',
      answer.message,
    ])
  })
})

describe('Passport: linkExternalWallet and getLinkedAddresses', () => {
  /**
   * A localStorage holding `player` signed in, with tokens refreshed after
   * the registration (the id token carries the wallet).
   */
  async function signedIn(player: Player): Promise<globalThis.Storage> {
    const tokens = await b().refresh(player)
    const map = new Map<string, string>()
    map.set(
      `oidc.user:${b().identity.issuer}:${b().identity.clientId}`,
      JSON.stringify(
        fromTokenResponse(
          {
            access_token: tokens.accessToken,
            id_token: tokens.idToken,
            refresh_token: tokens.refreshToken,
            token_type: 'Bearer',
            expires_in: 86_400,
          },
          { now: Date.now() },
        ),
      ),
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

  function passport() {
    return new Passport({
      baseConfig: { environment: 'sandbox' },
      clientId: b().identity.clientId,
      redirectUri: 'https://game.example/callback',
      overrides: {
        authenticationDomain: b().identity.issuer,
        magicPublishableApiKey: 'pk',
        magicProviderId: 'provider',
        passportDomain: 'https://passport.example',
        imxPublicApiDomain: 'https://api.example',
        zkEvmRpcUrl: 'https://rpc.example',
        relayerUrl: 'https://api.example/relayer-mr',
        indexerMrBasePath: 'https://api.example',
        orderBookMrBasePath: 'https://api.example',
        passportMrBasePath: b().api.url,
      },
    })
  }

  afterEach(() => {
    vi.unstubAllGlobals()
  })

  test('default: the facade links with the session access token at passportMrBasePath', async () => {
    const player = await b().player()
    await b().register(player)
    const storage = await signedIn(player)
    vi.stubGlobal('localStorage', storage)
    b().reset()
    const params = await linkOf(player)
    const linked = await passport().linkExternalWallet(params)
    expect(linked).toEqual(lastAnswer())
    expect(linked.address).toBe(params.walletAddress)
    const stored = JSON.parse(
      storage.getItem(
        `oidc.user:${b().identity.issuer}:${b().identity.clientId}`,
      ) ?? '{}',
    ) as { access_token: string }
    expect(
      b().api.requests.map((r) => [r.path, r.headers.authorization, r.status]),
    ).toEqual([[paths.linkedWallets, `Bearer ${stored.access_token}`, 200]])
    expect(await passport().getLinkedAddresses()).toEqual([
      params.walletAddress,
    ])
  })

  test('behavior: signed out, linking rejects NOT_LOGGED_IN_ERROR and the linked addresses are []', async () => {
    const player = await b().player()
    b().reset()
    expect(
      await failure(passport().linkExternalWallet(await linkOf(player))),
    ).toEqual(['NOT_LOGGED_IN_ERROR', 'User is not logged in'])
    expect(await passport().getLinkedAddresses()).toEqual([])
    expect(b().api.requests).toEqual([])
  })
})
