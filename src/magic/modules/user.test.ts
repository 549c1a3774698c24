import { afterEach, describe, expect, test, vi } from 'vitest'
import * as RpcErrors from '../../core/RpcErrors.js'
import * as Storage from '../../core/Storage.js'
import {
  createClient,
  createFakeTransport,
  flush,
  resultOf,
} from '../_test/fakeTransport.js'
import * as Session from '../keys/session.js'
import { create, rememberLogin } from './user.js'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('user', () => {
  test('default: each method sends its method name and params encoding', async () => {
    const fake = createFakeTransport(resultOf(true))
    const user = create(createClient(fake))
    await user.getIdToken({ lifespan: 60 })
    await user.generateIdToken({ attachment: 'x' })
    await user.getInfo()
    await user.requestInfoWithUI({ scope: { email: 'required' } })
    await user.requestInfoWithUI()
    await user.showSettings({ page: 'mfa' })
    await user.recoverAccount({ email: 'a@b.c', showUI: true })
    await user.revealEVMPrivateKey()
    await user.enableMFA({ showUI: false })
    await user.disableMFA()
    expect(fake.sent()).toMatchInlineSnapshot(`
      [
        {
          "method": "magic_auth_get_id_token",
          "params": [
            {
              "lifespan": 60,
            },
          ],
        },
        {
          "method": "magic_auth_generate_id_token",
          "params": [
            {
              "attachment": "x",
            },
          ],
        },
        {
          "method": "magic_get_info",
          "params": [],
        },
        {
          "method": "mc_request_user_info",
          "params": [
            {
              "scope": {
                "email": "required",
              },
            },
          ],
        },
        {
          "method": "mc_request_user_info",
          "params": [],
        },
        {
          "method": "magic_auth_settings",
          "params": [
            {
              "page": "mfa",
            },
          ],
        },
        {
          "method": "magic_auth_recover_account",
          "params": [
            {
              "email": "a@b.c",
              "showUI": true,
            },
          ],
        },
        {
          "method": "magic_reveal_key",
          "params": [
            {
              "chain": "ETH",
            },
          ],
        },
        {
          "method": "magic_auth_enable_mfa_flow",
          "params": [
            {
              "showUI": false,
            },
          ],
        },
        {
          "method": "magic_auth_disable_mfa_flow",
          "params": [
            {
              "showUI": true,
            },
          ],
        },
      ]
    `)
  })

  test('behavior: test mode renames only the methods that have a testing-mode variant', async () => {
    const fake = createFakeTransport(resultOf(true))
    const user = create(createClient(fake, { testMode: true }))
    await user.getIdToken()
    await user.generateIdToken()
    await user.getInfo()
    await user.isLoggedIn()
    await user.logout()
    await user.showSettings()
    await user.recoverAccount({ email: 'a@b.c' })
    await user.revealEVMPrivateKey()
    await user.enableMFA()
    expect(fake.requests.map((r) => r.method)).toEqual([
      'magic_auth_get_id_token_testing_mode',
      'magic_auth_generate_id_token_testing_mode',
      'magic_get_info',
      'magic_auth_is_logged_in_testing_mode',
      'magic_auth_logout_testing_mode',
      'magic_auth_settings_testing_mode',
      'magic_auth_recover_account_testing_mode',
      'magic_reveal_key',
      'magic_auth_enable_mfa_flow',
    ])
  })

  test('behavior: headless MFA, settings and recovery forward their answers', async () => {
    const fake = createFakeTransport(resultOf(true))
    const user = create(createClient(fake))
    const enable = user.enableMFA({ showUI: false })
    enable.emit('verify-mfa-code', '111111')
    const disable = user.disableMFA({ showUI: false })
    disable.emit('lost-device')
    const settings = user.showSettings({ showUI: false })
    settings.emit('send-new-phone-number', '+1')
    const recover = user.recoverAccount({ email: 'a@b.c', showUI: false })
    recover.emit('verify-otp-code', '222')
    const shown = user.enableMFA({ showUI: true })
    shown.emit('verify-mfa-code', '333')
    await Promise.all([enable, disable, settings, recover, shown])
    expect(
      fake.requests
        .filter((r) => r.method === 'magic_intermediary_event')
        .map((r) => (r.params as { eventType: string; args: unknown }[])[0])
        .map((event) => [event?.eventType, event?.args]),
    ).toEqual([
      ['verify-mfa-code', '111111'],
      ['lost-device', undefined],
      ['send-new-phone-number', '+1'],
      ['verify-otp-code', '222'],
    ])
  })

  test('behavior: isLoggedIn without the cache asks the iframe and stores nothing', async () => {
    const fake = createFakeTransport(resultOf(true))
    const storage = Storage.memory()
    const user = create(createClient(fake, { storage }))
    await expect(user.isLoggedIn()).resolves.toBe(true)
    expect(await storage.keys()).toEqual([])
    expect(fake.requests.map((r) => r.method)).toEqual(['magic_is_logged_in'])
  })

  test('behavior: with useStorageCache a stored "true" answers at once, then the iframe confirms', async () => {
    const fake = createFakeTransport()
    const storage = Storage.memory()
    await storage.setItem('magic_auth_is_logged_in', 'true')
    const user = create(createClient(fake, { storage, useStorageCache: true }))
    await expect(user.isLoggedIn()).resolves.toBe(true)
    expect(fake.requests.map((r) => r.method)).toEqual(['magic_is_logged_in'])
  })

  test('behavior: with useStorageCache a true answer stores the string "true"', async () => {
    const fake = createFakeTransport(resultOf(true))
    const storage = Storage.memory()
    const user = create(createClient(fake, { storage, useStorageCache: true }))
    await user.isLoggedIn()
    expect(await storage.getItem('magic_auth_is_logged_in')).toBe('true')
  })

  test('behavior: a confirming true that comes back after a logout does not bring the flag back', async () => {
    const fake = createFakeTransport()
    const storage = Storage.memory()
    await storage.setItem('magic_auth_is_logged_in', 'true')
    const user = create(createClient(fake, { storage, useStorageCache: true }))
    await expect(user.isLoggedIn()).resolves.toBe(true)
    await flush()
    const check = fake.requests[0]
    if (!check) throw new Error('no request')
    const logout = user.logout()
    await flush()
    const bye = fake.requests[1]
    if (!bye) throw new Error('no logout request')
    fake.respond(check.id, { result: true })
    fake.respond(bye.id, { result: true })
    await logout
    await flush()
    expect(await storage.getItem('magic_auth_is_logged_in')).toBe(null)
  })

  test('behavior: a false answer after a cached true clears the flag and calls onUserLoggedOut', async () => {
    const fake = createFakeTransport()
    const storage = Storage.memory()
    await storage.setItem('magic_auth_is_logged_in', 'true')
    const user = create(createClient(fake, { storage, useStorageCache: true }))
    const calls: boolean[] = []
    user.onUserLoggedOut((value) => calls.push(value))
    await user.isLoggedIn()
    await flush()
    const request = fake.requests[0]
    if (!request) throw new Error('no request')
    fake.respond(request.id, { result: false })
    await flush()
    expect(calls).toEqual([true])
    expect(await storage.getItem('magic_auth_is_logged_in')).toBeNull()
  })

  test('behavior: logout removes the flag and every ds_ share, asks the iframe with the rt, then removes the rt', async () => {
    const storage = Storage.memory()
    for (const key of ['magic_auth_is_logged_in', 'rt', 'ds_a', 'ds_b', 'ek'])
      await storage.setItem(key, 'x')
    let keysWhenSent: string[] = []
    const fake = createFakeTransport(() => undefined)
    const user = create(createClient(fake, { storage, useStorageCache: true }))
    const calls: boolean[] = []
    user.onUserLoggedOut((value) => calls.push(value))
    const logout = user.logout()
    await flush()
    keysWhenSent = await storage.keys()
    const request = fake.requests[0]
    if (!request) throw new Error('no request')
    expect(request.method).toBe('magic_auth_logout')
    fake.respond(request.id, { result: true })
    await expect(logout).resolves.toBe(true)
    expect(keysWhenSent).toEqual(['rt', 'ek'])
    expect(await storage.keys()).toEqual(['ek'])
    expect(calls).toEqual([true])
  })

  test('behavior: logout forgets what memory holds: the rt, the shares and the proofs signed ahead', async () => {
    const storage = Storage.memory()
    const state = Session.of(storage)
    state.rt = Promise.resolve('held')
    state.shares.set('hash', Promise.resolve('share'))
    state.pool = [{ jwt: 'a.b.c', at: Date.now() }]
    const fake = createFakeTransport(resultOf(true))
    const user = create(createClient(fake, { storage }))
    await expect(user.logout()).resolves.toBe(true)
    expect(await state.rt).toBe(undefined)
    expect(state.shares.size).toBe(0)
    expect(state.pool).toEqual([])
  })

  test('behavior: with useStorageCache, a login (test-mode names too) stores the logged-in flag; other methods do not', async () => {
    const storage = Storage.memory()
    const fake = createFakeTransport()
    const client = createClient(fake, { storage, useStorageCache: true })
    expect(rememberLogin(client, 'magic_get_info')).toBeUndefined()
    expect(await storage.keys()).toEqual([])
    await rememberLogin(client, 'magic_auth_login_with_email_otp_testing_mode')
    expect(await storage.getItem('magic_auth_is_logged_in')).toBe('true')
    const off = createClient(fake, { storage: Storage.memory() })
    expect(rememberLogin(off, 'magic_auth_login_with_sms')).toBeUndefined()
  })

  test('error: revealPrivateKey is decommissioned: the published text, with code 4200', () => {
    const user = create(createClient(createFakeTransport()))
    let error: unknown
    try {
      user.revealPrivateKey()
    } catch (thrown) {
      error = thrown
    }
    expect(error).toBeInstanceOf(RpcErrors.ProviderRpcError)
    expect(error).toMatchObject({
      code: 4200,
      message:
        'revealPrivateKey() has been decommissioned. For EVM chains, use `user.revealEVMPrivateKey()` instead. For non-EVM chains, use `[extension].revealPrivateKey()` instead.',
    })
  })
})
