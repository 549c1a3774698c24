import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as Rpc from '../../core/Rpc.js'
import { MagicRPCError } from '../errors.js'
import {
  create,
  type ExternalProvider,
  type Update,
} from './thirdPartyWallets.js'

let items: Map<string, string>

beforeEach(() => {
  items = new Map()
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => items.set(key, value),
    removeItem: (key: string) => items.delete(key),
  })
})

afterEach(() => {
  vi.unstubAllGlobals()
})

/** An external wallet answering from a table, with event listeners. */
function createWallet(answers: Record<string, unknown> = {}) {
  const listeners = new Map<string, (...args: never[]) => void>()
  const requests: { method: string; params?: unknown }[] = []
  const wallet: ExternalProvider = {
    async request(args) {
      requests.push(args)
      if (args.method === 'eth_requestAccounts') return ['0xAbC']
      if (args.method === 'eth_chainId') return '0x1'
      if (args.method in answers) {
        const answer = answers[args.method]
        if (answer instanceof Error) throw answer
        return answer
      }
      throw Object.assign(new Error('unsupported'), { code: 4200 })
    },
    on: (event, listener) => listeners.set(event, listener),
    removeListener: (event) => listeners.delete(event),
  }
  const emit = (event: string, ...args: unknown[]) =>
    (listeners.get(event) as ((...args: unknown[]) => void) | undefined)?.(
      ...args,
    )
  return { wallet, requests, listeners, emit }
}

async function connected(answers: Record<string, unknown> = {}) {
  const updates: Update[] = []
  const thirdParty = create({ onUpdate: (update) => updates.push(update) })
  const external = createWallet(answers)
  await thirdParty.module.connect(external.wallet, { name: 'metamask' })
  return { ...thirdParty, ...external, updates }
}

describe('thirdPartyWallets', () => {
  test('default: nothing is routed until a wallet is connected', () => {
    const { module, route } = create()
    expect(module.isConnected).toBe(false)
    expect(route(Rpc.createRequest('eth_accounts'))).toBeUndefined()
  })

  test('behavior: connect stores provider, address and chain in localStorage', async () => {
    const { module, updates } = await connected()
    expect(module.isConnected).toBe(true)
    expect(Object.fromEntries(items)).toEqual({
      magic_3pw_provider: 'metamask',
      magic_3pw_address: '0xAbC',
      magic_3pw_chainId: '0x1',
    })
    expect(updates).toEqual([{ accounts: ['0xAbC'], chainId: '0x1' }])
  })

  test('behavior: requests go to the wallet except intermediary events, NFT checkout and mc_login', async () => {
    const { route, requests } = await connected({ personal_sign: '0xsig' })
    await expect(
      route(Rpc.createRequest('personal_sign', ['0x68', '0xAbC'])),
    ).resolves.toBe('0xsig')
    expect(requests.at(-1)).toEqual({
      method: 'personal_sign',
      params: ['0x68', '0xAbC'],
    })
    expect(route(Rpc.createRequest('magic_intermediary_event'))).toBeUndefined()
    expect(route(Rpc.createRequest('magic_nft_checkout'))).toBeUndefined()
  })

  test("behavior: the provider's own methods (magic_*) still go to the iframe", async () => {
    const { route, module, requests } = await connected()
    const before = requests.length
    expect(route(Rpc.createRequest('magic_wallet'))).toBeUndefined()
    expect(
      route(Rpc.createRequest('magic_auth_login_with_email_otp')),
    ).toBeUndefined()
    expect(requests.length).toBe(before)
    expect(module.isConnected).toBe(true)
  })

  test('behavior: test-mode names reach the wallet without their prefix', async () => {
    const { route, requests } = await connected({ eth_accounts: ['0xAbC'] })
    await route(Rpc.createRequest('testMode/eth/eth_accounts'))
    expect(requests.at(-1)?.method).toBe('eth_accounts')
  })

  test('behavior: magic_get_info answers with the wallet address and type', async () => {
    const { route } = await connected()
    await expect(
      route(Rpc.createRequest('magic_get_info')),
    ).resolves.toMatchInlineSnapshot(`
      {
        "email": null,
        "firstLoginAt": null,
        "isMfaEnabled": false,
        "issuer": "did:ethr:0xAbC",
        "phoneNumber": null,
        "publicAddress": "0xAbC",
        "recoveryFactors": [],
        "walletType": "metamask",
        "wallets": {
          "ethereum": {
            "publicAddress": "0xAbC",
            "subAccounts": [],
          },
        },
      }
    `)
  })

  test('behavior: mc_login and logout reset the state and go to the iframe', async () => {
    const login = await connected()
    expect(login.route(Rpc.createRequest('mc_login'))).toBeUndefined()
    expect(login.module.isConnected).toBe(false)
    expect(items.size).toBe(0)
    const logout = await connected()
    expect(logout.route(Rpc.createRequest('magic_auth_logout'))).toBeUndefined()
    expect(logout.module.isConnected).toBe(false)
    expect(logout.updates.at(-1)).toEqual({ accounts: [], chainId: undefined })
  })

  test('behavior: the wallet emitting disconnect resets the state', async () => {
    const { module, emit, listeners } = await connected()
    emit('disconnect')
    expect(module.isConnected).toBe(false)
    expect(items.size).toBe(0)
    expect(listeners.size).toBe(0)
  })

  test('behavior: accountsChanged and chainChanged update the stored state', async () => {
    const { emit, updates } = await connected()
    emit('accountsChanged', ['0xDef'])
    emit('chainChanged', '0x5')
    expect(items.get('magic_3pw_address')).toBe('0xDef')
    expect(updates.slice(1)).toEqual([
      { accounts: ['0xDef'], chainId: '0x1' },
      { accounts: ['0xDef'], chainId: '0x5' },
    ])
  })

  test('behavior: a reset while connect waits for the wallet drops that connection', async () => {
    const updates: Update[] = []
    const thirdParty = create({ onUpdate: (update) => updates.push(update) })
    const { wallet, listeners } = createWallet()
    let grant: ((accounts: string[]) => void) | undefined
    const pending = thirdParty.module.connect(
      {
        ...wallet,
        request: (args) =>
          args.method === 'eth_requestAccounts'
            ? new Promise((resolve) => {
                grant = resolve
              })
            : wallet.request(args),
      },
      { name: 'metamask' },
    )
    await vi.waitFor(() => expect(grant).toBeTypeOf('function'))
    thirdParty.module.resetThirdPartyWalletState()
    grant?.(['0xAbC'])
    expect(await pending).toEqual({ accounts: [], chainId: undefined })
    expect(thirdParty.module.isConnected).toBe(false)
    expect(listeners.size).toBe(0)
    expect(items.size).toBe(0)
    expect(updates).toEqual([])
    expect(thirdParty.route(Rpc.createRequest('eth_accounts'))).toBeUndefined()
  })

  test('behavior: a wallet that reports its chain as soon as it is listened to connects with that chain', async () => {
    const updates: Update[] = []
    const thirdParty = create({ onUpdate: (update) => updates.push(update) })
    const { wallet } = createWallet()
    const eager: ExternalProvider = {
      ...wallet,
      on(event, listener) {
        wallet.on?.(event, listener)
        if (event === 'chainChanged')
          (listener as (chainId: string) => void)('0x5')
      },
    }
    expect(
      await thirdParty.module.connect(eager, { name: 'metamask' }),
    ).toEqual({ accounts: ['0xAbC'], chainId: '0x5' })
    expect(thirdParty.module.isConnected).toBe(true)
    expect(items.get('magic_3pw_chainId')).toBe('0x5')
    expect(updates).toEqual([{ accounts: ['0xAbC'], chainId: '0x5' }])
  })

  test('behavior: a wallet reporting no accounts ends the mode', async () => {
    const { module, emit, listeners, updates, route } = await connected()
    emit('accountsChanged', [])
    expect(module.isConnected).toBe(false)
    expect(listeners.size).toBe(0)
    expect(items.size).toBe(0)
    expect(updates.at(-1)).toEqual({ accounts: [], chainId: undefined })
    expect(route(Rpc.createRequest('eth_accounts'))).toBeUndefined()
  })

  test('error: a 4900 rejection resets and yields "User denied account access."', async () => {
    const { module, route } = await connected({
      eth_sendTransaction: Object.assign(new Error('disconnected'), {
        code: 4900,
      }),
    })
    const error = await route(Rpc.createRequest('eth_sendTransaction'))?.catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(MagicRPCError)
    expect((error as MagicRPCError).rawMessage).toBe(
      'User denied account access.',
    )
    expect(module.isConnected).toBe(false)
  })

  test('error: other wallet errors become MagicRPCError with the wallet error as cause', async () => {
    const { route } = await connected()
    const error = (await route(Rpc.createRequest('wallet_foo'))?.catch(
      (e: unknown) => e,
    )) as MagicRPCError
    expect(error.message).toBe('Magic RPC Error: [-32603] unsupported')
    expect((error.cause as Error).message).toBe('unsupported')
  })
})
