/**
 * The device-code flow of the game wallet's sign-in core (`device.ts` over
 * `oidc.ts`) against the real emulated identity provider on a free port:
 * the person approves or denies on the provider's verification page (driven
 * with fetch), the client polls the real token endpoint. Time is virtual on
 * the client; the server sees real waits only where its slow_down check
 * needs them.
 */
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type Context,
  loginWithDeviceFlow,
  loginWithDeviceFlowCallback,
} from '../../src/passport/auth/device.js'
import {
  createEnv,
  decideDevice,
  deviceGrant,
  type Identity,
  startIdentity,
  virtualClock,
} from './setup/identity.js'

const success =
  'You are signed in. You can close this page and go back to your device.'

let identity: Identity
beforeAll(async () => {
  identity = await startIdentity({ deviceInterval: 1 })
})
afterAll(() => identity.stop())

/** A client, user store and clock for one flow. */
function setup(clock = virtualClock()) {
  const env = createEnv(identity)
  const context: Context = {
    client: env.client,
    users: env.users,
    now: clock.now,
    sleep: clock.sleep,
  }
  return { ...env, clock, context }
}

describe('device flow against the emulated identity provider', () => {
  test('behavior: approved on the verification page, the callback returns the user, its id token verified against the emulator JWKS', async () => {
    const { context, clock, users, urls, tokenErrors } = setup()
    const device = await loginWithDeviceFlow(context)
    expect(device.code).toMatch(
      /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/,
    )
    expect(device.url).toBe(
      `${identity.issuer}/device?user_code=${device.code}`,
    )
    expect(device.interval).toBe(1)

    expect(
      await decideDevice(identity, device.url, {
        approveAs: 'device-player@example.com',
      }),
    ).toBe(success)
    const since = identity.requests.length
    const user = await loginWithDeviceFlowCallback(
      context,
      device.deviceCode,
      device.interval,
    )

    const registered = identity.registry.find({
      email: 'device-player@example.com',
    })
    expect(registered).toBeDefined()
    expect(user.profile).toEqual({
      sub: registered?.id,
      email: 'device-player@example.com',
      nickname: 'device-player',
    })
    expect(user.expired).toBe(false)
    expect(user.zkEvm).toBeUndefined()
    expect((await users.get())?.refresh_token).toBe(user.refreshToken)
    // One poll, after one interval; the client fetched the emulator's JWKS.
    expect(clock.sleeps).toEqual([1000])
    expect(tokenErrors).toEqual([])
    expect(identity.tokenRequests(deviceGrant, since)).toEqual([
      {
        method: 'POST',
        path: '/oauth/token',
        grantType: deviceGrant,
      },
    ])
    expect(urls).toContain(`${identity.issuer}/.well-known/jwks.json`)
    // The same id token verifies independently against that JWKS.
    const { payload } = await jwtVerify(
      user.idToken ?? '',
      createRemoteJWKSet(new URL(`${identity.issuer}/.well-known/jwks.json`)),
      { issuer: identity.issuer, audience: identity.clientId },
    )
    expect(payload.sub).toBe(registered?.id)
    expect(payload.email).toBe('device-player@example.com')
  })

  test("error: an id token that the emulator's JWKS does not verify is refused", async () => {
    // The JWKS is swapped for a foreign key under the emulator's own kid.
    const { keys } = (await (await fetch(identity.jwksUri)).json()) as {
      keys: { kid: string }[]
    }
    const { publicKey } = await generateKeyPair('RS256')
    const foreign = { ...(await exportJWK(publicKey)), kid: keys[0]?.kid }
    const { context, users } = setup()
    identity.answer(
      { path: '/.well-known/jwks.json' },
      {
        status: 200,
        body: { keys: [{ ...foreign, alg: 'RS256', use: 'sig' }] },
      },
    )
    const device = await loginWithDeviceFlow(context)
    await decideDevice(identity, device.url, {
      approveAs: 'device-player@example.com',
    })

    await expect(
      loginWithDeviceFlowCallback(context, device.deviceCode, device.interval),
    ).rejects.toMatchObject({
      name: 'PassportError',
      type: 'AUTHENTICATION_ERROR',
      message: 'Invalid ID token: signature verification failed',
    })
    expect(await users.get()).toBeNull()
    expect(identity.to('/.well-known/jwks.json').at(-1)?.scripted).toBe(true)
  })

  test('behavior: polling faster than the interval gets slow_down, the client adds 5 s and still completes', async () => {
    // Waits at the server's pace (1 s) take no real time, so the second
    // poll comes too soon; a backed-off wait (6 s) really waits 1.1 s, so
    // the server sees a compliant device.
    let device = { url: '' }
    const clock = virtualClock({
      realWait: (ms) => (ms > 1000 ? 1100 : 0),
      onSleep: async (n) => {
        if (n === 4)
          await decideDevice(identity, device.url, {
            approveAs: 'slow-player@example.com',
          })
      },
    })
    const { context, tokenErrors } = setup(clock)
    const started = await loginWithDeviceFlow(context)
    device = started
    const since = identity.requests.length
    const t0 = clock.now()

    const user = await loginWithDeviceFlowCallback(
      context,
      started.deviceCode,
      started.interval,
    )

    expect(user.profile.email).toBe('slow-player@example.com')
    expect(tokenErrors).toEqual([
      'authorization_pending',
      'slow_down',
      'authorization_pending',
    ])
    expect(clock.sleeps).toEqual([1000, 1000, 6000, 6000])
    expect(clock.now() - t0).toBe(14_000)
    expect(identity.tokenRequests(deviceGrant, since)).toHaveLength(4)
  })

  test('error: an access_denied from the verification page ends the flow with "User denied access"', async () => {
    const { context, users, tokenErrors } = setup()
    const device = await loginWithDeviceFlow(context)
    expect(await decideDevice(identity, device.url, 'deny')).toBe(
      'Sign-in denied. Your device was told so.',
    )

    await expect(
      loginWithDeviceFlowCallback(context, device.deviceCode, device.interval),
    ).rejects.toMatchObject({
      name: 'PassportError',
      type: 'AUTHENTICATION_ERROR',
      message: 'User denied access',
    })
    expect(tokenErrors).toEqual(['access_denied'])
    expect(await users.get()).toBeNull()
  })

  test("error: the caller's overall time-out ends an unapproved flow with 'Timed out'", async () => {
    const { context, clock, tokenErrors, users } = setup()
    const device = await loginWithDeviceFlow(context)
    const since = identity.requests.length

    await expect(
      loginWithDeviceFlowCallback(
        context,
        device.deviceCode,
        device.interval,
        5000,
      ),
    ).rejects.toMatchObject({
      name: 'PassportError',
      type: 'AUTHENTICATION_ERROR',
      message: 'Timed out',
    })
    // Polled at 1 s and 2 s (pending, then too soon), backed off to 6 s:
    // at 8 s the time-out is checked before polling again.
    expect(tokenErrors).toEqual(['authorization_pending', 'slow_down'])
    expect(clock.sleeps).toEqual([1000, 1000, 6000])
    expect(identity.tokenRequests(deviceGrant, since)).toHaveLength(2)
    expect(await users.get()).toBeNull()
  })
})

describe('device flow with a short-lived device code', () => {
  let shortLived: Identity
  beforeAll(async () => {
    shortLived = await startIdentity({
      deviceInterval: 1,
      ttl: { deviceCode: 1 },
    })
  })
  afterAll(() => shortLived.stop())

  test("error: an unapproved device code that expires ends with 'Token expired, please log in again'", async () => {
    // The provider checks expiry in whole seconds: 1.1 s of real waiting
    // puts the first poll past the code's `exp` whatever the sub-second.
    const clock = virtualClock({ realWait: (ms) => ms + 100 })
    const env = createEnv(shortLived)
    const context: Context = {
      client: env.client,
      users: env.users,
      now: clock.now,
      sleep: clock.sleep,
    }
    const device = await loginWithDeviceFlow(context)
    const since = shortLived.requests.length

    await expect(
      loginWithDeviceFlowCallback(context, device.deviceCode, device.interval),
    ).rejects.toMatchObject({
      name: 'PassportError',
      type: 'AUTHENTICATION_ERROR',
      message: 'Token expired, please log in again',
    })
    expect(env.tokenErrors).toEqual(['expired_token'])
    expect(shortLived.tokenRequests(deviceGrant, since)).toEqual([
      {
        method: 'POST',
        path: '/oauth/token',
        grantType: deviceGrant,
        error: 'expired_token',
      },
    ])
    expect(await env.users.get()).toBeNull()
  })
})
