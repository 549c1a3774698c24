import { createStore } from 'mipd'
import { describe, expect, test } from 'vitest'
import { Passport } from '../Passport.js'

const uuidV4 =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

function passport() {
  return new Passport({
    baseConfig: { environment: 'sandbox' },
    clientId: 'client-announce',
    redirectUri: `${location.origin}/callback`,
    overrides: {
      authenticationDomain: 'http://127.0.0.1:1',
      magicPublishableApiKey: 'pk_test',
      magicProviderId: 'provider-1',
      passportDomain: 'http://127.0.0.1:2',
      imxPublicApiDomain: 'http://127.0.0.1:3',
      zkEvmRpcUrl: 'http://127.0.0.1:4',
      zkEvmChainId: 15003,
      relayerUrl: 'http://127.0.0.1:5',
      indexerMrBasePath: 'http://127.0.0.1:6',
      orderBookMrBasePath: 'http://127.0.0.1:7',
      passportMrBasePath: 'http://127.0.0.1:8',
    },
  })
}

describe('Passport.connectEvm: EIP-6963', () => {
  test('behavior: announceProvider false announces nothing', async () => {
    await passport().connectEvm({ announceProvider: false })
    const store = createStore()
    expect(store.findProvider({ rdns: 'com.immutable.passport' })).toBe(
      undefined,
    )
    store.destroy()
  })

  test('default: a wallet picker finds the provider with its name, icon, rdns and a random uuid', async () => {
    const provider = await passport().connectEvm()
    const store = createStore()
    const detail = store.findProvider({ rdns: 'com.immutable.passport' })
    expect(detail?.provider).toBe(provider)
    expect(detail?.info.name).toBe('Immutable Passport')
    expect(detail?.info.icon).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(detail?.info.uuid).toMatch(uuidV4)
    // Not the published SDK's fixed uuid.
    expect(detail?.info.uuid).not.toBe('3f0259bb-54c0-4ff0-85f2-6bb7c2d8b6c8')
    expect(provider.isPassport).toBe(true)
    store.destroy()
  })
})
