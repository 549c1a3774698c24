import type { EIP1193Provider } from 'viem'
import { describe, expect, test } from 'vitest'
import { createFakeTransport } from './_test/fakeTransport.js'
import * as Entry from './index.js'

/**
 * Public method names of magic-sdk 33.13.0, read from the .d.ts files of
 * @magic-sdk/provider (modules/*.d.ts, core/sdk.d.ts).
 */
const published = {
  auth: [
    'loginWithMagicLink',
    'loginWithSMS',
    'loginWithEmailOTP',
    'loginWithCredential',
    'setAuthorizationToken',
    'updateEmailWithUI',
  ],
  user: [
    'getIdToken',
    'generateIdToken',
    'getInfo',
    'isLoggedIn',
    'logout',
    'requestInfoWithUI',
    'showSettings',
    'recoverAccount',
    'revealEVMPrivateKey',
    'revealPrivateKey',
    'onUserLoggedOut',
    'enableMFA',
    'disableMFA',
  ],
  wallet: [
    'connectWithUI',
    'showUI',
    'showAddress',
    'showSendTokensUI',
    'showOnRamp',
    'showNFTs',
    'showBalances',
    // The 7702 methods arrived in 33.x; 29.0.6, the release whose protocol
    // this client speaks, did not have them.
    'sign7702Authorization',
    'send7702Transaction',
    // In the published SDK up to its February 2026 removal (not in 33.13.0's
    // .d.ts); kept for apps written before it, since the provider still
    // answers its wire method, eth_sendGaslessTransaction.
    'sendGaslessTransaction',
  ],
  nft: ['purchase', 'checkout', 'transfer'],
  rpcProvider: [
    'isMagic',
    'sendAsync',
    'send',
    'enable',
    'request',
    'on',
    'once',
    'addListener',
    'off',
    'removeListener',
    'removeAllListeners',
    'emit',
    'eventNames',
    'listeners',
    'listenerCount',
  ],
  // `handleIframeThirdPartyWalletRequest` (wallet-kit widget only) is left out.
  thirdPartyWallets: [
    'eventListeners',
    'enabledWallets',
    'isConnected',
    'resetThirdPartyWalletState',
    'requestOverride',
  ],
  instance: [
    'apiKey',
    'testMode',
    'useStorageCache',
    'auth',
    'user',
    'wallet',
    'nft',
    'thirdPartyWallets',
    'rpcProvider',
    'preload',
  ],
}

const sorted = (names: Iterable<string>) => [...names].sort()

function instanceNames(value: object): string[] {
  const own = Object.keys(value)
  const proto = Object.getOwnPropertyNames(Object.getPrototypeOf(value))
  return [...own, ...proto.filter((name) => name !== 'constructor')]
}

describe('embedded-wallets/magic', () => {
  test('default: exports Magic (default and named), the errors, Extension, MultichainExtension and OpenIdExtension', () => {
    expect(Object.keys(Entry).sort()).toMatchInlineSnapshot(`
      [
        "Extension",
        "Magic",
        "MagicExtensionError",
        "MagicExtensionWarning",
        "MagicRPCError",
        "MagicSDK",
        "MagicSDKError",
        "MagicSDKWarning",
        "MultichainExtension",
        "OpenIdExtension",
        "default",
        "version",
      ]
    `)
    expect(Entry.default).toBe(Entry.Magic)
  })

  test('behavior: every module has exactly the published public methods', () => {
    const magic = new Entry.Magic('pk', {
      transport: createFakeTransport().transport,
      deferPreload: true,
    })
    for (const module of [
      'auth',
      'user',
      'wallet',
      'nft',
      'rpcProvider',
    ] as const)
      expect([module, sorted(Object.keys(magic[module]))]).toEqual([
        module,
        sorted(published[module]),
      ])
  })

  test('behavior: rpcProvider is typed as a viem EIP1193Provider', () => {
    const magic = new Entry.Magic('pk', {
      transport: createFakeTransport().transport,
      deferPreload: true,
    })
    const provider: EIP1193Provider = magic.rpcProvider
    expect(provider).toBe(magic.rpcProvider)
  })

  test('behavior: the instance and thirdPartyWallets have the published members plus ours', () => {
    const magic = new Entry.Magic('pk', {
      transport: createFakeTransport().transport,
      deferPreload: true,
    })
    const instance = instanceNames(magic)
    expect(
      sorted(instance.filter((n) => !published.instance.includes(n))),
    ).toEqual(['destroy', 'endpoint', 'networkHash', 'parameters', 'params'])
    expect(published.instance.filter((n) => !instance.includes(n))).toEqual([])
    const thirdParty = Object.keys(magic.thirdPartyWallets)
    expect(
      thirdParty.filter((n) => !published.thirdPartyWallets.includes(n)),
    ).toEqual(['connect'])
    expect(
      published.thirdPartyWallets.filter((n) => !thirdParty.includes(n)),
    ).toEqual([])
  })
})
