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
    accounts: {
      deployer: {
        index: 0,
        address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      },
      coSigner: {
        index: 5,
        address: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
      },
      minter: {
        index: 6,
        address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
      },
      zoneSigner: {
        index: 7,
        address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
      },
      relayer: {
        index: 8,
        address: '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
      },
      gasSponsor: {
        index: 9,
        address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
      },
    },
    mailbox: `http://127.0.0.1:${portBase}/mailbox`,
    ui: `http://127.0.0.1:${portBase}/ui`,
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
        imxPublicApiDomain: origin(8),
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
      apiKey: 'sk_imapik-test-EMULATOR000000',
    },
  }
}
