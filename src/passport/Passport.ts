/**
 * `Passport`: the game wallet's public facade with the sign-in API of the
 * published `@imtbl/passport` 2.x (2.2.0 `Passport.ts`: login, the callbacks,
 * device and PKCE flows, token getters, logout). It only wires the modules of
 * `auth/` together: the OIDC client (`oidc.ts`), the session (`session.ts`,
 * which runs the login order and emits the events), the popup and redirect
 * flows (`flows.ts`), device and PKCE flows and logout (`logout.ts`).
 * Constructing one touches no `window`, so it is SSR-safe.
 */

import * as Storage from '../core/Storage.js'
import * as Device from './auth/device.js'
import * as Flows from './auth/flows.js'
import * as Logout from './auth/logout.js'
import * as Oidc from './auth/oidc.js'
import * as Pkce from './auth/pkce.js'
import * as Session from './auth/session.js'
import { createUserStore, type User, type UserProfile } from './auth/user.js'
import {
  type PassportConfiguration,
  type PassportModuleConfiguration,
  resolve,
} from './config.js'
import { PassportErrorType, withPassportError } from './errors.js'
import * as Internal from './internal.js'
import type { IMXProvider } from './starkex/types.js'
import type * as Connect from './zkevm/connect.js'
import * as Linking from './zkevm/linking.js'
import type { ZkEvmProvider } from './zkevm/provider.js'

/** The published `login` arguments (`LoginArguments`). */
export type LoginArguments = {
  /** Only use an existing session; never prompt. */
  useCachedSession?: boolean | undefined
  /** Sent to the provider as `third_party_a_id`. */
  anonymousId?: string | undefined
  /** Without a cached session, refresh instead of prompting. */
  useSilentLogin?: boolean | undefined
  /** Prompt by redirecting this page instead of a popup. */
  useRedirectFlow?: boolean | undefined
  /** Go straight to one sign-in method. */
  directLoginOptions?: Flows.DirectLoginOptions | undefined
}

/** Options of {@link Passport.connectEvm}. */
export type ConnectEvmOptions = Connect.ConnectEvmOptions

/** The events `Passport.on` offers (the session's). */
export type PassportEvents = Session.Events

/**
 * The game wallet.
 *
 * @example
 * ```ts
 * const passport = new Passport({
 *   baseConfig: { environment: 'sandbox' },
 *   clientId: 'your-client-id',
 *   redirectUri: 'https://game.example/redirect',
 *   logoutRedirectUri: 'https://game.example/logout',
 * })
 * const profile = await passport.login()
 * ```
 */
export class Passport {
  readonly #config: PassportConfiguration
  readonly #client: Oidc.Client
  readonly #session: Session.Session
  readonly #flows: Flows.Context
  /**
   * Where the published SDK keeps its state: plain `localStorage` keys
   * (`oidc.user:…`, `oidc.<state>`, `pkce_*`) with the values as it writes
   * them, so a session survives a switch between the two SDKs; memory where
   * there is no localStorage (Node, SSR, storage forbidden). Nothing is read
   * before the first sign-in call.
   */
  readonly #storage = Storage.localOrMemory({ prefix: '', format: 'text' })

  /**
   * @throws {PassportError} `INVALID_CONFIGURATION`, e.g.
   *   `'clientId, redirectUri cannot be null'`.
   */
  constructor(configuration: PassportModuleConfiguration) {
    const config = resolve(configuration)
    const oidc = config.oidcConfiguration
    this.#config = config
    this.#client = Oidc.create({
      authenticationDomain: config.authenticationDomain,
      clientId: oidc.clientId,
      redirectUri: oidc.redirectUri,
      logoutRedirectUri: oidc.logoutRedirectUri,
      scope: oidc.scope,
      audience: oidc.audience,
      extraQueryParams: config.extraQueryParams,
    })
    const users = createUserStore({
      authority: config.authenticationDomain,
      clientId: oidc.clientId,
      storage: this.#storage,
    })
    this.#flows = {
      client: this.#client,
      storage: this.#storage,
      users,
      redirectUri: oidc.redirectUri,
      popupRedirectUri: oidc.popupRedirectUri || oidc.redirectUri,
      overlay: config.popupOverlayOptions,
    }
    this.#session = Session.create({
      client: this.#client,
      users,
      loginInteractively: (options) =>
        withPassportError(async () => {
          const { anonymousId, directLoginOptions } = options
          const interactive = {
            anonymousId,
            directLoginOptions: directLoginOptions as
              | Flows.DirectLoginOptions
              | undefined,
          }
          if (!options.useRedirectFlow)
            return Flows.loginWithPopup(this.#flows, interactive)
          await Flows.loginWithRedirect(this.#flows, interactive)
          return null
        }, PassportErrorType.AUTHENTICATION_ERROR),
    })
    Internal.register(this, {
      config,
      session: this.#session,
      storage: this.#storage,
    })
  }

  /**
   * Signs in, in the published SDK's order: the cached session (a
   * stale one is refreshed); else, with `useSilentLogin`, a forced refresh;
   * else, unless `useCachedSession`, the popup (or the redirect with
   * `useRedirectFlow`, which leaves the page and resolves `null`). Emits
   * `loggedIn` when it yields a user.
   *
   * @throws {PassportError} `AUTHENTICATION_ERROR` (e.g. `'Popup closed by
   *   user'`), or the cached-session error with `useCachedSession`.
   */
  async login(options: LoginArguments = {}): Promise<UserProfile | null> {
    const user = await this.#session.login(options)
    return user ? user.profile : null
  }

  /**
   * Run by the redirect page: in the login popup it hands the URL to the
   * opener; after a redirect login it completes the sign-in (emits
   * `loggedIn`) and removes the code from the address bar.
   *
   * @throws {PassportError} `AUTHENTICATION_ERROR`.
   */
  async loginCallback(): Promise<void> {
    const user = await withPassportError(
      () => Flows.loginCallback(this.#flows),
      PassportErrorType.AUTHENTICATION_ERROR,
    )
    if (user) this.#emit('loggedIn', user)
  }

  /** Starts the device flow: the user code, the URL to open and the poll interval. */
  loginWithDeviceFlow(
    options: { anonymousId?: string | undefined } = {},
  ): Promise<Device.DeviceConnectResponse> {
    return Device.loginWithDeviceFlow(this.#device(), options)
  }

  /**
   * Polls until the device flow's user approved (or `timeoutMs` passed),
   * stores the user and emits `loggedIn`. `options.signal` (not in the
   * published SDK) stops the polling.
   *
   * @throws {PassportError} `AUTHENTICATION_ERROR`, e.g. `'Timed out'`.
   */
  async loginWithDeviceFlowCallback(
    deviceCode: string,
    interval: number,
    timeoutMs?: number,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<UserProfile> {
    const user = await Device.loginWithDeviceFlowCallback(
      this.#device(),
      deviceCode,
      interval,
      timeoutMs,
      options,
    )
    this.#emit('loggedIn', user)
    return user.profile
  }

  /** Starts the PKCE flow: returns the authorization URL to open. */
  loginWithPKCEFlow(): Promise<string> {
    return Pkce.loginWithPKCEFlow(this.#pkce())
  }

  /**
   * Finishes the PKCE flow with the redirect's `code` and `state`, stores the
   * user and emits `loggedIn`.
   *
   * @throws {PassportError} `AUTHENTICATION_ERROR`, e.g. `'Provided state
   *   does not match stored state'`.
   */
  async loginWithPKCEFlowCallback(
    authorizationCode: string,
    state: string,
  ): Promise<UserProfile> {
    const user = await Pkce.loginWithPKCEFlowCallback(
      this.#pkce(),
      authorizationCode,
      state,
    )
    this.#emit('loggedIn', user)
    return user.profile
  }

  /** The signed-in user's profile (refreshed when stale), else `undefined`. */
  async getUserInfo(): Promise<UserProfile | undefined> {
    return (await this.#session.getUser())?.profile
  }

  /** The signed-in user's id token (refreshed when stale), else `undefined`. */
  async getIdToken(): Promise<string | undefined> {
    return (await this.#session.getUser())?.idToken
  }

  /** The signed-in user's access token (refreshed when stale), else `undefined`. */
  async getAccessToken(): Promise<string | undefined> {
    return (await this.#session.getUser())?.accessToken
  }

  /**
   * Logs out by `logoutMode`: `'redirect'` logs the custody key's session
   * out, revokes the refresh token, then navigates to the provider's
   * logout; `'silent'` does all three at once (the provider's logout in a
   * hidden iframe). Both remove the stored user and emit `loggedOut`.
   *
   * @throws {PassportError} `LOGOUT_ERROR` (redirect mode only).
   */
  async logout(): Promise<void> {
    const context: Logout.Context = {
      session: this.#session,
      endSessionUrl: this.#client.endSessionUrl(),
      logoutRedirectUri: this.#config.oidcConfiguration.logoutRedirectUri,
    }
    // As published: in parallel when silent; before the page leaves when
    // redirecting.
    if (this.#config.oidcConfiguration.logoutMode === 'silent')
      await Promise.all([Logout.logoutSilent(context), this.#logoutCustody()])
    else {
      await this.#logoutCustody()
      await Logout.logoutRedirect(context)
    }
  }

  /**
   * Logs out locally (the user removed, `loggedOut` emitted, the custody
   * key's session ended) and returns the provider's logout URL, for the
   * game to open in the browser it signed in with.
   */
  async logoutDeviceFlow(): Promise<string> {
    const [url] = await Promise.all([
      this.#session.getLogoutUrl(),
      this.#logoutCustody(),
    ])
    return url
  }

  /**
   * Ends the custody key's session (see `logoutCustody`); never rejects.
   * Its module loads here, with the iframe-wallet client only when a
   * custody session is stored.
   */
  async #logoutCustody(): Promise<void> {
    const config = this.#config
    try {
      const { logoutCustody } = await import('./zkevm/custodySigner.js')
      await logoutCustody({
        publishableKey: config.magicPublishableApiKey,
        endpoint: config.magicEndpoint,
        rpcUrl: config.zkEvmRpcUrl,
        chainId: config.chainId,
      })
    } catch {
      // The module could not load: nothing of the custody session is known.
    }
  }

  /** Run by the `logoutRedirectUri` page inside the silent-logout iframe. */
  async logoutSilentCallback(url: string): Promise<void> {
    Logout.logoutSilentCallback(url)
  }

  /**
   * The zkEVM wallet as an EIP-1193 provider, announced through EIP-6963
   * (`com.immutable.passport`) unless `announceProvider` is `false`. Each
   * call makes a new provider; all follow this instance's sign-in.
   *
   * @example
   * ```ts
   * const provider = await passport.connectEvm()
   * const [address] = await provider.request({ method: 'eth_requestAccounts' })
   * ```
   */
  async connectEvm(options: ConnectEvmOptions = {}): Promise<ZkEvmProvider> {
    // The wallet (its router, encodings and chain client) loads here, not
    // with the page: a game that only signs players in never pays for it.
    const { connectEvm } = await import('./zkevm/connect.js')
    return connectEvm(this, options)
  }

  /**
   * The StarkEx wallet of the signed-in player (signing in by popup when
   * no one is), with the published 2.14.0 `IMXProvider` surface:
   * registration, orders, trades, transfers and exchange transfers, each
   * signed with the player's Stark key. Each call makes a new provider.
   *
   * @throws {PassportError} the sign-in's errors; `WALLET_CONNECTION_ERROR`
   *   'Failed to initialise' when the session has no id token.
   *
   * @example
   * ```ts
   * const imx = await passport.connectImx()
   * if (!(await imx.isRegisteredOffchain())) await imx.registerOffchain()
   * await imx.transfer({ type: 'ETH', amount: '1000000000000000', receiver })
   * ```
   */
  async connectImx(): Promise<IMXProvider> {
    // The StarkEx layer (Stark curve, exchange client) loads here, not with
    // the page: a game that never uses StarkEx never pays for it.
    const { connectImx } = await import('./starkex/connect.js')
    return connectImx(this)
  }

  /**
   * The StarkEx wallet of a cached session, else `null`; never prompts.
   *
   * @deprecated As published: `login({ useCachedSession: true })`, then
   *   {@link Passport.connectImx}.
   * @throws {PassportError} as {@link Passport.connectImx}.
   */
  async connectImxSilent(): Promise<IMXProvider | null> {
    const { connectImxSilent } = await import('./starkex/connect.js')
    return connectImxSilent(this)
  }

  /**
   * Links an external wallet (one the player signs with elsewhere) to the
   * signed-in, registered player, with that wallet's EIP-712 signature of
   * the link message.
   *
   * @throws {PassportError} `NOT_LOGGED_IN_ERROR`, `USER_NOT_REGISTERED_ERROR`,
   *   `LINK_WALLET_ALREADY_LINKED_ERROR`, `LINK_WALLET_MAX_WALLETS_LINKED_ERROR`,
   *   `LINK_WALLET_DUPLICATE_NONCE_ERROR`, `LINK_WALLET_VALIDATION_ERROR` or
   *   `LINK_WALLET_GENERIC_ERROR`.
   */
  linkExternalWallet(
    params: Linking.LinkWalletParams,
  ): Promise<Linking.LinkedWallet> {
    return Linking.linkExternalWallet(this.#linking(), params)
  }

  /**
   * The addresses linked to the signed-in player; `[]` when signed out.
   *
   * @throws {PassportError} `SERVICE_UNAVAILABLE_ERROR`.
   */
  getLinkedAddresses(): Promise<string[]> {
    return Linking.getLinkedAddresses(this.#linking())
  }

  /** Listens to `loggedIn`, `loggedOut`, `tokenRefreshed` or `userRemoved`. */
  on<event extends keyof PassportEvents>(
    event: event,
    listener: PassportEvents[event],
  ): this {
    this.#session.emitter.on(event, listener)
    return this
  }

  /** Removes a listener added with {@link Passport.on}. */
  removeListener<event extends keyof PassportEvents>(
    event: event,
    listener: PassportEvents[event],
  ): this {
    this.#session.emitter.off(event, listener)
    return this
  }

  #emit(event: 'loggedIn', user: User) {
    this.#session.emitter.emit(event, user)
  }

  #linking(): Linking.Context {
    return {
      apiBase: this.#config.passportMrBasePath,
      getUser: () => this.#session.getUser(),
    }
  }

  #device(): Device.Context {
    return { client: this.#client, users: this.#flows.users }
  }

  #pkce(): Pkce.Context {
    return {
      client: this.#client,
      storage: this.#storage,
      users: this.#flows.users,
    }
  }
}
