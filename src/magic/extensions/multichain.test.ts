import { describe, expect, test } from 'vitest'
import { createFakeTransport } from '../_test/fakeTransport.js'
import { MagicSDKError } from '../errors.js'
import { Magic } from '../Magic.js'
import { Extension } from './Extension.js'
import { MultichainExtension } from './multichain.js'

/** A chain extension as the published ones are written. */
class SolanaExtension extends MultichainExtension<'solana'> {
  name = 'solana' as const
  constructor(rpcUrl: string) {
    super({ rpcUrl, chainType: 'SOLANA' })
  }
}

function setup() {
  const fake = createFakeTransport((request) => ({
    result: request.method === 'magic_reveal_key' ? true : 'So1anaAddress',
  }))
  const magic = new Magic('pk_test', {
    transport: fake.transport,
    deferPreload: true,
    extensions: [new SolanaExtension('https://solana.example')],
  })
  return { fake, magic }
}

describe('MultichainExtension', () => {
  test('default: getPublicAddress sends magic_get_multichain_public_address with the chainType', async () => {
    const { fake, magic } = setup()
    await expect(magic.solana.getPublicAddress()).resolves.toBe('So1anaAddress')
    expect(fake.sent()).toEqual([
      {
        method: 'magic_get_multichain_public_address',
        params: [{ chain: 'SOLANA' }],
      },
    ])
  })

  test('behavior: revealPrivateKey sends magic_reveal_key with the chainType', async () => {
    const { fake, magic } = setup()
    await expect(magic.solana.revealPrivateKey()).resolves.toBe(true)
    expect(fake.sent()).toEqual([
      { method: 'magic_reveal_key', params: [{ chain: 'SOLANA' }] },
    ])
  })

  test('behavior: the config, with its chainType, goes to the iframe params', () => {
    const { magic } = setup()
    expect(magic.solana).toBeInstanceOf(Extension.Internal)
    expect(magic.solana.chain).toBe('SOLANA')
    expect(magic.params.ext).toEqual({
      solana: { rpcUrl: 'https://solana.example', chainType: 'SOLANA' },
    })
  })

  test('error: before init, getPublicAddress throws EXTENSION_NOT_INITIALIZED', () => {
    const extension = new SolanaExtension('https://solana.example')
    expect(() => extension.getPublicAddress()).toThrow(MagicSDKError)
    expect(() => extension.revealPrivateKey()).toThrow(
      'Magic SDK Error: [EXTENSION_NOT_INITIALIZED] Extensions must be initialized with a Magic SDK instance before `Extension.request` can be accessed. Do not invoke `Extension.request` inside an extension constructor.',
    )
  })
})
