import { describe, expect, test } from 'vitest'
import { isEmailAddress, normalizeContact } from './contact.js'

describe('normalizeContact', () => {
  test('default: emails and phone numbers', () => {
    expect(normalizeContact('\tAda@Example.com\n')).toBe('ada@example.com')
    expect(normalizeContact(' +44 (20) 7946-0000 ')).toBe('+442079460000')
  })

  test('behavior: a + that a form made of a space is dropped, the leading one kept', () => {
    expect(normalizeContact('+1+555+555+0100')).toBe('+15555550100')
  })
})

describe('isEmailAddress', () => {
  test('default: a local part, an @ and a dotted domain', () => {
    expect(isEmailAddress('ada@example.com')).toBe(true)
    expect(isEmailAddress('test+success@mail.example.co.uk')).toBe(true)
  })

  test('error: no domain dot, empty labels, whitespace, two @, not a string', () => {
    for (const value of [
      'ada@localhost',
      'ada@example.',
      'ada@.example',
      'ada@example..com',
      'a da@example.com',
      'ada@b@example.com',
      '@example.com',
      42,
      undefined,
    ])
      expect(isEmailAddress(value)).toBe(false)
  })

  test('behavior: at most 254 characters', () => {
    const local = 'a'.repeat(64)
    const domain = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`
    expect(`${local}@${domain}`.length).toBe(254)
    expect(isEmailAddress(`${local}@${domain}`)).toBe(true)
    expect(isEmailAddress(`${local}@${domain}m`)).toBe(false)
    // The length check refuses this before any pattern runs.
    expect(isEmailAddress(`a@${'.'.repeat(1_000_000)}`)).toBe(false)
  })
})
