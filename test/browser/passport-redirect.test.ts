import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { Passport } from '../../src/passport/index.js'
import { type AppWindow, pageUrl } from './fixtures/passportApp.js'
import {
  appOptions,
  emulator,
  freshEmail,
  recordFetches,
  signInAt,
  tokenRequests,
  userKey,
} from './passportLogin.js'

/*
 * The redirect flow and redirect logout, run in an iframe on this page's
 * origin that plays the dApp's tab (fixtures/passportApp.html): its Passport
 * navigates the frame; the Navigation API in the frame records (and stops)
 * the navigation to the provider, the driver signs in for that request, and
 * the frame is sent where the provider redirects: the real callback page.
 */

let frame: HTMLIFrameElement
beforeEach(() => localStorage.clear())
afterEach(() => {
  vi.restoreAllMocks()
  frame?.remove()
})

/** Loads a fixture page in the frame and waits for its Passport. */
async function load(url: string): Promise<AppWindow> {
  frame ??= document.createElement('iframe')
  const loaded = new Promise((resolve) => {
    frame.onload = resolve
  })
  frame.src = url
  if (!frame.isConnected) document.body.append(frame)
  await loaded
  const app = frame.contentWindow as AppWindow
  await expect.poll(() => app.passport, { timeout: 10_000 }).toBeDefined()
  return app
}

type Navigation = EventTarget & {
  addEventListener(
    type: 'navigate',
    listener: (event: Event & { destination: { url: string } }) => void,
    options: { once: boolean },
  ): void
}

/** Records the frame's next navigation and cancels it (that one only). */
function stopNavigation(app: AppWindow): Promise<string> {
  const navigation = (app as unknown as { navigation: Navigation }).navigation
  return new Promise((resolve) => {
    navigation.addEventListener(
      'navigate',
      (event) => {
        event.preventDefault()
        resolve(event.destination.url)
      },
      { once: true },
    )
  })
}

const passportOf = (app: AppWindow) => app.passport as Passport

describe('Passport.login({ useRedirectFlow: true })', () => {
  test('behavior: stores the request, navigates to /authorize; loginCallback() completes and cleans the address bar', async () => {
    const app = await load(pageUrl(location.origin, 'app', appOptions))
    const navigated = stopNavigation(app)
    const result = await passportOf(app).login({ useRedirectFlow: true })
    expect(result).toBeNull()
    const authorize = new URL(await navigated)
    const state = authorize.searchParams.get('state') as string
    const redirectUri = pageUrl(location.origin, 'redirect', appOptions)
    expect(authorize.searchParams.get('redirect_uri')).toBe(redirectUri)
    const stored = JSON.parse(localStorage.getItem(`oidc.${state}`) ?? '{}')
    expect(stored).toMatchObject({
      id: state,
      nonce: authorize.searchParams.get('nonce'),
      redirect_uri: redirectUri,
      request_type: 'si:r',
    })

    const email = freshEmail('redirect')
    const callback = await signInAt(authorize.href, email)
    expect(new URL(callback).searchParams.get('state')).toBe(state)
    const page = await load(callback)
    await page.passportCallback
    expect(page.passportEvents).toEqual(['loggedIn'])
    expect(page.location.href).toBe(redirectUri)
    expect(localStorage.getItem(`oidc.${state}`)).toBeNull()
    expect(await passportOf(page).getUserInfo()).toMatchObject({ email })
    expect(
      JSON.parse(localStorage.getItem(userKey) ?? '{}').profile.email,
    ).toBe(email)
  })

  test('error: a redirect callback with an unknown state is refused', async () => {
    const callback = new URL(pageUrl(location.origin, 'redirect', appOptions))
    callback.searchParams.set('code', 'forged-code')
    callback.searchParams.set('state', 'forged-state')
    const page = await load(callback.href)
    await expect(page.passportCallback).rejects.toMatchObject({
      type: 'AUTHENTICATION_ERROR',
      message: 'No matching state found in storage',
    })
    expect(localStorage.getItem(userKey)).toBeNull()
  })
})

describe('Passport.loginWithPKCEFlow', () => {
  async function start(passport: Passport, email: string) {
    const url = new URL(await passport.loginWithPKCEFlow())
    const callback = new URL(await signInAt(url.href, email))
    return {
      url,
      code: callback.searchParams.get('code') as string,
      state: callback.searchParams.get('state') as string,
    }
  }

  test('behavior: the URL carries S256 PKCE; the callback with code and state signs in', async () => {
    const app = await load(pageUrl(location.origin, 'app', appOptions))
    const passport = passportOf(app)
    const email = freshEmail('pkce')
    const { url, code, state } = await start(passport, email)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('state')).toBe(
      localStorage.getItem('pkce_state'),
    )
    expect(localStorage.getItem('pkce_verifier')).toMatch(/^[\w-]{43}$/)
    const profile = await passport.loginWithPKCEFlowCallback(code, state)
    expect(profile).toMatchObject({ email })
    expect(app.passportEvents).toEqual(['loggedIn'])
    expect(localStorage.getItem('pkce_verifier')).toBeNull()
  })

  test('error: another state than the stored one is refused', async () => {
    const app = await load(pageUrl(location.origin, 'app', appOptions))
    const { code } = await start(passportOf(app), freshEmail('pkce-state'))
    await expect(
      passportOf(app).loginWithPKCEFlowCallback(code, 'forged-state'),
    ).rejects.toMatchObject({
      type: 'AUTHENTICATION_ERROR',
      message: 'Provided state does not match stored state',
    })
  })

  test('error: another verifier than the one of the request is refused by the provider', async () => {
    const app = await load(pageUrl(location.origin, 'app', appOptions))
    const { code, state } = await start(passportOf(app), freshEmail('verifier'))
    localStorage.setItem('pkce_verifier', 'A'.repeat(43))
    await expect(
      passportOf(app).loginWithPKCEFlowCallback(code, state),
    ).rejects.toMatchObject({
      type: 'AUTHENTICATION_ERROR',
      message: 'grant request is invalid',
    })
    expect(localStorage.getItem(userKey)).toBeNull()
  })

  test('error: the callback without a started flow is refused', async () => {
    const app = await load(pageUrl(location.origin, 'app', appOptions))
    await expect(
      passportOf(app).loginWithPKCEFlowCallback('code', 'state'),
    ).rejects.toMatchObject({
      type: 'AUTHENTICATION_ERROR',
      message: 'No code verifier or state for PKCE',
    })
  })
})

describe('Passport.logout: redirect mode', () => {
  test('behavior: revokes the refresh token, removes the user, emits loggedOut, then navigates to /v2/logout', async () => {
    const app = await load(pageUrl(location.origin, 'app', appOptions))
    const passport = passportOf(app)
    const url = await passport.loginWithPKCEFlow()
    const callback = new URL(await signInAt(url, freshEmail('logout')))
    await passport.loginWithPKCEFlowCallback(
      callback.searchParams.get('code') as string,
      callback.searchParams.get('state') as string,
    )
    const refreshToken = JSON.parse(localStorage.getItem(userKey) ?? '{}')
      .refresh_token as string
    const seen = recordFetches()
    const navigated = stopNavigation(app)
    await passport.logout()
    const target = new URL(await navigated)
    expect(target.origin + target.pathname).toBe(
      `${emulator.authenticationDomain}/v2/logout`,
    )
    expect(Object.fromEntries(target.searchParams)).toEqual({
      client_id: emulator.clientId,
      returnTo: pageUrl(location.origin, 'logout', appOptions),
    })
    expect(localStorage.getItem(userKey)).toBeNull()
    expect(app.passportEvents).toEqual(['loggedIn', 'loggedOut'])
    expect(await passport.getUserInfo()).toBeUndefined()
    expect(tokenRequests(seen)).toEqual([])

    const refreshed = await fetch(
      `${emulator.authenticationDomain}/oauth/token`,
      {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: emulator.clientId,
          refresh_token: refreshToken,
        }),
      },
    )
    expect(refreshed.status).toBe(400)
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' })
  })
})
