/**
 * `Passport.connectImx` / `connectImxSilent`'s work: the StarkEx provider
 * of one `Passport`, wired to its session, its custody key, the legacy
 * exchange at `imxPublicApiDomain`, the guardian at `passportMrBasePath`
 * and the confirmation popup. Loaded on the first `connectImx`, so a game
 * that never uses StarkEx never loads it. Internal: tests pass their own
 * popup or retry timings as `parts`.
 */
import type { User } from '../auth/user.js'
import { PassportError, PassportErrorType } from '../errors.js'
import * as Internal from '../internal.js'
import { createRpcClient, getChainId } from '../zkevm/chain.js'
import * as ConfirmationPopup from '../zkevm/confirmation.js'
import { createMagicSigner } from '../zkevm/custodySigner.js'
import {
  createExchangeClients,
  createGuardianClient,
  starkKeyLookup,
} from './clients.js'
import type { Context } from './context.js'
import { createImxProvider } from './provider.js'
import type { IMXProvider } from './types.js'
import { loggedOut, starkExMessages } from './user.js'

/** The provider's parts that replace the default ones (tests). */
export type Parts = Partial<
  Pick<
    Context,
    'confirmation' | 'registrationRetries' | 'registrationRetryInterval'
  >
> & {
  /** Guardian lookups after the first, and their interval, ms. */
  guardianRetries?: number | undefined
  guardianRetryInterval?: number | undefined
}

/**
 * The StarkEx provider of the signed-in player, signing in (popup) when
 * no one is.
 *
 * @throws {PassportError} the sign-in's errors; `WALLET_CONNECTION_ERROR`
 *   'Failed to initialise' when the user has no id token.
 */
export async function connectImx(
  passport: object,
  parts: Parts = {},
): Promise<IMXProvider> {
  const { session } = Internal.of(passport)
  return create(passport, await session.login(), parts)
}

/**
 * The StarkEx provider of a cached session, else `null`; never prompts.
 *
 * @throws {PassportError} as {@link connectImx}.
 */
export async function connectImxSilent(
  passport: object,
  parts: Parts = {},
): Promise<IMXProvider | null> {
  const { session } = Internal.of(passport)
  const user = await session.getUser()
  return user ? create(passport, user, parts) : null
}

function create(passport: object, user: User | null, parts: Parts) {
  if (!user?.idToken)
    throw new PassportError(
      starkExMessages.failedToInitialise,
      PassportErrorType.WALLET_CONNECTION_ERROR,
    )
  const { config, session } = Internal.of(passport)
  const exchange = createExchangeClients(config.imxPublicApiDomain)
  let chainId: Promise<number> | undefined
  return createImxProvider({
    session: {
      getUser: () => session.getUser(),
      forceUserRefresh: () => session.forceUserRefresh(),
    },
    events: session.emitter,
    exchange,
    lookup: starkKeyLookup(exchange.usersApi),
    createCustodySigner: () =>
      createMagicSigner({
        publishableKey: config.magicPublishableApiKey,
        providerId: config.magicProviderId,
        endpoint: config.magicEndpoint,
        rpcUrl: config.zkEvmRpcUrl,
        // The custody iframe is configured with the zkEVM chain, as for
        // the zkEVM wallet; StarkEx itself needs no chain.
        getChainId: () => {
          if (config.chainId !== undefined)
            return Promise.resolve(config.chainId)
          chainId ??= getChainId(createRpcClient(config.zkEvmRpcUrl))
          chainId.catch(() => {
            chainId = undefined
          })
          return chainId
        },
        getIdToken: async () => {
          const current = await session.getUser()
          if (!current) throw loggedOut()
          return current.idToken
        },
      }),
    guardian: {
      config: { crossSdkBridgeEnabled: config.crossSdkBridgeEnabled },
      guardian: createGuardianClient(config.passportMrBasePath, async () => {
        const current = await session.getUser()
        if (!current) throw loggedOut()
        return current.accessToken
      }),
      retries: parts.guardianRetries,
      retryInterval: parts.guardianRetryInterval,
    },
    confirmation:
      parts.confirmation ??
      ConfirmationPopup.create({
        passportDomain: config.passportDomain,
        overlay: config.popupOverlayOptions,
        popup: config.confirmationPopup,
        crossSdkBridgeEnabled: config.crossSdkBridgeEnabled,
      }),
    registrationRetries: parts.registrationRetries,
    registrationRetryInterval: parts.registrationRetryInterval,
  })
}
