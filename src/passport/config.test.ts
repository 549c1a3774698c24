import { describe, expect, expectTypeOf, test } from 'vitest'
import type { Info } from '../emulator/index.js'
import {
  environments,
  type PassportModuleConfiguration,
  type PassportOverrides,
  resolve,
} from './config.js'
import { PassportError } from './errors.js'
import { defaultAudience, defaultScope } from './wire/identity.js'

const base: PassportModuleConfiguration = {
  baseConfig: { environment: 'sandbox' },
  clientId: 'client',
  redirectUri: 'https://game.example/callback',
}

const overrides: PassportOverrides = {
  authenticationDomain: 'http://127.0.0.1:4402',
  magicPublishableApiKey: 'pk_live_EMULATOR',
  magicProviderId: 'provider',
  passportDomain: 'http://127.0.0.1:4403',
  imxPublicApiDomain: 'http://127.0.0.1:4404',
  zkEvmRpcUrl: 'http://127.0.0.1:8545',
  relayerUrl: 'http://127.0.0.1:4404/relayer-mr',
  indexerMrBasePath: 'http://127.0.0.1:4404',
  orderBookMrBasePath: 'http://127.0.0.1:4404',
  passportMrBasePath: 'http://127.0.0.1:4404',
}

function failure(config: PassportModuleConfiguration) {
  try {
    resolve(config)
  } catch (error) {
    return error
  }
  throw new Error('resolve did not throw')
}

describe('resolve', () => {
  test('default: sandbox domains and defaults', () => {
    const config = resolve(base)
    expect(config).toMatchObject({
      authenticationDomain: 'https://auth.immutable.com',
      passportDomain: 'https://passport.sandbox.immutable.com',
      imxPublicApiDomain: 'https://api.sandbox.immutable.com',
      zkEvmRpcUrl: 'https://rpc.testnet.immutable.com',
      relayerUrl: 'https://api.sandbox.immutable.com/relayer-mr',
      chainId: 13473,
      magicPublishableApiKey: 'pk_live_10F423798A540ED7',
      magicProviderId: 'aa80b860-8869-4f13-9000-6a6ad3d20017',
      magicTeeBasePath: 'https://tee.express.magiclabs.com',
      magicTeeTimeout: 10000,
      indexerMrBasePath: 'https://api.sandbox.immutable.com',
      crossSdkBridgeEnabled: false,
      forceScwDeployBeforeMessageSignature: false,
      popupOverlayOptions: {
        disableGenericPopupOverlay: false,
        disableBlockedPopupOverlay: false,
      },
      extraQueryParams: {},
      oidcConfiguration: {
        clientId: 'client',
        redirectUri: 'https://game.example/callback',
        logoutMode: 'redirect',
        scope: 'openid profile email offline_access transact',
        audience: 'platform_api',
      },
    })
    expect(defaultScope).toBe('openid profile email offline_access transact')
    expect(defaultAudience).toBe('platform_api')
  })

  test('behavior: production domains', () => {
    expect(
      resolve({ ...base, baseConfig: { environment: 'production' } }),
    ).toMatchObject({
      authenticationDomain: 'https://auth.immutable.com',
      passportDomain: 'https://passport.immutable.com',
      imxPublicApiDomain: 'https://api.immutable.com',
      zkEvmRpcUrl: 'https://rpc.immutable.com',
      relayerUrl: 'https://api.immutable.com/relayer-mr',
      chainId: 13371,
    })
    expect(environments.production.chainId).toBe(13371)
  })

  test('behavior: given scope, audience and options win', () => {
    const config = resolve({
      ...base,
      scope: 'openid',
      audience: 'other',
      logoutMode: 'silent',
      crossSdkBridgeEnabled: true,
      extraQueryParams: { prompt: 'login' },
      popupOverlayOptions: { disableBlockedPopupOverlay: true },
    })
    expect(config.oidcConfiguration).toMatchObject({
      scope: 'openid',
      audience: 'other',
      logoutMode: 'silent',
    })
    expect(config.crossSdkBridgeEnabled).toBe(true)
    expect(config.extraQueryParams).toEqual({ prompt: 'login' })
    expect(config.popupOverlayOptions).toEqual({
      disableBlockedPopupOverlay: true,
    })
  })

  test('error: missing clientId', () => {
    const error = failure({ ...base, clientId: '' })
    expect(error).toBeInstanceOf(PassportError)
    expect(error).toMatchObject({
      message: 'clientId cannot be null',
      type: 'INVALID_CONFIGURATION',
    })
  })

  test('error: missing clientId and redirectUri', () => {
    const config = {
      baseConfig: { environment: 'sandbox' },
    } as PassportModuleConfiguration
    expect(failure(config)).toMatchObject({
      message: 'clientId, redirectUri cannot be null',
      type: 'INVALID_CONFIGURATION',
    })
  })

  test('behavior: overrides replace every domain', () => {
    const config = resolve({ ...base, overrides })
    expect(config).toMatchObject({
      authenticationDomain: 'http://127.0.0.1:4402',
      passportDomain: 'http://127.0.0.1:4403',
      imxPublicApiDomain: 'http://127.0.0.1:4404',
      zkEvmRpcUrl: 'http://127.0.0.1:8545',
      relayerUrl: 'http://127.0.0.1:4404/relayer-mr',
      magicPublishableApiKey: 'pk_live_EMULATOR',
      magicProviderId: 'provider',
      passportMrBasePath: 'http://127.0.0.1:4404',
      chainId: undefined,
    })
  })

  test('behavior: the published SDK’s nine required overrides suffice; imxPublicApiDomain defaults to the origin of indexerMrBasePath', () => {
    const { imxPublicApiDomain: _, ...published } = overrides
    const config = resolve({
      ...base,
      overrides: {
        ...published,
        indexerMrBasePath: 'http://127.0.0.1:4409/indexer',
      },
    })
    expect(config).toMatchObject({
      authenticationDomain: 'http://127.0.0.1:4402',
      passportDomain: 'http://127.0.0.1:4403',
      imxPublicApiDomain: 'http://127.0.0.1:4409',
      indexerMrBasePath: 'http://127.0.0.1:4409/indexer',
      orderBookMrBasePath: 'http://127.0.0.1:4404',
      passportMrBasePath: 'http://127.0.0.1:4404',
    })
  })

  test('behavior: an empty imxPublicApiDomain is not required either (the default applies)', () => {
    expect(
      resolve({ ...base, overrides: { ...overrides, imxPublicApiDomain: '' } })
        .imxPublicApiDomain,
    ).toBe('http://127.0.0.1:4404')
  })

  test('error: overrides missing keys are listed in order with the prefix', () => {
    const partial = {
      ...overrides,
      passportDomain: '',
      relayerUrl: undefined,
      passportMrBasePath: '',
    } as unknown as PassportOverrides
    expect(failure({ ...base, overrides: partial })).toMatchObject({
      message:
        'overrides - passportDomain, relayerUrl, passportMrBasePath cannot be null',
      type: 'INVALID_CONFIGURATION',
    })
  })

  test('error: empty overrides name every required key', () => {
    expect(
      failure({ ...base, overrides: {} as PassportOverrides }),
    ).toMatchObject({
      message:
        'overrides - authenticationDomain, passportDomain, magicPublishableApiKey, magicProviderId, zkEvmRpcUrl, relayerUrl, indexerMrBasePath, orderBookMrBasePath, passportMrBasePath cannot be null',
    })
  })

  test('behavior: the oidc fields are checked before the overrides', () => {
    expect(
      failure({ ...base, clientId: '', overrides: {} as PassportOverrides }),
    ).toMatchObject({ message: 'clientId cannot be null' })
  })
})

describe('PassportOverrides', () => {
  test('types: the overrides the emulator prints type-check as they are', () => {
    // `passport.overrides` of the emulator's JSON line (README), pasted.
    const printed = {
      authenticationDomain: 'http://127.0.0.1:4402',
      magicPublishableApiKey: 'pk_live_EMULATOR0000000000',
      magicProviderId: 'emulator-passport-identity',
      passportDomain: 'http://127.0.0.1:4406',
      imxPublicApiDomain: 'http://127.0.0.1:4405',
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
    } satisfies PassportOverrides
    // Every key the emulator's type prints is one PassportOverrides names
    // (no index signature lets an unknown one through), with its type.
    expectTypeOf<keyof Info['passport']['overrides']>().toExtend<
      keyof PassportOverrides
    >()
    expectTypeOf<Info['passport']['overrides']>().toExtend<PassportOverrides>()
    expect(resolve({ ...base, overrides: printed })).toMatchObject({
      chainId: 31337,
      magicTeeBasePath: 'http://127.0.0.1:4407',
      magicEndpoint: 'http://127.0.0.1:4401',
    })
  })

  test('default: without magicTeeBasePath, the hosted key custody', () => {
    expect(resolve({ ...base, overrides }).magicTeeBasePath).toBe(
      'https://tee.express.magiclabs.com',
    )
  })
})
