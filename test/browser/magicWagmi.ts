/**
 * A wagmi config with our `magic()` connector against the emulator, for the
 * connector's browser tests.
 */
import { createConfig, http } from '@wagmi/core'
import { type Chain, defineChain, type Transport } from 'viem'
import {
  type MagicInstance,
  type MagicParameters,
  magic,
} from '../../connectors/magic.js'
import * as Storage from '../../src/core/Storage.js'
import type { Magic } from '../../src/magic/index.js'
import { type Emulator, freshEmail, loginHeadless } from './magicLogin.js'

/** The emulator's Anvil as a viem chain. */
export function anvilChain(emulator: Emulator) {
  return localChain({ ...emulator, name: 'Emulator Anvil' })
}

/** A local Anvil (`rpcUrl`, `chainId`) as a viem chain. */
export function localChain(options: {
  rpcUrl: string
  chainId: number
  name?: string | undefined
}) {
  const { rpcUrl, chainId, name = `Anvil ${chainId}` } = options
  return defineChain({
    id: chainId,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
}

/** A wagmi storage kept in a Map (nothing shared between tests). */
export function memoryWagmiStorage() {
  const items = new Map<string, string>()
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

/**
 * A wagmi config whose only connector is `magic()`. By default `connect`
 * logs a fresh email in headless; `instances` collects the clients the
 * connector made (its `login` receives them).
 */
export function createMagicConfig(
  emulator: Emulator,
  options: {
    /** The clients' storage (share it to model a page reload). */
    storage?: Storage.Storage | undefined
    /** `false`: no `login`, so `connect` opens the provider's screens. */
    login?: false | ((magic: MagicInstance) => Promise<unknown>) | undefined
    email?: string | undefined
    /** Chains configured after the emulator's (the first, the default). */
    otherChains?: readonly Chain[] | undefined
  } = {},
) {
  const chain = anvilChain(emulator)
  const chains = [chain, ...(options.otherChains ?? [])] as const
  const transports: Record<number, Transport> = {}
  for (const { id, rpcUrls } of chains)
    transports[id] = http(rpcUrls.default.http[0])
  const email = options.email ?? freshEmail('wagmi')
  const instances: Magic[] = []
  const logins: string[] = []
  const storage = options.storage ?? Storage.memory()
  const login: MagicParameters['login'] =
    options.login === false
      ? undefined
      : (options.login ??
        (async (instance) => {
          instances.push(instance)
          logins.push(email)
          await loginHeadless(instance, {
            mailbox: emulator.mailbox,
            email,
          })
        }))
  const config = createConfig({
    chains,
    connectors: [
      magic({
        apiKey: emulator.apiKey,
        options: { endpoint: emulator.endpoint, storage },
        login,
      }),
    ],
    transports,
    multiInjectedProviderDiscovery: false,
    storage: null,
  })
  const connector = config.connectors[0]
  if (!connector) throw new Error('The config has no connector.')
  return { config, connector, chain, email, instances, logins, storage }
}
