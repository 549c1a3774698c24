import { describe, expect, test } from 'vitest'
import * as Rpc from '../../core/Rpc.js'
import * as Storage from '../../core/Storage.js'
import * as Transport from './index.js'

const params = {
  API_KEY: 'pk_test_node',
  DOMAIN_ORIGIN: '',
  host: 'auth.magic.link',
  sdk: 'magic-sdk',
  version: '33.13.0',
  locale: 'en_US',
}

describe('Transport.create (Node)', () => {
  test('behavior: creating needs no DOM; requests reject with MODAL_NOT_READY', async () => {
    const transport = Transport.create({
      endpoint: 'https://auth.magic.link/',
      params,
      storage: Storage.memory(),
      networkHash: 'pk_test_node_eth_mainnet',
    })
    await expect(transport.preload()).rejects.toMatchObject({
      code: 'MODAL_NOT_READY',
    })
    await expect(
      transport.post(Rpc.createRequest('magic_get_info')),
    ).rejects.toMatchObject({
      message: 'Magic SDK Error: [MODAL_NOT_READY] Modal is not ready',
    })
    transport.destroy()
  })
})
