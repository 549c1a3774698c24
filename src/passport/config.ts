/**
 * The game wallet's configuration: the two environments and their domains,
 * the published `PassportModuleConfiguration` shape, and `resolve`, which
 * validates it as the published SDK does and fills in the domains.
 */
import { cannotBeNull, PassportError, PassportErrorType } from './errors.js'
import { defaultAudience, defaultScope } from './wire/identity.js'
import type { ConfirmationPopupMode } from './zkevm/confirmation.js'
import type { SessionActivityError } from './zkevm/sessionActivity.js'

/** The published environments (`@imtbl/config` `Environment`). */
export const Environment = {
  PRODUCTION: 'production',
  SANDBOX: 'sandbox',
} as const

/** One of the {@link Environment} values. */
export type Environment = (typeof Environment)[keyof typeof Environment]

/** Everything an environment fixes (the published SDK's per-environment values). */
export type EnvironmentDomains = {
  /** The identity provider, e.g. `https://auth.immutable.com`. */
  authenticationDomain: string
  /** Origin of the login and confirmation popups. */
  passportDomain: string
  /** The platform API (also the multi-rollup API base path). */
  imxPublicApiDomain: string
  /** The zkEVM chain's JSON-RPC endpoint. */
  zkEvmRpcUrl: string
  /** The relayer, `{API}/relayer-mr`. */
  relayerUrl: string
  /** The zkEVM chain id. */
  chainId: number
  /** The key-custody (Magic TEE) publishable key. */
  magicPublishableApiKey: string
  /** The key-custody OIDC provider id. */
  magicProviderId: string
  /** The key-custody TEE API. */
  magicTeeBasePath: string
  /** The key-custody TEE call time-out, ms. */
  magicTeeTimeout: number
  /**
   * The wallet contracts, used to wrap the signatures of a wallet not yet
   * deployed per ERC-6492: the factory, the implementation it deploys
   * wallets with, and the co-signer holding each wallet's second key.
   */
  walletContracts: WalletContracts
}

/** The zkEVM wallet contracts of an environment. */
export type WalletContracts = {
  /** The factory that deploys wallets (CREATE2, salt = image hash). */
  factory: `0x${string}`
  /** The implementation `factory.deploy(mainModule, salt)` takes. */
  mainModule: `0x${string}`
  /** The co-signer contract, the wallet's second signer. */
  coSigner: `0x${string}`
}

/**
 * Immutable's wallet contracts, the same on mainnet and testnet
 * (immutable/wallet-contracts deployments: the factory, the startup wallet
 * implementation, and the Immutable signer).
 */
const walletContracts: WalletContracts = {
  factory: '0x8Fa5088dF65855E0DaF87FA6591659893b24871d',
  mainModule: '0x8FD900677aabcbB368e0a27566cCd0C7435F1926',
  coSigner: '0xcff469E561D9dCe5B1185CD2AC1Fa961F8fbDe61',
}

const magic = {
  magicPublishableApiKey: 'pk_live_10F423798A540ED7',
  magicProviderId: 'aa80b860-8869-4f13-9000-6a6ad3d20017',
  magicTeeBasePath: 'https://tee.express.magiclabs.com',
  magicTeeTimeout: 10_000,
} as const

/** The domains of each environment (published `PassportConfiguration`). */
export const environments: Record<Environment, EnvironmentDomains> = {
  production: {
    authenticationDomain: 'https://auth.immutable.com',
    passportDomain: 'https://passport.immutable.com',
    imxPublicApiDomain: 'https://api.immutable.com',
    zkEvmRpcUrl: 'https://rpc.immutable.com',
    relayerUrl: 'https://api.immutable.com/relayer-mr',
    chainId: 13371,
    ...magic,
    walletContracts,
  },
  sandbox: {
    authenticationDomain: 'https://auth.immutable.com',
    passportDomain: 'https://passport.sandbox.immutable.com',
    imxPublicApiDomain: 'https://api.sandbox.immutable.com',
    zkEvmRpcUrl: 'https://rpc.testnet.immutable.com',
    relayerUrl: 'https://api.sandbox.immutable.com/relayer-mr',
    chainId: 13473,
    ...magic,
    walletContracts,
  },
}

/** The published `ImmutableConfiguration` fields used here. */
export type BaseConfiguration = {
  environment: Environment
  publishableKey?: string | undefined
  apiKey?: string | undefined
  rateLimitingKey?: string | undefined
}

/** Replaces the environment's domains (published `PassportOverrides`). */
export type PassportOverrides = {
  authenticationDomain: string
  magicPublishableApiKey: string
  magicProviderId: string
  passportDomain: string
  /**
   * The platform API's origin (not among the published SDK's overrides,
   * which name its base paths instead). @default the origin of
   * `indexerMrBasePath`, the API's own base path
   */
  imxPublicApiDomain?: string | undefined
  zkEvmRpcUrl: string
  relayerUrl: string
  indexerMrBasePath: string
  orderBookMrBasePath: string
  passportMrBasePath: string
  /** The StarkEx client (not used by this package). */
  immutableXClient?: unknown
  /** The zkEVM chain id; read from `zkEvmRpcUrl` when absent (published optional override). */
  zkEvmChainId?: number | undefined
  /**
   * The chain's name for a custom chain (published optional override,
   * shown as the chain's name by the published SDK). This wallet learns the
   * name it registers with from the API's chain list, so it only accepts it.
   */
  zkEvmChainName?: string | undefined
  /**
   * The key-custody API (published optional override, honoured there with
   * `zkEvmChainId`). This wallet reaches the custody key through the
   * iframe wallet at `magicEndpoint`; the path is kept in the resolved
   * configuration. @default the hosted one
   */
  magicTeeBasePath?: string | undefined
  /**
   * The iframe wallet's origin for the custody key (not in the published
   * SDK, which calls a hosted key service): lets a local backend serve it.
   */
  magicEndpoint?: string | undefined
  /**
   * The wallet factory, for ERC-6492 signatures of undeployed wallets (not
   * in the published SDK). Without the three wallet-contract overrides,
   * such signatures are returned unwrapped.
   */
  zkEvmWalletFactory?: `0x${string}` | undefined
  /** The implementation the factory deploys wallets with (see `zkEvmWalletFactory`). */
  zkEvmWalletMainModule?: `0x${string}` | undefined
  /** The co-signer, the wallet's second signer (see `zkEvmWalletFactory`). */
  zkEvmCoSigner?: `0x${string}` | undefined
}

/** Turns the overlays shown around popups off. */
export type PopupOverlayOptions = {
  disableGenericPopupOverlay?: boolean | undefined
  disableBlockedPopupOverlay?: boolean | undefined
  disableHeadlessLoginPromptOverlay?: boolean | undefined
}

/** The OIDC part of the configuration (published `OidcConfiguration`). */
export type OidcConfiguration = {
  clientId: string
  redirectUri: string
  logoutRedirectUri?: string | undefined
  logoutMode?: 'redirect' | 'silent' | undefined
  popupRedirectUri?: string | undefined
  scope?: string | undefined
  audience?: string | undefined
}

/** What `new Passport(config)` takes (published `PassportModuleConfiguration`). */
export type PassportModuleConfiguration = OidcConfiguration & {
  baseConfig: BaseConfiguration
  overrides?: PassportOverrides | undefined
  /** Passport runs inside the game bridge rather than directly on the web. */
  crossSdkBridgeEnabled?: boolean | undefined
  /** Referrer sent with JSON-RPC requests. */
  jsonRpcReferrer?: string | undefined
  popupOverlayOptions?: PopupOverlayOptions | undefined
  /**
   * When the guardian's confirmation popup opens for a signing request.
   * `'eager'` opens it on its loading page at the start of every request
   * and closes it when the guardian asks nothing, as the published SDK
   * does. `'on-demand'` opens it only when the guardian asks the player to
   * confirm: from the request's click while that click's activation is
   * still live, otherwise through the blocked-popup overlay's Try again.
   * @default 'eager'
   *
   * @example
   * ```ts
   * new Passport({ ...config, confirmationPopup: 'on-demand' })
   * ```
   */
  confirmationPopup?: ConfirmationPopupMode | undefined
  /** Deploy the wallet before an ERC-191 signature. @default false */
  forceScwDeployBeforeMessageSignature?: boolean | undefined
  /** Extra query parameters for the authorization request. */
  extraQueryParams?: Record<string, string> | undefined
  /**
   * Error monitoring: receives the failures of what the wallet does in
   * the background and never shows the player, as the published SDK sends
   * them to its own monitoring. Today that is session activity: 'Failed to
   * get details', 'Failed to send transaction', 'No wallet address',
   * 'Environment not supported', 'No Passport Client ID provided'. Called
   * once per failure; an exception it throws is ignored. @default none
   *
   * @example
   * ```ts
   * new Passport({
   *   ...config,
   *   errorMonitor: (error) => monitoring.captureException(error),
   * })
   * ```
   */
  errorMonitor?: ((error: SessionActivityError) => void) | undefined
}

/** The resolved configuration every module reads. */
export type PassportConfiguration = Omit<
  EnvironmentDomains,
  'chainId' | 'walletContracts'
> & {
  baseConfig: BaseConfiguration
  /** The custody iframe's origin; the client's default when absent. */
  magicEndpoint: string | undefined
  /** Absent with overrides that do not name all three contracts. */
  walletContracts: WalletContracts | undefined
  /** The chain id of the environment; `undefined` with overrides. */
  chainId: number | undefined
  indexerMrBasePath: string
  orderBookMrBasePath: string
  passportMrBasePath: string
  oidcConfiguration: Required<
    Pick<OidcConfiguration, 'clientId' | 'redirectUri' | 'logoutMode'>
  > &
    Omit<OidcConfiguration, 'clientId' | 'redirectUri' | 'logoutMode'> & {
      scope: string
      audience: string
    }
  crossSdkBridgeEnabled: boolean
  forceScwDeployBeforeMessageSignature: boolean
  jsonRpcReferrer: string | undefined
  popupOverlayOptions: PopupOverlayOptions
  /** @default 'eager' (the popup module's) */
  confirmationPopup: ConfirmationPopupMode | undefined
  extraQueryParams: Record<string, string>
  errorMonitor: ((error: SessionActivityError) => void) | undefined
}

/**
 * The override keys that must all be set: the published SDK's nine, in its
 * order, so that overrides it accepts are accepted here too.
 */
export const requiredOverrides = [
  'authenticationDomain',
  'passportDomain',
  'magicPublishableApiKey',
  'magicProviderId',
  'zkEvmRpcUrl',
  'relayerUrl',
  'indexerMrBasePath',
  'orderBookMrBasePath',
  'passportMrBasePath',
] as const satisfies readonly (keyof PassportOverrides)[]

/**
 * Validates a configuration and resolves its domains.
 *
 * - `clientId` and `redirectUri` are required:
 *   `'clientId, redirectUri cannot be null'` (only the missing ones).
 * - `overrides`, when given, must set every key of {@link requiredOverrides}:
 *   `'overrides - passportDomain, relayerUrl cannot be null'`; the optional
 *   `imxPublicApiDomain` defaults to the origin of `indexerMrBasePath`.
 * - Without overrides the environment's domains are used; an unknown
 *   environment falls back to sandbox, as published.
 * - `scope` and `audience` default to {@link defaultScope} and
 *   {@link defaultAudience}; `logoutMode` to `'redirect'`.
 *
 * @throws {PassportError} `INVALID_CONFIGURATION`.
 *
 * @example
 * ```ts
 * const config = resolve({
 *   baseConfig: { environment: 'sandbox' },
 *   clientId: 'client',
 *   redirectUri: 'https://game.example/callback',
 * })
 * ```
 */
export function resolve(
  configuration: PassportModuleConfiguration,
): PassportConfiguration {
  const {
    baseConfig,
    overrides,
    crossSdkBridgeEnabled,
    jsonRpcReferrer,
    forceScwDeployBeforeMessageSignature,
    popupOverlayOptions,
    confirmationPopup,
    extraQueryParams,
    errorMonitor,
    ...oidc
  } = configuration
  validate(oidc, ['clientId', 'redirectUri'])
  if (overrides) validate(overrides, requiredOverrides, 'overrides')

  const environment =
    environments[baseConfig?.environment] ?? environments.sandbox
  const domains = overrides
    ? {
        ...magic,
        authenticationDomain: overrides.authenticationDomain,
        passportDomain: overrides.passportDomain,
        imxPublicApiDomain:
          overrides.imxPublicApiDomain || originOf(overrides.indexerMrBasePath),
        zkEvmRpcUrl: overrides.zkEvmRpcUrl,
        relayerUrl: overrides.relayerUrl,
        magicPublishableApiKey: overrides.magicPublishableApiKey,
        magicProviderId: overrides.magicProviderId,
        magicTeeBasePath: overrides.magicTeeBasePath || magic.magicTeeBasePath,
        chainId: overrides.zkEvmChainId,
        magicEndpoint: overrides.magicEndpoint,
        walletContracts:
          overrides.zkEvmWalletFactory &&
          overrides.zkEvmWalletMainModule &&
          overrides.zkEvmCoSigner
            ? {
                factory: overrides.zkEvmWalletFactory,
                mainModule: overrides.zkEvmWalletMainModule,
                coSigner: overrides.zkEvmCoSigner,
              }
            : undefined,
        indexerMrBasePath: overrides.indexerMrBasePath,
        orderBookMrBasePath: overrides.orderBookMrBasePath,
        passportMrBasePath: overrides.passportMrBasePath,
      }
    : {
        ...environment,
        magicEndpoint: undefined,
        indexerMrBasePath: environment.imxPublicApiDomain,
        orderBookMrBasePath: environment.imxPublicApiDomain,
        passportMrBasePath: environment.imxPublicApiDomain,
      }

  return {
    ...domains,
    baseConfig,
    oidcConfiguration: {
      ...oidc,
      logoutMode: oidc.logoutMode ?? 'redirect',
      scope: oidc.scope || defaultScope,
      audience: oidc.audience || defaultAudience,
    },
    crossSdkBridgeEnabled: crossSdkBridgeEnabled ?? false,
    forceScwDeployBeforeMessageSignature:
      forceScwDeployBeforeMessageSignature ?? false,
    jsonRpcReferrer,
    popupOverlayOptions: popupOverlayOptions ?? {
      disableGenericPopupOverlay: false,
      disableBlockedPopupOverlay: false,
    },
    confirmationPopup,
    extraQueryParams: extraQueryParams ?? {},
    errorMonitor,
  }
}

/** The origin of a URL; the text itself when it is not an absolute URL. */
function originOf(url: string): string {
  try {
    const { origin } = new URL(url)
    return origin === 'null' ? url : origin
  } catch {
    return url
  }
}

/** Throws `INVALID_CONFIGURATION` naming every falsy key, in list order. */
function validate<value extends object>(
  value: value,
  keys: readonly (keyof value & string)[],
  prefix?: string | undefined,
) {
  const missing = keys.filter((key) => !value[key])
  if (missing.length)
    throw new PassportError(
      cannotBeNull(missing, prefix),
      PassportErrorType.INVALID_CONFIGURATION,
    )
}
