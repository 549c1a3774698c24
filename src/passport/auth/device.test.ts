import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  decideDevice,
  virtualClock,
} from '../../../test/unit/setup/identity.js'
import * as Storage from '../../core/Storage.js'
import {
  redirectUri,
  startIdentity,
  type TestIdentity,
} from '../../emulator/passport/identity/testkit.js'
import { formOf, jsonOf, type Reply } from '../../emulator/testkit.js'
import { PassportError } from '../errors.js'
import {
  type Context,
  loginWithDeviceFlow,
  loginWithDeviceFlowCallback,
} from './device.js'
import { create } from './oidc.js'
import { createUserStore } from './user.js'

let identity: TestIdentity
beforeAll(async () => {
  identity = await startIdentity()
})
afterAll(() => identity.stop())

/** A client of the emulated provider and a user store. */
function contextFor(clientId = identity.clientId): Context {
  return {
    client: create({
      authenticationDomain: identity.issuer,
      clientId,
      redirectUri,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
    }),
    users: createUserStore({
      authority: identity.issuer,
      clientId,
      storage: Storage.memory(),
    }),
  }
}

let context: Context
beforeEach(() => {
  identity.clear()
  context = contextFor()
})

/** An OAuth error answer of the token endpoint. */
const oauthError = (error: string, status = 400): Reply => ({
  status,
  body: { error, error_description: `${error} description` },
})

/** The token requests' device codes so far. */
const polls = () =>
  identity.to('/oauth/token').map((request) => formOf(request).device_code)

describe('loginWithDeviceFlow', () => {
  test('default: the published DeviceConnectResponse', async () => {
    const response = await loginWithDeviceFlow(context)
    const [request] = identity.to('/oauth/device/code')
    const answered = jsonOf(request?.response) as Record<string, unknown>
    expect(response).toEqual({
      code: answered.user_code,
      deviceCode: answered.device_code,
      url: `${identity.issuer}/device?user_code=${answered.user_code}`,
      interval: 5,
    })
    expect(answered.verification_uri_complete).toBe(response.url)
    expect(formOf(request!)).toEqual({
      client_id: identity.clientId,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
    })
  })

  test('behavior: rid and third_party_a_id are appended', async () => {
    const { url, code } = await loginWithDeviceFlow(context, {
      runtimeId: 'rid-1',
      anonymousId: 'anon-1',
    })
    expect(url).toBe(
      `${identity.issuer}/device?user_code=${code}&rid=rid-1&third_party_a_id=anon-1`,
    )
  })

  test('error: a refused request is an AUTHENTICATION_ERROR', async () => {
    // A client the provider does not know.
    await expect(
      loginWithDeviceFlow(contextFor('unknown-client')),
    ).rejects.toMatchObject({
      message: 'client authentication failed',
      type: 'AUTHENTICATION_ERROR',
    })
    expect(identity.to('/oauth/device/code').map((r) => r.status)).toEqual([
      401,
    ])
  })
})

describe('loginWithDeviceFlowCallback', () => {
  /**
   * A device code from the provider, and a clock whose sleeps are recorded;
   * `approveBefore` approves the code on the verification page before that
   * poll (1-based), as the person would between two polls.
   */
  async function flow(options: { approveBefore?: number } = {}) {
    const device = await loginWithDeviceFlow(context)
    const clock = virtualClock({
      onSleep: async (n) => {
        if (n === options.approveBefore)
          await decideDevice(identity, device.url, {
            approveAs: 'device@example.com',
          })
      },
    })
    return {
      device,
      clock,
      context: { ...context, now: clock.now, sleep: clock.sleep },
    }
  }

  test('default: pending and slow_down keep polling; slow_down adds 5 s', async () => {
    identity.answer(
      { path: '/oauth/token' },
      oauthError('authorization_pending'),
      oauthError('slow_down'),
      oauthError('authorization_pending'),
    )
    const { device, clock, context } = await flow({ approveBefore: 4 })
    const user = await loginWithDeviceFlowCallback(
      context,
      device.deviceCode,
      5,
    )
    // Polls at 5 s, 10 s, 20 s and 30 s: each after its wait.
    expect(clock.sleeps).toEqual([5000, 5000, 10_000, 10_000])
    expect(polls()).toEqual(Array(4).fill(device.deviceCode))
    const last = identity.to('/oauth/token').at(-1)
    const answered = jsonOf(last?.response) as Record<string, string>
    expect(last?.scripted).toBe(false)
    expect(user.accessToken).toBe(answered.access_token)
    expect((await context.users.get())?.refresh_token).toBe(
      answered.refresh_token,
    )
    expect(user.profile.email).toBe('device@example.com')
    for (const request of identity.to('/oauth/token'))
      expect(formOf(request)).toEqual({
        client_id: identity.clientId,
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: device.deviceCode,
      })
  })

  const endings = [
    ['expired_token', 'Token expired, please log in again'],
    ['access_denied', 'User denied access'],
    ['invalid_grant', 'Error getting token'],
  ] as const
  for (const [code, message] of endings)
    test(`error: ${code} ends the flow with '${message}'`, async () => {
      identity.answer(
        { path: '/oauth/token' },
        oauthError('authorization_pending'),
        oauthError(code),
      )
      const { device, clock, context } = await flow()
      const error = await loginWithDeviceFlowCallback(
        context,
        device.deviceCode,
        2,
      ).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(PassportError)
      expect(error).toMatchObject({ message, type: 'AUTHENTICATION_ERROR' })
      expect(clock.sleeps).toEqual([2000, 2000])
      expect(polls()).toHaveLength(2)
      expect(await context.users.get()).toBeNull()
    })

  test("error: the overall time-out ends it with 'Timed out'", async () => {
    identity.answer(
      { path: '/oauth/token' },
      oauthError('authorization_pending'),
      oauthError('authorization_pending'),
    )
    const { device, clock, context } = await flow()
    expect(
      await loginWithDeviceFlowCallback(
        context,
        device.deviceCode,
        5,
        12_000,
      ).catch((e: unknown) => e),
    ).toMatchObject({
      message: 'Timed out',
      type: 'AUTHENTICATION_ERROR',
    })
    // Polls at 5 s and 10 s; the third wait ends past 12 s, before a poll.
    expect(clock.sleeps).toEqual([5000, 5000, 5000])
    expect(polls()).toHaveLength(2)
  })

  test('error: a network failure ends the flow with its message', async () => {
    identity.answer({ path: '/oauth/token' }, 'drop')
    const { device, context } = await flow()
    expect(
      await loginWithDeviceFlowCallback(context, device.deviceCode, 1).catch(
        (e: unknown) => e,
      ),
    ).toMatchObject({
      message: 'fetch failed',
      type: 'AUTHENTICATION_ERROR',
    })
  })

  test('behavior: an abort signal stops the polling during the wait, with no further request', async () => {
    const device = await loginWithDeviceFlow(context)
    const controller = new AbortController()
    const waits: number[] = []
    let waiting!: () => void
    const inSecondWait = new Promise<void>((resolve) => {
      waiting = resolve
    })
    const done = loginWithDeviceFlowCallback(
      {
        ...context,
        // The first wait ends at once; the second never does by itself.
        sleep: (ms) => {
          waits.push(ms)
          if (waits.length === 1) return Promise.resolve()
          waiting()
          return new Promise<void>(() => {})
        },
      },
      device.deviceCode,
      5,
      undefined,
      { signal: controller.signal },
    ).catch((e: unknown) => e)
    await inSecondWait
    controller.abort()
    expect(await done).toMatchObject({
      message: 'This operation was aborted',
      type: 'AUTHENTICATION_ERROR',
    })
    expect(waits).toEqual([5000, 5000])
    expect(polls()).toHaveLength(1)
  })

  test('behavior: the sleep and clock are injectable', async () => {
    identity.answer(
      { path: '/oauth/token' },
      oauthError('slow_down'),
      oauthError('slow_down'),
    )
    const { device, clock, context } = await flow({ approveBefore: 3 })
    const user = await loginWithDeviceFlowCallback(
      context,
      device.deviceCode,
      3,
    )
    expect(clock.sleeps).toEqual([3000, 8000, 13_000])
    expect(user.profile.sub).toBe(
      identity.registry.find({ email: 'device@example.com' })?.id,
    )
  })
})
