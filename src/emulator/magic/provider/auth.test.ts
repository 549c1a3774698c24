import { afterEach, describe, expect, test, vi } from 'vitest'
import { decodeDidToken } from './didToken.js'
import {
  call,
  codeOf,
  createDevice,
  createTestService,
  eventsOf,
  open,
} from './testkit.js'

const setup = createTestService

const names = (lines: Parameters<typeof eventsOf>[0]) =>
  eventsOf(lines).map(([name]) => name)

afterEach(() => {
  vi.useRealTimers()
})

describe('magic_auth_login_with_email_otp', () => {
  test('error: a wrong code emits invalid-email-otp, then the right one logs in', async () => {
    const { app, mailbox, now } = setup()
    const device = await createDevice({ now })
    const flow = await open(
      app,
      'magic_auth_login_with_email_otp',
      [{ email: 'ada@example.com', showUI: false }],
      { device },
    )
    await flow.event('email-otp-sent')
    const code = codeOf(mailbox, 'ada@example.com')!
    await flow.answer(
      'verify-email-otp',
      code === '123456' ? '654321' : '123456',
    )
    await flow.event('invalid-email-otp')
    await flow.answer('verify-email-otp', code)
    expect(typeof (await flow.done()).response.result).toBe('string')
    expect(names(flow.lines)).toEqual([
      'email-otp-sent',
      'invalid-email-otp',
      'Auth/id-token-created',
    ])
  })

  test('error: a code used after 10 minutes emits expired-email-otp; cancel ends with -10014', async () => {
    const { app, mailbox, advance } = setup()
    const flow = await open(app, 'magic_auth_login_with_email_otp', [
      { email: 'ada@example.com', showUI: false },
    ])
    await flow.event('email-otp-sent')
    advance(10 * 60 * 1000)
    await flow.answer('verify-email-otp', codeOf(mailbox, 'ada@example.com'))
    await flow.event('expired-email-otp')
    await flow.answer('cancel')
    expect((await flow.done()).response.error).toEqual({
      code: -10014,
      message: 'User canceled the request.',
    })
  })

  test('error: the fifth wrong code emits max-attempts-reached and ends with -10031', async () => {
    const { app, mailbox } = setup()
    const flow = await open(app, 'magic_auth_login_with_email_otp', [
      { email: 'ada@example.com', showUI: false },
    ])
    await flow.event('email-otp-sent')
    const wrong =
      codeOf(mailbox, 'ada@example.com') === '000000' ? '000001' : '000000'
    for (let attempt = 0; attempt < 5; attempt++)
      await flow.answer('verify-email-otp', wrong)
    expect((await flow.done()).response.error).toEqual({
      code: -10031,
      message: 'Too many wrong codes: the code is no longer valid.',
    })
    expect(names(flow.lines)).toEqual([
      'email-otp-sent',
      'invalid-email-otp',
      'invalid-email-otp',
      'invalid-email-otp',
      'invalid-email-otp',
      'max-attempts-reached',
    ])
  })

  test('error: a sixth code within 10 minutes emits login-throttled and ends with -10035', async () => {
    const { app, advance } = setup()
    const start = async () => {
      const flow = await open(app, 'magic_auth_login_with_email_otp', [
        { email: 'ada@example.com', showUI: false },
      ])
      await flow.next()
      await flow.answer('cancel')
      return flow.done()
    }
    for (let sent = 0; sent < 5; sent++) {
      await start()
      advance(60_000)
    }
    const throttled = await open(app, 'magic_auth_login_with_email_otp', [
      { email: 'ada@example.com', showUI: false },
    ])
    expect((await throttled.done()).response.error).toEqual({
      code: -10035,
      message: 'Too many codes were requested: try again later.',
    })
    expect(names(throttled.lines)).toEqual(['login-throttled'])
    advance(5 * 60_000)
    const again = await open(app, 'magic_auth_login_with_email_otp', [
      { email: 'ada@example.com', showUI: false },
    ])
    expect(await again.next()).toEqual({
      kind: 'event',
      event: 'email-otp-sent',
      params: [],
    })
    await again.answer('cancel')
  })

  test('error: a flow nobody answers times out with -10014 and is gone', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { app } = setup()
    const flow = await open(app, 'magic_auth_login_with_email_otp', [
      { email: 'ada@example.com', showUI: false },
    ])
    await flow.event('email-otp-sent')
    await vi.advanceTimersByTimeAsync(600_000)
    expect((await flow.done()).response.error).toEqual({
      code: -10014,
      message: 'The request timed out waiting for an answer.',
    })
    expect(await flow.answer('cancel')).toBe(404)
  })

  test('behavior: with the provider UI the flow shows the overlay and the email-otp screen', async () => {
    const { app, mailbox } = setup()
    const flow = await open(app, 'magic_auth_login_with_email_otp', [
      { email: 'ada@example.com' },
    ])
    expect(await flow.next()).toEqual({
      kind: 'event',
      event: 'email-otp-sent',
      params: [],
    })
    expect(await flow.next()).toEqual({ kind: 'overlay', show: true })
    expect(await flow.next()).toEqual({
      kind: 'screen',
      screen: 'email-otp',
      data: { email: 'ada@example.com' },
    })
    await flow.answer('verify-email-otp', codeOf(mailbox, 'ada@example.com'))
    await flow.event('Auth/id-token-created')
    expect(await flow.next()).toEqual({ kind: 'overlay', show: false })
    expect((await flow.next()).kind).toBe('response')
  })

  test('behavior: test mode logs test+success in without a code and fails test+fail with -10011', async () => {
    const { app, mailbox } = setup()
    const token = (
      await call(app, 'magic_auth_login_with_email_otp_testing_mode', [
        { email: 'test+success@magic.link', showUI: false },
      ])
    ).result as string
    expect(decodeDidToken(token).parsed.iss).toMatch(/^did:ethr:0x/)
    expect(mailbox.list()).toEqual([])
    expect(
      (
        await call(app, 'magic_auth_login_with_email_otp_testing_mode', [
          { email: 'test+fail@magic.link', showUI: false },
        ])
      ).error,
    ).toEqual({
      code: -10011,
      message: 'Test mode: test+fail addresses always fail to log in.',
    })
  })

  test('error: an invalid email is -32602', async () => {
    const { app } = setup()
    expect(
      (
        await call(app, 'magic_auth_login_with_email_otp', [
          { email: 'nope', showUI: false },
        ])
      ).error,
    ).toEqual({
      code: -32602,
      message: 'magic_auth_login_with_email_otp: expected a valid email.',
    })
  })
})
