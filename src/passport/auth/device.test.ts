import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as Storage from '../../core/Storage.js'
import { PassportError } from '../errors.js'
import {
  clientId,
  createIdp,
  type Idp,
  json,
  redirectUri,
} from './_test/idp.js'
import {
  type Context,
  loginWithDeviceFlow,
  loginWithDeviceFlowCallback,
} from './device.js'
import { create } from './oidc.js'
import { createUserStore } from './user.js'

let idp: Idp
let context: Context
beforeEach(async () => {
  idp = await createIdp()
  context = {
    client: create({
      authenticationDomain: 'https://auth.immutable.com',
      clientId,
      redirectUri,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
      fetch: idp.fetch,
      metadata: 'static',
    }),
    users: createUserStore({
      authority: 'https://auth.immutable.com',
      clientId,
      storage: Storage.memory(),
    }),
  }
})

afterEach(() => {
  vi.useRealTimers()
})

const oauthError =
  (error: string, status = 400) =>
  () =>
    json(status, { error, error_description: `${error} description` })

describe('loginWithDeviceFlow', () => {
  test('default: the published DeviceConnectResponse', async () => {
    expect(await loginWithDeviceFlow(context)).toEqual({
      code: 'ABCD-EFGH',
      deviceCode: 'device-code-1',
      url: 'https://auth.immutable.com/activate?user_code=ABCD-EFGH',
      interval: 5,
    })
    const [request] = idp.to('/oauth/device/code')
    expect(Object.fromEntries(request!.body!)).toEqual({
      client_id: clientId,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
    })
  })

  test('behavior: rid and third_party_a_id are appended', async () => {
    const { url } = await loginWithDeviceFlow(context, {
      runtimeId: 'rid-1',
      anonymousId: 'anon-1',
    })
    expect(url).toBe(
      'https://auth.immutable.com/activate?user_code=ABCD-EFGH&rid=rid-1&third_party_a_id=anon-1',
    )
  })

  test('error: a refused request is an AUTHENTICATION_ERROR', async () => {
    idp.onDevice(oauthError('unauthorized_client', 403))
    await expect(loginWithDeviceFlow(context)).rejects.toMatchObject({
      message: 'unauthorized_client description',
      type: 'AUTHENTICATION_ERROR',
    })
  })
})

describe('loginWithDeviceFlowCallback', () => {
  /** Token requests' times since `start`, in ms. */
  const pollTimes = (start: number) =>
    idp.to('/oauth/token').map((r) => r.at - start)

  test('default: pending and slow_down keep polling; slow_down adds 5 s', async () => {
    const body = await idp.tokenResponse()
    idp.onToken(
      oauthError('authorization_pending'),
      oauthError('slow_down'),
      oauthError('authorization_pending'),
      () => json(200, body),
    )
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const start = Date.now()
    const done = loginWithDeviceFlowCallback(context, 'device-code-1', 5)
    await vi.advanceTimersByTimeAsync(29_999)
    expect(pollTimes(start)).toEqual([5000, 10_000, 20_000])
    await vi.advanceTimersByTimeAsync(1)
    const user = await done
    expect(pollTimes(start)).toEqual([5000, 10_000, 20_000, 30_000])
    expect(user.accessToken).toBe(body.access_token)
    expect((await context.users.get())?.refresh_token).toBe('refresh-token-2')
    for (const request of idp.to('/oauth/token'))
      expect(Object.fromEntries(request.body!)).toEqual({
        client_id: clientId,
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: 'device-code-1',
      })
  })

  const endings = [
    ['expired_token', 'Token expired, please log in again'],
    ['access_denied', 'User denied access'],
    ['invalid_grant', 'Error getting token'],
  ] as const
  for (const [code, message] of endings)
    test(`error: ${code} ends the flow with '${message}'`, async () => {
      idp.onToken(oauthError('authorization_pending'), oauthError(code))
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
      const start = Date.now()
      const done = loginWithDeviceFlowCallback(
        context,
        'device-code-1',
        2,
      ).catch((e: unknown) => e)
      await vi.advanceTimersByTimeAsync(10_000)
      const error = await done
      expect(error).toBeInstanceOf(PassportError)
      expect(error).toMatchObject({ message, type: 'AUTHENTICATION_ERROR' })
      expect(pollTimes(start)).toEqual([2000, 4000])
      expect(await context.users.get()).toBeNull()
    })

  test("error: the overall time-out ends it with 'Timed out'", async () => {
    idp.onToken(
      ...Array.from({ length: 10 }, () => oauthError('authorization_pending')),
    )
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const start = Date.now()
    let settled: unknown
    const done = loginWithDeviceFlowCallback(
      context,
      'device-code-1',
      5,
      12_000,
    ).catch((e: unknown) => {
      settled = e
      return e
    })
    await vi.advanceTimersByTimeAsync(14_999)
    expect(settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(await done).toMatchObject({
      message: 'Timed out',
      type: 'AUTHENTICATION_ERROR',
    })
    expect(pollTimes(start)).toEqual([5000, 10_000])
  })

  test('error: a network failure ends the flow with its message', async () => {
    idp.onToken(() => {
      throw new TypeError('fetch failed')
    })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const done = loginWithDeviceFlowCallback(context, 'device-code-1', 1).catch(
      (e: unknown) => e,
    )
    await vi.advanceTimersByTimeAsync(1000)
    expect(await done).toMatchObject({
      message: 'fetch failed',
      type: 'AUTHENTICATION_ERROR',
    })
  })

  test('behavior: an abort signal stops the polling during the wait, with no further request', async () => {
    idp.onToken(oauthError('authorization_pending'))
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const controller = new AbortController()
    const done = loginWithDeviceFlowCallback(
      context,
      'device-code-1',
      5,
      undefined,
      { signal: controller.signal },
    ).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(5000)
    await vi.advanceTimersByTimeAsync(2000)
    controller.abort()
    expect(await done).toMatchObject({
      message: 'This operation was aborted',
      type: 'AUTHENTICATION_ERROR',
    })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(idp.to('/oauth/token')).toHaveLength(1)
  })

  test('behavior: the sleep and clock are injectable', async () => {
    const sleeps: number[] = []
    let clock = 0
    idp.onToken(oauthError('slow_down'), oauthError('slow_down'))
    const user = await loginWithDeviceFlowCallback(
      {
        ...context,
        now: () => clock,
        sleep: async (ms) => {
          sleeps.push(ms)
          clock += ms
        },
      },
      'device-code-1',
      3,
    )
    expect(sleeps).toEqual([3000, 8000, 13_000])
    expect(user.profile.sub).toBe('email|user-1')
  })
})
