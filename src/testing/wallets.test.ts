import { describe, expect, test } from 'vitest'
import type { TestKit } from './kit.js'
import { createWallets } from './wallets.js'

/** The parts of a kit `newUser` reads: the JSON line's origins. */
const kit = {
  info: {
    magic: { endpoint: 'http://127.0.0.1:4401' },
    passport: {
      authenticationDomain: 'http://127.0.0.1:4402',
      passportDomain: 'http://127.0.0.1:4403',
    },
  },
} as unknown as TestKit

describe('wallets.newUser', () => {
  test('behavior: an example.com address and an E.164 phone number naming the worker', () => {
    const user = createWallets({ kit, worker: 3 }).newUser()
    expect(user.email).toMatch(/^user-w3-\d+-[0-9a-z]{7}@example\.com$/)
    expect(user.phone).toMatch(/^\+155503\d{7}$/)
  })

  test('behavior: users never repeat, within a test, across tests and across workers', () => {
    const users = [0, 1, 0, 1].flatMap((worker) => {
      const wallets = createWallets({ kit, worker })
      return Array.from({ length: 50 }, () => wallets.newUser())
    })
    expect(new Set(users.map((user) => user.email)).size).toBe(users.length)
    expect(new Set(users.map((user) => user.phone)).size).toBe(users.length)
  })

  test('param: label, made safe for an address', () => {
    const wallets = createWallets({ kit, worker: 0 })
    expect(wallets.newUser({ label: 'Ada Lovelace!' }).email).toMatch(
      /^ada-lovelace-w0-\d+-[0-9a-z]{7}@example\.com$/,
    )
    expect(wallets.newUser({ label: '!!!' }).email).toMatch(/^user-w0-/)
  })
})
