import * as oauth from 'oauth4webapi'
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  test,
  vi,
} from 'vitest'
import * as Storage from '../../core/Storage.js'
import {
  claimsOf,
  redirectUri,
  startIdentity,
  type TestIdentity,
  tokensFor,
} from '../../emulator/passport/identity/testkit.js'
import { type Exchange, formOf, jsonOf } from '../../emulator/testkit.js'
import { PassportError } from '../errors.js'
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
  type TokenResponse,
  type User,
  type UserStore,
} from './user.js'

let identity: TestIdentity
beforeAll(async () => {
  identity = await startIdentity()
})
afterAll(() => identity.stop())

/** What a session test works with; refreshed before each test. */
type SessionFixture = {
  users: UserStore
  events: { name: keyof Events; args: unknown[] }[]
  /** A session over the emulated provider (no retries unless given). */
  session(options?: Partial<Options>): ReturnType<typeof create>
  /**
   * Signs a new player in at the provider and stores them, their tokens
   * re-signed by the issuer to expire `seconds` from now; `refresh: false`
   * stores no refresh token, `refresh: 'revoked'` one the provider has
   * revoked. The provider's request log starts afresh after it.
   */
  seed(
    seconds: number,
    options?: { refresh?: true | false | 'revoked' },
  ): Promise<TokenResponse>
  /** The requests to the token endpoint so far. */
  tokenRequests(): Exchange[]
}

/** Registers a `beforeEach` that rebuilds the fixture; returns it. */
function sessionFixture(): SessionFixture {
  const fx = {} as SessionFixture
  beforeEach(() => {
    identity.clear()
    fx.users = createUserStore({
      authority: identity.issuer,
      clientId: identity.clientId,
      storage: Storage.memory(),
    })
    fx.events = []
  })
  fx.session = (options = {}) => {
    const client = createClient({
      authenticationDomain: identity.issuer,
      clientId: identity.clientId,
      redirectUri,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
      logoutRedirectUri: 'https://game.example/bye',
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
  fx.seed = async (seconds, { refresh = true } = {}) => {
    const tokens = await tokensFor(
      identity,
      `session-${crypto.randomUUID()}@example.com`,
    )
    if (refresh === 'revoked') await revoke(tokens.refreshToken)
    const exp = Math.floor(Date.now() / 1000) + seconds
    const response: TokenResponse = {
      access_token: await identity.sign(claimsOf(tokens.accessToken, { exp }), {
        typ: 'at+jwt',
      }),
      id_token: await identity.sign(claimsOf(tokens.idToken, { exp })),
      token_type: 'Bearer',
      scope: 'openid profile email offline_access transact',
      expires_in: seconds,
      ...(refresh === false ? {} : { refresh_token: tokens.refreshToken }),
    }
    await fx.users.set(fromTokenResponse(response, { now: Date.now() }))
    identity.clear()
    return response
  }
  fx.tokenRequests = () => identity.to('/oauth/token')
  return fx
}

/** Revokes a refresh token at the provider, as a logout elsewhere would. */
async function revoke(token: string) {
  const response = await fetch(`${identity.issuer}/oauth/revoke`, {
    method: 'POST',
    body: new URLSearchParams({
      client_id: identity.clientId,
      token,
      token_type_hint: 'refresh_token',
    }),
  })
  if (response.status !== 200) throw new Error(`Revoke: ${response.status}`)
}

/** What the provider answered to a token request. */
const answerOf = (request: Exchange | undefined) =>
  jsonOf(request?.response) as Record<string, string>

const fx = sessionFixture()

/**
 * Lets the HTTP round trips run (real I/O, under fake timers) until the
 * `attempt`-th token request was answered and the client waits on a timer.
 */
async function waitingAfter(attempt: number) {
  for (let turn = 0; turn < 10_000; turn++) {
    const answered = fx.tokenRequests()[attempt - 1]?.status !== undefined
    if (answered && vi.getTimerCount() > 0) return
    await new Promise((resolve) => setImmediate(resolve))
  }
  throw new Error(`Token request ${attempt} never came.`)
}

afterEach(() => {
  vi.useRealTimers()
})

describe('getUser', () => {
  test('default: a fresh cached user, no request', async () => {
    const seeded = await fx.seed(7200)
    const user = await fx.session().getUser()
    expect(user?.accessToken).toBe(seeded.access_token)
    expect(user?.refreshToken).toBe(seeded.refresh_token)
    expect(identity.requests).toEqual([])
  })

  test('behavior: no stored user gives null', async () => {
    expect(await fx.session().getUser()).toBeNull()
    expect(identity.requests).toEqual([])
  })

  test('behavior: concurrent callers during expiry share exactly one refresh', async () => {
    const seeded = await fx.seed(20) // inside the one-hour margin
    const manager = fx.session()
    const results = await Promise.all(
      Array.from({ length: 5 }, () => manager.getUser()),
    )
    expect(fx.tokenRequests()).toHaveLength(1)
    expect(formOf(fx.tokenRequests()[0]!)).toEqual({
      client_id: identity.clientId,
      grant_type: 'refresh_token',
      refresh_token: seeded.refresh_token,
    })
    const [first] = results
    for (const user of results) expect(user).toBe(first)
    expect(first?.refreshToken).toBe(
      answerOf(fx.tokenRequests()[0]).refresh_token,
    )
    expect((await fx.users.get())?.access_token).toBe(first?.accessToken)
    expect(fx.events.map((e) => e.name)).toEqual(['tokenRefreshed'])
    expect(fx.events[0]?.args).toEqual([first])
    // The cache is fresh again: no second request.
    await manager.getUser()
    expect(fx.tokenRequests()).toHaveLength(1)
  })

  test('behavior: an expired user without refresh token gives null', async () => {
    await fx.seed(-10, { refresh: false })
    expect(await fx.session().getUser()).toBeNull()
    expect(identity.requests).toEqual([])
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
    const seeded = await fx.seed(7200)
    const loginInteractively = vi.fn()
    const user = await fx.session({ loginInteractively }).login()
    expect(user?.refreshToken).toBe(seeded.refresh_token)
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
    await fx.seed(7200)
    await fx.users.set({ ...(await fx.users.get())!, id_token: undefined }) // no usable cached session
    const loginInteractively = vi.fn()
    const user = await fx.session({ loginInteractively }).login({
      useSilentLogin: true,
    })
    expect(user?.refreshToken).toBe(
      answerOf(fx.tokenRequests()[0]).refresh_token,
    )
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
    await fx.seed(-10, { refresh: 'revoked' })
    await expect(
      fx.session().login({ useCachedSession: true }),
    ).rejects.toMatchObject({
      message: 'Failed to refresh token: grant request is invalid',
      type: 'NOT_LOGGED_IN_ERROR',
    })
  })

  test('behavior: without useCachedSession a failed session read falls through to the popup', async () => {
    await fx.seed(-10, { refresh: 'revoked' })
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
    const tokens = await tokensFor(identity, 'store@example.com')
    const response: TokenResponse = {
      access_token: tokens.accessToken,
      id_token: tokens.idToken,
      refresh_token: tokens.refreshToken,
      token_type: 'Bearer',
      expires_in: 86_400,
    }
    const user = await fx.session().storeTokens(response)
    expect((await fx.users.get())?.access_token).toBe(response.access_token)
    expect(fx.events).toEqual([{ name: 'loggedIn', args: [user] }])
  })

  test('default: logout revokes the refresh token, removes the user, emits loggedOut', async () => {
    const seeded = await fx.seed(7200)
    const url = await fx.session().logout()
    expect(url).toBe(
      `${identity.issuer}/v2/logout?client_id=${identity.clientId}&returnTo=https%3A%2F%2Fgame.example%2Fbye`,
    )
    const [request] = identity.to('/oauth/revoke')
    expect(request?.status).toBe(200)
    expect(formOf(request!)).toEqual({
      client_id: identity.clientId,
      token: seeded.refresh_token,
      token_type_hint: 'refresh_token',
    })
    expect(await fx.users.get()).toBeNull()
    expect(fx.events.map((e) => e.name)).toEqual(['loggedOut'])
  })

  test('error: a failed revocation is a LOGOUT_ERROR and keeps the user', async () => {
    await fx.seed(7200)
    identity.answer(
      { path: '/oauth/revoke' },
      {
        status: 400,
        body: {
          error: 'invalid_request',
          error_description: 'revocation refused',
        },
      },
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
    expect(identity.requests).toEqual([])
    expect(fx.events.map((e) => e.name)).toEqual(['loggedOut'])
  })
})

describe('refresh failures', () => {
  test('error: a permanent OAuth error removes the user and throws NOT_LOGGED_IN_ERROR', async () => {
    await fx.seed(-10, { refresh: 'revoked' })
    const manager = fx.session({ retries: 3 })
    const error = await manager.getUser().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PassportError)
    expect(error).toMatchObject({
      message: 'Failed to refresh token: grant request is invalid',
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
            error: 'Failed to refresh token: grant request is invalid',
          },
        ],
      },
    ])
  })

  test('error: an invalid refresh answer (bad signature) removes the user', async () => {
    const seeded = await fx.seed(-10)
    const forged = await identity.sign(
      claimsOf(seeded.id_token ?? '', {
        exp: Math.floor(Date.now() / 1000) + 86_400,
      }),
      { key: 'stranger' },
    )
    identity.answer(
      { path: '/oauth/token' },
      {
        status: 200,
        body: {
          access_token: seeded.access_token,
          id_token: forged,
          refresh_token: seeded.refresh_token,
          token_type: 'Bearer',
          expires_in: 86_400,
        },
      },
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
    identity.answer(
      { path: '/oauth/token' },
      ...Array.from({ length: 4 }, () => ({
        status: 503,
        body: 'upstream down',
      })),
    )
    // Only the client's waits are on a fake clock; the HTTP round trips run.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const manager = fx.session({ retries: 3, random: () => 0.25 })
    const failure = manager.getUser().catch((error: unknown) => error)
    // The waits between the attempts: 1000 ms × (0.5 + 0.25).
    for (let attempt = 1; attempt < 4; attempt++) {
      await waitingAfter(attempt)
      await vi.advanceTimersByTimeAsync(749)
      expect(fx.tokenRequests()).toHaveLength(attempt)
      await vi.advanceTimersByTimeAsync(1)
    }
    expect(await failure).toMatchObject({
      message:
        'Failed to refresh token: "response" is not a conform Token Endpoint response (unexpected HTTP status code)',
      type: 'SILENT_LOGIN_ERROR',
    })
    expect(fx.tokenRequests().map((request) => request.status)).toEqual(
      Array(4).fill(503),
    )
    expect(await fx.users.get()).toEqual(stored)
    expect(fx.events).toEqual([])
  })

  test('behavior: a transient OAuth error then success', async () => {
    await fx.seed(-10)
    identity.answer(
      { path: '/oauth/token' },
      {
        status: 500,
        body: { error: 'server_error', error_description: 'try later' },
      },
    )
    const user = await fx.session({ retries: 3, retryDelayMs: 0 }).getUser()
    expect(fx.tokenRequests().map((request) => request.status)).toEqual([
      500, 200,
    ])
    expect(user?.refreshToken).toBe(
      answerOf(fx.tokenRequests()[1]).refresh_token,
    )
  })

  test('behavior: forceUserRefresh turns a failure into null', async () => {
    await fx.seed(7200, { refresh: 'revoked' })
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
