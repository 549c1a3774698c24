import { magic } from 'embedded-wallets/connectors'
import { defineChain } from 'viem'
import { createConfig, http } from 'wagmi'
import type { Info } from './emulator.js'

/**
 * The local chain the emulator runs (Anvil), described for viem and wagmi.
 *
 * @param info - The emulator info.
 * @returns The chain.
 */
export function emulatorChain(info: Info) {
  return defineChain({
    id: info.chainId,
    name: 'Emulator (Anvil)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl] } },
    testnet: true,
  })
}

/**
 * The playground's wagmi config: the emulator's chain, and every wallet that
 * announces itself through EIP-6963 as a connector.
 *
 * @param info - The emulator info.
 * @returns The config.
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
    ],
    multiInjectedProviderDiscovery: true,
    // Anvil is local: poll often so that new blocks show at once.
    pollingInterval: 1_000,
  })
}
