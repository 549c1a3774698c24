import { magic, passport } from 'embedded-wallets/connectors'
import {
  Passport,
  type PassportModuleConfiguration,
} from 'embedded-wallets/passport'
import { defineChain } from 'viem'
import { createConfig, http } from 'wagmi'
import type { Info } from './emulator.js'

/** The emulator's chain (Anvil), as viem and wagmi describe chains. */
export function emulatorChain(info: Info) {
  return defineChain({
    id: info.chainId,
    name: 'Emulator',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl] } },
    testnet: true,
  })
}

/**
 * The game wallet's configuration: the emulator's `overrides` as printed,
 * and this dApp's own page as `redirectUri` (the emulator's sign-in client
 * accepts any loopback page). The login popup lands there too, so that
 * page calls `loginCallback()` (src/redirect.ts).
 */
export function passportConfig(info: Info): PassportModuleConfiguration {
  return {
    baseConfig: { environment: 'sandbox' },
    clientId: info.passport.clientId,
    redirectUri: new URL('/redirect.html', location.origin).href,
    overrides: info.passport.overrides,
  }
}

/**
 * wagmi with both wallets' connectors on the emulator's chain. The iframe
 * wallet logs in through its own screens (the connector's default,
 * `connectWithUI()`: email, then the code); the game wallet through its
 * login popup.
 */
export function createWagmiConfig(info: Info) {
  const chain = emulatorChain(info)
  return createConfig({
    chains: [chain],
    transports: { [chain.id]: http(info.rpcUrl) },
    connectors: [
      magic({
        apiKey: info.magic.apiKey,
        options: { endpoint: info.magic.endpoint },
      }),
      passport({ passport: new Passport(passportConfig(info)) }),
    ],
    multiInjectedProviderDiscovery: false,
    pollingInterval: 500,
  })
}
