import { afterEach, describe, expect, test, vi } from 'vitest'
import { createFakeTransport, flush, resultOf } from './_test/fakeTransport.js'
import { MagicSDKError } from './errors.js'
import { Magic, networkHash, version } from './Magic.js'
import { decodeParams } from './wire/messages.js'

afterEach(() => {
  vi.unstubAllGlobals()
})

function create(options: ConstructorParameters<typeof Magic>[1] = {}) {
  const fake = createFakeTransport(resultOf(true))
  const magic = new Magic('pk_live_X', {
    transport: fake.transport,
    ...options,
  })
  return { fake, magic }
}

describe('Magic', () => {
  test('default: params have the published keys and the SDK version', () => {
    const { magic } = create()
    expect(magic.params).toMatchInlineSnapshot(`
      {
        "API_KEY": "pk_live_X",
        "DOMAIN_ORIGIN": "",
        "ETH_NETWORK": undefined,
        "authConfig": undefined,
        "ext": undefined,
        "host": "auth.magic.link",
        "locale": "en_US",
        "meta": undefined,
        "sdk": "magic-sdk",
        "version": "29.0.6",
      }
    `)
    expect(version).toBe('29.0.6')
    expect(magic.endpoint).toBe('https://auth.magic.link')
    expect(decodeParams(magic.parameters)).toEqual({
      API_KEY: 'pk_live_X',
      DOMAIN_ORIGIN: '',
      host: 'auth.magic.link',
      sdk: 'magic-sdk',
      version: '29.0.6',
      locale: 'en_US',
    })
  })

  test('param: endpoint keeps only the origin; locale, network and meta reach the params', () => {
    const { magic } = create({
      endpoint: 'http://127.0.0.1:4401/some/path?x=1',
      locale: 'fr',
      network: { rpcUrl: 'http://127.0.0.1:8545', chainId: 31337 },
      meta: { app: 1 },
    })
    expect(magic.endpoint).toBe('http://127.0.0.1:4401')
    expect(magic.params).toMatchObject({
      host: '127.0.0.1:4401',
      locale: 'fr',
      ETH_NETWORK: { rpcUrl: 'http://127.0.0.1:8545', chainId: 31337 },
      meta: { app: 1 },
    })
  })

  test('param: testMode and useStorageCache are exposed as booleans', () => {
    const { magic } = create({ testMode: true })
    expect([magic.testMode, magic.useStorageCache]).toEqual([true, false])
  })

  test('behavior: the constructor preloads unless deferPreload', async () => {
    const eager = create()
    const deferred = create({ deferPreload: true })
    await flush()
    expect([eager.fake.preloads(), deferred.fake.preloads()]).toEqual([1, 0])
  })

  test('behavior: in a browser DOMAIN_ORIGIN is the page origin and the provider is announced', () => {
    const page = Object.assign(new EventTarget(), {
      location: { origin: 'https://app.example' },
    })
    vi.stubGlobal('window', page)
    vi.stubGlobal('location', page.location)
    const announced: unknown[] = []
    page.addEventListener('eip6963:announceProvider', (event) =>
      announced.push((event as CustomEvent).detail),
    )
    const { magic } = create({ deferPreload: true })
    create({ deferPreload: true, announceProvider: false })
    expect(magic.params.DOMAIN_ORIGIN).toBe('https://app.example')
    expect(announced).toHaveLength(1)
    const [detail] = announced as {
      info: { name: string; rdns: string; icon: string }
      provider: unknown
    }[]
    expect(detail?.provider).toBe(magic.rpcProvider)
    expect(detail?.info).toMatchObject({ name: 'Magic', rdns: 'link.magic' })
    expect(detail?.info.icon.startsWith('data:image/svg+xml;base64,')).toBe(
      true,
    )
    magic.destroy()
    page.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(announced).toHaveLength(1)
  })

  test('behavior: rpcProvider emits accountsChanged when connectWithUI resolves', async () => {
    const fake = createFakeTransport(resultOf(['0xabc']))
    const magic = new Magic('pk', {
      transport: fake.transport,
      deferPreload: true,
    })
    const heard: unknown[] = []
    magic.rpcProvider.on('accountsChanged', (accounts) => heard.push(accounts))
    await magic.wallet.connectWithUI()
    expect(heard).toEqual([['0xabc']])
  })

  test('behavior: a connected third-party wallet answers getInfo and checkout says web3modal', async () => {
    vi.stubGlobal('localStorage', undefined)
    const { fake, magic } = create({ deferPreload: true })
    await magic.thirdPartyWallets.connect(
      {
        request: async ({ method }) =>
          method === 'eth_chainId' ? '0x1' : ['0xAbC'],
      },
      { name: 'injected' },
    )
    const info = await magic.user.getInfo()
    await magic.nft.checkout({
      contractId: 'c',
      tokenId: '1',
      name: 'n',
      imageUrl: 'u',
    })
    expect(info.issuer).toBe('did:ethr:0xAbC')
    expect(fake.sent()).toEqual([
      {
        method: 'magic_nft_checkout',
        params: [
          {
            contractId: 'c',
            tokenId: '1',
            name: 'n',
            imageUrl: 'u',
            walletProvider: 'web3modal',
          },
        ],
      },
    ])
  })

  test('behavior: destroy releases the transport', async () => {
    const { fake, magic } = create()
    await flush()
    magic.destroy()
    expect(fake.destroyed()).toBe(1)
  })

  test('error: a missing API key throws MISSING_API_KEY', () => {
    expect(() => new Magic('')).toThrowErrorMatchingInlineSnapshot(
      `[MagicSDKError: Magic SDK Error: [MISSING_API_KEY] Please provide an API key that you acquired from the Magic developer dashboard.]`,
    )
    expect(() => new Magic(undefined as never)).toThrow(MagicSDKError)
  })
})

describe('networkHash', () => {
  test('default: the four cases of the published table', () => {
    expect([
      networkHash('k', undefined, undefined),
      networkHash('k', undefined, { openid: { a: 1 } }),
      networkHash('k', 'sepolia', undefined),
      networkHash(
        'k',
        { rpcUrl: 'http://n', chainId: 5, chainType: 'EVM' },
        undefined,
      ),
      networkHash('k', { rpcUrl: 'http://n' }, undefined),
    ]).toEqual([
      'k_eth_mainnet',
      'k_{"openid":{"a":1}}',
      'k_eth_sepolia',
      'k_http://n_5_EVM',
      'k_http://n_undefined_undefined',
    ])
  })
})
