import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createBrowser,
  pkce,
  readForm,
  redirectUri,
  signIn,
  startIdentity,
  textOf,
} from './testkit.js'

let identity: Awaited<ReturnType<typeof startIdentity>>

beforeAll(async () => {
  identity = await startIdentity()
})
afterAll(() => identity.stop())

const logoutUrl = (returnTo: string) =>
  `/v2/logout?${new URLSearchParams({ client_id: identity.clientId, returnTo })}`

/** A browser with a sign-in session at the provider for `email`. */
async function signedIn(email: string) {
  const browser = createBrowser(identity.issuer)
  const authorize = new URL('/authorize', identity.issuer)
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: identity.clientId,
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  }).toString()
  const start = await browser.get(authorize.href)
  const resume = await signIn(
    browser,
    start.headers.get('location') ?? '',
    identity.mailbox,
    email,
  )
  expect((await browser.get(resume)).status).toBe(303)
  return browser
}

describe('GET /v2/logout', () => {
  test('behavior: client_id and a loopback returnTo sign a signed-in person out and redirect to returnTo', async () => {
    const browser = await signedIn('hal@example.com')
    const returnTo = 'http://127.0.0.1:51234/passport/logout'
    const page = await browser.get(logoutUrl(returnTo))
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(
      "<script>document.getElementById('logout').submit()</script>",
    )
    const form = readForm(html, 'logout-confirm')
    expect(form.action).toBe(`${identity.issuer}/session/end/confirm`)
    expect(form.fields.logout).toBe('yes')
    const done = await browser.post(form.action, form.fields)
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe(returnTo)
  })

  test('behavior: with no session cookie (a cross-site iframe) it redirects to returnTo at once', async () => {
    const returnTo = 'http://localhost:51234/passport/logout'
    const response = await fetch(`${identity.issuer}${logoutUrl(returnTo)}`, {
      redirect: 'manual',
    })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(returnTo)
  })

  test('behavior: without returnTo the signed-out page is shown', async () => {
    const browser = createBrowser(identity.issuer)
    const page = await browser.get(`/v2/logout?client_id=${identity.clientId}`)
    const form = readForm(await page.text())
    const done = await browser.post(form.action, form.fields)
    expect(done.status).toBe(303)
    const success = await browser.get(done.headers.get('location') ?? '')
    expect(textOf(await success.text(), 'logout-success')).toBe(
      'You are signed out. You can close this page.',
    )
  })

  test('behavior: a returnTo with characters a header cannot carry is redirected to percent-encoded', async () => {
    // U+202E (right-to-left override) made Node's writeHead throw.
    const returnTo = 'http://127.0.0.1:51234/passport/\u202elogout?to=\u202e'
    const response = await fetch(`${identity.issuer}${logoutUrl(returnTo)}`, {
      redirect: 'manual',
    })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(
      'http://127.0.0.1:51234/passport/%E2%80%AElogout?to=%E2%80%AE',
    )
    const served = await fetch(`${identity.issuer}/health`)
    expect(await served.json()).toEqual({ ok: true })
  })

  test('behavior: the same returnTo ends a signed-in session and redirects, percent-encoded', async () => {
    const browser = await signedIn('ida@example.com')
    const page = await browser.get(
      logoutUrl('http://localhost:51234/\u202e\u0000x'),
    )
    expect(page.status).toBe(200)
    const form = readForm(await page.text(), 'logout-confirm')
    const done = await browser.post(form.action, form.fields)
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe(
      'http://localhost:51234/%E2%80%AE%00x',
    )
  })

  test('error: a returnTo off loopback is refused', async () => {
    const response = await fetch(
      `${identity.issuer}${logoutUrl('https://evil.example/bye')}`,
      { redirect: 'manual' },
    )
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(textOf(html, 'error-code')).toBe('invalid_request')
    expect(textOf(html, 'error-description')).toBe(
      'returnTo must be an http URL on 127.0.0.1 or localhost',
    )
  })
})
