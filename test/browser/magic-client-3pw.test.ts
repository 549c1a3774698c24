import {
  createPublicClient,
  getAddress,
  type Hex,
  http,
  parseAbiItem,
  parseEther,
  toHex,
  verifyMessage,
} from 'viem'
import { afterEach, describe, expect, inject, test } from 'vitest'
import { page } from 'vitest/browser'
import type { Magic } from '../../src/magic/index.js'
import { anvil, createMagic, shownOverlay } from './magicLogin.js'

/**
 * Third-party wallet mode of our client: an external EIP-1193 provider
 * (viem's `http` transport on Anvil, whose dev accounts are unlocked, plus
 * an event emitter) answers the Ethereum requests while it is connected.
 */
describe('third-party wallet mode', () => {
  const emulator = inject('magicEmulator')
  const { rpcUrl, chainId } = emulator
  const chain = createPublicClient({ transport: http(rpcUrl) })
  let current: Magic | undefined

  afterEach(() => {
    current?.thirdPartyWallets.resetThirdPartyWalletState()
    current?.destroy()
    current = undefined
  })

  /** Anvil behind a real EIP-1193 `request`, with `on`/`emit`. */
  function externalWallet(account: Hex) {
    const { request } = http(rpcUrl)({})
    const listeners = new Map<string, Set<(...args: never[]) => void>>()
    const calls: string[] = []
    const failures: string[] = []
    return {
      calls,
      failures,
      request(args: { method: string; params?: unknown }) {
        calls.push(args.method)
        // One account, as a wallet exposes the one the user picked.
        if (
          args.method === 'eth_accounts' ||
          args.method === 'eth_requestAccounts'
        )
          return Promise.resolve([account.toLowerCase()])
        return request(args as Parameters<typeof request>[0]).catch(
          (error: unknown) => {
            failures.push(`${args.method}: ${(error as Error).message}`)
            throw error
          },
        )
      },
      on(event: string, listener: (...args: never[]) => void) {
        listeners.set(event, (listeners.get(event) ?? new Set()).add(listener))
      },
      removeListener(event: string, listener: (...args: never[]) => void) {
        listeners.get(event)?.delete(listener)
      },
      emit(event: string, ...args: unknown[]) {
        for (const listener of [...(listeners.get(event) ?? [])])
          (listener as (...args: unknown[]) => void)(...args)
      },
    }
  }

  async function connected() {
    const magic = createMagic(emulator)
    current = magic
    const [account] = (await anvil(rpcUrl, 'eth_accounts', [])) as Hex[]
    const address = getAddress(account as Hex)
    const wallet = externalWallet(address)
    const update = await magic.thirdPartyWallets.connect(wallet, {
      name: 'anvil',
    })
    return { magic, wallet, address, update }
  }

  test('connect routes Ethereum requests to the external wallet; getInfo answers did:ethr', async () => {
    const { magic, wallet, address, update } = await connected()
    expect(update).toEqual({
      accounts: [address.toLowerCase()],
      chainId: toHex(chainId),
    })
    expect(magic.thirdPartyWallets.isConnected).toBe(true)
    expect(localStorage.getItem('magic_3pw_provider')).toBe('anvil')

    wallet.calls.length = 0
    expect(await magic.rpcProvider.request({ method: 'eth_accounts' })).toEqual(
      [address.toLowerCase()],
    )
    expect(await magic.rpcProvider.request({ method: 'eth_chainId' })).toBe(
      toHex(chainId),
    )
    const message = 'signed by the external wallet'
    const signature = (await magic.rpcProvider.request({
      method: 'personal_sign',
      params: [toHex(message), address],
    })) as Hex
    expect(await verifyMessage({ address, message, signature })).toBe(true)
    expect(wallet.calls).toEqual([
      'eth_accounts',
      'eth_chainId',
      'personal_sign',
    ])

    const info = await magic.user.getInfo()
    expect(info).toMatchObject({
      issuer: `did:ethr:${address.toLowerCase()}`,
      publicAddress: address.toLowerCase(),
      walletType: 'anvil',
    })
    expect(await magic.user.isLoggedIn()).toBe(true)

    const hash = (await magic.rpcProvider.request({
      method: 'eth_sendTransaction',
      params: [
        {
          from: address,
          to: '0x000000000000000000000000000000000000dEaD',
          value: toHex(parseEther('0.001')),
        },
      ],
    })) as Hex
    expect((await chain.waitForTransactionReceipt({ hash })).from).toBe(
      address.toLowerCase(),
    )
  })

  test('nft.checkout says web3modal and the external wallet pays the mint: the NFT lands in the wallet', async () => {
    const { magic, wallet, address } = await connected()
    const before = await chain.getTransactionCount({ address })
    const checkout = magic.nft.checkout({
      contractId: 'emulator-test-nft',
      tokenId: '1',
      name: 'Test NFT',
      imageUrl: 'https://example.com/nft.png',
      walletAddress: address,
    })
    const iframe = await shownOverlay()
    await page
      .frameLocator(page.elementLocator(iframe))
      .getByTestId('nft-checkout-confirm')
      .click()
    const result = await checkout
    expect(wallet.failures).toEqual([])
    expect(result).toEqual({ status: 'processed' })
    // The wallet, not the provider, sent the mint transaction.
    expect(wallet.calls).toContain('eth_sendTransaction')
    expect(await chain.getTransactionCount({ address })).toBe(before + 1)
    const [log] = await chain.getLogs({
      event: parseAbiItem(
        'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
      ),
      args: { to: address },
      fromBlock: 'latest',
    })
    expect(log?.args.from).toBe('0x0000000000000000000000000000000000000000')
  })

  test('the external wallet events reach rpcProvider as accountsChanged and chainChanged', async () => {
    const { magic, wallet, address } = await connected()
    const events: unknown[] = []
    magic.rpcProvider
      .on('accountsChanged', (accounts) => events.push(['accounts', accounts]))
      .on('chainChanged', (chain) => events.push(['chain', chain]))
    const other = '0x000000000000000000000000000000000000bEEF'
    wallet.emit('accountsChanged', [other])
    wallet.emit('chainChanged', '0x1')
    expect(events).toEqual([
      ['accounts', [other]],
      ['chain', '0x1'],
    ])
    expect(localStorage.getItem('magic_3pw_address')).toBe(other)
    expect((await magic.user.getInfo()).issuer).toBe(`did:ethr:${other}`)
    expect(address).not.toBe(other)
  })

  test('after the external wallet emits disconnect, requests reject with User denied account access.', async () => {
    const { magic, wallet, address } = await connected()
    const events: unknown[] = []
    magic.rpcProvider
      .on('accountsChanged', (accounts) => events.push(['accounts', accounts]))
      .on('disconnect', (error: { code: number }) =>
        events.push(['disconnect', error.code]),
      )
    wallet.emit('disconnect')
    expect(events).toEqual([
      ['accounts', []],
      ['disconnect', 4900],
    ])
    expect(magic.thirdPartyWallets.isConnected).toBe(false)
    expect(localStorage.getItem('magic_3pw_provider')).toBe(null)
    wallet.calls.length = 0
    const denied = {
      code: -10011,
      message: 'Magic RPC Error: [-10011] User denied account access.',
    }
    await expect(
      magic.rpcProvider.request({ method: 'eth_accounts' }),
    ).rejects.toMatchObject(denied)
    await expect(
      magic.rpcProvider.request({
        method: 'personal_sign',
        params: ['0x00', address],
      }),
    ).rejects.toMatchObject(denied)
    await expect(magic.user.getInfo()).rejects.toMatchObject(denied)
    expect(await magic.user.isLoggedIn()).toBe(false)
    expect(wallet.calls).toEqual([])

    // mc_login resets the mode: requests go to the (logged-out) iframe.
    magic.wallet.connectWithUI().catch(() => {})
    expect(await magic.rpcProvider.request({ method: 'eth_accounts' })).toEqual(
      [],
    )
  })

  describe('connectWithUI with the external wallet enabled (enabledWallets.web3modal)', () => {
    const external = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

    /**
     * A client whose 3PW listener answers `web3modal_selected` as a
     * wallet kit would: `wallet_rejected` first when asked, then
     * `wallet_connected` with the wallet's address.
     */
    function withWalletKit(options: { rejectFirst?: boolean } = {}) {
      const magic = createMagic(emulator)
      current = magic
      const selected: (string | number)[] = []
      // The iframe's answers to the kit's events, awaited by each test: one
      // left pending when the test ends would be rejected by the client's
      // destroy, with no one to hear it.
      const answers: Promise<unknown>[] = []
      magic.thirdPartyWallets.enabledWallets = { web3modal: true }
      magic.thirdPartyWallets.eventListeners.push({
        event: 'web3modal_selected',
        callback: (payloadId) => {
          selected.push(payloadId)
          const rejected = options.rejectFirst && selected.length === 1
          const answer = magic.rpcProvider.request({
            method: 'magic_intermediary_event',
            params: [
              {
                payloadId,
                eventType: rejected ? 'wallet_rejected' : 'wallet_connected',
                args: rejected ? undefined : external,
              },
            ],
          })
          answers.push(answer)
        },
      })
      return { magic, selected, answers }
    }

    test("behavior: the iframe's login offers the wallet; picking it emits web3modal_selected, and the wallet's answer is the account", async () => {
      const { magic, selected, answers } = withWalletKit({ rejectFirst: true })
      const login = magic.wallet.connectWithUI()
      const ui = page.frameLocator(page.elementLocator(await shownOverlay()))
      await ui.getByTestId('login-connect-wallet').click()
      // Rejected: the screen comes back, and the wallet is picked again.
      await ui.getByTestId('login-connect-wallet').click()
      expect(await login).toEqual([external])
      expect(selected).toHaveLength(2)
      expect(selected[0]).toBe(selected[1])
      expect(await Promise.all(answers)).toEqual([true, true])
    })

    test('behavior: autoPromptThirdPartyWallets picks the wallet with no click', async () => {
      const { magic, selected, answers } = withWalletKit()
      expect(
        await magic.wallet.connectWithUI({ autoPromptThirdPartyWallets: true }),
      ).toEqual([external])
      expect(selected).toHaveLength(1)
      expect(await Promise.all(answers)).toEqual([true])
    })
  })

  test('mc_login leaves third-party mode: the request goes to the iframe', async () => {
    const { magic, wallet } = await connected()
    const login = magic.wallet.connectWithUI()
    login.catch(() => {})
    expect(magic.thirdPartyWallets.isConnected).toBe(false)
    expect(localStorage.getItem('magic_3pw_provider')).toBe(null)
    wallet.calls.length = 0
    // Logged out in the iframe: eth_accounts now comes from it.
    expect(await magic.rpcProvider.request({ method: 'eth_accounts' })).toEqual(
      [],
    )
    expect(wallet.calls).toEqual([])
  })
})
