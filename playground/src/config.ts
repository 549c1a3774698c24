import { magic, passport } from 'embedded-wallets/connectors'
import { Magic } from 'embedded-wallets/magic'
import { defineChain } from 'viem'
import { createConfig, http } from 'wagmi'
import type { Info } from './emulator.js'
import type { Passports } from './passport/config.js'
import type { EmailLogin } from './wallet/emailLogin.js'

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
 * The playground's wagmi config: the emulator's chain, the iframe wallet's
 * connector (logging in with the page's email-code form or the wallet's own
 * screens, see `emailLogin`), the game wallet's connector on the page's
 * silent-logout Passport (so that its sign-in is the one the game-wallet
 * panel shows), and every wallet that announces itself through EIP-6963.
 *
 * @param info - The emulator info.
 * @param emailLogin - The page's login, the connector's `login` option.
 * @param passports - The page's game wallets.
 * @returns The config.
 */
export function createWagmiConfig(
  info: Info,
  emailLogin: EmailLogin,
  passports: Passports,
) {
  const chain = emulatorChain(info)
  return createConfig({
    chains: [chain],
    transports: { [chain.id]: http(info.rpcUrl) },
    connectors: [
      magic({
        apiKey: info.magic.apiKey,
        options: { endpoint: info.magic.endpoint },
        login: (instance) => emailLogin.login(instance),
      }),
      passport({ passport: passports.silent }),
    ],
    multiInjectedProviderDiscovery: true,
    // Anvil is local: poll often so that new blocks show at once.
    pollingInterval: 1_000,
  })
}

/**
 * The iframe wallet as a page embeds it with the SDK alone. Its
 * `rpcProvider` announces itself through EIP-6963 (the connector's own client
 * does not, so that wagmi does not list the wallet twice), which is what the
 * page's list of announced wallets connects to; and it answers what only
 * the SDK knows, such as the user's email. It shares the connector's session:
 * both use this page's storage and the same iframe (same options).
 *
 * @param info - The emulator info.
 * @returns The client.
 */
export function createPageMagic(info: Info): Magic {
  return new Magic(info.magic.apiKey, {
    endpoint: info.magic.endpoint,
    network: { rpcUrl: info.rpcUrl, chainId: info.chainId },
    useStorageCache: true,
  })
}
