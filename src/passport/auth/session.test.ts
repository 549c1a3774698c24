import * as oauth from 'oauth4webapi'
import { beforeEach, describe, expect, test, vi } from 'vitest'
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
import { memory } from './storage.js'
import {
  createUserStore,
  fromTokenResponse,
  type User,
  type UserStore,
} from './user.js'

let idp: Idp
let users: UserStore
let events: { name: keyof Events; args: unknown[] }[]

beforeEach(async () => {
  idp = await createIdp()
  users = createUserStore({
    authority: 'https://auth.immutable.com',
    clientId,
    storage: memory(),
  })
  events = []
})

function session(options: Partial<Options> = {}) {
  const client = createClient({
    authenticationDomain: 'https://auth.immutable.com',
    clientId,
    redirectUri,
    scope: 'openid profile email offline_access transact',
    audience: 'platform_api',
    logoutRedirectUri: 'https://game.example/bye',
    fetch: idp.fetch,
    metadata: 'static',
  })
  const created = create({ client, users, retries: 0, ...options })
  for (const name of [
    'loggedIn',
    'loggedOut',
    'tokenRefreshed',
    'userRemoved',
  ] as const)
    created.emitter.on(name, (...args: unknown[]) =>
      events.push({ name, args }),
    )
  return created
}

/** Stores a signed-in user whose tokens expire `seconds` from now. */
async function seed(
  seconds: number,
  fields: { refresh_token?: string } = { refresh_token: 'refresh-1' },
) {
  const exp = Math.floor(Date.now() / 1000) + seconds
  const response = await idp.tokenResponse({
    idClaims: { exp },
    accessClaims: { exp },
    expires_in: seconds,
    refresh_token: undefined,
    ...fields,
  })
  users.set(fromTokenResponse(response, { now: Date.now() }))
  return response
}

const tokenRequests = () => idp.to('/oauth/token')

describe('getUser', () => {
  test('default: a fresh cached user, no request', async () => {
    const seeded = await seed(3600)
    const user = await session().getUser()
    expect(user?.accessToken).toBe(seeded.access_token)
    expect(user?.refreshToken).toBe('refresh-1')
    expect(idp.requests).toEqual([])
  })

  test('behavior: no stored user gives null', async () => {
    expect(await session().getUser()).toBeNull()
    expect(idp.requests).toEqual([])
  })

  test('behavior: concurrent callers during expiry share exactly one refresh', async () => {
    await seed(20) // inside the 30 s margin
    const manager = session()
    const results = await Promise.all(
      Array.from({ length: 5 }, () => manager.getUser()),
    )
    expect(tokenRequests()).toHaveLength(1)
    expect(Object.fromEntries(tokenRequests()[0]!.body!)).toEqual({
      client_id: clientId,
      grant_type: 'refresh_token',
      refresh_token: 'refresh-1',
    })
    const [first] = results
    for (const user of results) expect(user).toBe(first)
    expect(first?.refreshToken).toBe('refresh-token-2')
    expect(users.get()?.access_token).toBe(first?.accessToken)
    expect(events.map((e) => e.name)).toEqual(['tokenRefreshed'])
    expect(events[0]?.args).toEqual([first])
    // The cache is fresh again: no second request.
    await manager.getUser()
    expect(tokenRequests()).toHaveLength(1)
  })

  test('behavior: an expired user without refresh token gives null', async () => {
    await seed(-10, {})
    expect(await session().getUser()).toBeNull()
    expect(idp.requests).toEqual([])
  })

  test('behavior: a type assertion failing counts as no user', async () => {
    await seed(3600)
    const isZkEvm = (
      user: User,
    ): user is User & { zkEvm: NonNullable<User['zkEvm']> } => !!user.zkEvm
    expect(await session().getUser(isZkEvm)).toBeNull()
  })
})

describe('refresh failures', () => {
  test('error: a permanent OAuth error removes the user and throws NOT_LOGGED_IN_ERROR', async () => {
    await seed(-10)
    idp.onToken(() =>
      json(403, {
        error: 'invalid_grant',
        error_description: 'Unknown or invalid refresh token.',
      }),
    )
    const manager = session({ retries: 3 })
    const error = await manager.getUser().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PassportError)
    expect(error).toMatchObject({
      message: 'Failed to refresh token: Unknown or invalid refresh token.',
      type: 'NOT_LOGGED_IN_ERROR',
    })
    expect((error as PassportError).cause).toBeInstanceOf(
      oauth.ResponseBodyError,
    )
    expect(tokenRequests()).toHaveLength(1)
    expect(users.get()).toBeNull()
    expect(events).toEqual([
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
    await seed(-10)
    const forged = await idp.idToken({}, { sign: 'other' })
    idp.onToken(async () =>
      json(200, await idp.tokenResponse({ id_token: forged })),
    )
    await expect(session().getUser()).rejects.toMatchObject({
      message:
        'Failed to refresh token: Invalid ID token: signature verification failed',
      type: 'AUTHENTICATION_ERROR',
    })
    expect(users.get()).toBeNull()
    expect(events.map((e) => e.name)).toEqual(['userRemoved'])
  })

  test('error: transient failures are retried, then SILENT_LOGIN_ERROR keeps the user', async () => {
    await seed(-10)
    const stored = users.get()
    idp.onToken(
      ...Array.from(
        { length: 4 },
        () => () => new Response('upstream down', { status: 503 }),
      ),
    )
    const sleeps: number[] = []
    const manager = session({
      retries: 3,
      random: () => 0.25,
      sleep: async (ms) => void sleeps.push(ms),
    })
    await expect(manager.getUser()).rejects.toMatchObject({
      message:
        'Failed to refresh token: "response" is not a conform Token Endpoint response (unexpected HTTP status code)',
      type: 'SILENT_LOGIN_ERROR',
    })
    expect(tokenRequests()).toHaveLength(4)
    expect(sleeps).toEqual([750, 750, 750])
    expect(users.get()).toEqual(stored)
    expect(events).toEqual([])
  })

  test('behavior: a transient OAuth error then success', async () => {
    await seed(-10)
    idp.onToken(() =>
      json(500, { error: 'server_error', error_description: 'try later' }),
    )
    const user = await session({ retries: 3, sleep: async () => {} }).getUser()
    expect(user?.refreshToken).toBe('refresh-token-2')
    expect(tokenRequests()).toHaveLength(2)
  })

  test('behavior: forceUserRefresh turns a failure into null', async () => {
    await seed(3600)
    idp.onToken(() => json(400, { error: 'invalid_grant' }))
    expect(await session().forceUserRefresh()).toBeNull()
    expect(users.get()).toBeNull()
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

describe('login', () => {
  test('default: a cached session is used and loggedIn emitted', async () => {
    await seed(3600)
    const loginInteractively = vi.fn()
    const user = await session({ loginInteractively }).login()
    expect(user?.refreshToken).toBe('refresh-1')
    expect(loginInteractively).not.toHaveBeenCalled()
    expect(events).toEqual([{ name: 'loggedIn', args: [user] }])
  })

  test('behavior: no session → the popup step, then loggedIn', async () => {
    const popupUser = { accessToken: 'a', profile: { sub: 's' } } satisfies User
    const loginInteractively = vi.fn(async () => popupUser)
    const user = await session({ loginInteractively }).login({
      anonymousId: 'anon',
    })
    expect(user).toBe(popupUser)
    expect(loginInteractively).toHaveBeenCalledWith({
      anonymousId: 'anon',
      useRedirectFlow: false,
    })
    expect(events).toEqual([{ name: 'loggedIn', args: [popupUser] }])
  })

  test('behavior: useRedirectFlow resolves null without loggedIn', async () => {
    const loginInteractively = vi.fn(async () => null)
    expect(
      await session({ loginInteractively }).login({ useRedirectFlow: true }),
    ).toBeNull()
    expect(loginInteractively).toHaveBeenCalledWith({ useRedirectFlow: true })
    expect(events).toEqual([])
  })

  test('behavior: useSilentLogin forces a refresh instead of prompting', async () => {
    await seed(3600, { refresh_token: 'refresh-1' })
    users.set({ ...users.get()!, id_token: undefined }) // no usable cached session
    const loginInteractively = vi.fn()
    const user = await session({ loginInteractively }).login({
      useSilentLogin: true,
    })
    expect(user?.refreshToken).toBe('refresh-token-2')
    expect(tokenRequests()).toHaveLength(1)
    expect(loginInteractively).not.toHaveBeenCalled()
    expect(events.map((e) => e.name)).toEqual(['tokenRefreshed', 'loggedIn'])
  })

  test('behavior: useSilentLogin with nothing stored resolves null', async () => {
    const loginInteractively = vi.fn()
    expect(
      await session({ loginInteractively }).login({
        useSilentLogin: true,
        useCachedSession: true,
      }),
    ).toBeNull()
    expect(loginInteractively).not.toHaveBeenCalled()
  })

  test('behavior: useCachedSession without a session resolves null and never prompts', async () => {
    const loginInteractively = vi.fn()
    expect(
      await session({ loginInteractively }).login({ useCachedSession: true }),
    ).toBeNull()
    expect(loginInteractively).not.toHaveBeenCalled()
  })

  test('error: useCachedSession rethrows a failure to read the session', async () => {
    await seed(-10)
    idp.onToken(() =>
      json(400, {
        error: 'invalid_grant',
        error_description: 'Unknown or invalid refresh token.',
      }),
    )
    await expect(
      session().login({ useCachedSession: true }),
    ).rejects.toMatchObject({
      message: 'Failed to refresh token: Unknown or invalid refresh token.',
      type: 'NOT_LOGGED_IN_ERROR',
    })
  })

  test('behavior: without useCachedSession a failed session read falls through to the popup', async () => {
    await seed(-10)
    idp.onToken(() => json(400, { error: 'invalid_grant' }))
    const popupUser = { accessToken: 'a', profile: { sub: 's' } } satisfies User
    const loginInteractively = vi.fn(async () => popupUser)
    expect(await session({ loginInteractively }).login()).toBe(popupUser)
  })

  test('behavior: concurrent logins share one run', async () => {
    let resolve!: (user: User) => void
    const loginInteractively = vi.fn(
      () => new Promise<User>((r) => (resolve = r)),
    )
    const manager = session({ loginInteractively })
    const first = manager.login()
    const second = manager.login()
    await vi.waitFor(() => expect(loginInteractively).toHaveBeenCalledTimes(1))
    resolve({ accessToken: 'a', profile: { sub: 's' } })
    expect(await first).toBe(await second)
  })
})

describe('storeTokens and logout', () => {
  test('default: storeTokens persists and emits loggedIn', async () => {
    const response = await idp.tokenResponse()
    const user = session().storeTokens(response)
    expect(users.get()?.access_token).toBe(response.access_token)
    expect(events).toEqual([{ name: 'loggedIn', args: [user] }])
  })

  test('default: logout revokes the refresh token, removes the user, emits loggedOut', async () => {
    await seed(3600)
    const url = await session().logout()
    expect(url).toBe(
      `https://auth.immutable.com/v2/logout?client_id=${clientId}&returnTo=https%3A%2F%2Fgame.example%2Fbye`,
    )
    const [request] = idp.to('/oauth/revoke')
    expect(Object.fromEntries(request!.body!)).toEqual({
      client_id: clientId,
      token: 'refresh-1',
      token_type_hint: 'refresh_token',
    })
    expect(users.get()).toBeNull()
    expect(events.map((e) => e.name)).toEqual(['loggedOut'])
  })

  test('error: a failed revocation is a LOGOUT_ERROR and keeps the user', async () => {
    await seed(3600)
    idp.onRevoke(() =>
      json(400, {
        error: 'invalid_request',
        error_description: 'revocation refused',
      }),
    )
    await expect(session().logout()).rejects.toMatchObject({
      message: 'revocation refused',
      type: 'LOGOUT_ERROR',
    })
    expect(users.get()).not.toBeNull()
    expect(events).toEqual([])
  })

  test('default: getLogoutUrl clears locally without a request', async () => {
    await seed(3600)
    expect(session().getLogoutUrl()).toContain('/v2/logout?client_id=')
    expect(users.get()).toBeNull()
    expect(idp.requests).toEqual([])
    expect(events.map((e) => e.name)).toEqual(['loggedOut'])
  })
})
