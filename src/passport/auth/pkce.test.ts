import * as oauth from 'oauth4webapi'
import { beforeEach, describe, expect, test } from 'vitest'
import * as Storage from '../../core/Storage.js'
import { PassportError } from '../errors.js'
import {
  clientId,
  createIdp,
  type Idp,
  json,
  redirectUri,
} from './_test/idp.js'
import { create } from './oidc.js'
import {
  type Context,
  loginWithPKCEFlow,
  loginWithPKCEFlowCallback,
  storageKeys,
} from './pkce.js'
import { createUserStore } from './user.js'

let idp: Idp
let context: Context
beforeEach(async () => {
  idp = await createIdp()
  const storage = Storage.memory()
  context = {
    client: create({
      authenticationDomain: 'https://auth.immutable.com',
      clientId,
      redirectUri,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
      fetch: idp.fetch,
    }),
    storage,
    users: createUserStore({
      authority: 'https://auth.immutable.com',
      clientId,
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
    expect(`${url.origin}${url.pathname}`).toBe(
      'https://auth.immutable.com/authorize',
    )
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier!),
      code_challenge_method: 'S256',
      client_id: clientId,
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
    expect(idp.requests).toEqual([])
  })

  test('error: another state', async () => {
    await loginWithPKCEFlow(context)
    const before = idp.requests.length
    await expect(
      loginWithPKCEFlowCallback(context, 'code', 'forged'),
    ).rejects.toMatchObject({
      message: 'Provided state does not match stored state',
      type: 'AUTHENTICATION_ERROR',
    })
    expect(idp.requests.length).toBe(before)
  })

  test('default: exchanges the code, stores the user, clears the PKCE keys', async () => {
    const url = new URL(await loginWithPKCEFlow(context))
    const state = url.searchParams.get('state')!
    const nonce = url.searchParams.get('nonce')!
    const verifier = await context.storage.getItem<string>('pkce_verifier')
    idp.onToken(async () =>
      json(200, await idp.tokenResponse({ idClaims: { nonce } })),
    )
    const user = await loginWithPKCEFlowCallback(context, 'auth-code', state)
    expect(user.profile).toEqual({
      sub: 'email|user-1',
      email: 'player@example.com',
      nickname: 'player',
    })
    expect(user.refreshToken).toBe('refresh-token-2')
    const [request] = idp.to('/oauth/token')
    expect(Object.fromEntries(request!.body!)).toEqual({
      client_id: clientId,
      grant_type: 'authorization_code',
      code: 'auth-code',
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
    idp.onToken(async () =>
      json(200, await idp.tokenResponse({ idClaims: { nonce: 'replayed' } })),
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
    idp.onToken(() =>
      json(403, {
        error: 'invalid_grant',
        error_description: 'Invalid authorization code',
      }),
    )
    await expect(
      loginWithPKCEFlowCallback(context, 'auth-code', state),
    ).rejects.toMatchObject({
      message: 'Invalid authorization code',
      type: 'AUTHENTICATION_ERROR',
    })
  })
})
