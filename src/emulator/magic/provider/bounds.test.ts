import { describe, expect, test } from 'vitest'
import { methods } from '../../../magic/wire/methods.js'
import {
  cap,
  maxAuthorizationTokens,
  maxCredentials,
  maxLinks,
  maxSessions,
  sweep,
} from './bounds.js'
import type { Context, Deps } from './context.js'
import {
  createCredential,
  createLink,
  credentialLifetime,
  linkLifetime,
} from './links.js'
import { userHandlers } from './methods/user.js'
import { createSessions, sessionLifetime } from './session.js'
import {
  call,
  createDevice,
  createTestService,
  loginByEmail,
  open,
} from './testkit.js'

/** The parts of the service's state the bounds apply to. */
function state(clock: { now: number }): Deps {
  return {
    links: new Map(),
    credentials: new Map(),
    now: () => new Date(clock.now),
  } as Deps
}

describe('sweep and cap', () => {
  test('behavior: sweep removes from the oldest until the first live entry', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 9],
      ['d', 3],
    ])
    sweep(map, (value) => value < 5)
    expect([...map]).toEqual([
      ['c', 9],
      ['d', 3],
    ])
  })

  test('behavior: cap removes the oldest entries beyond the limit', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ])
    cap(map, 2)
    expect([...map.keys()]).toEqual(['b', 'c'])
    cap(map, 5)
    expect([...map.keys()]).toEqual(['b', 'c'])
  })
})

describe('links and credentials', () => {
  test('behavior: at most 10,000 links are kept; the oldest goes first', () => {
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') }
    const deps = state(clock)
    const create = () =>
      createLink(deps, {
        kind: 'magic-link',
        flowId: 'f',
        email: 'ada@example.com',
        origin: 'http://127.0.0.1:4401',
      })
    const first = create()
    for (let index = 1; index <= maxLinks; index++) create()
    expect(maxLinks).toBe(10_000)
    expect(deps.links.size).toBe(10_000)
    expect(deps.links.has(first.split('/').pop()!)).toBe(false)
  })

  test('behavior: an expired link is kept one more lifetime, then swept when a link is created', () => {
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') }
    const deps = state(clock)
    const link = (email: string) =>
      createLink(deps, {
        kind: 'device-approval',
        flowId: 'f',
        email,
        origin: 'http://127.0.0.1:4401',
      })
    link('old@example.com')
    clock.now += 2 * linkLifetime - 1
    link('new@example.com')
    expect(deps.links.size).toBe(2)
    clock.now += 1
    link('newer@example.com')
    expect([...deps.links.values()].map((entry) => entry.email)).toEqual([
      'new@example.com',
      'newer@example.com',
    ])
  })

  test('behavior: at most 10,000 credentials are kept; expired ones are swept after one more lifetime', () => {
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') }
    const deps = state(clock)
    const first = createCredential(deps, 'ada@example.com')
    for (let index = 1; index <= maxCredentials; index++)
      createCredential(deps, 'ada@example.com')
    expect(maxCredentials).toBe(10_000)
    expect(deps.credentials.size).toBe(10_000)
    expect(deps.credentials.has(first)).toBe(false)
    clock.now += 2 * credentialLifetime
    createCredential(deps, 'ada@example.com')
    expect(deps.credentials.size).toBe(1)
  })

  test('behavior: an opened link and a used credential are forgotten', async () => {
    const { app, mailbox } = createTestService()
    const flow = await open(app, 'magic_auth_login_with_magic_link', [
      {
        email: 'ada@example.com',
        showUI: false,
        redirectURI: 'http://127.0.0.1:5173/cb',
      },
    ])
    await flow.event('email-sent')
    const link = mailbox.list({ to: 'ada@example.com' })[0]!.link!
    const opened = await app.request(link)
    expect(opened.status).toBe(302)
    expect((await app.request(link)).status).toBe(410)
    await flow.done()
    const credential = new URL(
      opened.headers.get('location')!,
    ).searchParams.get('magic_credential')!
    expect(
      typeof (await call(app, 'magic_auth_login_with_credential', [credential]))
        .result,
    ).toBe('string')
    expect(
      (await call(app, 'magic_auth_login_with_credential', [credential])).error,
    ).toEqual({
      code: -10000,
      message: 'The credential is unknown or was already used.',
    })
  })
})

describe('sessions', () => {
  test('behavior: at most 10,000 sessions are kept; the oldest device is logged out', () => {
    const sessions = createSessions()
    const first = sessions.create({ userId: 'u', apiKey: 'pk', jkt: undefined })
    for (let index = 1; index <= maxSessions; index++)
      sessions.create({ userId: 'u', apiKey: 'pk', jkt: undefined })
    expect(maxSessions).toBe(10_000)
    expect(sessions.size()).toBe(10_000)
    expect(sessions.get(first.rt, 'pk')).toBeUndefined()
  })

  test('behavior: expired sessions are swept when a session is created', () => {
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') }
    const sessions = createSessions({ now: () => new Date(clock.now) })
    sessions.create({ userId: 'a', apiKey: 'pk', jkt: undefined })
    sessions.create({ userId: 'b', apiKey: 'pk', jkt: undefined })
    clock.now += sessionLifetime
    const live = sessions.create({ userId: 'c', apiKey: 'pk', jkt: undefined })
    expect(sessions.size()).toBe(1)
    expect(sessions.get(live.rt, 'pk')?.userId).toBe('c')
  })
})

describe('magic_auth_set_authorization_token bounds', () => {
  test('error: a token longer than 16 KiB is -32602', async () => {
    const { app, mailbox, now } = createTestService()
    const device = await createDevice({ now })
    await loginByEmail(app, mailbox, 'ada@example.com', device)
    expect(
      (
        await call(
          app,
          'magic_auth_set_authorization_token',
          [{ jwt: 'x'.repeat(16 * 1024 + 1) }],
          { device },
        )
      ).error,
    ).toEqual({
      code: -32602,
      message: 'The authorization token is longer than 16384 characters.',
    })
    expect(
      (
        await call(
          app,
          'magic_auth_set_authorization_token',
          [{ jwt: 'x'.repeat(16 * 1024) }],
          { device },
        )
      ).result,
    ).toBe(true)
  })

  test('behavior: tokens are capped at 1,000 and forgotten at logout', async () => {
    const authorizationTokens = new Map<string, string>()
    const sessions = createSessions()
    const context = (rt: string, jwt?: string) =>
      ({
        options: { jwt },
        session: { rt },
        jkt: undefined,
        apiKey: 'pk',
        deps: { authorizationTokens, sessions },
      }) as unknown as Context
    const set = userHandlers[methods.setAuthorizationToken]!
    for (let index = 0; index <= maxAuthorizationTokens; index++)
      expect(await set(context(`rt-${index}`, `jwt-${index}`))).toBe(true)
    expect(maxAuthorizationTokens).toBe(1_000)
    expect(authorizationTokens.size).toBe(1_000)
    expect(authorizationTokens.has('rt-0')).toBe(false)
    expect(authorizationTokens.get('rt-1000')).toBe('jwt-1000')
    await userHandlers[methods.logout]!(context('rt-1000'))
    expect(authorizationTokens.has('rt-1000')).toBe(false)
  })
})
