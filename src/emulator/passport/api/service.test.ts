import { describe, expect, test } from 'vitest'
import { resolve } from '../../../passport/config.js'
import { predictContracts } from '../../chain/deploy.js'
import * as Clock from '../../clock.js'
import * as Mailbox from '../../dev/mailbox.js'
import { createGuardian } from '../../guardian.js'
import * as Inspect from '../../inspect.js'
import { findFreePortRange } from '../../net.js'
import { getPorts } from '../../ports.js'
import { createRegistry } from '../../registry/index.js'
import * as Scenarios from '../../scenarios.js'
import type { Context } from '../../service.js'
import { overridesOf, service } from './service.js'

describe('overridesOf', () => {
  const overrides = overridesOf({
    api: 'http://127.0.0.1:4405',
    origins: {
      identity: 'http://127.0.0.1:4402',
      passport: 'http://127.0.0.1:4406',
      relayer: 'http://127.0.0.1:4403',
      tee: 'http://127.0.0.1:4407',
      magic: 'http://127.0.0.1:4401',
      starkex: 'http://127.0.0.1:4408',
    },
    chain: { chainId: 31337, rpcUrl: 'http://127.0.0.1:8545' },
    contracts: predictContracts(),
  })

  test('default: every domain of the emulator, the chain and the key-custody settings', () => {
    expect(overrides).toEqual({
      authenticationDomain: 'http://127.0.0.1:4402',
      magicPublishableApiKey: 'pk_live_EMULATORCUSTODY000',
      magicProviderId: 'emulator-passport-identity',
      passportDomain: 'http://127.0.0.1:4406',
      imxPublicApiDomain: 'http://127.0.0.1:4408',
      indexerMrBasePath: 'http://127.0.0.1:4405',
      orderBookMrBasePath: 'http://127.0.0.1:4405',
      passportMrBasePath: 'http://127.0.0.1:4405',
      zkEvmRpcUrl: 'http://127.0.0.1:8545',
      relayerUrl: 'http://127.0.0.1:4403',
      zkEvmChainId: 31337,
      zkEvmChainName: 'imtbl-zkevm-local-31337',
      magicTeeBasePath: 'http://127.0.0.1:4407',
      magicEndpoint: 'http://127.0.0.1:4401',
      zkEvmWalletFactory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      zkEvmWalletMainModule: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
      zkEvmCoSigner: '0x8A791620dd6260079BF849Dc5567aDC3F2FdC318',
    })
  })

  test("behavior: our game wallet's configuration accepts it without imxPublicApiDomain (the published SDK's keys), defaulting it to the API", () => {
    const { imxPublicApiDomain: _, ...published } = overrides
    const config = resolve({
      baseConfig: { environment: 'sandbox' },
      clientId: 'emulator-passport-client',
      redirectUri: 'http://127.0.0.1:5173/passport/redirect',
      overrides: published,
    })
    expect(config).toMatchObject({
      imxPublicApiDomain: 'http://127.0.0.1:4405',
      indexerMrBasePath: 'http://127.0.0.1:4405',
      passportMrBasePath: 'http://127.0.0.1:4405',
    })
  })

  test("behavior: our game wallet's configuration accepts it unchanged", () => {
    const config = resolve({
      baseConfig: { environment: 'sandbox' },
      clientId: 'emulator-passport-client',
      redirectUri: 'http://127.0.0.1:5173/passport/redirect',
      overrides,
    })
    expect(config).toMatchObject({
      authenticationDomain: overrides.authenticationDomain,
      passportDomain: overrides.passportDomain,
      relayerUrl: overrides.relayerUrl,
      zkEvmRpcUrl: overrides.zkEvmRpcUrl,
      indexerMrBasePath: overrides.indexerMrBasePath,
      magicPublishableApiKey: overrides.magicPublishableApiKey,
      magicProviderId: overrides.magicProviderId,
      magicEndpoint: overrides.magicEndpoint,
      walletContracts: {
        factory: overrides.zkEvmWalletFactory,
        mainModule: overrides.zkEvmWalletMainModule,
        coSigner: overrides.zkEvmCoSigner,
      },
    })
  })
})

describe('service', () => {
  test("default: adds the API's origin, the passport domain, the relayer, the crafting signer and the overrides to the JSON line", async () => {
    const ports = getPorts(await findFreePortRange(8))
    const origins = Object.fromEntries(
      Object.entries(ports).map(([slot, port]) => [
        slot,
        `http://127.0.0.1:${port}`,
      ]),
    )
    const context: Context = {
      listen: { host: '127.0.0.1', port: ports.api, name: 'api' },
      origin: `http://127.0.0.1:${ports.api}`,
      origins,
      chains: [
        {
          chainId: 1337,
          rpcUrl: 'http://127.0.0.1:9545',
          nodeUrl: 'http://127.0.0.1:9546',
          contracts: predictContracts(),
        },
      ],
      registry: createRegistry(),
      mailbox: Mailbox.create(),
      clock: Clock.create(),
      scenarios: Scenarios.create(),
      inspect: Inspect.create(),
      passport: {
        redirectUri: 'http://127.0.0.1:1/redirect',
        logoutRedirectUri: 'http://127.0.0.1:1/logout',
        guardian: createGuardian(),
      },
    }
    const started = await service.start(context)
    try {
      expect(started.url).toBe(origins.api)
      expect(started.info).toEqual({
        passport: {
          apiUrl: origins.api,
          passportDomain: origins.passport,
          relayerUrl: origins.relayer,
          craftingSigner: '0x110b736dfbCcfdF77757145A7d6083440Bf498FF',
          overrides: overridesOf({
            api: origins.api as string,
            origins: {
              identity: origins.identity as string,
              passport: origins.passport as string,
              relayer: origins.relayer as string,
              tee: origins.tee as string,
              magic: origins.magic as string,
              starkex: origins.starkex as string,
            },
            chain: { chainId: 1337, rpcUrl: 'http://127.0.0.1:9545' },
            contracts: predictContracts(),
          }),
        },
      })
      const chains = await fetch(`${started.url}/v1/chains`)
      expect(await chains.json()).toEqual({
        result: [
          {
            id: 'eip155:1337',
            name: 'imtbl-zkevm-local-1337',
            rpc_url: 'http://127.0.0.1:9545',
            operator_allowlist_address:
              predictContracts().operatorAllowlist.toLowerCase(),
            // Anvil's account 6, the minting API's minter.
            minter_address: '0x976ea74026e726554db657fa54763abd0c3a0aa9',
          },
        ],
        page: { previous_cursor: null, next_cursor: null },
      })
    } finally {
      await started.stop()
    }
  })
})
