import { decodeJwt } from 'jose'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { pageUrl } from './fixtures/passportApp.js'
import {
  appOptions,
  createPassport,
  expireStoredTokens,
  freshEmail,
  loginWithPopup,
  recordFetches,
  signInAt,
  spyPopups,
  tokenRequests,
  userinfo,
  userKey,
} from './passportLogin.js'

/*
 * The session against the emulated provider: silent login and concurrent
 * callers over one refresh once the cached tokens are stale, and the silent
 * logout's hidden-iframe round trip.
 */

beforeEach(() => localStorage.clear())
afterEach(() => vi.restoreAllMocks())

const stored = () => JSON.parse(localStorage.getItem(userKey) ?? 'null')

describe('Passport: stale tokens', () => {
  test('behavior: login({ useSilentLogin }) refreshes once, opens no popup and emits loggedIn', async () => {
    const email = freshEmail('silent')
    const first = await loginWithPopup(createPassport(), email)
    const before = stored()
    expireStoredTokens()

    const passport = createPassport()
    const events: string[] = []
    passport.on('loggedIn', () => events.push('loggedIn'))
    passport.on('tokenRefreshed', () => events.push('tokenRefreshed'))
    const seen = recordFetches()
    const calls = spyPopups()
    expect(await passport.login({ useSilentLogin: true })).toEqual(first)
    expect(tokenRequests(seen)).toEqual(['refresh_token'])
    expect(calls).toEqual([])
    expect(events).toEqual(['tokenRefreshed', 'loggedIn'])
    const after = stored()
    expect(after.refresh_token).not.toBe(before.refresh_token)
    // a fresh id token again (the stale copy's exp was an hour ago)
    expect(decodeJwt(after.id_token).exp).toBeGreaterThan(Date.now() / 1000)
    expect((await userinfo(after.access_token)).status).toBe(200)
  })

  test('behavior: with a revoked refresh token, useSilentLogin resolves null and removes the user', async () => {
    await loginWithPopup(createPassport(), freshEmail('revoked'))
    const { refresh_token: refreshToken } = stored()
    await fetch(`${appOptions.auth}/oauth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({
        token: refreshToken,
        token_type_hint: 'refresh_token',
        client_id: appOptions.client,
      }),
    })
    expireStoredTokens()
    const passport = createPassport()
    const removed: unknown[] = []
    passport.on('userRemoved', (event) => removed.push(event.reason))
    const calls = spyPopups()
    expect(await passport.login({ useSilentLogin: true })).toBeNull()
    expect(calls).toEqual([])
    expect(removed).toEqual(['refresh_failed'])
    expect(localStorage.getItem(userKey)).toBeNull()
  })

  test('behavior: concurrent getUserInfo/getIdToken/getAccessToken calls make exactly one refresh request', async () => {
    const profile = await loginWithPopup(createPassport(), freshEmail('once'))
    expireStoredTokens()
    const passport = createPassport()
    const seen = recordFetches()
    const [a, b, c, idToken, accessToken] = await Promise.all([
      passport.getUserInfo(),
      passport.getUserInfo(),
      passport.getUserInfo(),
      passport.getIdToken(),
      passport.getAccessToken(),
    ])
    expect([a, b, c]).toEqual([profile, profile, profile])
    expect(tokenRequests(seen)).toEqual(['refresh_token'])
    expect([idToken, accessToken]).toEqual([
      stored().id_token,
      stored().access_token,
    ])
    expect(await passport.getUserInfo()).toEqual(profile)
    expect(tokenRequests(seen)).toEqual(['refresh_token'])
  })
})

/**
 * The dApp tab for the silent logout: a window on 127.0.0.1 (the emulated
 * provider's site, so its SameSite=Lax cookies work in the hidden iframe;
 * this page is on localhost), driven by messages (fixtures/passportApp.ts).
 */
async function openSameSiteApp() {
  const origin = location.origin.replace('//localhost:', '//127.0.0.1:')
  const options = { ...appOptions, mode: 'silent' as const }
  const url = `${pageUrl(origin, 'app', options)}&opener=${encodeURIComponent(location.origin)}`
  const replies: Record<string, unknown>[] = []
  let app: Window | null = null
  const listener = (event: MessageEvent) => {
    if (event.source === app && event.origin === origin)
      replies.push(event.data)
  }
  addEventListener('message', listener)
  app = window.open(url, 'passportSameSiteApp', 'width=400,height=400')
  await expect
    .poll(() => replies.some((reply) => reply.ready), { timeout: 10_000 })
    .toBe(true)
  let next = 1
  const call = async (method: string, ...args: unknown[]) => {
    const id = next++
    app?.postMessage({ id, method, args }, origin)
    await expect
      .poll(() => replies.find((reply) => reply.id === id), {
        timeout: 15_000,
      })
      .toBeDefined()
    const reply = replies.find((reply) => reply.id === id) ?? {}
    if (reply.error) throw Object.assign(new Error(), reply.error)
    return reply.result
  }
  const close = () => {
    removeEventListener('message', listener)
    app?.close()
  }
  return { call, close, returnTo: pageUrl(origin, 'logout', options) }
}

describe('Passport.logout: silent mode', () => {
  test('behavior: revokes and signs out in a hidden iframe whose returnTo page answers; the old access token is refused', async () => {
    const app = await openSameSiteApp()
    try {
      const email = freshEmail('silent-logout')
      const url = (await app.call('loginWithPKCEFlow')) as string
      const callback = new URL(await signInAt(url, email))
      const profile = await app.call(
        'loginWithPKCEFlowCallback',
        callback.searchParams.get('code'),
        callback.searchParams.get('state'),
      )
      expect(profile).toMatchObject({ email })
      const accessToken = (await app.call('getAccessToken')) as string
      expect((await userinfo(accessToken)).status).toBe(200)

      const started = performance.now()
      await app.call('logout')
      expect(performance.now() - started).toBeLessThan(5_000)
      expect(await app.call('seenMessages')).toEqual([
        { source: 'oidc-client', url: app.returnTo, keepOpen: false },
      ])
      expect(await app.call('getAccessToken')).toBeNull()
      expect(await userinfo(accessToken)).toEqual({
        status: 401,
        body: {
          error: 'invalid_token',
          error_description: 'access token expired or revoked',
        },
      })
    } finally {
      app.close()
    }
  })
})
