import {
  ConnectorNotConnectedError,
  connect,
  createConfig,
  getChainId,
  getConnection,
  http,
  switchChain,
} from '@wagmi/core'
import { defineChain, SwitchChainError } from 'viem'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import { magic } from './magic.js'

/**
 * A stand-in for the iframe client: one per network, all sharing one
 * session (as clients sharing the page's storage do). `noSession` lists
 * the chains whose client does not see it; `gates` holds a chain's
 * `eth_accounts` until released.
 */
const fake = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => void
  const session = { accounts: [] as string[] }
  const noSession = new Set<number>()
  const gates = new Map<number, Promise<void>>()
  class Magic {
    readonly chainId: number
    readonly listeners = new Map<string, Set<Listener>>()
    readonly rpcProvider = {
      request: async ({ method }: { method: string }) => {
        if (method === 'eth_chainId') return `0x${this.chainId.toString(16)}`
        await gates.get(this.chainId)
        return noSession.has(this.chainId) ? [] : session.accounts
      },
      on: (event: string, listener: Listener) => {
        const set = this.listeners.get(event) ?? new Set()
        this.listeners.set(event, set.add(listener))
      },
      removeListener: (event: string, listener: Listener) =>
        void this.listeners.get(event)?.delete(listener),
      emit: (event: string, ...args: unknown[]) => {
        for (const listener of this.listeners.get(event) ?? [])
          listener(...args)
      },
      listenerCount: (event: string) => this.listeners.get(event)?.size ?? 0,
    }
    readonly user = {
      isLoggedIn: async () => session.accounts.length > 0,
      logout: async () => {
        session.accounts = []
      },
    }
    readonly wallet = { connectWithUI: async () => [] }
    constructor(_apiKey: string, options: { network: { chainId: number } }) {
      this.chainId = options.network.chainId
    }
  }
  return { Magic, session, noSession, gates }
})

vi.mock('../src/magic/index.js', () => ({ Magic: fake.Magic }))

const address = '0x00000000000000000000000000000000000000A1'
const chain = (id: number) =>
  defineChain({
    id,
    name: `Chain ${id}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [`http://127.0.0.1:1/${id}`] } },
  })

/** A config with chains 1 and 2, connected on 1, and what it heard. */
async function connected() {
  const config = createConfig({
    chains: [chain(1), chain(2)],
    connectors: [
      magic({
        apiKey: 'pk_live_TEST',
        login: async () => {
          fake.session.accounts = [address]
        },
      }),
    ],
    transports: { 1: http(), 2: http() },
    multiInjectedProviderDiscovery: false,
    storage: null,
  })
  const connector = config.connectors[0]
  if (!connector) throw new Error('The config has no connector.')
  const changes: unknown[] = []
  connector.emitter.on('change', ({ uid: _, ...data }) => changes.push(data))
  await connect(config, { connector })
  type Provider = InstanceType<typeof fake.Magic>['rpcProvider']
  const provider = async (chainId: number) =>
    (await connector.getProvider({ chainId })) as Provider
  return { config, connector, changes, provider }
}

describe('magic() switchChain', () => {
  beforeEach(() => {
    fake.session.accounts = []
    fake.noSession.clear()
    fake.gates.clear()
  })

  test('moves the listeners to the new chain’s client and emits one change with its accounts', async () => {
    const { config, changes, provider } = await connected()
    expect(await switchChain(config, { chainId: 2 })).toMatchObject({ id: 2 })
    expect(changes).toEqual([{ chainId: 2, accounts: [address] }])
    expect((await provider(1)).listenerCount('accountsChanged')).toBe(0)
    expect((await provider(2)).listenerCount('accountsChanged')).toBe(1)

    // The previous client is no longer heard; the current one is.
    ;(await provider(1)).emit('accountsChanged', [])
    expect(getConnection(config).status).toBe('connected')
    ;(await provider(2)).emit('accountsChanged', [])
    expect(getConnection(config).status).toBe('disconnected')
  })

  test('switching to the current chain emits nothing', async () => {
    const { config, changes } = await connected()
    await switchChain(config, { chainId: 1 })
    expect(changes).toEqual([])
    expect(getChainId(config)).toBe(1)
  })

  test('a chain whose client has no session fails with SwitchChainError and the connection stays', async () => {
    const { config, changes, provider } = await connected()
    fake.noSession.add(2)
    const error = await switchChain(config, { chainId: 2 }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(SwitchChainError)
    expect((error as SwitchChainError).cause).toBeInstanceOf(
      ConnectorNotConnectedError,
    )
    expect(changes).toEqual([])
    expect(getConnection(config)).toMatchObject({
      status: 'connected',
      chainId: 1,
      address,
    })
    expect((await provider(1)).listenerCount('accountsChanged')).toBe(1)
    expect((await provider(2)).listenerCount('accountsChanged')).toBe(0)
  })

  test('overlapping switches apply in the order asked: the last one stays', async () => {
    const { config, connector, changes, provider } = await connected()
    let release = () => {}
    fake.gates.set(2, new Promise<void>((resolve) => (release = resolve)))
    const toTwo = switchChain(config, { chainId: 2 })
    const backToOne = switchChain(config, { chainId: 1 })
    await Promise.resolve()
    release()
    await Promise.all([toTwo, backToOne])
    expect(changes).toEqual([
      { chainId: 2, accounts: [address] },
      { chainId: 1, accounts: [address] },
    ])
    expect(getChainId(config)).toBe(1)
    expect(await connector.getChainId()).toBe(1)
    expect((await provider(1)).listenerCount('chainChanged')).toBe(1)
    expect((await provider(2)).listenerCount('chainChanged')).toBe(0)
  })
})
