import { describe, expect, test } from 'vitest'
import { decodeDidToken } from './didToken.js'
import {
  call,
  codeOf,
  createDevice,
  createTestService,
  eventsOf,
  loginByEmail,
  open,
} from './testkit.js'

const setup = createTestService

const names = (lines: Parameters<typeof eventsOf>[0]) =>
  eventsOf(lines).map(([name]) => name)

describe('magic_auth_login_with_sms', () => {
  test('behavior: the SMS code logs in (invalid-sms-otp, expired-sms-otp, sms-verified)', async () => {
    const { app, mailbox, registry, advance, now } = setup()
    const device = await createDevice({ now })
    const first = await open(
      app,
      'magic_auth_login_with_sms',
      [{ phoneNumber: '+1 555 010 0000', showUI: false }],
      { device },
    )
    await first.event('sms-otp-sent')
    advance(10 * 60 * 1000)
    await first.answer(
      'verify-sms-otp',
      codeOf(mailbox, '+15550100000', 'sms-otp'),
    )
    await first.event('expired-sms-otp')
    await first.answer('cancel')
    await first.done()

    const flow = await open(
      app,
      'magic_auth_login_with_sms',
      [{ phoneNumber: '+15550100000', showUI: false }],
      { device },
    )
    await flow.event('sms-otp-sent')
    const code = codeOf(mailbox, '+15550100000', 'sms-otp')!
    await flow.answer('verify-sms-otp', code === '000000' ? '000001' : '000000')
    await flow.event('invalid-sms-otp')
    await flow.answer('verify-sms-otp', code)
    await flow.event('sms-verified')
    const { response } = await flow.done()
    const user = registry.find({ phoneNumber: '+15550100000' })!
    expect(decodeDidToken(response.result as string).parsed.sub).toBe(user.id)
    expect(
      (
        (await call(app, 'magic_get_info', [], { device })).result as {
          phoneNumber: string
        }
      ).phoneNumber,
    ).toBe('+15550100000')
  })
})

describe('magic_auth_login_with_magic_link on a logged-in device', () => {
  test('error: another user is -10003; the same user gets a new token at once, with no link', async () => {
    const { app, mailbox, now } = setup()
    const device = await createDevice({ now })
    await loginByEmail(app, mailbox, 'first@example.com', device)
    const sent = mailbox.list().length
    const other = await call(
      app,
      'magic_auth_login_with_magic_link',
      [{ email: 'second@example.com', showUI: false }],
      { device },
    )
    expect(other.error).toEqual({
      code: -10003,
      message:
        'A user is already logged in: log out before another user logs in.',
    })
    const same = await call(
      app,
      'magic_auth_login_with_magic_link',
      [{ email: 'First@Example.com', showUI: false }],
      { device },
    )
    expect(decodeDidToken(same.result as string).parsed.iss).toMatch(
      /^did:ethr:0x/,
    )
    expect(mailbox.list()).toHaveLength(sent)
    await call(app, 'magic_auth_logout', [], { device })
    const after = await open(
      app,
      'magic_auth_login_with_magic_link',
      [{ email: 'second@example.com', showUI: false }],
      { device },
    )
    await after.event('email-sent')
    await after.answer('cancel')
    await after.done()
  })
})

describe("the caller's retry", () => {
  test('behavior: retry during an SMS login sends a new code: sms-otp-sent again, the old code is spent, the new one logs in', async () => {
    const { app, mailbox } = setup()
    const flow = await open(app, 'magic_auth_login_with_sms', [
      { phoneNumber: '+15550100001', showUI: false },
    ])
    await flow.event('sms-otp-sent')
    const old = codeOf(mailbox, '+15550100001', 'sms-otp')!
    await flow.answer('retry')
    await flow.event('sms-otp-sent')
    expect(mailbox.list({ to: '+15550100001' })).toHaveLength(2)
    const fresh = codeOf(mailbox, '+15550100001', 'sms-otp')!
    if (old !== fresh) {
      await flow.answer('verify-sms-otp', old)
      await flow.event('invalid-sms-otp')
    }
    await flow.answer('verify-sms-otp', fresh)
    expect(typeof (await flow.done()).response.result).toBe('string')
  })

  test('error: a retry beyond the send limit emits login-throttled and the code already sent still logs in', async () => {
    const { app, mailbox } = setup()
    const flow = await open(app, 'magic_auth_login_with_sms', [
      { phoneNumber: '+15550100002', showUI: false },
    ])
    await flow.event('sms-otp-sent')
    for (let sent = 1; sent < 5; sent++) {
      await flow.answer('retry')
      await flow.event('sms-otp-sent')
    }
    await flow.answer('retry')
    await flow.event('login-throttled')
    expect(mailbox.list({ to: '+15550100002' })).toHaveLength(5)
    await flow.answer(
      'verify-sms-otp',
      codeOf(mailbox, '+15550100002', 'sms-otp'),
    )
    expect(typeof (await flow.done()).response.result).toBe('string')
  })

  test('behavior: retry during a magic-link login sends a new link: email-sent again, the old link no longer works, the new one logs in', async () => {
    const { app, mailbox } = setup()
    const flow = await open(app, 'magic_auth_login_with_magic_link', [
      { email: 'retry@example.com', showUI: false },
    ])
    await flow.event('email-sent')
    const old = mailbox.list({ to: 'retry@example.com' })[0]!.link!
    await flow.answer('retry')
    await flow.event('email-sent')
    const fresh = mailbox.list({ to: 'retry@example.com' })[0]!.link!
    expect(fresh).not.toBe(old)
    expect((await app.request(old)).status).toBe(410)
    expect((await app.request(fresh)).status).toBe(200)
    expect(typeof (await flow.done()).response.result).toBe('string')
    expect(names(flow.lines)).toEqual([
      'email-sent',
      'email-sent',
      'Auth/id-token-created',
    ])
  })

  test('error: a magic-link retry beyond the send limit ends with -10002', async () => {
    const { app } = setup()
    const flow = await open(app, 'magic_auth_login_with_magic_link', [
      { email: 'many@example.com', showUI: false },
    ])
    await flow.event('email-sent')
    for (let sent = 1; sent < 5; sent++) {
      await flow.answer('retry')
      await flow.event('email-sent')
    }
    await flow.answer('retry')
    expect((await flow.done()).response.error).toEqual({
      code: -10002,
      message: 'Too many magic links were requested: try again later.',
    })
  })
})

describe('an address mail cannot reach (under .invalid)', () => {
  test('error: a magic link to it emits email-not-deliverable and ends with -10010, sending nothing', async () => {
    const { app, mailbox } = setup()
    const flow = await open(app, 'magic_auth_login_with_magic_link', [
      { email: 'ada@bounce.invalid', showUI: false },
    ])
    expect((await flow.done()).response.error).toEqual({
      code: -10010,
      message: 'Mail cannot be delivered to this email address.',
    })
    expect(names(flow.lines)).toEqual(['email-not-deliverable'])
    expect(mailbox.list()).toEqual([])
  })

  test('error: an email-OTP login to it ends with -10010 before any code is sent', async () => {
    const { app, mailbox } = setup()
    const flow = await open(app, 'magic_auth_login_with_email_otp', [
      { email: 'ada@example.invalid', showUI: false },
    ])
    expect((await flow.done()).response.error).toEqual({
      code: -10010,
      message: 'Mail cannot be delivered to this email address.',
    })
    expect(names(flow.lines)).toEqual([])
    expect(mailbox.list()).toEqual([])
  })
})

describe('magic_auth_login_with_sms in test mode', () => {
  test('behavior: +1 555 555 0100 logs in without an SMS; +1 555 555 0199 fails with -10011', async () => {
    const { app, mailbox, registry } = setup()
    const flow = await open(app, 'magic_auth_login_with_sms_testing_mode', [
      { phoneNumber: '+1 (555) 555-0100', showUI: false },
    ])
    const { response } = await flow.done()
    const user = registry.find({ phoneNumber: '+15555550100' })!
    expect(decodeDidToken(response.result as string).parsed.sub).toBe(user.id)
    expect(names(flow.lines)).toEqual(['Auth/id-token-created'])
    expect(
      (
        await call(app, 'magic_auth_login_with_sms_testing_mode', [
          { phoneNumber: '+15555550199', showUI: false },
        ])
      ).error,
    ).toEqual({
      code: -10011,
      message: 'Test mode: +15555550199 always fails to log in.',
    })
    expect(mailbox.list()).toEqual([])
  })

  test('behavior: other numbers in test mode, and the test numbers outside it, get a real SMS code', async () => {
    const { app, mailbox } = setup()
    const other = await open(app, 'magic_auth_login_with_sms_testing_mode', [
      { phoneNumber: '+15550100000', showUI: false },
    ])
    await other.event('sms-otp-sent')
    await other.answer('cancel')
    await other.done()
    const live = await open(app, 'magic_auth_login_with_sms', [
      { phoneNumber: '+15555550199', showUI: false },
    ])
    await live.event('sms-otp-sent')
    await live.answer(
      'verify-sms-otp',
      codeOf(mailbox, '+15555550199', 'sms-otp'),
    )
    await live.event('sms-verified')
    expect(typeof (await live.done()).response.result).toBe('string')
    expect(mailbox.list().map(({ to, kind }) => [to, kind])).toEqual([
      ['+15555550199', 'sms-otp'],
      ['+15550100000', 'sms-otp'],
    ])
  })
})

describe('magic_auth_login_with_magic_link', () => {
  test('behavior: opening the link logs the waiting flow in', async () => {
    const { app, mailbox } = setup()
    const flow = await open(app, 'magic_auth_login_with_magic_link', [
      { email: 'ada@example.com', showUI: false },
    ])
    await flow.event('email-sent')
    const { kind, link } = mailbox.list({ to: 'ada@example.com' })[0]!
    expect(kind).toBe('magic-link')
    const page = await app.request(link!)
    expect(await page.text()).toContain('You are logged in.')
    expect(typeof (await flow.done()).response.result).toBe('string')
    expect((await app.request(link!)).status).toBe(410)
  })

  test('behavior: with redirectURI the link redirects with a one-time credential that logs in once', async () => {
    const { app, mailbox, advance, now } = setup()
    const flow = await open(app, 'magic_auth_login_with_magic_link', [
      {
        email: 'ada@example.com',
        showUI: false,
        redirectURI: 'http://127.0.0.1:5173/callback',
      },
    ])
    await flow.event('email-sent')
    const opened = await app.request(
      mailbox.list({ to: 'ada@example.com' })[0]!.link!,
    )
    expect(opened.status).toBe(302)
    const target = new URL(opened.headers.get('location')!)
    expect(target.origin + target.pathname).toBe(
      'http://127.0.0.1:5173/callback',
    )
    // The login goes on at the redirect: the waiting request ends, -10015.
    expect((await flow.done()).response.error).toEqual({
      code: -10015,
      message: 'The login was completed on the redirect page.',
    })
    const device = await createDevice({ now })
    const login = await call(
      app,
      'magic_auth_login_with_credential',
      [target.search, 60],
      { device },
    )
    const claim = decodeDidToken(login.result as string).parsed
    expect(claim.ext - claim.iat).toBe(60)
    expect(
      (await call(app, 'magic_auth_login_with_credential', [target.search]))
        .error,
    ).toEqual({
      code: -10000,
      message: 'The credential is unknown or was already used.',
    })

    // A second credential, used too late.
    const late = await open(app, 'magic_auth_login_with_magic_link', [
      { email: 'ada@example.com', redirectURI: 'http://127.0.0.1:5173/cb' },
    ])
    await late.event('email-sent')
    const redirect = await app.request(
      mailbox.list({ to: 'ada@example.com' })[0]!.link!,
    )
    const credential = new URL(
      redirect.headers.get('location')!,
    ).searchParams.get('magic_credential')!
    advance(10 * 60 * 1000)
    expect(
      (await call(app, 'magic_auth_login_with_credential', [credential])).error,
    ).toEqual({ code: -10001, message: 'The credential expired.' })
  })

  test('error: an expired link ends the flow with -10001', async () => {
    const { app, mailbox, advance } = setup()
    const flow = await open(app, 'magic_auth_login_with_magic_link', [
      { email: 'ada@example.com', showUI: false },
    ])
    await flow.event('email-sent')
    advance(15 * 60 * 1000)
    const page = await app.request(
      mailbox.list({ to: 'ada@example.com' })[0]!.link!,
    )
    expect(page.status).toBe(410)
    expect((await flow.done()).response.error).toEqual({
      code: -10001,
      message: 'The magic link expired.',
    })
  })

  test('error: a sixth magic link within 10 minutes is -10002', async () => {
    const { app } = setup()
    for (let sent = 0; sent < 5; sent++) {
      const flow = await open(app, 'magic_auth_login_with_magic_link', [
        { email: 'ada@example.com', showUI: false },
      ])
      await flow.event('email-sent')
      await flow.answer('cancel')
      await flow.done()
    }
    expect(
      (
        await call(app, 'magic_auth_login_with_magic_link', [
          { email: 'ada@example.com', showUI: false },
        ])
      ).error,
    ).toEqual({
      code: -10002,
      message: 'Too many magic links were requested: try again later.',
    })
  })

  test('error: a redirectURI neither loopback nor on the dApp origin is -10006', async () => {
    const { app, mailbox } = setup()
    const invalid = {
      code: -10006,
      message:
        "The redirect URI must be a loopback URL or on the dApp's own origin.",
    }
    for (const redirectURI of [
      'https://evil.example/cb',
      'http://dapp.example.evil/cb',
      'https://dapp.example:8443/cb',
      'javascript:alert(1)',
      'not a url',
      42,
    ])
      expect(
        (
          await call(
            app,
            'magic_auth_login_with_magic_link',
            [{ email: 'ada@example.com', showUI: false, redirectURI }],
            { domainOrigin: 'https://dapp.example' },
          )
        ).error,
      ).toEqual(invalid)
    expect(mailbox.list()).toEqual([])
  })

  test('behavior: a redirectURI on the dApp origin, or on a loopback host, is accepted', async () => {
    const { app, mailbox } = setup()
    for (const redirectURI of [
      'https://dapp.example/after-login?x=1',
      'http://localhost:3000/cb',
    ]) {
      const flow = await open(
        app,
        'magic_auth_login_with_magic_link',
        [{ email: 'ada@example.com', showUI: false, redirectURI }],
        { domainOrigin: 'https://dapp.example' },
      )
      await flow.event('email-sent')
      const opened = await app.request(
        mailbox.list({ to: 'ada@example.com' })[0]!.link!,
      )
      const target = new URL(opened.headers.get('location')!)
      expect(`${target.origin}${target.pathname}`).toBe(
        redirectURI.split('?')[0],
      )
      expect(target.searchParams.get('magic_credential')).toMatch(/^[\w-]{32}$/)
      await flow.done()
    }
  })
})
