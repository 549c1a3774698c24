import { createConfig, http, reconnect } from '@wagmi/core'
import { defineChain } from 'viem'
import { beforeEach, describe, expect, inject, test, vi } from 'vitest'
import { magic, passport } from '../../connectors/index.js'

/*
 * What a wagmi app runs on every page load, before any click: `reconnect`,
 * which asks each connector for its provider and then `isAuthorized`. With
 * no session on the page, neither client may be loaded and no iframe made.
 * (With a session, reconnecting is tested in magic-connector.test.ts and
 * passport-connector.test.ts.) This file imports nothing of the products, so
 * a client module loaded here was loaded by the connectors.
 */

const loaded = vi.hoisted(() => ({ magic: 0, passport: 0 }))

vi.mock('../../src/magic/index.js', async (importOriginal) => {
  loaded.magic++
  return importOriginal()
})
vi.mock('../../src/passport/index.js', async (importOriginal) => {
  loaded.passport++
  return importOriginal()
})

const emulator = inject('magicEmulator')
const chain = defineChain({
  id: emulator.chainId,
  name: 'Emulator Anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [emulator.rpcUrl] } },
})

/** A wagmi app's config with both connectors, as the README shows it. */
function createApp() {
  return createConfig({
    chains: [chain],
    connectors: [
      magic({
        apiKey: emulator.apiKey,
        options: { endpoint: emulator.endpoint },
      }),
      passport({
        config: {
          baseConfig: { environment: 'sandbox' },
          clientId: 'page-load',
          redirectUri: `${location.origin}/redirect`,
        },
      }),
    ],
    transports: { [chain.id]: http() },
    multiInjectedProviderDiscovery: false,
  })
}

beforeEach(() => localStorage.clear())

describe('connectors on page load', () => {
  test('behavior: reconnect without a session loads no client and makes no iframe', async () => {
    const config = createApp()
    expect(await reconnect(config)).toEqual([])
    for (const connector of config.connectors)
      expect(await connector.isAuthorized()).toBe(false)
    expect(loaded).toEqual({ magic: 0, passport: 0 })
    expect(document.querySelectorAll('iframe')).toHaveLength(0)
    expect(config.state.status).toBe('disconnected')
  })

  test('behavior: another client’s stored user or API key’s marker loads nothing either', async () => {
    localStorage.setItem('oidc.user:https://auth.example:another-client', '{}')
    localStorage.setItem('embedded-wallets.magic.session:pk_live_OTHER', '1')
    const config = createApp()
    expect(await reconnect(config)).toEqual([])
    expect(loaded).toEqual({ magic: 0, passport: 0 })
    expect(document.querySelectorAll('iframe')).toHaveLength(0)
  })

  test('behavior: the first request through a connector’s provider loads its client', async () => {
    const config = createApp()
    const [iframeWallet] = config.connectors
    const provider = await iframeWallet!.getProvider()
    expect(loaded.magic).toBe(0)
    expect(
      Number(
        await (provider as { request(a: unknown): Promise<unknown> }).request({
          method: 'eth_chainId',
        }),
      ),
    ).toBe(emulator.chainId)
    expect(loaded).toEqual({ magic: 1, passport: 0 })
    expect(document.querySelectorAll('iframe')).toHaveLength(1)
  })
})
