import * as oauth from 'oauth4webapi'
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
import { create as createClient } from './oidc.js'
import {
  classify,
  create,
  type Events,
  type Options,
  permanentOAuthErrors,
} from './session.js'
import {
  createUserStore,
  fromTokenResponse,
  type User,
  type UserStore,
} from './user.js'

/** What a session test works with; refreshed before each test. */
type SessionFixture = {
  idp: Idp
  users: UserStore
  events: { name: keyof Events; args: unknown[] }[]
  /** A session over the fake provider (no retries unless given). */
  session(options?: Partial<Options>): ReturnType<typeof create>
  /** Stores a signed-in user whose tokens expire `seconds` from now. */
  seed(
    seconds: number,
    fields?: { refresh_token?: string },
  ): ReturnType<Idp['tokenResponse']>
  /** The requests to the token endpoint so far. */
  tokenRequests(): ReturnType<Idp['to']>
}

/** Registers a `beforeEach` that rebuilds the fixture; returns it. */
function sessionFixture(): SessionFixture {
  const fx = {} as SessionFixture
  beforeEach(async () => {
    fx.idp = await createIdp()
    fx.users = createUserStore({
      authority: 'https://auth.immutable.com',
      clientId,
      storage: Storage.memory(),
    })
    fx.events = []
  })
  fx.session = (options = {}) => {
    const client = createClient({
      authenticationDomain: 'https://auth.immutable.com',
      clientId,
      redirectUri,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
      logoutRedirectUri: 'https://game.example/bye',
      fetch: fx.idp.fetch,
      metadata: 'static',
    })
    const created = create({ client, users: fx.users, retries: 0, ...options })
    for (const name of [
      'loggedIn',
      'loggedOut',
      'tokenRefreshed',
      'userRemoved',
    ] as const)
      created.emitter.on(name, (...args: unknown[]) =>
        fx.events.push({ name, args }),
      )
    return created
  }
  fx.seed = async (seconds, fields = { refresh_token: 'refresh-1' }) => {
    const exp = Math.floor(Date.now() / 1000) + seconds
    const response = await fx.idp.tokenResponse({
      idClaims: { exp },
      accessClaims: { exp },
      expires_in: seconds,
      refresh_token: undefined,
      ...fields,
    })
    await fx.users.set(fromTokenResponse(response, { now: Date.now() }))
    return response
  }
  fx.tokenRequests = () => fx.idp.to('/oauth/token')
  return fx
}

const fx = sessionFixture()

afterEach(() => {
  vi.useRealTimers()
})

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
    await fx.seed(20) // inside the one-hour margin
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

describe('refresh failures', () => {
  test('error: a permanent OAuth error removes the user and throws NOT_LOGGED_IN_ERROR', async () => {
    await fx.seed(-10)
    fx.idp.onToken(() =>
      json(403, {
        error: 'invalid_grant',
        error_description: 'Unknown or invalid refresh token.',
      }),
    )
    const manager = fx.session({ retries: 3 })
    const error = await manager.getUser().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PassportError)
    expect(error).toMatchObject({
      message: 'Failed to refresh token: Unknown or invalid refresh token.',
      type: 'NOT_LOGGED_IN_ERROR',
    })
    expect((error as PassportError).cause).toBeInstanceOf(
      oauth.ResponseBodyError,
    )
    expect(fx.tokenRequests()).toHaveLength(1)
    expect(await fx.users.get()).toBeNull()
    expect(fx.events).toEqual([
      {
        name: 'userRemoved',
        args: [
          {
            reason: 'refresh_failed',
            error: 'Failed to refresh token: Unknown or invalid refresh token.',
          },
        ],
      },
    ])
  })

  test('error: an invalid refresh answer (bad signature) removes the user', async () => {
    await fx.seed(-10)
    const forged = await fx.idp.idToken({}, { sign: 'other' })
    fx.idp.onToken(async () =>
      json(200, await fx.idp.tokenResponse({ id_token: forged })),
    )
    await expect(fx.session().getUser()).rejects.toMatchObject({
      message:
        'Failed to refresh token: Invalid ID token: signature verification failed',
      type: 'AUTHENTICATION_ERROR',
    })
    expect(await fx.users.get()).toBeNull()
    expect(fx.events.map((e) => e.name)).toEqual(['userRemoved'])
  })

  test('error: transient failures are retried, then SILENT_LOGIN_ERROR keeps the user', async () => {
    await fx.seed(-10)
    const stored = await fx.users.get()
    fx.idp.onToken(
      ...Array.from(
        { length: 4 },
        () => () => new Response('upstream down', { status: 503 }),
      ),
    )
    vi.useFakeTimers()
    const manager = fx.session({ retries: 3, random: () => 0.25 })
    const failure = manager.getUser().catch((error: unknown) => error)
    await vi.runAllTimersAsync()
    expect(await failure).toMatchObject({
      message:
        'Failed to refresh token: "response" is not a conform Token Endpoint response (unexpected HTTP status code)',
      type: 'SILENT_LOGIN_ERROR',
    })
    expect(fx.tokenRequests()).toHaveLength(4)
    // The waits between the attempts: 1000 ms × (0.5 + 0.25).
    const times = fx.tokenRequests().map((request) => request.at)
    const sleeps = times.slice(1).map((at, index) => at - times[index]!)
    expect(sleeps).toEqual([750, 750, 750])
    expect(await fx.users.get()).toEqual(stored)
    expect(fx.events).toEqual([])
  })

  test('behavior: a transient OAuth error then success', async () => {
    await fx.seed(-10)
    fx.idp.onToken(() =>
      json(500, { error: 'server_error', error_description: 'try later' }),
    )
    const user = await fx.session({ retries: 3, retryDelayMs: 0 }).getUser()
    expect(user?.refreshToken).toBe('refresh-token-2')
    expect(fx.tokenRequests()).toHaveLength(2)
  })

  test('behavior: forceUserRefresh turns a failure into null', async () => {
    await fx.seed(7200)
    fx.idp.onToken(() => json(400, { error: 'invalid_grant' }))
    expect(await fx.session().forceUserRefresh()).toBeNull()
    expect(await fx.users.get()).toBeNull()
  })

  test('classify: permanent, transient and invalid', () => {
    const body = (error: string) =>
      new oauth.ResponseBodyError('x', {
        cause: { error },
        response: new Response(null, { status: 400 }),
      })
    for (const code of permanentOAuthErrors)
      expect(classify(body(code))).toBe('permanent')
    expect(classify(body('temporarily_unavailable'))).toBe('transient')
    expect(classify(new TypeError('fetch failed'))).toBe('transient')
    expect(classify(new DOMException('aborted', 'TimeoutError'))).toBe(
      'transient',
    )
    expect(
      classify(
        new PassportError('Invalid ID token: x', 'AUTHENTICATION_ERROR'),
      ),
    ).toBe('invalid')
    expect(
      classify(
        Object.assign(new TypeError('bad arg'), {
          code: 'ERR_INVALID_ARG_VALUE',
        }),
      ),
    ).toBe('invalid')
  })
})
