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
})
