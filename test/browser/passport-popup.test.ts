import { decodeJwt } from 'jose'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { overlayTestIds } from '../../src/passport/auth/overlay.js'
import { PassportError } from '../../src/passport/index.js'
import {
  completeInPopup,
  createPassport,
  emulator,
  freshEmail,
  popupAt,
  spyPopups,
  userinfo,
  userKey,
} from './passportLogin.js'

/*
 * passport.login() through the real login popup against the emulated
 * identity provider: the popup opens the real authorization request, the
 * driver fills the provider's login page (setup/passportDriver.ts), the popup
 * lands on the real callback page (fixtures/passportRedirect.html), whose
 * loginCallback() posts the URL back to this page.
 */

const opened: Window[] = []
beforeEach(() => localStorage.clear())
afterEach(() => {
  vi.restoreAllMocks()
  for (const window of opened.splice(0)) window.close()
  document.getElementById(overlayTestIds.root)?.remove()
})

function track(window: Window | null) {
  if (window) opened.push(window)
}

describe('Passport.login: popup', () => {
  test('behavior: signs in through the popup, stores and returns the user, emits loggedIn', async () => {
    const passport = createPassport()
    const events: unknown[] = []
    passport.on('loggedIn', (user) => events.push(user.profile))
    const calls = spyPopups()
    const email = freshEmail('popup')
    const pending = passport.login()
    const popup = await popupAt(calls)
    track(popup.window)

    const request = new URL(popup.url)
    expect(request.origin + request.pathname).toBe(
      `${emulator.authenticationDomain}/authorize`,
    )
    const params = Object.fromEntries(request.searchParams)
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: emulator.clientId,
      redirect_uri: `${location.origin}/test/browser/fixtures/passportRedirect.html?auth=${encodeURIComponent(emulator.authenticationDomain).replaceAll('%3A', '%3A')}&client=${emulator.clientId}&mode=redirect`,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
      code_challenge_method: 'S256',
    })
    expect(params.code_challenge).toMatch(/^[\w-]{43}$/)
    expect(params.state).toMatch(/^[\w-]{43}$/)
    expect(params.nonce).toMatch(/^[\w-]{43}$/)
    expect(popup.target).toBe('passportLoginPrompt')
    expect(localStorage.getItem(`oidc.${params.state}`)).not.toBeNull()

    await completeInPopup(popup, email)
    const profile = await pending
    const nickname = email.slice(0, email.indexOf('@'))
    expect(profile).toEqual({ sub: profile?.sub, email, nickname })
    expect(profile?.sub).toMatch(/^\S+$/)
    expect(events).toEqual([profile])
    expect(localStorage.getItem(`oidc.${params.state}`)).toBeNull()

    const idToken = (await passport.getIdToken()) as string
    expect(decodeJwt(idToken)).toMatchObject({
      iss: emulator.authenticationDomain,
      aud: emulator.clientId,
      sub: profile?.sub,
      nonce: params.nonce,
      email,
    })
    const stored = JSON.parse(localStorage.getItem(userKey) ?? '{}')
    expect(stored.id_token).toBe(idToken)
    expect(typeof stored.refresh_token).toBe('string')
    const access = (await passport.getAccessToken()) as string
    expect(await userinfo(access)).toEqual({
      status: 200,
      body: { sub: profile?.sub, email, email_verified: true, nickname },
    })
    expect(await passport.getUserInfo()).toEqual(profile)
  })

  test('behavior: a cached session is returned without opening a popup', async () => {
    const passport = createPassport()
    const calls = spyPopups()
    const pending = passport.login()
    const popup = await popupAt(calls)
    track(popup.window)
    await completeInPopup(popup, freshEmail('cached'))
    const first = await pending

    const again = await createPassport().login()
    expect(again).toEqual(first)
    expect(calls).toHaveLength(1)
    expect(await createPassport().login({ useCachedSession: true })).toEqual(
      first,
    )
  })

  test('behavior: useCachedSession without a session resolves null and opens nothing', async () => {
    const calls = spyPopups()
    expect(await createPassport().login({ useCachedSession: true })).toBeNull()
    expect(calls).toEqual([])
  })

  test('behavior: anonymousId and directLoginOptions go into the authorization request', async () => {
    const calls = spyPopups()
    const pending = createPassport().login({
      anonymousId: 'anon-1',
      directLoginOptions: {
        directLoginMethod: 'email',
        email: 'ada@example.com',
        marketingConsentStatus: 'opted_in',
      },
    })
    const popup = await popupAt(calls)
    track(popup.window)
    const params = new URL(popup.url).searchParams
    expect([
      params.get('third_party_a_id'),
      params.get('direct'),
      params.get('email'),
      params.get('marketingConsent'),
    ]).toEqual(['anon-1', 'email', 'ada@example.com', 'opted_in'])
    await completeInPopup(popup, freshEmail('direct'))
    expect((await pending)?.email).toMatch(/^direct-/)
  })
})

describe('Passport.login: popup blocked or abandoned', () => {
  test('behavior: a blocked popup shows the overlay; Try again opens it and the login completes', async () => {
    const passport = createPassport()
    const calls = spyPopups({ blocked: 1 })
    const pending = passport.login()
    await expect.element(page.getByTestId(overlayTestIds.root)).toBeVisible()
    expect(document.getElementById(overlayTestIds.text)?.textContent).toBe(
      'Pop-up blocked. Please try again below. If the problem continues, adjust your browser settings.',
    )
    await userEvent.click(page.getByTestId(overlayTestIds.tryAgain))
    const popup = await popupAt(calls)
    track(popup.window)
    const email = freshEmail('blocked')
    await completeInPopup(popup, email)
    expect((await pending)?.email).toBe(email)
    expect(calls.map((call) => call.window !== null)).toEqual([false, true])
    expect(document.getElementById(overlayTestIds.root)).toBeNull()
  })

  test('error: closing the overlay rejects AUTHENTICATION_ERROR "Popup closed by user"', async () => {
    spyPopups({ blocked: 1 })
    const pending = createPassport().login()
    const rejected = expect(pending).rejects.toMatchObject({
      name: 'PassportError',
      type: 'AUTHENTICATION_ERROR',
      message: 'Popup closed by user',
    })
    await userEvent.click(page.getByTestId(overlayTestIds.close))
    await rejected
    expect(localStorage.getItem(userKey)).toBeNull()
  })

  test('error: closing the popup rejects AUTHENTICATION_ERROR "Popup closed by user"', async () => {
    const calls = spyPopups()
    const pending = createPassport().login()
    const popup = await popupAt(calls)
    popup.window?.close()
    const error = await pending.catch((error: unknown) => error)
    expect(error).toBeInstanceOf(PassportError)
    expect(error).toMatchObject({
      type: 'AUTHENTICATION_ERROR',
      message: 'Popup closed by user',
    })
  })

  test("error: Cancel on the login page rejects with the provider's access_denied description", async () => {
    const calls = spyPopups()
    const pending = createPassport().login()
    const popup = await popupAt(calls)
    track(popup.window)
    const target = await completeInPopup(popup, freshEmail('cancel'), {
      cancel: true,
    })
    expect(target.searchParams.get('error')).toBe('access_denied')
    await expect(pending).rejects.toMatchObject({
      type: 'AUTHENTICATION_ERROR',
      message: 'End-User aborted the sign-in',
    })
  })

  test('error: a callback with a tampered state is refused and nothing is stored', async () => {
    const calls = spyPopups()
    const pending = createPassport().login()
    const popup = await popupAt(calls)
    track(popup.window)
    await completeInPopup(popup, freshEmail('state'), {
      edit: (url) => url.searchParams.set('state', 'forged-state'),
    })
    await expect(pending).rejects.toMatchObject({
      type: 'AUTHENTICATION_ERROR',
      message: 'No matching state found in storage',
    })
    expect(localStorage.getItem(userKey)).toBeNull()
  })
})
