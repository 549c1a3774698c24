import * as oauth from 'oauth4webapi'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { PassportError } from '../errors.js'
import { json } from './_test/idp.js'
import { sessionFixture } from './_test/session.js'
import { classify, permanentOAuthErrors } from './session.js'

const fx = sessionFixture()

afterEach(() => {
  vi.useRealTimers()
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
