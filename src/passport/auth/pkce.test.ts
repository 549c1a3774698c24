import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { authorize } from '../../../test/unit/setup/identity.js'
import * as Storage from '../../core/Storage.js'
import {
  claimsOf,
  redirectUri,
  startIdentity,
  type TestIdentity,
  tokensFor,
} from '../../emulator/passport/identity/testkit.js'
import { formOf, jsonOf } from '../../emulator/testkit.js'
import { PassportError } from '../errors.js'
import { create } from './oidc.js'
import {
  type Context,
  loginWithPKCEFlow,
  loginWithPKCEFlowCallback,
  storageKeys,
} from './pkce.js'
import { createUserStore } from './user.js'

let identity: TestIdentity
beforeAll(async () => {
  identity = await startIdentity()
})
afterAll(() => identity.stop())

let context: Context
beforeEach(() => {
  identity.clear()
  const storage = Storage.memory()
  context = {
    client: create({
      authenticationDomain: identity.issuer,
      clientId: identity.clientId,
      redirectUri,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
    }),
    storage,
    users: createUserStore({
      authority: identity.issuer,
      clientId: identity.clientId,
      storage,
    }),
  }
})

describe('loginWithPKCEFlow', () => {
  test('default: the authorization URL; state and verifier kept', async () => {
    const url = new URL(await loginWithPKCEFlow(context))
    const state = await context.storage.getItem<string>('pkce_state')
    const verifier = await context.storage.getItem<string>('pkce_verifier')
    const nonce = await context.storage.getItem<string>('pkce_nonce')
    expect(state && verifier && nonce).toBeTruthy()
    expect(`${url.origin}${url.pathname}`).toBe(`${identity.issuer}/authorize`)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier!),
      code_challenge_method: 'S256',
      client_id: identity.clientId,
      redirect_uri: redirectUri,
      state,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
      nonce,
    })
    expect(storageKeys).toEqual({
      state: 'pkce_state',
      verifier: 'pkce_verifier',
      nonce: 'pkce_nonce',
    })
  })

  test('behavior: each call starts afresh', async () => {
    const first = new URL(await loginWithPKCEFlow(context)).searchParams.get(
      'state',
    )
    const second = new URL(await loginWithPKCEFlow(context)).searchParams.get(
      'state',
    )
    expect(first).not.toBe(second)
    expect(await context.storage.getItem('pkce_state')).toBe(second)
  })
})

describe('loginWithPKCEFlowCallback', () => {
  test('error: nothing stored', async () => {
    const error = await loginWithPKCEFlowCallback(
      context,
      'code',
      'state',
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PassportError)
    expect(error).toMatchObject({
      message: 'No code verifier or state for PKCE',
      type: 'AUTHENTICATION_ERROR',
    })
    await context.storage.setItem('pkce_state', 'only-state')
    await expect(
      loginWithPKCEFlowCallback(context, 'code', 'only-state'),
    ).rejects.toMatchObject({
      message: 'No code verifier or state for PKCE',
    })
    expect(identity.requests).toEqual([])
  })

  test('error: another state', async () => {
    await loginWithPKCEFlow(context)
    const before = identity.requests.length
    await expect(
      loginWithPKCEFlowCallback(context, 'code', 'forged'),
    ).rejects.toMatchObject({
      message: 'Provided state does not match stored state',
      type: 'AUTHENTICATION_ERROR',
    })
    expect(identity.requests.length).toBe(before)
  })

  test('default: exchanges the code, stores the user, clears the PKCE keys', async () => {
    const authorizationUrl = await loginWithPKCEFlow(context)
    const verifier = await context.storage.getItem<string>('pkce_verifier')
    const callback = await authorize(
      identity,
      authorizationUrl,
      'pkce@example.com',
    )
    const code = callback.searchParams.get('code') ?? ''
    const state = callback.searchParams.get('state') ?? ''
    expect(state).toBe(new URL(authorizationUrl).searchParams.get('state'))
    const user = await loginWithPKCEFlowCallback(context, code, state)
    const registered = identity.registry.find({ email: 'pkce@example.com' })
    expect(user.profile).toEqual({
      sub: registered?.id,
      email: 'pkce@example.com',
      nickname: 'pkce',
    })
    const [request] = identity.to('/oauth/token')
    expect(user.refreshToken).toBe(
      (jsonOf(request?.response) as { refresh_token: string }).refresh_token,
    )
    expect(formOf(request!)).toEqual({
      client_id: identity.clientId,
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
    })
    expect((await context.users.get())?.access_token).toBe(user.accessToken)
    for (const key of ['pkce_state', 'pkce_verifier', 'pkce_nonce'])
      expect(await context.storage.getItem(key)).toBeNull()
  })

  test('error: an id token without the sent nonce is refused and nothing stored', async () => {
    const state = new URL(await loginWithPKCEFlow(context)).searchParams.get(
      'state',
    )!
    const tokens = await tokensFor(identity, 'replay@example.com')
    identity.answer(
      { path: '/oauth/token' },
      {
        status: 200,
        body: {
          access_token: tokens.accessToken,
          id_token: await identity.sign(
            claimsOf(tokens.idToken, { nonce: 'replayed' }),
          ),
          refresh_token: tokens.refreshToken,
          token_type: 'Bearer',
          expires_in: 86_400,
        },
      },
    )
    await expect(
      loginWithPKCEFlowCallback(context, 'auth-code', state),
    ).rejects.toMatchObject({
      message: 'Invalid ID token: unexpected "nonce" claim value',
      type: 'AUTHENTICATION_ERROR',
    })
    expect(await context.users.get()).toBeNull()
  })

  test('error: an OAuth error answer gives its description', async () => {
    const state = new URL(await loginWithPKCEFlow(context)).searchParams.get(
      'state',
    )!
    // A code the provider never issued.
    await expect(
      loginWithPKCEFlowCallback(context, 'auth-code', state),
    ).rejects.toMatchObject({
      message: 'grant request is invalid',
      type: 'AUTHENTICATION_ERROR',
    })
    expect(identity.to('/oauth/token').map((r) => r.status)).toEqual([400])
  })
})
