import {
  connect,
  disconnect,
  getChainId,
  getConnection,
  sendTransaction,
  signMessage,
  switchChain,
  waitForTransactionReceipt,
  watchChainId,
} from '@wagmi/core'
import {
  ChainDisconnectedError,
  getAddress,
  parseEther,
  SwitchChainError,
  toHex,
  verifyMessage,
} from 'viem'
import { beforeEach, describe, expect, inject, test } from 'vitest'
import * as DeviceShare from '../../src/magic/keys/deviceShare.js'
import { networkHash } from '../../src/magic/Magic.js'
import { anvil, fund } from './magicLogin.js'
import { createMagicConfig, localChain } from './magicWagmi.js'

/**
 * The `magic()` connector between two configured chains: the emulator's
 * chain (A, 31337) and its second chain (B, 31338, `secondChain`). The
 * connector keeps one client (one iframe) per chain; `switchChain` moves
 * the connection to B's client, which carries the session logged in on A
 * (both clients share the page's storage).
 */
describe('magic() wagmi connector between two chains', () => {
  const emulator = inject('magicEmulator')
  const second = inject('secondChain')
  const a = emulator.chainId
  const b = second.chainId
  const chainB = localChain({ ...second, name: 'Second Anvil' })

  // The session marker is the page's: no test may see another's.
  beforeEach(() => localStorage.clear())

  /** A config with chains A and B, connected on A, and what it heard. */
  async function connectedOnA() {
    const setup = createMagicConfig(emulator, { otherChains: [chainB] })
    const { config, connector, instances } = setup
    const changes: unknown[] = []
    connector.emitter.on('change', ({ uid: _, ...data }) => changes.push(data))
    const chainIds: [number, number][] = []
    const stop = watchChainId(config, {
      onChange: (chainId, previous) => chainIds.push([chainId, previous]),
    })
    const { accounts } = await connect(config, { connector })
    const [magicA] = instances
    if (!magicA || !accounts[0]) throw new Error('connect logged nobody in.')
    return { ...setup, magicA, address: accounts[0], changes, chainIds, stop }
  }

  const nonce = async (rpcUrl: string, address: string) =>
    Number(await anvil(rpcUrl, 'eth_getTransactionCount', [address, 'latest']))
  const balance = async (rpcUrl: string, address: string) =>
    BigInt(
      (await anvil(rpcUrl, 'eth_getBalance', [address, 'latest'])) as string,
    )
  const randomAddress = () =>
    getAddress(toHex(crypto.getRandomValues(new Uint8Array(20))))

  test('switchChain to B and back: same account, eth_chainId of the chain, one chain change per switch, listeners on the current client only', async () => {
    const { config, connector, magicA, address, changes, chainIds, stop } =
      await connectedOnA()
    try {
      expect([a, b]).toEqual([31337, 31338])
      expect(getChainId(config)).toBe(a)
      const onA = await connector.getProvider({ chainId: a })
      expect(onA).toBe(magicA.rpcProvider)

      const chain = await switchChain(config, { chainId: b })
      expect(chain.id).toBe(b)
      expect(getChainId(config)).toBe(b)
      expect(getConnection(config)).toMatchObject({
        status: 'connected',
        chainId: b,
        address,
        addresses: [address],
      })
      const onB = await connector.getProvider()
      expect(onB).toBe(await connector.getProvider({ chainId: b }))
      expect(onB).not.toBe(onA)
      expect(await onB.request({ method: 'eth_chainId' })).toBe('0x7a6a')
      expect(await onB.request({ method: 'eth_accounts' })).toEqual([address])
      for (const event of ['accountsChanged', 'chainChanged', 'disconnect']) {
        expect(magicA.rpcProvider.listenerCount(event)).toBe(0)
        expect(listenerCount(onB, event)).toBe(1)
      }
      // A's client is no longer the connection's: its events are not heard.
      magicA.rpcProvider.emit('accountsChanged', [])
      expect(getConnection(config)).toMatchObject({ status: 'connected' })

      const back = await switchChain(config, { chainId: a })
      expect(back.id).toBe(a)
      expect(getConnection(config)).toMatchObject({
        status: 'connected',
        chainId: a,
        address,
      })
      expect(await connector.getProvider()).toBe(onA)
      expect(await onA.request({ method: 'eth_chainId' })).toBe('0x7a69')
      expect(listenerCount(onB, 'accountsChanged')).toBe(0)
      expect(magicA.rpcProvider.listenerCount('accountsChanged')).toBe(1)

      expect(chainIds).toEqual([
        [b, a],
        [a, b],
      ])
      expect(changes).toEqual([
        { accounts: [address], chainId: b },
        { accounts: [address], chainId: a },
      ])
    } finally {
      stop()
      await disconnect(config)
    }
  })

  test('on B, signMessage and sendTransaction go through B’s client: the transaction lands on Anvil B, not on A', async () => {
    const { config, address, stop } = await connectedOnA()
    stop()
    try {
      await switchChain(config, { chainId: b })

      const message = 'signed on chain B'
      const signature = await signMessage(config, { message })
      expect(await verifyMessage({ address, message, signature })).toBe(true)

      await fund(second.rpcUrl, address, parseEther('1'))
      const nonceOnA = await nonce(emulator.rpcUrl, address)
      const balanceOnA = await balance(emulator.rpcUrl, address)
      const to = randomAddress()
      const hash = await sendTransaction(config, {
        to,
        value: parseEther('0.1'),
      })
      const receipt = await waitForTransactionReceipt(config, {
        hash,
        chainId: b,
      })
      expect(receipt).toMatchObject({
        status: 'success',
        from: address.toLowerCase(),
        to: to.toLowerCase(),
      })
      expect(await nonce(second.rpcUrl, address)).toBe(1)
      expect(await balance(second.rpcUrl, to)).toBe(parseEther('0.1'))
      expect(
        await anvil(emulator.rpcUrl, 'eth_getTransactionByHash', [hash]),
      ).toBe(null)
      expect(await nonce(emulator.rpcUrl, address)).toBe(nonceOnA)
      expect(await balance(emulator.rpcUrl, address)).toBe(balanceOnA)
      expect(await balance(emulator.rpcUrl, to)).toBe(0n)
    } finally {
      await disconnect(config)
    }
  })

  test('B’s client has no device share until its first signature, which hands it one for B', async () => {
    const { config, magicA, address, storage, stop } = await connectedOnA()
    stop()
    try {
      await switchChain(config, { chainId: b })
      const hashB = networkHash(
        magicA.apiKey,
        { rpcUrl: second.rpcUrl, chainId: b },
        undefined,
      )
      expect(await DeviceShare.decrypt(storage, hashB)).toBe(undefined)
      const signature = await signMessage(config, { message: 'on B' })
      expect(await verifyMessage({ address, message: 'on B', signature })).toBe(
        true,
      )
      expect(await DeviceShare.decrypt(storage, hashB)).toBe(
        await DeviceShare.decrypt(storage, magicA.networkHash),
      )
    } finally {
      await disconnect(config)
    }
  })

  test('an unconfigured chain throws SwitchChainError and leaves the connection on B', async () => {
    const { config, address, changes, chainIds, stop } = await connectedOnA()
    try {
      await switchChain(config, { chainId: b })
      const error = await switchChain(config, { chainId: 999_999 }).catch(
        (error: unknown) => error,
      )
      expect(error).toBeInstanceOf(SwitchChainError)
      expect((error as SwitchChainError).cause).toBeInstanceOf(
        ChainDisconnectedError,
      )
      expect(getConnection(config)).toMatchObject({
        status: 'connected',
        chainId: b,
        address,
      })
      expect(chainIds).toEqual([[b, a]])
      expect(changes).toEqual([{ accounts: [address], chainId: b }])
    } finally {
      stop()
      await disconnect(config)
    }
  })

  test('disconnect after switching to B logs the user out of both chains’ clients', async () => {
    const { config, connector, magicA, stop } = await connectedOnA()
    stop()
    await switchChain(config, { chainId: b })
    const onB = await connector.getProvider({ chainId: b })
    await disconnect(config)
    expect(getConnection(config)).toMatchObject({
      status: 'disconnected',
      address: undefined,
    })
    expect(getChainId(config)).toBe(b)
    expect(listenerCount(onB, 'disconnect')).toBe(0)
    expect(await onB.request({ method: 'eth_accounts' })).toEqual([])
    expect(await magicA.user.isLoggedIn()).toBe(false)
    expect(
      await magicA.rpcProvider.request({ method: 'eth_accounts' }),
    ).toEqual([])
    expect(await connector.isAuthorized()).toBe(false)
  })
})

/** Listeners of `event` on a provider the connector handed out. */
function listenerCount(provider: unknown, event: string): number {
  return (provider as { listenerCount(event: string): number }).listenerCount(
    event,
  )
}
