import { describe, expect, test, vi } from 'vitest'
import { clientId, json } from './_test/idp.js'
import { sessionFixture } from './_test/session.js'
import type { User } from './user.js'

const fx = sessionFixture()

describe('getUser', () => {
  test('default: a fresh cached user, no request', async () => {
    const seeded = await fx.seed(7200)
    const user = await fx.session().getUser()
    expect(user?.accessToken).toBe(seeded.access_token)
    expect(user?.refreshToken).toBe('refresh-1')
    expect(fx.idp.requests).toEqual([])
  })

  test('behavior: no stored user gives null', async () => {
    expect(await fx.session().getUser()).toBeNull()
    expect(fx.idp.requests).toEqual([])
  })

  test('behavior: concurrent callers during expiry share exactly one refresh', async () => {
    await fx.seed(20) // inside the 30 s margin
    const manager = fx.session()
    const results = await Promise.all(
      Array.from({ length: 5 }, () => manager.getUser()),
    )
    expect(fx.tokenRequests()).toHaveLength(1)
    expect(Object.fromEntries(fx.tokenRequests()[0]!.body!)).toEqual({
      client_id: clientId,
      grant_type: 'refresh_token',
      refresh_token: 'refresh-1',
    })
    const [first] = results
    for (const user of results) expect(user).toBe(first)
    expect(first?.refreshToken).toBe('refresh-token-2')
    expect((await fx.users.get())?.access_token).toBe(first?.accessToken)
    expect(fx.events.map((e) => e.name)).toEqual(['tokenRefreshed'])
    expect(fx.events[0]?.args).toEqual([first])
    // The cache is fresh again: no second request.
    await manager.getUser()
    expect(fx.tokenRequests()).toHaveLength(1)
  })

  test('behavior: an expired user without refresh token gives null', async () => {
    await fx.seed(-10, {})
    expect(await fx.session().getUser()).toBeNull()
    expect(fx.idp.requests).toEqual([])
  })

  test('behavior: a type assertion failing counts as no user', async () => {
    await fx.seed(7200)
    const isZkEvm = (
      user: User,
    ): user is User & { zkEvm: NonNullable<User['zkEvm']> } => !!user.zkEvm
    expect(await fx.session().getUser(isZkEvm)).toBeNull()
  })
})

describe('login', () => {
  test('default: a cached session is used and loggedIn emitted', async () => {
    await fx.seed(7200)
    const loginInteractively = vi.fn()
    const user = await fx.session({ loginInteractively }).login()
    expect(user?.refreshToken).toBe('refresh-1')
    expect(loginInteractively).not.toHaveBeenCalled()
    expect(fx.events).toEqual([{ name: 'loggedIn', args: [user] }])
  })

  test('behavior: no session → the popup step, then loggedIn', async () => {
    const popupUser = { accessToken: 'a', profile: { sub: 's' } } satisfies User
    const loginInteractively = vi.fn(async () => popupUser)
    const user = await fx.session({ loginInteractively }).login({
      anonymousId: 'anon',
    })
    expect(user).toBe(popupUser)
    expect(loginInteractively).toHaveBeenCalledWith({
      anonymousId: 'anon',
      useRedirectFlow: false,
    })
    expect(fx.events).toEqual([{ name: 'loggedIn', args: [popupUser] }])
  })

  test('behavior: useRedirectFlow resolves null without loggedIn', async () => {
    const loginInteractively = vi.fn(async () => null)
    expect(
      await fx.session({ loginInteractively }).login({ useRedirectFlow: true }),
    ).toBeNull()
    expect(loginInteractively).toHaveBeenCalledWith({ useRedirectFlow: true })
    expect(fx.events).toEqual([])
  })

  test('behavior: useSilentLogin forces a refresh instead of prompting', async () => {
    await fx.seed(7200, { refresh_token: 'refresh-1' })
    await fx.users.set({ ...(await fx.users.get())!, id_token: undefined }) // no usable cached session
    const loginInteractively = vi.fn()
    const user = await fx.session({ loginInteractively }).login({
      useSilentLogin: true,
    })
    expect(user?.refreshToken).toBe('refresh-token-2')
    expect(fx.tokenRequests()).toHaveLength(1)
    expect(loginInteractively).not.toHaveBeenCalled()
    expect(fx.events.map((e) => e.name)).toEqual(['tokenRefreshed', 'loggedIn'])
  })

  test('behavior: useSilentLogin with nothing stored resolves null', async () => {
    const loginInteractively = vi.fn()
    expect(
      await fx.session({ loginInteractively }).login({
        useSilentLogin: true,
        useCachedSession: true,
      }),
    ).toBeNull()
    expect(loginInteractively).not.toHaveBeenCalled()
  })

  test('behavior: useCachedSession without a session resolves null and never prompts', async () => {
    const loginInteractively = vi.fn()
    expect(
      await fx
        .session({ loginInteractively })
        .login({ useCachedSession: true }),
    ).toBeNull()
    expect(loginInteractively).not.toHaveBeenCalled()
  })

  test('error: useCachedSession rethrows a failure to read the session', async () => {
    await fx.seed(-10)
    fx.idp.onToken(() =>
      json(400, {
        error: 'invalid_grant',
        error_description: 'Unknown or invalid refresh token.',
      }),
    )
    await expect(
      fx.session().login({ useCachedSession: true }),
    ).rejects.toMatchObject({
      message: 'Failed to refresh token: Unknown or invalid refresh token.',
      type: 'NOT_LOGGED_IN_ERROR',
    })
  })

  test('behavior: without useCachedSession a failed session read falls through to the popup', async () => {
    await fx.seed(-10)
    fx.idp.onToken(() => json(400, { error: 'invalid_grant' }))
    const popupUser = { accessToken: 'a', profile: { sub: 's' } } satisfies User
    const loginInteractively = vi.fn(async () => popupUser)
    expect(await fx.session({ loginInteractively }).login()).toBe(popupUser)
  })

  test('behavior: concurrent logins share one run', async () => {
    let resolve!: (user: User) => void
    const loginInteractively = vi.fn(
      () => new Promise<User>((r) => (resolve = r)),
    )
    const manager = fx.session({ loginInteractively })
    const first = manager.login()
    const second = manager.login()
    await vi.waitFor(() => expect(loginInteractively).toHaveBeenCalledTimes(1))
    resolve({ accessToken: 'a', profile: { sub: 's' } })
    expect(await first).toBe(await second)
  })
})

describe('storeTokens and logout', () => {
  test('default: storeTokens persists and emits loggedIn', async () => {
    const response = await fx.idp.tokenResponse()
    const user = await fx.session().storeTokens(response)
    expect((await fx.users.get())?.access_token).toBe(response.access_token)
    expect(fx.events).toEqual([{ name: 'loggedIn', args: [user] }])
  })

  test('default: logout revokes the refresh token, removes the user, emits loggedOut', async () => {
    await fx.seed(7200)
    const url = await fx.session().logout()
    expect(url).toBe(
      `https://auth.immutable.com/v2/logout?client_id=${clientId}&returnTo=https%3A%2F%2Fgame.example%2Fbye`,
    )
    const [request] = fx.idp.to('/oauth/revoke')
    expect(Object.fromEntries(request!.body!)).toEqual({
      client_id: clientId,
      token: 'refresh-1',
      token_type_hint: 'refresh_token',
    })
    expect(await fx.users.get()).toBeNull()
    expect(fx.events.map((e) => e.name)).toEqual(['loggedOut'])
  })

  test('error: a failed revocation is a LOGOUT_ERROR and keeps the user', async () => {
    await fx.seed(7200)
    fx.idp.onRevoke(() =>
      json(400, {
        error: 'invalid_request',
        error_description: 'revocation refused',
      }),
    )
    await expect(fx.session().logout()).rejects.toMatchObject({
      message: 'revocation refused',
      type: 'LOGOUT_ERROR',
    })
    expect(await fx.users.get()).not.toBeNull()
    expect(fx.events).toEqual([])
  })

  test('default: getLogoutUrl clears locally without a request', async () => {
    await fx.seed(7200)
    expect(await fx.session().getLogoutUrl()).toContain('/v2/logout?client_id=')
    expect(await fx.users.get()).toBeNull()
    expect(fx.idp.requests).toEqual([])
    expect(fx.events.map((e) => e.name)).toEqual(['loggedOut'])
  })
})
