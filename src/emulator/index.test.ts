import { describe, expect, test } from 'vitest'
import * as Entry from './index.js'

describe('embedded-wallets/emulator', () => {
  test('exports', () => {
    expect(Object.keys(Entry).sort()).toMatchInlineSnapshot(`
      [
        "StartError",
        "getPorts",
        "services",
        "startEmulator",
      ]
    `)
  })

  test('behavior: the service list, in start order', () => {
    expect(
      Entry.services.map((service) => service.name),
    ).toMatchInlineSnapshot(`
      [
        "dev",
        "magic",
        "identity",
        "relayer",
        "api",
        "starkex",
        "tee",
        "passport",
      ]
    `)
  })

  // An invalid port base too, so that nothing could start even if the
  // URIs were not checked first.
  test('error: a redirect URI the identity provider would refuse stops the start before anything runs', async () => {
    await expect(
      Entry.startEmulator({
        portBase: 0,
        passportRedirectUri: 'https://example.com/cb',
      }),
    ).rejects.toThrowError(
      expect.objectContaining({
        name: 'Emulator.StartError',
        shortMessage:
          'The emulator could not use "https://example.com/cb" as the game wallet\'s login callback page.',
        details:
          'The emulated identity provider accepts only loopback http URLs (localhost, 127.0.0.1 or [::1], no fragment) as redirect URIs.',
      }),
    )
    await expect(
      Entry.startEmulator({
        portBase: 0,
        passportLogoutRedirectUri: 'http://localhost:3000/logout#done',
      }),
    ).rejects.toThrowError(
      expect.objectContaining({
        shortMessage:
          'The emulator could not use "http://localhost:3000/logout#done" as the game wallet\'s logout page.',
      }),
    )
  })
})
