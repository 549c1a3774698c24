import { describe, expect, test } from 'vitest'
import {
  createClient,
  createFakeTransport,
  flush,
  resultOf,
} from '../_test/fakeTransport.js'
import * as Nft from './nft.js'
import { checkoutWithWallet } from './thirdPartyWallets.js'
import * as Wallet from './wallet.js'

describe('wallet', () => {
  test('default: each method sends its method name and params encoding', async () => {
    const fake = createFakeTransport(resultOf(true))
    const wallet = Wallet.create(createClient(fake), {
      enabledWallets: { metamask: true },
      eventListeners: [],
    })
    await wallet.connectWithUI({ autoPromptThirdPartyWallets: false })
    await wallet.showUI({ onramperParams: { a: 'b' } })
    await wallet.showUI()
    await wallet.showAddress()
    await wallet.showBalances()
    await wallet.showSendTokensUI()
    await wallet.showOnRamp()
    await wallet.showNFTs()
    await wallet.sign7702Authorization({ contractAddress: '0xc', chainId: 1 })
    await wallet.send7702Transaction({ to: '0xd', authorizationList: [] })
    await wallet.sendGaslessTransaction('0xa', { to: '0xe', value: 1n })
    expect(fake.sent()).toMatchInlineSnapshot(`
      [
        {
          "method": "mc_login",
          "params": [
            {
              "autoPromptThirdPartyWallets": false,
              "enabledWallets": {
                "metamask": true,
              },
            },
          ],
        },
        {
          "method": "magic_wallet",
          "params": [
            {
              "onramperParams": {
                "a": "b",
              },
            },
          ],
        },
        {
          "method": "magic_wallet",
          "params": [
            undefined,
          ],
        },
        {
          "method": "magic_show_address",
          "params": [],
        },
        {
          "method": "magic_show_balances",
          "params": [],
        },
        {
          "method": "magic_show_send_tokens_ui",
          "params": [],
        },
        {
          "method": "magic_show_fiat_onramp",
          "params": [],
        },
        {
          "method": "magic_show_nfts",
          "params": [],
        },
        {
          "method": "magic_wallet_sign_7702_authorization",
          "params": [
            {
              "chainId": 1,
              "contractAddress": "0xc",
            },
          ],
        },
        {
          "method": "eth_send7702Transaction",
          "params": [
            {
              "authorizationList": [],
              "to": "0xd",
            },
          ],
        },
        {
          "method": "eth_sendGaslessTransaction",
          "params": [
            "0xa",
            {
              "to": "0xe",
              "value": 1n,
            },
          ],
        },
      ]
    `)
  })

  test('behavior: connectWithUI emits id-token-created and runs 3PW listeners with the request id', async () => {
    const fake = createFakeTransport()
    const payloadIds: unknown[] = []
    const wallet = Wallet.create(createClient(fake), {
      enabledWallets: {},
      eventListeners: [
        { event: 'wallet_connected', callback: (id) => payloadIds.push(id) },
      ],
    })
    const handle = wallet.connectWithUI()
    const tokens: unknown[] = []
    handle.on('id-token-created', (params) => tokens.push(params))
    await flush()
    const id = fake.requests[0]?.id ?? -1
    fake.event(id, 'id-token-created', { idToken: 't' })
    fake.event(id, 'wallet_connected')
    fake.respond(id, { result: ['0xabc'] })
    await expect(handle).resolves.toEqual(['0xabc'])
    expect(tokens).toEqual([{ idToken: 't' }])
    expect(payloadIds).toEqual([id])
  })
})

describe('nft', () => {
  const options = { contractId: 'c', tokenId: '1', name: 'n', imageUrl: 'u' }

  test('default: purchase, checkout (walletProvider magic) and transfer', async () => {
    const fake = createFakeTransport(resultOf({ status: 'processed' }))
    const nft = Nft.create(createClient(fake), {
      isConnected: false,
      checkout() {
        throw new Error('not in third-party wallet mode')
      },
    })
    await nft.purchase({ nft: {}, identityPrefill: {} })
    await nft.checkout(options)
    await nft.transfer({ tokenId: '1', contractAddress: '0xc' })
    expect(fake.sent()).toEqual([
      {
        method: 'magic_nft_purchase',
        params: [{ nft: {}, identityPrefill: {} }],
      },
      {
        method: 'magic_nft_checkout',
        params: [{ ...options, walletProvider: 'magic' }],
      },
      {
        method: 'magic_nft_transfer',
        params: [{ tokenId: '1', contractAddress: '0xc' }],
      },
    ])
  })

  test('behavior: with a third-party wallet, checkout says web3modal and the wallet sends the transaction', async () => {
    const fake = createFakeTransport((r) =>
      r.method === 'magic_intermediary_event'
        ? { id: r.id, result: true }
        : undefined,
    )
    const sent: unknown[] = []
    let resets = 0
    const client = createClient(fake, {
      route: (r) => {
        if (r.method !== 'eth_sendTransaction') return undefined
        sent.push(r.params)
        return Promise.resolve('0xhash')
      },
    })
    const mode = {
      reset: () => {
        resets++
      },
    }
    const nft = Nft.create(client, {
      isConnected: true,
      checkout: (...args) => checkoutWithWallet(mode, ...args),
    })
    const handle = nft.checkout(options)
    await flush()
    const id = fake.requests[0]?.id ?? -1
    expect(fake.requests[0]?.params).toEqual([
      { ...options, walletProvider: 'web3modal' },
    ])
    fake.event(id, 'nft-checkout-initiated', { to: '0xshop' })
    await flush()
    fake.event(id, 'disconnect')
    fake.respond(id, { result: { status: 'processed' } })
    await handle
    expect(sent).toEqual([[{ to: '0xshop' }]])
    expect(fake.sent().slice(1)).toEqual([
      {
        method: 'magic_intermediary_event',
        params: [
          { payloadId: id, eventType: 'nft-checkout-success', args: '0xhash' },
        ],
      },
    ])
    expect(resets).toBe(1)
  })
})
