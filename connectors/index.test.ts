import { describe, expect, test } from 'vitest'
import * as Entry from './index.js'

describe('embedded-wallets/connectors', () => {
  test('exports', () => {
    expect(Object.keys(Entry).sort()).toMatchInlineSnapshot(`
      [
        "magic",
        "passport",
      ]
    `)
  })
})
