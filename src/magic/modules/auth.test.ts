import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  createClient,
  createFakeTransport,
  resultOf,
} from '../_test/fakeTransport.js'
import { create } from './auth.js'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

/** An auth module whose requests all answer `'did-token'`. */
function setup(overrides: Parameters<typeof createClient>[1] = {}) {
  const fake = createFakeTransport(resultOf('did-token'))
  return { fake, auth: create(createClient(fake, overrides)) }
}

describe('auth', () => {
  test('default: each method sends its method name and params encoding', async () => {
    const { auth, fake } = setup()
    await auth.loginWithMagicLink({
      email: 'a@b.c',
      redirectURI: 'https://x/cb',
    })
    await auth.loginWithSMS({ phoneNumber: '+15550100' })
    await auth.loginWithEmailOTP({ email: 'a@b.c', lifespan: 60 })
    await auth.loginWithCredential({
      credentialOrQueryString: '?magic_credential=c',
      lifespan: 5,
    })
    await auth.setAuthorizationToken('jwt-1')
    await auth.updateEmailWithUI({ email: 'new@b.c' })
    expect(fake.sent()).toMatchInlineSnapshot(`
      [
        {
          "method": "magic_auth_login_with_magic_link",
          "params": [
            {
              "email": "a@b.c",
              "lifespan": undefined,
              "overrides": undefined,
              "redirectURI": "https://x/cb",
              "showUI": true,
            },
          ],
        },
        {
          "method": "magic_auth_login_with_sms",
          "params": [
            {
              "lifespan": undefined,
              "phoneNumber": "+15550100",
              "showUI": true,
            },
          ],
        },
        {
          "method": "magic_auth_login_with_email_otp",
          "params": [
            {
              "deviceCheckUI": undefined,
              "email": "a@b.c",
              "lifespan": 60,
              "overrides": undefined,
              "showUI": undefined,
            },
          ],
        },
        {
          "method": "magic_auth_login_with_credential",
          "params": [
            "?magic_credential=c",
            5,
          ],
        },
        {
          "method": "magic_auth_set_authorization_token",
          "params": [
            {
              "jwt": "jwt-1",
            },
          ],
        },
        {
          "method": "magic_auth_update_email",
          "params": [
            {
              "email": "new@b.c",
              "showUI": true,
            },
          ],
        },
      ]
    `)
  })

  test('behavior: test mode uses the testing-mode names (not for setAuthorizationToken)', async () => {
    const { auth, fake } = setup({ testMode: true })
    await auth.loginWithMagicLink({ email: 'a@b.c' })
    await auth.loginWithSMS({ phoneNumber: '+1' })
    await auth.loginWithEmailOTP({ email: 'a@b.c' })
    await auth.loginWithCredential({ credentialOrQueryString: 'c' })
    await auth.setAuthorizationToken('j')
    await auth.updateEmailWithUI({ email: 'a@b.c' })
    expect(fake.requests.map((r) => r.method)).toEqual([
      'magic_login_with_magic_link_testing_mode',
      'magic_auth_login_with_sms_testing_mode',
      'magic_auth_login_with_email_otp_testing_mode',
      'magic_auth_login_with_credential_testing_mode',
      'magic_auth_set_authorization_token',
      'magic_auth_update_email_testing_mode',
    ])
  })

  test('behavior: headless email OTP forwards verify-email-otp; device-retry only without deviceCheckUI', async () => {
    const { auth, fake } = setup()
    const headless = auth.loginWithEmailOTP({
      email: 'a@b.c',
      showUI: false,
      deviceCheckUI: true,
    })
    headless.emit('verify-email-otp', '123456')
    headless.emit('device-retry')
    const device = auth.loginWithEmailOTP({
      email: 'a@b.c',
      showUI: true,
      deviceCheckUI: false,
    })
    device.emit('verify-email-otp', '999999')
    device.emit('device-retry')
    await Promise.all([headless, device])
    const events = fake.requests
      .filter((r) => r.method === 'magic_intermediary_event')
      .map((r) => r.params)
    expect(events).toEqual([
      [
        {
          payloadId: fake.requests[0]?.id,
          eventType: 'verify-email-otp',
          args: '123456',
        },
      ],
      [
        {
          payloadId: fake.requests[2]?.id,
          eventType: 'device-retry',
          args: undefined,
        },
      ],
    ])
  })

  test('behavior: SMS and update-email forward their answers only with showUI false', async () => {
    const { auth, fake } = setup()
    const withUi = auth.loginWithSMS({ phoneNumber: '+1' })
    withUi.emit('verify-sms-otp', '1')
    const sms = auth.loginWithSMS({ phoneNumber: '+1', showUI: false })
    sms.emit('verify-sms-otp', '2')
    const update = auth.updateEmailWithUI({ email: 'a@b.c', showUI: false })
    update.emit('UpdateEmail/new-email-verify-otp', '3')
    await Promise.all([withUi, sms, update])
    expect(
      fake.requests
        .filter((r) => r.method === 'magic_intermediary_event')
        .map((r) => (r.params as { eventType: string; args: unknown }[])[0]),
    ).toEqual([
      {
        payloadId: fake.requests[1]?.id,
        eventType: 'verify-sms-otp',
        args: '2',
      },
      {
        payloadId: fake.requests[3]?.id,
        eventType: 'UpdateEmail/new-email-verify-otp',
        args: '3',
      },
    ])
  })

  test("behavior: the caller's retry goes to the iframe for headless SMS and magic-link logins", async () => {
    const { auth, fake } = setup()
    const withUi = auth.loginWithMagicLink({ email: 'a@b.c' })
    withUi.emit('retry')
    const link = auth.loginWithMagicLink({ email: 'a@b.c', showUI: false })
    link.emit('retry')
    const sms = auth.loginWithSMS({ phoneNumber: '+1', showUI: false })
    sms.emit('retry')
    await Promise.all([withUi, link, sms])
    expect(
      fake.requests
        .filter((r) => r.method === 'magic_intermediary_event')
        .map((r) => (r.params as { eventType: string; args: unknown }[])[0]),
    ).toEqual([
      { payloadId: fake.requests[1]?.id, eventType: 'retry', args: undefined },
      { payloadId: fake.requests[3]?.id, eventType: 'retry', args: undefined },
    ])
  })

  test('behavior: loginWithCredential on the web reads and strips the query string', async () => {
    const replaceState = vi.fn()
    vi.stubGlobal('window', {
      location: {
        search: '?magic_credential=abc',
        origin: 'https://app.example',
        pathname: '/callback',
      },
      history: { replaceState },
    })
    const { auth, fake } = setup()
    await auth.loginWithCredential()
    expect(fake.sent()).toEqual([
      {
        method: 'magic_auth_login_with_credential',
        params: ['?magic_credential=abc', undefined],
      },
    ])
    expect(replaceState.mock.calls).toEqual([
      [null, '', 'https://app.example/callback'],
    ])
  })

  test('behavior: loginWithMagicLink is current on the web: no deprecation warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { auth, fake } = setup()
    await auth.loginWithMagicLink({ email: 'a@b.c' })
    expect(fake.sent().map(({ method }) => method)).toEqual([
      'magic_auth_login_with_magic_link',
    ])
    expect(warn).not.toHaveBeenCalled()
  })
})

// Passkey MFA: the WebAuthn assertion answered to `mfa-passkey-options`,
// whose code (./passkey.ts) loads with `import()` on first use.
describe('auth.loginWithEmailOTP passkey MFA', () => {
  test('behavior: mfa-passkey-options runs a WebAuthn assertion and answers with its JSON', async () => {
    const get = vi.fn(async () => ({ toJSON: () => ({ id: 'cred' }) }))
    vi.stubGlobal('navigator', { credentials: { get } })
    vi.stubGlobal('PublicKeyCredential', undefined)
    const { auth, fake } = setup()
    const handle = auth.loginWithEmailOTP({ email: 'a@b.c', showUI: true })
    const id = fake.requests[0]?.id ?? -1
    fake.event(id, 'mfa-passkey-options', {
      webauthnOptions: {
        challenge: 'AQID',
        allowCredentials: [{ id: 'BAU', type: 'public-key' }],
      },
    })
    await handle
    // The passkey code loads with `import()` on the first request for one.
    await vi.waitFor(() => expect(fake.sent()).toHaveLength(2))
    const { publicKey } = (
      get.mock.calls[0] as unknown as [
        {
          publicKey: {
            challenge: ArrayBuffer
            allowCredentials: { id: ArrayBuffer }[]
          }
        },
      ]
    )[0]
    expect([...new Uint8Array(publicKey.challenge)]).toEqual([1, 2, 3])
    expect([
      ...new Uint8Array(
        publicKey.allowCredentials[0]?.id ?? new ArrayBuffer(0),
      ),
    ]).toEqual([4, 5])
    expect(fake.sent()[1]).toEqual({
      method: 'magic_intermediary_event',
      params: [
        {
          payloadId: id,
          eventType: 'mfa-passkey-assertion-response',
          args: { id: 'cred' },
        },
      ],
    })
  })

  test('error: a failed assertion answers mfa-passkey-assertion-error with its message', async () => {
    vi.stubGlobal('navigator', {
      credentials: {
        get: async () => Promise.reject(new Error('NotAllowedError')),
      },
    })
    const { auth, fake } = setup()
    const handle = auth.loginWithEmailOTP({ email: 'a@b.c' })
    const id = fake.requests[0]?.id ?? -1
    fake.event(id, 'mfa-passkey-options', {
      webauthnOptions: { challenge: '' },
    })
    await handle
    // The passkey code loads with `import()` on the first request for one.
    await vi.waitFor(() => expect(fake.sent()).toHaveLength(2))
    expect(fake.sent()[1]?.params).toEqual([
      {
        payloadId: id,
        eventType: 'mfa-passkey-assertion-error',
        args: 'NotAllowedError',
      },
    ])
  })
})
