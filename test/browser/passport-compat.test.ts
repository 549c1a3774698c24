import { decodeJwt } from 'jose'
import {
  createPublicClient,
  getAddress,
  http,
  isAddress,
  parseEther,
  toHex,
} from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { commands } from 'vitest/browser'
import { factoryAbi, imageHash } from '../../src/passport/wire/sequence.js'
import {
  ethChain,
  headers as teeHeaders,
  paths as teePaths,
} from '../../src/passport/wire/tee.js'
import { refusedTelemetry, telemetryOrigin } from './fixtures/noTelemetry.js'
import {
  type PublishedPassport,
  type PublishedPassportClass,
  publishedConfig,
  publishedPageUrl,
} from './fixtures/publishedPassport.js'
import { fund } from './magicLogin.js'
import { freshEmail, userinfo } from './passportLogin.js'
import {
  connectPublished,
  info,
  openedLogins,
  overrides,
  publishedApp,
  signIn,
} from './publishedPassport.js'

/*
 * The published @imtbl/passport 2.24.8, unchanged, against the emulator:
 * only `overrides` (and the client id and callback pages) point at it. If
 * this passes, a game can develop and test offline with the SDK it ships.
 * The sign-in runs through the real login popup; the emulator's login page
 * is filled by the driver (setup/passportDriver.ts).
 */

// Loaded after noTelemetry (above), which must patch fetch first: the
// SDK's telemetry starts as its module is evaluated.
const { Passport } = (await import('@imtbl/passport')) as {
  Passport: PublishedPassportClass
}

const app = publishedApp
const userKey = `oidc.user:${app.auth}:${app.client}`

/** The published Passport as a game on this page configures it. */
function createPassport(
  options: { forceScwDeployBeforeMessageSignature?: boolean } = {},
): PublishedPassport {
  return new Passport({
    ...publishedConfig(location.origin, app, overrides),
    ...options,
  })
}

beforeEach(() => localStorage.clear())
afterEach(async () => {
  vi.restoreAllMocks()
  for (const window of openedLogins.splice(0)) window.close()
  // The published SDK opens its confirmation loading page on every signing
  // request; leave none for the next file.
  await commands.popupsClose(overrides.passportDomain)
})

describe('published @imtbl/passport against the emulator: sign-in', () => {
  test('behavior: its telemetry to the hosted API fails (as offline) and the SDK carries on', () => {
    expect(refusedTelemetry[0]).toBe(`${telemetryOrigin}/v1/sdk/initialise`)
    expect(typeof Passport).toBe('function')
  })

  test('behavior: login() through the real popup; getUserInfo, getIdToken and getAccessToken read the session', async () => {
    const passport = createPassport()
    const email = freshEmail('compat')
    const { profile, request } = await signIn(passport, email)

    expect(request.origin + request.pathname).toBe(`${app.auth}/authorize`)
    expect(Object.fromEntries(request.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: app.client,
      redirect_uri: publishedPageUrl(location.origin, 'redirect', app),
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
      code_challenge_method: 'S256',
    })
    const nickname = email.slice(0, email.indexOf('@'))
    expect(profile).toEqual({ sub: profile?.sub, email, nickname })
    expect(profile?.sub).toMatch(/^\S+$/)

    expect(await passport.getUserInfo()).toEqual(profile)
    const idToken = (await passport.getIdToken()) as string
    expect(decodeJwt(idToken)).toMatchObject({
      iss: app.auth,
      aud: app.client,
      sub: profile?.sub,
      email,
    })
    const stored = JSON.parse(localStorage.getItem(userKey) ?? '{}')
    expect(stored.id_token).toBe(idToken)
    expect(typeof stored.refresh_token).toBe('string')
    const accessToken = (await passport.getAccessToken()) as string
    expect(await userinfo(accessToken)).toEqual({
      status: 200,
      body: { sub: profile?.sub, email, email_verified: true, nickname },
    })

    // A page reload: a new instance finds the session without a popup.
    const calls = vi.spyOn(window, 'open')
    expect(await createPassport().login({ useCachedSession: true })).toEqual(
      profile,
    )
    expect(calls).not.toHaveBeenCalled()
  })

  test('behavior: logout() revokes the refresh token at the emulator and forgets the user', async () => {
    const passport = createPassport()
    await signIn(passport, freshEmail('logout'))
    const { refresh_token: refreshToken } = JSON.parse(
      localStorage.getItem(userKey) ?? '{}',
    )

    // The published SDK turns the end-session URL's scheme into https
    // whatever the configured domain's is, and the emulator speaks http:
    // the silent-logout frame gets no answer, so logout() rejects after
    // the frame's time-out (oidc-client-ts, 10 s), but only once the
    // token is revoked and the user removed.
    const error = await passport.logout().catch((error: unknown) => error)
    expect(error).toMatchObject({
      type: 'LOGOUT_ERROR',
      message: 'IFrame timed out without a response',
    })
    expect(localStorage.getItem(userKey)).toBeNull()
    expect(await passport.getUserInfo()).toBeUndefined()
    const refreshed = await fetch(`${app.auth}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: app.client,
      }),
    })
    expect(refreshed.status).toBe(400)
    expect(((await refreshed.json()) as { error: string }).error).toBe(
      'invalid_grant',
    )
  }, 30_000)

  test('behavior: getLogoutUrl() forgets the user and answers the end-session URL (https, as published)', async () => {
    const passport = createPassport()
    await signIn(passport, freshEmail('logout-url'))
    const events: string[] = []
    // Its Auth's emitter (not part of the published `Passport` API) is what
    // the wallet listens to for `accountsChanged []`.
    const { auth } = passport as unknown as {
      auth: { eventEmitter: { on(event: string, listener: () => void): void } }
    }
    auth.eventEmitter.on('loggedOut', () => events.push('loggedOut'))
    const url = new URL((await passport.getLogoutUrl()) as string)
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe(
      `https://${new URL(app.auth).host}/v2/logout`,
    )
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: app.client,
      returnTo: publishedPageUrl(location.origin, 'logout', app),
    })
    expect(events).toEqual(['loggedOut'])
    expect(localStorage.getItem(userKey)).toBeNull()
  })
})

describe('published @imtbl/passport against the emulator: zkEVM provider before registration', () => {
  test('behavior: connectEvm answers eth_chainId from the emulator chain and eth_accounts [] without a popup', async () => {
    const passport = createPassport()
    await signIn(passport, freshEmail('compat-rpc'))
    const popups = vi.spyOn(window, 'open')
    const provider = await passport.connectEvm({ announceProvider: false })
    expect(provider.isPassport).toBe(true)
    expect(await provider.request({ method: 'eth_chainId' })).toBe(
      toHex(info.chainId),
    )
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    expect(
      await provider.request({
        method: 'eth_getBalance',
        params: ['0x000000000000000000000000000000000000dEaD', 'latest'],
      }),
    ).toMatch(/^0x[0-9a-f]+$/)
    expect(popups).not.toHaveBeenCalled()
  })
})

/*
 * The zkEVM wallet of the published SDK against the emulated platform API,
 * relayer, key custody and confirmation pages.
 */
describe('published @imtbl/passport against the emulator: zkEVM wallet', () => {
  const client = createPublicClient({ transport: http(info.rpcUrl) })

  async function connected(
    options: { forceScwDeployBeforeMessageSignature?: boolean } = {},
  ) {
    const passport = createPassport(options)
    return {
      passport,
      ...(await connectPublished(passport, freshEmail('compat-evm'))),
    }
  }

  test('behavior: eth_requestAccounts registers the player: the id token then names the wallet', async () => {
    const { passport, provider, accounts, changes } = await connected()
    expect(accounts).toHaveLength(1)
    const [address] = accounts as [string]
    expect(isAddress(address)).toBe(true)
    expect(changes).toEqual([accounts])
    expect(await provider.request({ method: 'eth_accounts' })).toEqual(accounts)
    expect(await provider.request({ method: 'eth_chainId' })).toBe(
      toHex(info.chainId),
    )
    const claims = decodeJwt((await passport.getIdToken()) as string) as {
      passport?: Record<string, string>
    }
    expect(getAddress(claims.passport?.zkevm_eth_address ?? '')).toBe(
      getAddress(address),
    )
    // The wallet's signer is the player's key at the key custody (what
    // the SDK's `POST /v1/wallet` answered), and the wallet is the one the
    // factory deploys for {that key, the co-signer}, 2 of 2.
    const admin = getAddress(claims.passport?.zkevm_user_admin_address ?? '')
    const custody = await fetch(
      `${overrides.magicTeeBasePath}${teePaths.wallet}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await passport.getIdToken()}`,
          [teeHeaders.apiKey]: overrides.magicPublishableApiKey,
          [teeHeaders.providerId]: overrides.magicProviderId,
          [teeHeaders.chain]: ethChain,
        },
      },
    )
    expect(custody.status).toBe(200)
    expect(await custody.json()).toEqual({ public_address: admin })
    const { result: deployed } = await client.simulateContract({
      address: info.contracts.factory,
      abi: factoryAbi,
      functionName: 'deploy',
      args: [
        info.contracts.mainModule,
        imageHash({
          threshold: 2,
          signers: [
            { weight: 1, address: admin },
            { weight: 1, address: info.contracts.coSigner },
          ],
        }),
      ],
    })
    expect(deployed).toBe(getAddress(address))
    // Registered: the same wallet again, without a new registration.
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual(
      accounts,
    )
  })

  test('behavior: eth_sendTransaction is relayed and mined; then personal_sign and eth_signTypedData_v4 verify on chain', async () => {
    const { provider, accounts } = await connected()
    const wallet = getAddress(accounts[0] as string)
    await fund(info.rpcUrl, wallet, parseEther('1'))
    const to = getAddress(toHex(crypto.getRandomValues(new Uint8Array(20))))
    const hash = (await provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: wallet, to, value: toHex(parseEther('0.1')) }],
    })) as `0x${string}`
    const receipt = await client.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.1'))
    expect(await client.getCode({ address: wallet })).toMatch(/^0x[0-9a-f]+$/)

    const message = 'hello from the published SDK'
    const signature = (await provider.request({
      method: 'personal_sign',
      params: [toHex(message), wallet],
    })) as `0x${string}`
    expect(
      await client.verifyMessage({ address: wallet, message, signature }),
    ).toBe(true)

    const typedData = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        Order: [
          { name: 'owner', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
      },
      primaryType: 'Order',
      domain: { name: 'Compat', version: '1', chainId: info.chainId },
      message: { owner: wallet, amount: '100000000000000000000' },
    } as const
    const typedSignature = (await provider.request({
      method: 'eth_signTypedData_v4',
      params: [wallet, JSON.stringify(typedData)],
    })) as `0x${string}`
    expect(
      await client.verifyTypedData({
        address: wallet,
        signature: typedSignature,
        domain: typedData.domain,
        types: { Order: typedData.types.Order },
        primaryType: 'Order',
        message: { owner: wallet, amount: 10n ** 20n },
      }),
    ).toBe(true)
  })

  test('behavior: with forceScwDeployBeforeMessageSignature the first personal_sign deploys the wallet and verifies on chain', async () => {
    const { provider, accounts } = await connected({
      forceScwDeployBeforeMessageSignature: true,
    })
    const wallet = getAddress(accounts[0] as string)
    expect(await client.getCode({ address: wallet })).toBeUndefined()
    const message = 'signed before any transaction'
    const signature = (await provider.request({
      method: 'personal_sign',
      params: [toHex(message), wallet],
    })) as `0x${string}`
    expect(await client.getCode({ address: wallet })).toMatch(/^0x[0-9a-f]+$/)
    expect(
      await client.verifyMessage({ address: wallet, message, signature }),
    ).toBe(true)
  })
})
