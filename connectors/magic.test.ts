import {
  connect,
  createConfig,
  getChainId,
  getConnection,
  http,
  reconnect,
  switchChain,
} from '@wagmi/core'
import {
  ChainDisconnectedError,
  defineChain,
  SwitchChainError,
  UnauthorizedProviderError,
  UserRejectedRequestError,
} from 'viem'
import {
  afterEach,
  beforeEach,
  describe,
  expect,
  expectTypeOf,
  test,
  vi,
} from 'vitest'
import type { MagicOptions } from '../src/magic/index.js'
import { providerInfo } from '../src/magic/providerInfo.js'
import * as SessionMarker from '../src/magic/sessionMarker.js'
import * as Codes from '../src/magic/wire/codes.js'
import { memoryLocalStorage } from './_test/localStorage.js'
import { type MagicParameters, magic } from './magic.js'

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
  /** Every client made, by chain. */
  const made: number[] = []
  /** What `login` throws, when set. */
  const refusal = { error: undefined as unknown }
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
    readonly wallet = {
      connectWithUI: async () => {
        if (refusal.error) throw refusal.error
        return []
      },
    }
    constructor(_apiKey: string, options: { network: { chainId: number } }) {
      this.chainId = options.network.chainId
      made.push(this.chainId)
    }
  }
  return { Magic, session, noSession, gates, made, refusal }
})

vi.mock('../src/magic/index.js', () => ({ Magic: fake.Magic }))

const address = '0x00000000000000000000000000000000000000A1'
const apiKey = 'pk_live_TEST'
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
        apiKey,
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

beforeEach(() => {
  fake.session.accounts = []
  fake.noSession.clear()
  fake.gates.clear()
  fake.made.length = 0
  fake.refusal.error = undefined
  vi.stubGlobal('localStorage', memoryLocalStorage())
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('magic() switchChain', () => {
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
      UnauthorizedProviderError,
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

/** A config on chains 1 and 2 with `magic()`, not connected. */
function idle(parameters: Partial<MagicParameters> = {}) {
  const config = createConfig({
    chains: [chain(1), chain(2)],
    connectors: [magic({ apiKey, ...parameters })],
    transports: { 1: http(), 2: http() },
    multiInjectedProviderDiscovery: false,
    storage: null,
  })
  const connector = config.connectors[0]
  if (!connector) throw new Error('The config has no connector.')
  return { config, connector }
}

describe('magic() on page load', () => {
  test('behavior: without a session marker, reconnect and isAuthorized make no client', async () => {
    const { config, connector } = idle()
    expect(await reconnect(config)).toEqual([])
    expect(await connector.isAuthorized()).toBe(false)
    expect(fake.made).toEqual([])
  })

  test('behavior: with the marker, reconnect makes the client and connects from its session', async () => {
    fake.session.accounts = [address]
    localStorage.setItem(SessionMarker.key(apiKey), '1')
    const { config, connector } = idle()
    expect(await reconnect(config)).toEqual([
      { accounts: [address], chainId: 1, connector },
    ])
    expect(fake.made).toEqual([1])
  })

  test('behavior: a marker whose session is gone reconnects nothing', async () => {
    localStorage.setItem(SessionMarker.key(apiKey), '1')
    const { config } = idle()
    expect(await reconnect(config)).toEqual([])
    expect(getConnection(config).status).toBe('disconnected')
  })

  test('behavior: getProvider makes no client; the first request through it does', async () => {
    const { connector } = idle()
    const provider = await connector.getProvider()
    expect(fake.made).toEqual([])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x1')
    expect(fake.made).toEqual([1])
    // Once made, the client's own provider is answered.
    const made = await connector.getProvider()
    expect(made).not.toBe(provider)
    expect(await connector.getProvider()).toBe(made)
  })

  test('default: name, icon and rdns are the ones the client announces', () => {
    const { connector } = idle()
    expect({
      name: connector.name,
      icon: connector.icon,
      rdns: connector.rdns,
      id: connector.id,
    }).toEqual({ ...providerInfo, id: providerInfo.rdns })
    expect(connector.type).toBe('magic')
    expect(magic.type).toBe('magic')
  })
})

describe('magic() errors', () => {
  test.each([
    ['EIP-1193 4001', UserRejectedRequestError.code],
    ['the iframe wallet’s UserRejectedAction', Codes.UserRejectedAction],
    ['the iframe wallet’s RequestCancelled', Codes.RequestCancelled],
  ])(
    'error: a login refused with %s is a UserRejectedRequestError',
    async (_, code) => {
      fake.refusal.error = Object.assign(new Error('No.'), { code })
      const { config, connector } = idle()
      const error = await connect(config, { connector }).catch(
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(UserRejectedRequestError)
      expect((error as UserRejectedRequestError).cause).toBe(fake.refusal.error)
    },
  )

  test('error: a login that ends with no account is 4100 and leaves wagmi disconnected', async () => {
    const { config, connector } = idle()
    const error = await connect(config, { connector }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnauthorizedProviderError)
    expect((error as UnauthorizedProviderError).code).toBe(4100)
    expect(getConnection(config).status).toBe('disconnected')
  })

  test('error: connecting to a chain the config does not list is 4901', async () => {
    const { config, connector } = idle()
    const error = await connect(config, { connector, chainId: 3 }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ChainDisconnectedError)
    expect(fake.made).toEqual([])
  })
})

describe('magic() types', () => {
  test('types: options are the client’s options, without network', () => {
    expectTypeOf<NonNullable<MagicParameters['options']>>().toEqualTypeOf<
      Omit<MagicOptions<[]>, 'network'>
    >()
    // @ts-expect-error a misspelt option is refused
    magic({ apiKey, options: { endpiont: 'http://127.0.0.1:1' } })
    // @ts-expect-error the connector sets the network from the wagmi chain
    magic({ apiKey, options: { network: 'sepolia' } })
    magic({ apiKey, options: { endpoint: 'http://127.0.0.1:1', locale: 'fr' } })
  })
})
