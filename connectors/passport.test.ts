import {
  connect,
  createConfig,
  disconnect,
  getConnection,
  http,
  reconnect,
  switchChain,
} from '@wagmi/core'
import {
  ChainDisconnectedError,
  defineChain,
  getAddress,
  SwitchChainError,
  UnauthorizedProviderError,
  UnsupportedProviderMethodError,
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
import { storageKey } from '../src/passport/auth/sessionMarker.js'
import type { Passport, ZkEvmProvider } from '../src/passport/index.js'
import { providerInfo } from '../src/passport/zkevm/providerInfo.js'
import { memoryLocalStorage } from './_test/localStorage.js'
import {
  type PassportInstance,
  type PassportParameters,
  type PassportProvider,
  passport,
} from './passport.js'

/**
 * A stand-in for the game wallet's client and its zkEVM provider: one
 * session (`session.accounts`, empty when nobody is signed in), and what the
 * connector asked of them.
 */
const fake = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => void
  const state = {
    accounts: [] as string[],
    /** What `eth_requestAccounts` signs in as (the login popup's result). */
    signsInAs: [] as string[],
    /** An error `eth_requestAccounts` throws instead. */
    refuse: undefined as undefined | { code: number; message: string },
    calls: [] as string[],
    constructed: [] as unknown[],
  }
  function createProvider(chainId: number) {
    const listeners = new Map<string, Set<Listener>>()
    return {
      isPassport: true as const,
      async request({ method }: { method: string }) {
        state.calls.push(method)
        if (method === 'eth_chainId') return `0x${chainId.toString(16)}`
        if (method === 'eth_accounts') return state.accounts
        if (method === 'eth_requestAccounts') {
          if (state.refuse) throw Object.assign(new Error(), state.refuse)
          if (!state.accounts.length) state.accounts = state.signsInAs
          return state.accounts
        }
        throw new Error(`unexpected ${method}`)
      },
      on(event: string, listener: Listener) {
        const set = listeners.get(event) ?? new Set()
        listeners.set(event, set.add(listener))
      },
      removeListener(event: string, listener: Listener) {
        listeners.get(event)?.delete(listener)
      },
      emit(event: string, ...args: unknown[]) {
        for (const listener of listeners.get(event) ?? []) listener(...args)
      },
      listenerCount: (event: string) => listeners.get(event)?.size ?? 0,
    }
  }
  class Passport {
    readonly provider = createProvider(1)
    readonly connectEvmCalls: unknown[] = []
    constructor(configuration?: unknown) {
      if (configuration !== undefined) state.constructed.push(configuration)
    }
    async connectEvm(options: unknown) {
      this.connectEvmCalls.push(options)
      return this.provider
    }
    async logout() {
      state.calls.push('logout')
      state.accounts = []
    }
    async logoutDeviceFlow() {
      state.calls.push('logoutDeviceFlow')
      state.accounts = []
      this.provider.emit('accountsChanged', [])
      return 'http://127.0.0.1:1/v2/logout'
    }
  }
  return { state, Passport }
})

vi.mock('../src/passport/index.js', () => ({ Passport: fake.Passport }))

type FakePassport = InstanceType<typeof fake.Passport>
const address = '0x00000000000000000000000000000000000000a1'
const checksummed = '0x00000000000000000000000000000000000000A1'
const other = getAddress('0x00000000000000000000000000000000000000b2')
const chain = (id: number) =>
  defineChain({
    id,
    name: `Chain ${id}`,
    nativeCurrency: { name: 'IMX', symbol: 'IMX', decimals: 18 },
    rpcUrls: { default: { http: [`http://127.0.0.1:1/${id}`] } },
  })

/** A wagmi config on chains 1 and 2 whose only connector is `passport()`. */
function setup(
  parameters: Partial<PassportParameters> = {},
  client: FakePassport = new fake.Passport(),
) {
  const config = createConfig({
    chains: [chain(1), chain(2)],
    connectors: [
      passport({
        passport: client as unknown as PassportInstance,
        ...parameters,
      } as PassportParameters),
    ],
    transports: { 1: http(), 2: http() },
    multiInjectedProviderDiscovery: false,
    storage: null,
  })
  const connector = config.connectors[0]
  if (!connector) throw new Error('The config has no connector.')
  const changes: unknown[] = []
  connector.emitter.on('change', ({ uid: _, ...data }) => changes.push(data))
  return { config, connector, client, changes }
}

beforeEach(() => {
  fake.state.accounts = []
  fake.state.signsInAs = [address]
  fake.state.refuse = undefined
  fake.state.calls = []
  fake.state.constructed = []
  vi.stubGlobal('localStorage', memoryLocalStorage())
})

afterEach(() => {
  vi.unstubAllGlobals()
})

/** The user the client stores at sign-in, which the connector looks for. */
function storeUser(clientId = 'client') {
  localStorage.setItem(storageKey('http://127.0.0.1:1', clientId), '{}')
}

describe('passport() connector', () => {
  test('types: our Passport is accepted as the connector’s client without a cast', () => {
    expectTypeOf<Passport>().toExtend<PassportInstance>()
    expectTypeOf<PassportProvider>().toEqualTypeOf<ZkEvmProvider>()
  })

  test('is the game wallet: name, icon and rdns are the ones its provider announces', () => {
    const { connector } = setup()
    expect([
      connector.id,
      connector.rdns,
      connector.name,
      connector.type,
    ]).toEqual([
      'com.immutable.passport',
      'com.immutable.passport',
      'Immutable Passport',
      'passport',
    ])
    expect(connector.icon).toBe(providerInfo.icon)
    expect(connector.name).toBe(providerInfo.name)
    expect(passport.type).toBe('passport')
  })

  test('connect asks for the accounts, once, through connectEvm without announcing', async () => {
    const { config, connector, client } = setup({
      connectEvm: { announceProvider: true } as never,
    })
    expect(await connect(config, { connector })).toEqual({
      accounts: [checksummed],
      chainId: 1,
    })
    expect(fake.state.calls).toEqual(['eth_requestAccounts', 'eth_chainId'])
    expect(client.connectEvmCalls).toEqual([{ announceProvider: false }])
    expect(getConnection(config)).toMatchObject({
      status: 'connected',
      address: checksummed,
      chainId: 1,
    })
    await connector.getProvider()
    expect(client.connectEvmCalls).toHaveLength(1)
  })

  test('connect with withCapabilities answers each account with empty capabilities', async () => {
    const { connector } = setup()
    expect(await connector.connect({ withCapabilities: true })).toEqual({
      accounts: [{ address: checksummed, capabilities: {} }],
      chainId: 1,
    })
  })

  test('a refused login (4001) is a UserRejectedRequestError; the connection stays down', async () => {
    fake.state.refuse = {
      code: UserRejectedRequestError.code,
      message: 'User rejected the request.',
    }
    const { config, connector } = setup()
    const error = await connect(config, { connector }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UserRejectedRequestError)
    expect(getConnection(config).status).toBe('disconnected')
  })

  test('error: a wallet on a chain wagmi does not know fails with 4901', async () => {
    const client = new fake.Passport()
    Object.assign(client, { provider: { ...client.provider } })
    client.provider.request = async ({ method }: { method: string }) =>
      method === 'eth_chainId' ? '0x7' : [address]
    const { config, connector } = setup({}, client)
    await expect(connect(config, { connector })).rejects.toBeInstanceOf(
      ChainDisconnectedError,
    )
  })

  test('isAuthorized reads eth_accounts only: false signed out, true signed in', async () => {
    storeUser()
    const { connector } = setup()
    expect(await connector.isAuthorized()).toBe(false)
    fake.state.accounts = [address]
    expect(await connector.isAuthorized()).toBe(true)
    expect(fake.state.calls).toEqual(['eth_accounts', 'eth_accounts'])
  })

  test('reconnect uses the stored session without asking; without one it stays disconnected', async () => {
    const signedOut = setup()
    expect(await reconnect(signedOut.config)).toEqual([])
    expect(fake.state.calls).not.toContain('eth_requestAccounts')

    fake.state.accounts = [address]
    storeUser()
    const { config, connector } = setup()
    expect(await reconnect(config)).toEqual([
      { accounts: [checksummed], chainId: 1, connector },
    ])
    expect(fake.state.calls).not.toContain('eth_requestAccounts')
    expect(getConnection(config).status).toBe('connected')
  })

  test('accountsChanged reports the new account; [] disconnects', async () => {
    const { config, connector, client, changes } = setup()
    await connect(config, { connector })
    client.provider.emit('accountsChanged', [other.toLowerCase()])
    expect(changes).toEqual([{ accounts: [other] }])
    expect(getConnection(config).address).toBe(other)
    client.provider.emit('accountsChanged', [])
    expect(getConnection(config).status).toBe('disconnected')
    expect(client.provider.listenerCount('accountsChanged')).toBe(0)
  })

  test('switchChain: the wallet’s own chain answers it, another fails with SwitchChainError', async () => {
    const { config, connector, changes } = setup()
    await connect(config, { connector })
    expect(await switchChain(config, { chainId: 1 })).toMatchObject({ id: 1 })
    const error = await switchChain(config, { chainId: 2 }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(SwitchChainError)
    expect(((error as SwitchChainError).cause as Error).message).toBe(
      'The game wallet serves chain 1 only.',
    )
    const unknown = await connector
      .switchChain?.({ chainId: 3 })
      .catch((e: unknown) => e)
    expect((unknown as SwitchChainError).cause).toBeInstanceOf(
      ChainDisconnectedError,
    )
    expect(changes).toEqual([])
    expect(getConnection(config)).toMatchObject({
      status: 'connected',
      chainId: 1,
    })
  })

  test('disconnect logs out locally (no navigation) and stops listening', async () => {
    const { config, connector, client } = setup()
    await connect(config, { connector })
    await disconnect(config)
    expect(fake.state.calls).toContain('logoutDeviceFlow')
    expect(fake.state.calls).not.toContain('logout')
    expect(getConnection(config).status).toBe('disconnected')
    expect(client.provider.listenerCount('accountsChanged')).toBe(0)
    expect(await connector.isAuthorized()).toBe(false)
  })

  test('disconnect runs the app’s logout when given', async () => {
    const logouts: unknown[] = []
    const { config, connector, client } = setup({
      logout: async (instance) => {
        logouts.push(instance)
        await instance.logout()
      },
    })
    await connect(config, { connector })
    await disconnect(config)
    expect(logouts).toEqual([client])
    expect(fake.state.calls).toContain('logout')
    expect(fake.state.calls).not.toContain('logoutDeviceFlow')
  })

  test('with a configuration, the client is made on first use, once, from it', async () => {
    const configuration = {
      baseConfig: { environment: 'sandbox' as const },
      clientId: 'client',
      redirectUri: 'http://127.0.0.1:1/callback',
    }
    const config = createConfig({
      chains: [chain(1)],
      connectors: [passport({ config: configuration })],
      transports: { 1: http() },
      multiInjectedProviderDiscovery: false,
      storage: null,
    })
    const connector = config.connectors[0]
    if (!connector) throw new Error('The config has no connector.')
    expect(fake.state.constructed).toEqual([])
    await connect(config, { connector })
    await connector.getAccounts()
    expect(fake.state.constructed).toEqual([configuration])
  })

  test('error: a client without connectEvm fails with 4200', async () => {
    storeUser()
    const client = { logout: async () => {} } as unknown as PassportInstance
    const { connector } = setup({ passport: client })
    const provider = await connector.getProvider()
    await expect(
      provider.request({ method: 'eth_accounts' }),
    ).rejects.toBeInstanceOf(UnsupportedProviderMethodError)
    expect(await connector.isAuthorized()).toBe(false)
  })

  test('a failed connectEvm is not kept: the next call asks again', async () => {
    const client = new fake.Passport()
    const connectEvm = client.connectEvm.bind(client)
    client.connectEvm = vi
      .fn(connectEvm)
      .mockRejectedValueOnce(new Error('offline'))
    const { connector } = setup({}, client)
    await expect(connector.getAccounts()).rejects.toThrow('offline')
    expect(await connector.getAccounts()).toEqual([])
    expect(await connector.getProvider()).toBe(client.provider)
    expect(client.connectEvm).toHaveBeenCalledTimes(2)
  })

  test('behavior: without a stored user, reconnect and isAuthorized load nothing', async () => {
    const configuration = {
      baseConfig: { environment: 'sandbox' as const },
      clientId: 'client',
      redirectUri: 'http://127.0.0.1:1/callback',
    }
    // Another client's user does not count.
    storeUser('another-client')
    const config = createConfig({
      chains: [chain(1)],
      connectors: [passport({ config: configuration })],
      transports: { 1: http() },
      multiInjectedProviderDiscovery: false,
      storage: null,
    })
    const connector = config.connectors[0]
    if (!connector) throw new Error('The config has no connector.')
    expect(await reconnect(config)).toEqual([])
    expect(await connector.isAuthorized()).toBe(false)
    expect(fake.state.constructed).toEqual([])
    expect(fake.state.calls).toEqual([])

    fake.state.accounts = [address]
    storeUser('client')
    expect(await reconnect(config)).toEqual([
      { accounts: [checksummed], chainId: 1, connector },
    ])
    expect(fake.state.constructed).toEqual([configuration])
  })

  test('behavior: an app-made client is not asked for its provider without a stored user', async () => {
    const { config, connector, client } = setup()
    expect(await reconnect(config)).toEqual([])
    expect(await connector.isAuthorized()).toBe(false)
    expect(client.connectEvmCalls).toEqual([])
  })

  test('behavior: getProvider loads nothing; the first request through it does', async () => {
    const { connector, client } = setup()
    const provider = await connector.getProvider()
    expect(provider.isPassport).toBe(true)
    expect(client.connectEvmCalls).toEqual([])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x1')
    expect(client.connectEvmCalls).toEqual([{ announceProvider: false }])
    expect(await connector.getProvider()).toBe(client.provider)
  })

  test('error: a login that yields no account is 4100', async () => {
    fake.state.signsInAs = []
    const { config, connector } = setup()
    await expect(connect(config, { connector })).rejects.toBeInstanceOf(
      UnauthorizedProviderError,
    )
  })
})
