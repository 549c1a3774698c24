import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { maxAttempts } from '../../codes.js'
import {
  codeFor,
  createBrowser,
  pkce,
  readForm,
  redirectUri,
  startIdentity,
  textOf,
} from './testkit.js'

let identity: Awaited<ReturnType<typeof startIdentity>>

beforeAll(async () => {
  identity = await startIdentity({
    mailboxPage: 'http://127.0.0.1:4400/mailbox/view',
  })
})
afterAll(() => identity.stop())

/** Opens the sign-in page of a new authorization request. */
async function openLogin() {
  const browser = createBrowser(identity.issuer)
  const url = new URL('/authorize', identity.issuer)
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: identity.clientId,
    redirect_uri: redirectUri,
    scope: 'openid email',
    state: 's',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  }).toString()
  const start = await browser.get(url.href)
  const page = await (
    await browser.get(start.headers.get('location') ?? '')
  ).text()
  return { browser, page }
}

/** Sends a code to `email`; the code form. */
async function sendCode(email: string) {
  const { browser, page } = await openLogin()
  const emailForm = readForm(page, 'login-email')
  const codePage = await (
    await browser.post(emailForm.action, { email })
  ).text()
  return { browser, codePage, codeForm: readForm(codePage, 'login-code') }
}

describe('the sign-in page', () => {
  test('default: an email field, a send button and a cancel button', async () => {
    const { page } = await openLogin()
    expect(page).toContain('<title>Sign in</title>')
    for (const testId of ['login-email', 'login-send-code', 'login-cancel'])
      expect(page).toContain(`data-testid="${testId}"`)
  })

  test('behavior: the code goes to the dev mailbox, and the page links to it', async () => {
    const { codePage } = await sendCode('eve@example.com')
    expect(codeFor(identity.mailbox, 'eve@example.com')).toMatch(/^\d{6}$/)
    expect(textOf(codePage, 'login-code-sent-to')).toBe('eve@example.com')
    expect(codePage).toContain('href="http://127.0.0.1:4400/mailbox/view"')
  })

  test('error: a wrong code shows an error, and too many wrong codes burn the code', async () => {
    const { browser, codeForm } = await sendCode('fay@example.com')
    const wrong =
      codeFor(identity.mailbox, 'fay@example.com') === '000000'
        ? '111111'
        : '000000'
    for (let attempt = 1; attempt < maxAttempts; attempt++) {
      const response = await browser.post(codeForm.action, {
        ...codeForm.fields,
        code: wrong,
      })
      expect(response.status).toBe(400)
      expect(textOf(await response.text(), 'error')).toBe(
        'That code is not right. Try again.',
      )
    }
    const last = await browser.post(codeForm.action, {
      ...codeForm.fields,
      code: wrong,
    })
    const page = await last.text()
    expect(textOf(page, 'error')).toBe(
      '5 wrong codes: that code no longer works. Ask for a new one.',
    )
    const late = await browser.post(codeForm.action, {
      ...codeForm.fields,
      code: codeFor(identity.mailbox, 'fay@example.com'),
    })
    expect(textOf(await late.text(), 'error')).toBe(
      'That code has expired. Ask for a new one.',
    )
    expect(identity.registry.find({ email: 'fay@example.com' })).toBe(undefined)
  })

  test('error: an invalid email is refused', async () => {
    const { browser, page } = await openLogin()
    const form = readForm(page, 'login-email')
    const response = await browser.post(form.action, { email: 'not-an-email' })
    expect(response.status).toBe(400)
    expect(textOf(await response.text(), 'error')).toBe(
      'Enter a valid email address.',
    )
  })

  test('error: an address over 254 characters is refused at once, however it is made', async () => {
    const { browser, page } = await openLogin()
    const form = readForm(page, 'login-email')
    const longest = `${'a'.repeat(64)}@${'b'.repeat(184)}.test`
    expect(longest).toHaveLength(254)
    const accepted = await browser.post(form.action, { email: longest })
    expect(accepted.status).toBe(200)
    // A run of dots made the address pattern backtrack quadratically.
    for (const email of [`${longest}x`, `a@${'.'.repeat(500_000)}@`]) {
      const started = performance.now()
      const refused = await browser.post(form.action, { email })
      expect(refused.status).toBe(400)
      expect(textOf(await refused.text(), 'error')).toBe(
        'Enter a valid email address.',
      )
      expect(performance.now() - started).toBeLessThan(1_000)
    }
  })

  test('error: cancelling sends the dApp access_denied', async () => {
    const { browser, page } = await openLogin()
    const cancel = await browser.post(readForm(page, 'login-cancel').action, {})
    const back = await browser.get(cancel.headers.get('location') ?? '')
    const location = new URL(back.headers.get('location') ?? '')
    expect(location.origin + location.pathname).toBe(redirectUri)
    expect(location.searchParams.get('error')).toBe('access_denied')
    expect(location.searchParams.get('state')).toBe('s')
  })

  test('error: a sign-in page without its cookie has expired', async () => {
    const { page } = await openLogin()
    const form = readForm(page, 'login-email')
    const response = await fetch(
      form.action.startsWith('http')
        ? form.action
        : `${identity.issuer}${form.action}`,
      {
        method: 'POST',
        body: new URLSearchParams({ email: 'gus@example.com' }),
      },
    )
    expect(response.status).toBe(400)
    expect(textOf(await response.text(), 'error')).toBe(
      'This sign-in page has expired or was already used.',
    )
  })
})
