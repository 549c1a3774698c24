/**
 * The auth module's email OTP login with a passkey as second factor: the
 * WebAuthn assertion answered to `mfa-passkey-options`. The other auth
 * methods are tested in `auth.test.ts`.
 */

import { afterEach, describe, expect, test, vi } from 'vitest'
import { setupAuth } from '../_test/auth.js'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const setup = setupAuth

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
