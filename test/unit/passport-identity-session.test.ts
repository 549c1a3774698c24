/**
 * The PKCE flow (`oidc.ts`, `pkce.ts`) and the session's refresh
 * (`session.ts`) of the game wallet's sign-in core against the real emulated
 * identity provider on a free port: the person signs in on the provider's
 * login page (driven with fetch, the code read from the mailbox store), the
 * client talks to the real token endpoint, and refresh requests are counted
 * on the server side.
 */
import { decodeJwt } from 'jose'
import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { pkce } from '../../src/emulator/passport/identity/testkit.js'
import {
  type Context,
  loginWithPKCEFlow,
  loginWithPKCEFlowCallback,
  storageKeys,
} from '../../src/passport/auth/pkce.js'
import { create as createSession } from '../../src/passport/auth/session.js'
import { isUserZkEvm, type User } from '../../src/passport/auth/user.js'
import {
  authorize,
  createEnv,
  type Identity,
  redirectUri,
  startIdentity,
} from './setup/identity.js'

let identity: Identity
beforeAll(async () => {
  identity = await startIdentity()
})
afterAll(() => identity.stop())

/** A client, user store and PKCE context. */
function setup() {
  const env = createEnv(identity)
  const context: Context = {
    client: env.client,
    storage: env.storage,
    users: env.users,
  }
  return { ...env, context }
}

/** Signs `email` in through `pkce.ts`; the stored user is the result. */
async function signedIn(email: string) {
  const env = setup()
  const url = await loginWithPKCEFlow(env.context)
  const callback = await authorize(identity, url, email)
  const user = await loginWithPKCEFlowCallback(
    env.context,
    callback.searchParams.get('code') ?? '',
    callback.searchParams.get('state') ?? '',
  )
  return { ...env, user }
}

/** Past the tokens' 24 h lifetime minus the SDK's 1 h validity buffer. */
const nearExpiry = 23.5 * 60 * 60 * 1000

describe('authorization code + PKCE against the emulated identity provider', () => {
  test('behavior: authorizationUrl, the login page, then exchangeCode gives tokens for the signed-in person', async () => {
    const { client } = setup()
    const request = await client.authorizationUrl()
    expect(Object.fromEntries(request.url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: identity.clientId,
      redirect_uri: redirectUri,
      code_challenge_method: 'S256',
      audience: 'platform_api',
      state: request.state,
      nonce: request.nonce,
    })
    const callback = await authorize(
      identity,
      request.url.href,
      'pkce-player@example.com',
    )
    expect(callback.origin + callback.pathname).toBe(redirectUri)
    expect(callback.searchParams.get('state')).toBe(request.state)
    expect(callback.searchParams.get('iss')).toBe(identity.issuer)
    const since = identity.requests.length

    const tokens = await client.exchangeCode({
      code: callback.searchParams.get('code') ?? '',
      state: request.state,
      iss: identity.issuer,
      codeVerifier: request.codeVerifier,
      nonce: request.nonce,
    })

    const sub = identity.registry.find({ email: 'pkce-player@example.com' })?.id
    expect(decodeJwt(tokens.id_token ?? '')).toMatchObject({
      iss: identity.issuer,
      aud: identity.clientId,
      sub,
      email: 'pkce-player@example.com',
      nonce: request.nonce,
    })
    expect(tokens.refresh_token).toEqual(expect.any(String))
    expect(identity.tokenRequests('authorization_code', since)).toEqual([
      { method: 'POST', path: '/oauth/token', grantType: 'authorization_code' },
    ])
  })

  test('error: the server refuses a wrong code verifier with invalid_grant', async () => {
    const { client, tokenErrors } = setup()
    const request = await client.authorizationUrl()
    const callback = await authorize(
      identity,
      request.url.href,
      'pkce-player@example.com',
    )
    const since = identity.requests.length

    const refused = client.exchangeCode({
      code: callback.searchParams.get('code') ?? '',
      state: request.state,
      codeVerifier: pkce().verifier,
      nonce: request.nonce,
    })

    await expect(refused).rejects.toBeInstanceOf(oauth.ResponseBodyError)
    await expect(refused).rejects.toMatchObject({
      status: 400,
      error: 'invalid_grant',
      error_description: 'grant request is invalid',
    })
    expect(tokenErrors).toEqual(['invalid_grant'])
    expect(identity.tokenRequests('authorization_code', since)).toEqual([
      {
        method: 'POST',
        path: '/oauth/token',
        grantType: 'authorization_code',
        error: 'invalid_grant',
      },
    ])
  })

  test('error: through the PKCE callback, a wrong stored verifier is an AUTHENTICATION_ERROR with the server description', async () => {
    const { context, storage, users } = setup()
    const url = await loginWithPKCEFlow(context)
    const callback = await authorize(identity, url, 'pkce-player@example.com')
    await storage.setItem(storageKeys.verifier, pkce().verifier)

    await expect(
      loginWithPKCEFlowCallback(
        context,
        callback.searchParams.get('code') ?? '',
        callback.searchParams.get('state') ?? '',
      ),
    ).rejects.toMatchObject({
      name: 'PassportError',
      type: 'AUTHENTICATION_ERROR',
      message: 'grant request is invalid',
    })
    expect(await users.get()).toBeNull()
  })

  test('error: a tampered state is refused before any token request, and the stored PKCE data still completes the login', async () => {
    const { context, storage } = setup()
    const url = await loginWithPKCEFlow(context)
    const callback = await authorize(identity, url, 'pkce-player@example.com')
    const code = callback.searchParams.get('code') ?? ''
    const state = callback.searchParams.get('state') ?? ''
    const since = identity.requests.length

    await expect(
      loginWithPKCEFlowCallback(context, code, `${state}x`),
    ).rejects.toMatchObject({
      name: 'PassportError',
      type: 'AUTHENTICATION_ERROR',
      message: 'Provided state does not match stored state',
    })
    expect(identity.requests.slice(since)).toEqual([])

    const user = await loginWithPKCEFlowCallback(context, code, state)
    expect(user.profile.email).toBe('pkce-player@example.com')
    for (const key of Object.values(storageKeys))
      expect(await storage.getItem(key)).toBeNull()
  })
})

describe('session refresh against the emulated identity provider', () => {
  test('behavior: concurrent getUser() on expired tokens makes ONE refresh request, all callers get the same new user', async () => {
    const { client, users, user: first } = await signedIn('refresh@example.com')
    const session = createSession({
      client,
      users,
      now: () => Date.now() + nearExpiry,
    })
    const refreshed: User[] = []
    session.emitter.on('tokenRefreshed', (user) => refreshed.push(user))
    const since = identity.requests.length

    const results = await Promise.all([
      session.getUser(),
      session.getUser(),
      session.getUser(),
    ])

    expect(identity.tokenRequests('refresh_token', since)).toEqual([
      { method: 'POST', path: '/oauth/token', grantType: 'refresh_token' },
    ])
    expect(
      identity.requests
        .slice(since)
        .filter((r) => r.method === 'POST' && r.path === '/oauth/token'),
    ).toHaveLength(1)
    const [one, two, three] = results
    expect(two).toBe(one)
    expect(three).toBe(one)
    expect(refreshed).toEqual([one])
    expect(one?.profile).toEqual(first.profile)
    expect(one?.refreshToken).not.toBe(first.refreshToken)
    // (The id token may be byte-identical: same claims within the second.)
    expect(one?.accessToken).not.toBe(first.accessToken)
    expect(one?.expired).toBe(false)
    expect((await users.get())?.refresh_token).toBe(one?.refreshToken)
  })

  test('behavior: a rotated refresh token works once; replayed, invalid_grant removes the user with NOT_LOGGED_IN_ERROR', async () => {
    const { client, users, user: first } = await signedIn('rotate@example.com')
    const session = createSession({
      client,
      users,
      now: () => Date.now() + nearExpiry,
    })
    const removed: unknown[] = []
    session.emitter.on('userRemoved', (event) => removed.push(event))
    const since = identity.requests.length

    const second = await session.refresh()
    const rotated = second?.refreshToken
    expect(rotated).not.toBe(first.refreshToken)
    const third = await session.refresh()
    expect(third?.refreshToken).not.toBe(rotated)

    // The device replays the token it already used.
    const stored = await users.get()
    if (!stored || !rotated) throw new Error('No stored user.')
    await users.set({ ...stored, refresh_token: rotated })
    const message = 'Failed to refresh token: grant request is invalid'
    await expect(session.getUser()).rejects.toMatchObject({
      name: 'PassportError',
      type: 'NOT_LOGGED_IN_ERROR',
      message,
    })
    expect(await users.get()).toBeNull()
    expect(removed).toEqual([{ reason: 'refresh_failed', error: message }])
    expect(
      identity
        .tokenRequests('refresh_token', since)
        .map((r) => r.error ?? 'ok'),
    ).toEqual(['ok', 'ok', 'invalid_grant'])
    // The replay revoked the whole grant: the newest token is dead too.
    await expect(
      client.refresh(third?.refreshToken ?? ''),
    ).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  test('behavior: a zkEVM registration made after login shows in the user after a refresh', async () => {
    const { client, users, user } = await signedIn('register@example.com')
    expect(user.zkEvm).toBeUndefined()
    const registration = {
      zkevmEthAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      zkevmUserAdminAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    } as const
    identity.registry.setPassport(user.profile.sub, registration)
    const session = createSession({ client, users })
    const since = identity.requests.length

    const refreshed = await session.refresh()

    expect(refreshed?.zkEvm).toEqual({
      ethAddress: registration.zkevmEthAddress,
      userAdminAddress: registration.zkevmUserAdminAddress,
    })
    expect(refreshed?.imx).toBeUndefined()
    // The fresh tokens are cached: getUser() needs no further refresh.
    const cached = await session.getUser(isUserZkEvm)
    expect(cached?.zkEvm).toEqual(refreshed?.zkEvm)
    expect(identity.tokenRequests('refresh_token', since)).toHaveLength(1)
  })
})
