import { Magic as PublishedMagic } from 'magic-sdk'
import { createStore } from 'mipd'
import { toHex } from 'viem'
import { afterEach, describe, expect, inject, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import type { Magic } from '../../src/magic/index.js'
import {
  createMagic,
  freshEmail,
  loggedIn,
  shownOverlay,
} from './magicLogin.js'
import { waitForCode } from './mailbox.js'

/**
 * Our client's `rpcProvider` as an EIP-1193 / web3 provider: its events,
 * the legacy `send`/`sendAsync` forms (checked against the published
 * magic-sdk where it answers without the iframe) and its EIP-6963
 * announcement.
 */
describe('rpcProvider: provider surface', () => {
  const emulator = inject('magicEmulator')
  const { chainId } = emulator
  const clients: Magic[] = []

  afterEach(() => {
    for (const magic of clients.splice(0)) magic.destroy()
    vi.restoreAllMocks()
  })

  async function user(name: string) {
    const session = await loggedIn(emulator, { name })
    clients.push(session.magic)
    return session
  }

  test('emits accountsChanged on eth_requestAccounts, connect on eth_chainId, then accountsChanged [] and disconnect on logout', async () => {
    const { magic, address } = await user('events')
    const events: unknown[] = []
    magic.rpcProvider
      .on('accountsChanged', (accounts) => events.push(['accounts', accounts]))
      .on('connect', (info) => events.push(['connect', info]))
      .on('chainChanged', (chain) => events.push(['chain', chain]))
      .on('disconnect', (error: { name: string; code: number }) =>
        events.push(['disconnect', error.name, error.code]),
      )
    await magic.rpcProvider.request({ method: 'eth_requestAccounts' })
    await magic.rpcProvider.request({ method: 'eth_chainId' })
    await magic.rpcProvider.request({ method: 'eth_accounts' })
    await magic.rpcProvider.request({ method: 'eth_chainId' })
    expect(events).toEqual([
      ['accounts', [address]],
      ['connect', { chainId: toHex(chainId) }],
    ])
    expect(await magic.user.logout()).toBe(true)
    expect(events.slice(2)).toEqual([
      ['accounts', []],
      ['disconnect', 'ProviderDisconnectedError', 4900],
    ])
  })

  test('eth_requestAccounts while logged out opens the login screens, then resolves the new account', async () => {
    const magic = createMagic(emulator)
    clients.push(magic)
    const email = freshEmail('request-accounts')
    const changed: unknown[] = []
    magic.rpcProvider.on('accountsChanged', (accounts) =>
      changed.push(accounts),
    )
    expect(await magic.rpcProvider.request({ method: 'eth_accounts' })).toEqual(
      [],
    )
    const requested = magic.rpcProvider.request({
      method: 'eth_requestAccounts',
    })
    const ui = page.frameLocator(page.elementLocator(await shownOverlay()))
    await ui.getByTestId('login-email-input').fill(email)
    await ui.getByTestId('login-email-submit').click()
    const code = await waitForCode({ mailbox: emulator.mailbox, to: email })
    await ui.getByTestId('email-otp-input').fill(code)
    await ui.getByTestId('email-otp-submit').click()
    const accounts = (await requested) as string[]
    const info = await magic.user.getInfo()
    expect(accounts).toEqual([info.publicAddress])
    expect(info.email).toBe(email)
    expect(changed).toEqual([accounts])
  })

  test('send(method, params) resolves; send(payload, callback) and sendAsync call back with JSON-RPC responses', async () => {
    const { magic, address } = await user('send-forms')
    const { rpcProvider } = magic
    expect(await rpcProvider.send('eth_chainId', [])).toBe(toHex(chainId))

    const viaSend = await new Promise<unknown[]>((resolve) =>
      rpcProvider.send(
        { jsonrpc: '2.0', id: 7, method: 'eth_accounts', params: [] },
        (error, response) => resolve([error, response]),
      ),
    )
    expect(viaSend).toEqual([
      null,
      { jsonrpc: '2.0', id: 7, result: [address], error: null },
    ])

    const batch = await new Promise<unknown[]>((resolve) =>
      rpcProvider.sendAsync(
        [
          { jsonrpc: '2.0', id: 8, method: 'eth_chainId', params: [] },
          { jsonrpc: '2.0', id: 9, method: 'eth_accounts', params: [] },
        ],
        (error, response) => resolve([error, response]),
      ),
    )
    expect(batch).toEqual([
      null,
      [
        { jsonrpc: '2.0', id: 8, result: toHex(chainId), error: null },
        { jsonrpc: '2.0', id: 9, result: [address], error: null },
      ],
    ])

    const failed = await new Promise<unknown[]>((resolve) =>
      rpcProvider.sendAsync(
        {
          jsonrpc: '2.0',
          id: 10,
          method: 'personal_sign',
          params: ['0x00', '0x000000000000000000000000000000000000dEaD'],
        },
        (error, response) => resolve([error, response]),
      ),
    )
    expect(failed[0]).toMatchObject({
      name: 'MagicRPCError',
      code: -32602,
      rawMessage:
        "personal_sign: 0x000000000000000000000000000000000000dEaD is not the logged-in user's address.",
    })
    expect(failed[1]).toEqual({ jsonrpc: '2.0', id: 10, error: failed[0] })
  })

  test('sendAsync without a callback throws INVALID_ARGUMENT, word for word as the published SDK', () => {
    const magic = createMagic(emulator)
    clients.push(magic)
    const published = new PublishedMagic(emulator.apiKey, {
      endpoint: emulator.endpoint,
      deferPreload: true,
    })
    const payload = { jsonrpc: '2.0' as const, id: 1, method: 'eth_chainId' }
    const message =
      'Magic SDK Error: [INVALID_ARGUMENT] Invalid 2nd argument given to `Magic.rpcProvider.sendAsync`.\n  Expected: `function`\n  Received: `undefined`'
    expect(() =>
      magic.rpcProvider.sendAsync(payload, undefined as never),
    ).toThrowError(message)
    expect(() =>
      published.rpcProvider.sendAsync(payload, undefined as never),
    ).toThrowError(message)
    expect(() =>
      magic.rpcProvider.sendAsync(payload, null as never),
    ).toThrowError('Received: `null`')
  })

  test('synchronous send(payload) returns a -32603 payload and warns SYNC_WEB3_METHOD, as the published SDK', () => {
    const magic = createMagic(emulator)
    clients.push(magic)
    const published = new PublishedMagic(emulator.apiKey, {
      endpoint: emulator.endpoint,
      deferPreload: true,
    })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const payload = () => ({
      jsonrpc: '2.0' as const,
      id: 3,
      method: 'eth_accounts',
      params: [],
    })
    const ours = magic.rpcProvider.send(payload())
    const theirs = published.rpcProvider.send(payload())
    const text =
      'Non-async web3 methods are deprecated in web3 > 1.0 and are not supported by the Magic web3 provider. Please use an async method instead.'
    expect(ours).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: undefined,
      error: { code: -32603, message: text },
    })
    expect(ours).toEqual(theirs)
    expect(warn.mock.calls).toEqual([
      [`Magic SDK Warning: [SYNC_WEB3_METHOD] ${text}`],
      [`Magic SDK Warning: [SYNC_WEB3_METHOD] ${text}`],
    ])
  })

  test('EIP-6963: a mipd store finds our provider under rdns link.magic until destroy()', () => {
    const magic = createMagic(emulator, { announceProvider: true })
    const store = createStore()
    try {
      const detail = store.findProvider({ rdns: 'link.magic' })
      expect(detail?.provider).toBe(magic.rpcProvider)
      expect(detail?.info).toMatchObject({ name: 'Magic', rdns: 'link.magic' })
      expect(detail?.info.icon).toMatch(/^data:image\/svg\+xml;base64,/)
      expect(detail?.info.uuid).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      )
      magic.destroy()
      store.reset()
      expect(store.findProvider({ rdns: 'link.magic' })).toBeUndefined()
    } finally {
      store.destroy()
    }
  })

  test('EIP-6963: announceProvider false announces nothing', () => {
    const magic = createMagic(emulator, { announceProvider: false })
    clients.push(magic)
    const store = createStore()
    try {
      expect(store.getProviders()).toEqual([])
    } finally {
      store.destroy()
    }
  })
})
