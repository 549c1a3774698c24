import { expect, inject, vi } from 'vitest'
import { Passport } from '../../src/passport/index.js'
import { type AppOptions, appConfig } from './fixtures/passportApp.js'

/**
 * Browser-side helpers of the game wallet's end-to-end tests: the emulator,
 * the Passport of the test page, the login-page driver (see
 * setup/passportDriver.ts), a pass-through `window.open` spy that hands the
 * real popup its sign-in, and a recorder of the page's fetches.
 */

export const emulator = inject('passportEmulator')

/** The fixture app's options against the emulator. */
export const appOptions: AppOptions = {
  auth: emulator.authenticationDomain,
  client: emulator.clientId,
}

/** The storage key of the signed-in user (`oidc.user:<authority>:<client>`). */
export const userKey = `oidc.user:${emulator.authenticationDomain}:${emulator.clientId}`

/** A fresh address, so codes and users never collide between tests. */
export function freshEmail(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`
}

/** A Passport on this page whose callback pages share its config. */
export function createPassport(options: Partial<AppOptions> = {}): Passport {
  return new Passport(appConfig(location.origin, { ...appOptions, ...options }))
}

/**
 * Signs in at the emulated provider for the authorization request `url`
 * (or presses Cancel): where the provider then sends the browser.
 */
export async function signInAt(
  url: string,
  email: string,
  options: { cancel?: boolean } = {},
): Promise<string> {
  const response = await fetch(`${emulator.driver}/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, email, cancel: options.cancel ?? false }),
  })
  const body = (await response.json()) as { location?: string; error?: string }
  if (!body.location) throw new Error(`driver: ${body.error}`)
  return body.location
}

/** One `window.open` call. */
export type Opened = { url: string; target: string; window: Window | null }

/**
 * Spies on `window.open`, passing calls through (the first `blocked` answer
 * null). `rewrite` may change the URL opened. Returns the calls.
 */
export function spyPopups(
  options: { blocked?: number; rewrite?: (url: string) => string } = {},
): Opened[] {
  const real = window.open.bind(window)
  const calls: Opened[] = []
  let left = options.blocked ?? 0
  vi.spyOn(window, 'open').mockImplementation((url, target, features) => {
    const href = options.rewrite?.(String(url)) ?? String(url)
    const opened = left-- > 0 ? null : real(href, target, features)
    calls.push({ url: href, target: String(target), window: opened })
    return opened
  })
  return calls
}

/** Waits for the `index`th real popup, then closes any still open at the end. */
export async function popupAt(calls: Opened[], index = 0): Promise<Opened> {
  await expect
    .poll(() => calls.filter((call) => call.window).length, { timeout: 5_000 })
    .toBeGreaterThan(index)
  return calls.filter((call) => call.window)[index] as Opened
}

/**
 * Completes the sign-in shown in the real popup: the driver signs in for the
 * popup's authorization request, then the popup is sent where the provider
 * redirects (the callback page runs `passport.loginCallback()`).
 * `edit` may change that callback URL first.
 */
export async function completeInPopup(
  popup: Opened,
  email: string,
  options: { edit?: (url: URL) => void; cancel?: boolean } = {},
): Promise<URL> {
  const target = new URL(
    await signInAt(popup.url, email, { cancel: options.cancel ?? false }),
  )
  options.edit?.(target)
  const opened = popup.window
  if (!opened) return target
  // Let the popup's own navigation (to the login page) commit first, or it
  // may win over ours: its document turns cross-origin (unreadable) then.
  await expect
    .poll(() => opened.closed || !readable(opened), { timeout: 10_000 })
    .toBe(true)
  opened.location.href = target.href
  return target
}

function readable(window: Window): boolean {
  try {
    return typeof window.location.href === 'string'
  } catch {
    return false
  }
}

/** `passport.login()` through the real popup, signed in as `email`. */
export async function loginWithPopup(passport: Passport, email: string) {
  const calls = spyPopups()
  const pending = passport.login()
  await completeInPopup(await popupAt(calls), email)
  const profile = await pending
  vi.mocked(window.open).mockRestore()
  return profile
}

/** One request the page's `fetch` made. */
export type Fetched = { url: string; body: string }

/**
 * Wraps `fetch` (pass-through); `answer` may replace a response. Returns the
 * requests seen.
 */
export function recordFetches(
  answer?: (url: string, response: Response) => Promise<Response> | Response,
): Fetched[] {
  const real = globalThis.fetch.bind(globalThis)
  const seen: Fetched[] = []
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init)
    seen.push({ url: request.url, body: await request.clone().text() })
    const response = await real(request)
    return answer ? answer(request.url, response) : response
  })
  return seen
}

/** The `/oauth/token` requests among `seen`, by grant type. */
export function tokenRequests(seen: Fetched[]): string[] {
  return seen
    .filter(
      (request) =>
        request.url === `${emulator.authenticationDomain}/oauth/token`,
    )
    .map((request) => new URLSearchParams(request.body).get('grant_type') ?? '')
}

/**
 * Makes the stored tokens look expired to the client (their `exp` moved an
 * hour back; only the client reads them: the refresh token is unchanged).
 */
export function expireStoredTokens(): void {
  const stored = JSON.parse(localStorage.getItem(userKey) ?? 'null') as Record<
    string,
    string
  >
  const expire = (jwt: string) => {
    const [header, payload, signature] = jwt.split('.')
    const claims = JSON.parse(atob(base64(payload ?? '')))
    claims.exp = Math.floor(Date.now() / 1000) - 3600
    const encoded = btoa(JSON.stringify(claims))
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '')
    return `${header}.${encoded}.${signature}`
  }
  stored.access_token = expire(stored.access_token ?? '')
  stored.id_token = expire(stored.id_token ?? '')
  localStorage.setItem(userKey, JSON.stringify(stored))
}

function base64(value: string): string {
  return value.replaceAll('-', '+').replaceAll('_', '/')
}

/** `GET /userinfo` with `accessToken`: the status and body. */
export async function userinfo(accessToken: string) {
  const response = await fetch(`${emulator.authenticationDomain}/userinfo`, {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  return { status: response.status, body: (await response.json()) as unknown }
}
