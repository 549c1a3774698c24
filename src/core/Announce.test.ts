import { describe, expect, test } from 'vitest'
import * as Announce from './Announce.js'

const provider = { request: async () => null }

describe('Announce.announce', () => {
  test('default: without a window (SSR) returns a no-op', () => {
    expect(typeof window).toBe('undefined')
    const unsubscribe = Announce.announce({
      provider,
      info: {
        name: 'Test Wallet',
        icon: 'data:image/svg+xml,<svg/>',
        rdns: 'com.example.test',
      },
    })
    expect(unsubscribe()).toBe(undefined)
  })

  test('error: the icon must be a data:image/ URI', () => {
    const announce = (icon: string) => () =>
      Announce.announce({
        provider,
        info: { name: 'Test Wallet', icon, rdns: 'com.example.test' },
      })
    expect(
      announce('https://example.com/icon.svg'),
    ).toThrowErrorMatchingInlineSnapshot(`
      [Announce.InvalidIconError: The EIP-6963 icon must be a data:image/ URI (RFC 2397).

      Details: Received: https://example.com/icon.svg]
    `)
    expect(announce('data:text/plain,hello')).toThrow(Announce.InvalidIconError)
    expect(announce('data:image/')).toThrow(Announce.InvalidIconError)
    expect(announce(`data:text/${'x'.repeat(60)}`)).toThrowError(
      `Details: Received: data:text/${'x'.repeat(30)}…`,
    )
    expect(announce('data:image/png;base64,iVBORw0KGgo=')).not.toThrow()
  })
})
