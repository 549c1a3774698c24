import { afterEach, describe, expect, test, vi } from 'vitest'
import * as SessionMarker from './sessionMarker.js'

/** A `localStorage` holding `keys`. */
function localStorageWith(...keys: string[]): Partial<globalThis.Storage> {
  return {
    length: keys.length,
    key: (index: number) => keys[index] ?? null,
  }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('SessionMarker', () => {
  test('default: the key is the published oidc-client-ts one', () => {
    expect(SessionMarker.storageKey('https://auth.example', 'client')).toBe(
      'oidc.user:https://auth.example:client',
    )
  })

  test('behavior: a stored user of the client means a session may exist', () => {
    vi.stubGlobal(
      'localStorage',
      localStorageWith(
        'pkce_state',
        SessionMarker.storageKey('https://auth.example', 'client'),
      ),
    )
    expect(SessionMarker.mayExist('client')).toBe(true)
    expect(SessionMarker.mayExist(undefined)).toBe(true)
    expect(SessionMarker.mayExist('other')).toBe(false)
  })

  test('behavior: no stored user, no session', () => {
    vi.stubGlobal('localStorage', localStorageWith('pkce_state', 'oidc.abc'))
    expect(SessionMarker.mayExist('client')).toBe(false)
    expect(SessionMarker.mayExist(undefined)).toBe(false)
  })

  test('behavior: without localStorage, or where it refuses access, the client keeps its user in memory: no session survived', () => {
    vi.stubGlobal('localStorage', undefined)
    expect(SessionMarker.mayExist('client')).toBe(false)
    vi.stubGlobal('localStorage', {
      get length(): number {
        throw new DOMException('The operation is insecure.', 'SecurityError')
      },
    })
    expect(SessionMarker.mayExist(undefined)).toBe(false)
  })
})
