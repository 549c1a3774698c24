import { describe, expect, test } from 'vitest'
import * as Mailbox from './mailbox.js'

/** A clock that ticks one second per call from 2026-01-01T00:00:00Z. */
function clock() {
  let seconds = 0
  return () => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds++))
}

const { maxMessages, maxRecipientLength } = Mailbox

describe('Mailbox.create', () => {
  test('default: an empty mailbox', () => {
    expect(Mailbox.create().list()).toEqual([])
  })

  test('behavior: deliver stamps and returns the message', () => {
    const mailbox = Mailbox.create({ now: clock() })
    expect(
      mailbox.deliver({
        to: 'ada@example.com',
        kind: 'email-otp',
        code: '123456',
      }),
    ).toEqual({
      to: 'ada@example.com',
      kind: 'email-otp',
      code: '123456',
      at: '2026-01-01T00:00:00.000Z',
    })
  })

  test('behavior: absent code and link are omitted, not undefined', () => {
    const mailbox = Mailbox.create({ now: clock() })
    const message = mailbox.deliver({ to: 'ada@example.com', kind: 'notice' })
    expect(Object.keys(message)).toEqual(['to', 'kind', 'at'])
    const withLink = mailbox.deliver({
      to: 'ada@example.com',
      kind: 'magic-link',
      code: undefined,
      link: 'http://127.0.0.1:4401/confirm?t=1',
    })
    expect(Object.keys(withLink)).toEqual(['to', 'kind', 'link', 'at'])
  })

  test('behavior: list is newest first, also within one millisecond', () => {
    const at = new Date(Date.UTC(2026, 0, 1))
    const mailbox = Mailbox.create({ now: () => at })
    mailbox.deliver({ to: 'a@example.com', kind: 'email-otp', code: '1' })
    mailbox.deliver({ to: 'b@example.com', kind: 'email-otp', code: '2' })
    mailbox.deliver({ to: 'a@example.com', kind: 'email-otp', code: '3' })
    expect(mailbox.list().map((message) => message.code)).toEqual([
      '3',
      '2',
      '1',
    ])
  })

  test('behavior: list filters by recipient', () => {
    const mailbox = Mailbox.create({ now: clock() })
    mailbox.deliver({ to: 'a@example.com', kind: 'email-otp', code: '1' })
    mailbox.deliver({ to: '+15550100000', kind: 'sms-otp', code: '2' })
    mailbox.deliver({ to: 'a@example.com', kind: 'email-otp', code: '3' })
    expect(mailbox.list({ to: 'a@example.com' })).toEqual([
      {
        to: 'a@example.com',
        kind: 'email-otp',
        code: '3',
        at: '2026-01-01T00:00:02.000Z',
      },
      {
        to: 'a@example.com',
        kind: 'email-otp',
        code: '1',
        at: '2026-01-01T00:00:00.000Z',
      },
    ])
    expect(mailbox.list({ to: 'nobody@example.com' })).toEqual([])
  })

  test('behavior: emails are trimmed and lower-cased on deliver and list', () => {
    const mailbox = Mailbox.create({ now: clock() })
    mailbox.deliver({ to: '  Ada.Lovelace@Example.COM ', kind: 'email-otp' })
    expect(mailbox.list({ to: 'ADA.lovelace@example.com' })).toEqual([
      {
        to: 'ada.lovelace@example.com',
        kind: 'email-otp',
        at: '2026-01-01T00:00:00.000Z',
      },
    ])
  })

  test('behavior: phone numbers lose spaces, dashes and parentheses', () => {
    const mailbox = Mailbox.create({ now: clock() })
    mailbox.deliver({ to: '+1 (555) 010-0000', kind: 'sms-otp', code: '42' })
    expect(mailbox.list({ to: '+1-555-010 0000' })).toEqual([
      {
        to: '+15550100000',
        kind: 'sms-otp',
        code: '42',
        at: '2026-01-01T00:00:00.000Z',
      },
    ])
    expect(mailbox.list({ to: '+1+555+010+0000' })).toHaveLength(1)
    expect(mailbox.list({ to: '15550100000' })).toEqual([])
  })

  test('behavior: list returns a copy', () => {
    const mailbox = Mailbox.create({ now: clock() })
    mailbox.deliver({ to: 'a@example.com', kind: 'email-otp' })
    const list = mailbox.list() as Mailbox.Message[]
    list.pop()
    expect(mailbox.list()).toHaveLength(1)
  })

  test('behavior: clear removes every message', () => {
    const mailbox = Mailbox.create({ now: clock() })
    mailbox.deliver({ to: 'a@example.com', kind: 'email-otp' })
    mailbox.clear()
    expect(mailbox.list()).toEqual([])
  })

  test('error: an empty recipient', () => {
    const mailbox = Mailbox.create()
    expect(() =>
      mailbox.deliver({ to: ' ( ) ', kind: 'sms-otp' }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[Mailbox.InvalidRecipientError: Cannot deliver a message to " ( ) ": no recipient.]`,
    )
    expect(mailbox.list()).toEqual([])
  })

  test('behavior: it keeps the newest 1000 messages', () => {
    expect(maxMessages).toBe(1000)
    const mailbox = Mailbox.create({ now: clock() })
    for (let i = 0; i < maxMessages + 5; i++)
      mailbox.deliver({ to: `u${i % 3}@example.com`, kind: 'x', code: `${i}` })
    const codes = mailbox.list().map((message) => message.code)
    expect(codes).toHaveLength(maxMessages)
    expect(codes[0]).toBe(`${maxMessages + 4}`)
    expect(codes.at(-1)).toBe('5')
    expect(mailbox.list({ to: 'u0@example.com' })[0]?.code).toBe('1002')
  })

  test('error: a recipient over 254 characters', () => {
    expect(maxRecipientLength).toBe(254)
    const mailbox = Mailbox.create()
    const longest = `${'a'.repeat(64)}@${'b'.repeat(189)}`
    expect(mailbox.deliver({ to: longest, kind: 'x' }).to).toBe(longest)
    expect(() =>
      mailbox.deliver({ to: `${longest}c`, kind: 'x' }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[Mailbox.InvalidRecipientError: Cannot deliver a message to "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…": longer than 254 characters.]`,
    )
    expect(mailbox.list()).toHaveLength(1)
  })
})
