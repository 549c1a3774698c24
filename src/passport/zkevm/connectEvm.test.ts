import { afterEach, describe, expect, test } from 'vitest'
import { resolve } from '../config.js'
import { Passport } from '../Passport.js'
import { startNode } from './_test/backend.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

function overrides(rpcUrl: string) {
  return {
    authenticationDomain: 'http://127.0.0.1:1',
    magicPublishableApiKey: 'pk_test',
    magicProviderId: 'provider-1',
    passportDomain: 'http://127.0.0.1:2',
    imxPublicApiDomain: 'http://127.0.0.1:3',
    zkEvmRpcUrl: rpcUrl,
    relayerUrl: 'http://127.0.0.1:4',
    indexerMrBasePath: 'http://127.0.0.1:5',
    orderBookMrBasePath: 'http://127.0.0.1:6',
    passportMrBasePath: 'http://127.0.0.1:7',
  }
}

describe('Passport.connectEvm', () => {
  test('default: a provider that reads the chain and refuses account methods before sign-in', async () => {
    const node = await startNode({ chainId: 15003 })
    closers.push(node.close)
    const passport = new Passport({
      baseConfig: { environment: 'sandbox' },
      clientId: 'client-1',
      redirectUri: 'http://127.0.0.1:8/callback',
      overrides: overrides(node.url),
    })
    const provider = await passport.connectEvm({ announceProvider: false })
    const connected = new Promise((resolve) => provider.on('connect', resolve))
    expect(provider.isPassport).toBe(true)
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x3a9b')
    expect(await connected).toEqual({ chainId: '0x3a9b' })
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: '0x0000000000000000000000000000000000000001' }],
      } as never),
    ).rejects.toMatchObject({
      code: 4100,
      message: 'Unauthorised - call eth_requestAccounts first',
    })
  })
})

describe('resolve: zkEVM overrides', () => {
  const base = {
    baseConfig: { environment: 'sandbox' as const },
    clientId: 'client-1',
    redirectUri: 'http://127.0.0.1:8/callback',
  }

  test('default: the environments carry the wallet contracts; no custody endpoint', () => {
    const config = resolve(base)
    expect(config.walletContracts).toEqual({
      factory: '0x8Fa5088dF65855E0DaF87FA6591659893b24871d',
      mainModule: '0x8FD900677aabcbB368e0a27566cCd0C7435F1926',
      coSigner: '0xcff469E561D9dCe5B1185CD2AC1Fa961F8fbDe61',
    })
    expect(config.magicEndpoint).toBeUndefined()
  })

  test('behavior: overrides set the chain id, custody endpoint and wallet contracts (all three or none)', () => {
    const all = resolve({
      ...base,
      overrides: {
        ...overrides('http://127.0.0.1:9'),
        zkEvmChainId: 15003,
        magicEndpoint: 'http://127.0.0.1:10',
        zkEvmWalletFactory: '0x0000000000000000000000000000000000000001',
        zkEvmWalletMainModule: '0x0000000000000000000000000000000000000002',
        zkEvmCoSigner: '0x0000000000000000000000000000000000000003',
      },
    })
    expect(all.chainId).toBe(15003)
    expect(all.magicEndpoint).toBe('http://127.0.0.1:10')
    expect(all.walletContracts).toEqual({
      factory: '0x0000000000000000000000000000000000000001',
      mainModule: '0x0000000000000000000000000000000000000002',
      coSigner: '0x0000000000000000000000000000000000000003',
    })
    const partial = resolve({
      ...base,
      overrides: {
        ...overrides('http://127.0.0.1:9'),
        zkEvmWalletFactory: '0x0000000000000000000000000000000000000001',
      },
    })
    expect(partial.walletContracts).toBeUndefined()
    expect(partial.chainId).toBeUndefined()
  })
})
