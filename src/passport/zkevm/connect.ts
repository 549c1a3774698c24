/**
 * `Passport.connectEvm`'s work: the zkEVM provider of one `Passport`, wired
 * to its session, its custody key, the guardian's confirmation popup and
 * session activity. Loaded on the first `connectEvm`, so a game that only
 * signs players in never loads the wallet. Internal (not exported from the
 * package): tests pass their own confirmation popup or session-activity
 * runner as `parts`, where the public class has no member for them.
 */
import type { Address, Hex } from 'viem'
import type { User } from '../auth/user.js'
import * as Internal from '../internal.js'
import * as ConfirmationPopup from './confirmation.js'
import { createMagicSigner } from './custodySigner.js'
import { loggedOut } from './errors.js'
import { createProvider, type ZkEvmProvider } from './provider.js'
import type { Confirmation, SessionActivity } from './seams.js'
import * as SessionActivityRunner from './sessionActivity.js'

/** Options of `Passport.connectEvm`. */
export type ConnectEvmOptions = {
  /** Announce the provider through EIP-6963. @default true */
  announceProvider?: boolean | undefined
}

/** The provider's parts that replace the default ones (tests). */
export type Parts = {
  /** @default the confirmation popup on the passport domain */
  confirmation?: Confirmation | undefined
  /** @default session activity through the platform API */
  sessionActivity?: SessionActivity | undefined
}

/**
 * Makes the zkEVM provider of `passport`.
 *
 * @example
 * ```ts
 * const provider = await connectEvm(passport, { announceProvider: false }, {
 *   confirmation: recordingConfirmation,
 * })
 * ```
 */
export async function connectEvm(
  passport: object,
  options: ConnectEvmOptions = {},
  parts: Parts = {},
): Promise<ZkEvmProvider> {
  const { announceProvider = true } = options
  const { config, session, storage } = Internal.of(passport)
  const clientId = config.oidcConfiguration.clientId
  const activity = SessionActivityRunner.create({
    clientId,
    environment: config.baseConfig.environment,
    chainId: config.chainId,
    apiBase: config.indexerMrBasePath,
    storage,
    onError: config.errorMonitor,
  })
  const chainId = async () => {
    if (config.chainId !== undefined) return config.chainId
    return provider.request({ method: 'eth_chainId' }).then(Number)
  }
  const provider = createProvider({
    config: {
      chainId: config.chainId,
      zkEvmRpcUrl: config.zkEvmRpcUrl,
      relayerUrl: config.relayerUrl,
      indexerMrBasePath: config.indexerMrBasePath,
      clientId,
      crossSdkBridgeEnabled: config.crossSdkBridgeEnabled,
      forceScwDeployBeforeMessageSignature:
        config.forceScwDeployBeforeMessageSignature,
      walletContracts: config.walletContracts,
    },
    session: {
      getUser: () => session.getUser(),
      login: () => session.login(),
      forceRefresh: () => session.forceUserRefresh(),
    },
    sessionEvents: session.emitter,
    createSigner: () =>
      createMagicSigner({
        publishableKey: config.magicPublishableApiKey,
        providerId: config.magicProviderId,
        endpoint: config.magicEndpoint,
        rpcUrl: config.zkEvmRpcUrl,
        getChainId: chainId,
        getIdToken: () => custodyIdToken(session),
      }),
    confirmation:
      parts.confirmation ??
      ConfirmationPopup.create({
        passportDomain: config.passportDomain,
        overlay: config.popupOverlayOptions,
        popup: config.confirmationPopup,
        crossSdkBridgeEnabled: config.crossSdkBridgeEnabled,
      }),
    sessionActivity:
      parts.sessionActivity ??
      (({ wallet, sendTransaction }) => {
        // Runs in the background: it never rejects, and its failures go to
        // the host's error monitor, never to the player (as published).
        void activity.run({
          wallet,
          sendTransaction: (call) =>
            sendTransaction({
              to: call.to as Address,
              data: call.data as Hex,
            }),
        })
      }),
    announceProvider,
  })
  return provider
}

/**
 * The id token the custody key logs in with: the signed-in player's
 * (refreshed when stale). A player who logged out meanwhile is 4100 'User
 * has been logged out' (`NOT_LOGGED_IN_ERROR`), as the published custody
 * signer says; a player without an id token is left to the signer ('failed
 * to obtain ID token').
 */
export async function custodyIdToken(session: {
  getUser(): Promise<User | null>
}): Promise<string | undefined> {
  const user = await session.getUser()
  if (!user) throw loggedOut()
  return user.idToken
}
