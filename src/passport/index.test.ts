import * as Published from '@imtbl/passport'
import * as Published2140 from 'imtbl-passport-2.14.0'
import { describe, expect, expectTypeOf, test } from 'vitest'
import * as Entry from './index.js'

describe('embedded-wallets/passport', () => {
  test('exports', () => {
    expect(Object.keys(Entry).sort()).toMatchInlineSnapshot(`
      [
        "Environment",
        "JsonRpcError",
        "MarketingConsentStatus",
        "Passport",
        "PassportError",
        "PassportErrorType",
        "ProviderErrorCode",
        "ProviderEvent",
        "RpcErrorCode",
        "linkWalletTypedData",
        "withPassportError",
      ]
    `)
  })

  test('types: the confirmation popup option names its modes', () => {
    expectTypeOf<Entry.ConfirmationPopupMode>().toEqualTypeOf<
      'eager' | 'on-demand'
    >()
    expectTypeOf<
      NonNullable<Entry.PassportModuleConfiguration['confirmationPopup']>
    >().toEqualTypeOf<Entry.ConfirmationPopupMode>()
  })

  test('behavior: every value the published @imtbl/passport exports is exported, with its members', () => {
    // Switching from the published SDK is an import change: each of its
    // runtime names exists here, and its enums hold the same members (ours
    // may add one, as RpcErrorCode's -32004 for wallet_sendTransaction).
    const published = Object.keys(Published).sort()
    expect(
      published.filter((name) => !Object.keys(Entry).includes(name)),
    ).toEqual([])
    const enums = [
      [Entry.MarketingConsentStatus, Published.MarketingConsentStatus],
      [Entry.ProviderErrorCode, Published.ProviderErrorCode],
      [Entry.ProviderEvent, Published.ProviderEvent],
      [Entry.RpcErrorCode, Published.RpcErrorCode],
    ] as const
    for (const [ours, theirs] of enums)
      expect({ ...ours }).toMatchObject(
        Object.fromEntries(
          Object.entries(theirs).filter(
            // TypeScript numeric enums map values back to names too.
            ([key]) => Number.isNaN(Number(key)),
          ),
        ),
      )
  })

  test('behavior: every value the published 2.14.0 (the last with StarkEx) exports is exported, with its members', () => {
    // A game still on 2.14.0's StarkEx layer switches by its import too.
    const published = Object.keys(Published2140).sort()
    expect(
      published.filter((name) => !Object.keys(Entry).includes(name)),
    ).toEqual([])
    const enums = [
      [Entry.MarketingConsentStatus, Published2140.MarketingConsentStatus],
      [Entry.ProviderErrorCode, Published2140.ProviderErrorCode],
      [Entry.ProviderEvent, Published2140.ProviderEvent],
      [Entry.RpcErrorCode, Published2140.RpcErrorCode],
    ] as const
    for (const [ours, theirs] of enums)
      expect({ ...ours }).toMatchObject(
        Object.fromEntries(
          Object.entries(theirs).filter(([key]) => Number.isNaN(Number(key))),
        ),
      )
  })

  test('behavior: connectImx and connectImxSilent exist on Passport as in 2.14.0', () => {
    for (const name of ['connectImx', 'connectImxSilent'] as const) {
      expect(typeof Entry.Passport.prototype[name]).toBe('function')
      expect(typeof Published2140.Passport.prototype[name]).toBe('function')
    }
  })
})
