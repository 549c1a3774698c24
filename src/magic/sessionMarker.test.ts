import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createFakeTransport } from './_test/fakeTransport.js'
import { Magic } from './Magic.js'
import * as SessionMarker from './sessionMarker.js'
import * as Methods from './wire/methods.js'

/** A `localStorage` kept in a Map. */
function memoryLocalStorage() {
  const items = new Map<string, string>()
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    items,
  }
}

const apiKey = 'pk_live_MARKER'
const account = '0x00000000000000000000000000000000000000a1'

let storage: ReturnType<typeof memoryLocalStorage>
beforeEach(() => {
  storage = memoryLocalStorage()
  vi.stubGlobal('localStorage', storage)
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('SessionMarker.note', () => {
  test.each([
    [Methods.loginWithEmailOtp, 'did-token'],
    [`${Methods.loginWithEmailOtp}_testing_mode`, 'did-token'],
    [Methods.loginWithCredential, 'did-token'],
    [Methods.isLoggedIn, true],
    ['eth_accounts', [account]],
    [Methods.requestAccounts, [account]],
    [Methods.login, [account]],
  ] as const)('behavior: %s answering %j sets the marker', (method, result) => {
    SessionMarker.note(apiKey, method, result)
    expect(SessionMarker.mayExist(apiKey)).toBe(true)
    expect(storage.items.get(SessionMarker.key(apiKey))).toBe('1')
  })

  test.each([
    [Methods.isLoggedIn, false],
    ['eth_accounts', []],
    [Methods.requestAccounts, []],
    [Methods.logout, true],
    [Methods.logout, false],
  ] as const)(
    'behavior: %s answering %j removes the marker',
    (method, result) => {
      storage.setItem(SessionMarker.key(apiKey), '1')
      SessionMarker.note(apiKey, method, result)
      expect(SessionMarker.mayExist(apiKey)).toBe(false)
    },
  )

  test.each([
    ['eth_chainId', '0x1'],
    ['eth_getLogs', [{ address: account }]],
    [Methods.getInfo, { email: 'a@example.com' }],
  ] as const)(
    'behavior: %s answering %j leaves the marker as it is',
    (method, result) => {
      SessionMarker.note(apiKey, method, result)
      expect(SessionMarker.mayExist(apiKey)).toBe(false)
      storage.setItem(SessionMarker.key(apiKey), '1')
      SessionMarker.note(apiKey, method, result)
      expect(SessionMarker.mayExist(apiKey)).toBe(true)
    },
  )

  test('behavior: each API key has its own marker', () => {
    SessionMarker.note(apiKey, Methods.isLoggedIn, true)
    expect(SessionMarker.mayExist('pk_live_OTHER')).toBe(false)
  })
})

describe('SessionMarker.mayExist', () => {
  test('behavior: without localStorage (SSR) no session may exist, and note does not throw', () => {
    vi.stubGlobal('localStorage', undefined)
    SessionMarker.note(apiKey, Methods.isLoggedIn, true)
    expect(SessionMarker.mayExist(apiKey)).toBe(false)
  })

  test('behavior: where localStorage refuses access the page cannot tell: a session may exist', () => {
    const refused = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError')
    }
    vi.stubGlobal('localStorage', {
      getItem: refused,
      setItem: refused,
      removeItem: refused,
    })
    SessionMarker.note(apiKey, Methods.isLoggedIn, true)
    expect(SessionMarker.mayExist(apiKey)).toBe(true)
  })
})

describe('Magic writes the marker', () => {
  test('behavior: a login sets it and a logout removes it', async () => {
    const fake = createFakeTransport((request) => ({
      result:
        request.method === Methods.loginWithEmailOtp
          ? 'did-token'
          : request.method === 'eth_accounts'
            ? [account]
            : true,
    }))
    const magic = new Magic(apiKey, { transport: fake.transport })
    expect(SessionMarker.mayExist(apiKey)).toBe(false)
    await magic.auth.loginWithEmailOTP({
      email: 'a@example.com',
      showUI: false,
    })
    expect(SessionMarker.mayExist(apiKey)).toBe(true)
    await magic.user.logout()
    expect(SessionMarker.mayExist(apiKey)).toBe(false)
  })
})
