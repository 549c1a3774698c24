import { describe, expect, test } from 'vitest'
import { normalizeContact } from './contact.js'

describe('normalizeContact', () => {
  test('default: emails and phone numbers', () => {
    expect(normalizeContact('\tAda@Example.com\n')).toBe('ada@example.com')
    expect(normalizeContact(' +44 (20) 7946-0000 ')).toBe('+442079460000')
  })

  test('behavior: a + that a form made of a space is dropped, the leading one kept', () => {
    expect(normalizeContact('+1+555+555+0100')).toBe('+15555550100')
  })
})
