import {
  connect,
  disconnect,
  getConnection,
  reconnect,
  sendTransaction,
  signMessage,
  signTypedData,
  switchChain,
  waitForTransactionReceipt,
  watchConnection,
} from '@wagmi/core'
import {
  ChainDisconnectedError,
  getAddress,
  parseEther,
  SwitchChainError,
  toHex,
  UserRejectedRequestError,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { beforeEach, describe, expect, inject, test } from 'vitest'
import { page } from 'vitest/browser'
import * as SessionMarker from '../../src/magic/sessionMarker.js'
import { fund, loginHeadless, shownOverlay } from './magicLogin.js'
import { createMagicConfig } from './magicWagmi.js'
import { waitForCode } from './mailbox.js'

/**
 * The wagmi connector `magic()` with real `@wagmi/core` actions, our client
 * and the emulator's Anvil: connect (headless login or the provider's
 * screens), sign, send, disconnect, reconnect, chains and events.
 */
describe('magic() wagmi connector', () => {
  const emulator = inject('magicEmulator')
  const { chainId, rpcUrl } = emulator
  const marker = SessionMarker.key(emulator.apiKey)

  // The session marker is the page's: no test may see another's.
  beforeEach(() => localStorage.clear())

  test('connect logs in headless; signMessage, sendTransaction and disconnect work through wagmi', async () => {
    const { config, connector, instances, logins, email } =
      createMagicConfig(emulator)
    const result = await connect(config, { connector })
    expect(logins).toEqual([email])
    const [magic] = instances
    const info = await magic?.user.getInfo()
    const address = info?.publicAddress as `0x${string}`
    expect(info?.email).toBe(email)
    expect(result).toEqual({ accounts: [getAddress(address)], chainId })
    expect(result.accounts[0]).toBe(address)

    const connection = getConnection(config)
    expect(connection).toMatchObject({
      status: 'connected',
      isConnected: true,
      address,
      addresses: [address],
      chainId,
    })
    expect(connection.connector?.id).toBe('link.magic')
    expect(connection.connector?.name).toBe('Magic')

    const message = 'signed through wagmi'
    const signature = await signMessage(config, { message })
    expect(await verifyMessage({ address, message, signature })).toBe(true)

    const typed = {
      domain: { name: 'Connector', version: '1', chainId },
      types: {
        Order: [
          { name: 'owner', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
      },
      primaryType: 'Order',
      message: { owner: address, amount: 10n ** 20n },
    } as const
    const typedSignature = await signTypedData(config, typed)
    expect(
      await verifyTypedData({ address, signature: typedSignature, ...typed }),
    ).toBe(true)

    await fund(rpcUrl, address, parseEther('1'))
    const to = getAddress(toHex(crypto.getRandomValues(new Uint8Array(20))))
    const hash = await sendTransaction(config, {
      to,
      value: parseEther('0.1'),
    })
    const receipt = await waitForTransactionReceipt(config, { hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from).toBe(address.toLowerCase())
    expect(receipt.to).toBe(to.toLowerCase())

    await disconnect(config)
    expect(getConnection(config)).toMatchObject({
      status: 'disconnected',
      isConnected: false,
      address: undefined,
    })
    expect(await magic?.user.isLoggedIn()).toBe(false)
  })

  test('isAuthorized follows the session marker and the cached logged-in flag; reconnect skips the login', async () => {
    const first = createMagicConfig(emulator)
    expect(await first.connector.isAuthorized()).toBe(false)
    const { accounts } = await connect(first.config, {
      connector: first.connector,
    })
    expect(localStorage.getItem(marker)).toBe('1')
    // isAuthorized asks the iframe and caches the answer.
    expect(await first.connector.isAuthorized()).toBe(true)
    expect(await first.storage.getItem('magic_auth_is_logged_in')).toBe('true')

    // A page reload: a new config and connector, the same client storage.
    const second = createMagicConfig(emulator, { storage: first.storage })
    expect(await second.connector.isAuthorized()).toBe(true)
    const connections = await reconnect(second.config)
    expect(second.logins).toEqual([])
    expect(connections).toEqual([
      { accounts, chainId, connector: second.connector },
    ])
    expect(getConnection(second.config)).toMatchObject({
      status: 'connected',
      address: accounts[0],
    })

    await disconnect(second.config)
    expect(await first.storage.getItem('magic_auth_is_logged_in')).toBe(null)
    expect(localStorage.getItem(marker)).toBe(null)
    const third = createMagicConfig(emulator, { storage: first.storage })
    expect(await third.connector.isAuthorized()).toBe(false)
  })

  test('a stale marker and cached logged-in flag: reconnect connects nothing and drops the marker; connect still logs in', async () => {
    const stale = createMagicConfig(emulator)
    await stale.storage.setItem('magic_auth_is_logged_in', 'true')
    localStorage.setItem(marker, '1')
    expect(await reconnect(stale.config)).toEqual([])
    expect(getConnection(stale.config).status).toBe('disconnected')
    expect(localStorage.getItem(marker)).toBe(null)

    const { config, connector, storage, logins, email } =
      createMagicConfig(emulator)
    await storage.setItem('magic_auth_is_logged_in', 'true')
    const { accounts } = await connect(config, { connector })
    expect(logins).toEqual([email])
    expect(accounts).toHaveLength(1)
    expect(getConnection(config).address).toBe(accounts[0])
    await disconnect(config)
  })

  test('switchChain to the configured chain keeps the connection; an unconfigured chain throws SwitchChainError', async () => {
    const { config, connector } = createMagicConfig(emulator)
    await connect(config, { connector })
    const chain = await switchChain(config, { chainId })
    expect(chain.id).toBe(chainId)
    expect(getConnection(config).chainId).toBe(chainId)
    const error = await switchChain(config, { chainId: 999_999 }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(SwitchChainError)
    expect((error as SwitchChainError).cause).toBeInstanceOf(
      ChainDisconnectedError,
    )
    expect(getConnection(config)).toMatchObject({
      status: 'connected',
      chainId,
    })
    await disconnect(config)
  })

  test('a logout through the client disconnects wagmi; another login changes its account', async () => {
    const { config, connector, instances } = createMagicConfig(emulator)
    const statuses: string[] = []
    const stop = watchConnection(config, {
      onChange: (connection) =>
        statuses.push(`${connection.status} ${connection.address ?? '-'}`),
    })
    try {
      const { accounts } = await connect(config, { connector })
      const magic = instances[0]
      if (!magic) throw new Error('The connector made no client.')

      // Another user logs in through the same client: accountsChanged.
      const other = `wagmi-other-${crypto.randomUUID()}@example.com`
      await loginHeadless(magic, { mailbox: emulator.mailbox, email: other })
      const [next] = (await magic.rpcProvider.request({
        method: 'eth_accounts',
      })) as string[]
      expect(next).not.toBe(accounts[0])
      expect(getConnection(config).address).toBe(next)

      await magic.user.logout()
      await expect.poll(() => getConnection(config).status).toBe('disconnected')
      expect(statuses).toEqual([
        'connecting -',
        `connected ${accounts[0]}`,
        `connected ${next}`,
        'disconnected -',
      ])
    } finally {
      stop()
    }
  })

  test('connect without login opens the provider login screens (email, then code)', async () => {
    const { config, connector, email } = createMagicConfig(emulator, {
      login: false,
    })
    const connecting = connect(config, { connector })
    const iframe = await shownOverlay()
    const ui = page.frameLocator(page.elementLocator(iframe))
    await ui.getByTestId('login-email-input').fill(email)
    await ui.getByTestId('login-email-submit').click()
    const code = await waitForCode({ mailbox: emulator.mailbox, to: email })
    await ui.getByTestId('email-otp-input').fill(code)
    await ui.getByTestId('email-otp-submit').click()
    const { accounts } = await connecting
    expect(accounts).toEqual([getAddress(accounts[0] as string)])
    expect(getConnection(config).status).toBe('connected')
    expect(iframe.style.display).toBe('none')
    await disconnect(config)
  })

  test('closing the provider login screen rejects connect with UserRejectedRequestError', async () => {
    const { config, connector } = createMagicConfig(emulator, { login: false })
    const connecting = connect(config, { connector }).catch(
      (error: unknown) => error,
    )
    const iframe = await shownOverlay()
    const ui = page.frameLocator(page.elementLocator(iframe))
    await ui.getByTestId('login-email-input').hover()
    await ui.getByTestId('close').click()
    const error = await connecting
    expect(error).toBeInstanceOf(UserRejectedRequestError)
    expect((error as UserRejectedRequestError).code).toBe(4001)
    expect(getConnection(config).status).toBe('disconnected')
    await expect.poll(() => iframe.style.display).toBe('none')
  })
})
