import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createBrowser,
  readForm,
  signIn,
  startIdentity,
  textOf,
  tokenRequest,
} from './testkit.js'

let identity: Awaited<ReturnType<typeof startIdentity>>

beforeAll(async () => {
  identity = await startIdentity({ deviceInterval: 1 })
})
afterAll(() => identity.stop())

/** Starts a device authorization as the SDK does. */
async function deviceCode() {
  const response = await fetch(`${identity.issuer}/oauth/device/code`, {
    method: 'POST',
    body: new URLSearchParams({
      client_id: identity.clientId,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
    }),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as Record<string, string | number>
}

const poll = (code: string) =>
  tokenRequest(identity.issuer, {
    grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
    client_id: identity.clientId,
    device_code: code,
  })

/** Opens verification_uri_complete and submits the pre-filled code. */
async function confirmPage(browser: ReturnType<typeof createBrowser>) {
  const device = await deviceCode()
  const input = await (
    await browser.get(String(device.verification_uri_complete))
  ).text()
  const form = readForm(input, 'device-user-code')
  expect(input).toContain(`value="${device.user_code}"`)
  const confirm = await (
    await browser.post(form.action, {
      ...form.fields,
      user_code: String(device.user_code),
    })
  ).text()
  expect(textOf(confirm, 'device-confirm-code')).toBe(device.user_code)
  return { device, form: readForm(confirm, 'device-approve') }
}

describe('device flow', () => {
  test('default: the device authorization answers codes, the verification URIs and the interval', async () => {
    const device = await deviceCode()
    expect(Object.keys(device).sort()).toEqual([
      'device_code',
      'expires_in',
      'interval',
      'user_code',
      'verification_uri',
      'verification_uri_complete',
    ])
    expect(device).toMatchObject({
      expires_in: 600,
      interval: 1,
      verification_uri: `${identity.issuer}/device`,
      verification_uri_complete: `${identity.issuer}/device?user_code=${device.user_code}`,
    })
    expect(device.user_code).toMatch(
      /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/,
    )
  })

  test('behavior: pending, then slow_down when polled sooner than the interval', async () => {
    const device = await deviceCode()
    expect(await poll(String(device.device_code))).toEqual({
      status: 400,
      body: {
        error: 'authorization_pending',
        error_description:
          "authorization request is still pending as the end-user hasn't yet completed the user interaction steps",
      },
    })
    expect(await poll(String(device.device_code))).toEqual({
      status: 400,
      body: {
        error: 'slow_down',
        error_description: 'poll at most every 1 seconds',
      },
    })
  })

  test('behavior: approving on the verification page, after signing in, gives the device its tokens', async () => {
    const browser = createBrowser(identity.issuer)
    const { device, form } = await confirmPage(browser)
    const approved = await browser.post(form.action, {
      ...form.fields,
      confirm: 'yes',
    })
    expect(approved.status).toBe(303)
    const resume = await signIn(
      browser,
      approved.headers.get('location') ?? '',
      identity.mailbox,
      'dev@example.com',
    )
    const success = await (await browser.get(resume)).text()
    expect(textOf(success, 'device-success')).toBe(
      'You are signed in. You can close this page and go back to your device.',
    )
    const tokens = await poll(String(device.device_code))
    expect(tokens.status).toBe(200)
    expect(Object.keys(tokens.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'id_token',
      'refresh_token',
      'scope',
      'token_type',
    ])
    expect(decodeJwt(String(tokens.body.id_token))).toMatchObject({
      sub: identity.registry.find({ email: 'dev@example.com' })?.id,
      email: 'dev@example.com',
      aud: identity.clientId,
    })
    expect(decodeJwt(String(tokens.body.access_token)).aud).toBe('platform_api')
  })

  test('error: denying on the verification page answers access_denied', async () => {
    const browser = createBrowser(identity.issuer)
    const { device, form } = await confirmPage(browser)
    const denied = await (
      await browser.post(form.action, { ...form.fields, abort: 'yes' })
    ).text()
    expect(textOf(denied, 'error')).toBe(
      'Sign-in denied. Your device was told so.',
    )
    expect(await poll(String(device.device_code))).toEqual({
      status: 400,
      body: {
        error: 'access_denied',
        error_description: 'End-User aborted interaction',
      },
    })
  })

  test('error: a wrong user code is shown as such', async () => {
    const browser = createBrowser(identity.issuer)
    const form = readForm(await (await browser.get('/device')).text())
    const page = await (
      await browser.post(form.action, {
        ...form.fields,
        user_code: 'BBBB-BBBB',
      })
    ).text()
    expect(textOf(page, 'error')).toBe(
      'That code is not right. Check the code shown on your device.',
    )
  })

  test('error: an expired device code answers expired_token', async () => {
    const shortLived = await startIdentity({ ttl: { deviceCode: 1 } })
    try {
      const response = await fetch(`${shortLived.issuer}/oauth/device/code`, {
        method: 'POST',
        body: new URLSearchParams({
          client_id: shortLived.clientId,
          scope: 'openid',
        }),
      })
      const device = (await response.json()) as {
        device_code: string
        expires_in: number
      }
      expect(device.expires_in).toBe(1)
      // Expiry is checked in whole seconds.
      await new Promise((resolve) => setTimeout(resolve, 2100))
      expect(
        await tokenRequest(shortLived.issuer, {
          grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
          client_id: shortLived.clientId,
          device_code: device.device_code,
        }),
      ).toEqual({
        status: 400,
        body: {
          error: 'expired_token',
          error_description: 'device code is expired',
        },
      })
    } finally {
      await shortLived.stop()
    }
  })

  test("error: a code posted without the page's session answers 400 and points back to the form", async () => {
    for (const cookie of [undefined, '_session=forged; _session.sig=forged']) {
      const page = await fetch(`${identity.issuer}/device`, {
        method: 'POST',
        headers: {
          accept: 'text/html',
          ...(cookie === undefined ? {} : { cookie }),
        },
        body: new URLSearchParams({ xsrf: 'x', user_code: 'BCDF-GHJK' }),
      })
      expect(page.status).toBe(400)
      const html = await page.text()
      expect(textOf(html, 'error')).toBe(
        'This page has expired or was opened in another browser.',
      )
      expect(html).toContain('<a href="/device" data-testid="device-restart">')
    }
    const json = await fetch(`${identity.issuer}/device`, { method: 'POST' })
    expect(json.status).toBe(400)
    expect(await json.json()).toEqual({
      error: 'invalid_request',
      error_description:
        'no device sign-in is in progress in this browser; open the verification page again',
    })
    // The form still works from a fresh page.
    const browser = createBrowser(identity.issuer)
    const input = await (await browser.get('/device')).text()
    const form = readForm(input, 'device-user-code')
    const wrong = await browser.post(form.action, {
      ...form.fields,
      user_code: 'BCDF-GHJK',
    })
    expect(textOf(await wrong.text(), 'error')).toBe(
      'That code is not right. Check the code shown on your device.',
    )
  })
})
