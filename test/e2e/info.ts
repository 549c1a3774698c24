/**
 * The emulator's JSON line (its `Info`) as the e2e tests expect it for a
 * port base, an Anvil port and a chain id: every value written out.
 */
import { predictContracts } from '../../src/emulator/chain/deploy.js'
import type { Info } from '../../src/emulator/index.js'

/** The exact `Info` of an emulator started with these ports. */
export function expectedInfo(options: {
  portBase: number
  anvilPort: number
  chainId: number
}): Info {
  const { portBase, anvilPort, chainId } = options
  const origin = (offset: number) => `http://127.0.0.1:${portBase + offset}`
  return {
    chainId,
    rpcUrl: `http://127.0.0.1:${anvilPort}`,
    chains: [{ chainId, rpcUrl: `http://127.0.0.1:${anvilPort}` }],
    contracts: predictContracts(),
    mailbox: `http://127.0.0.1:${portBase}/mailbox`,
    magic: {
      endpoint: `http://127.0.0.1:${portBase + 1}`,
      apiKey: 'pk_live_EMULATOR0000000000',
    },
    passport: {
      authenticationDomain: `http://127.0.0.1:${portBase + 2}`,
      clientId: 'emulator-passport-client',
      redirectUri: 'http://localhost:5173/passport/redirect',
      logoutRedirectUri: 'http://localhost:5173/passport/logout',
      apiUrl: origin(5),
      passportDomain: origin(6),
      relayerUrl: origin(3),
      craftingSigner: '0x110b736dfbCcfdF77757145A7d6083440Bf498FF',
      overrides: {
        authenticationDomain: origin(2),
        magicPublishableApiKey: 'pk_live_EMULATORCUSTODY000',
        magicProviderId: 'emulator-passport-identity',
        passportDomain: origin(6),
        imxPublicApiDomain: origin(5),
        indexerMrBasePath: origin(5),
        orderBookMrBasePath: origin(5),
        passportMrBasePath: origin(5),
        zkEvmRpcUrl: `http://127.0.0.1:${anvilPort}`,
        relayerUrl: origin(3),
        zkEvmChainId: chainId,
        zkEvmChainName: `imtbl-zkevm-local-${chainId}`,
        magicTeeBasePath: origin(7),
        magicEndpoint: origin(1),
        zkEvmWalletFactory: predictContracts().factory,
        zkEvmWalletMainModule: predictContracts().mainModule,
        zkEvmCoSigner: predictContracts().coSigner,
      },
    },
  }
}
