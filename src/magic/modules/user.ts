/**
 * `magic.user`: the logged-in user's info, tokens, session, settings,
 * account recovery, key reveal and MFA.
 */
import * as PromiEvent from '../../core/PromiEvent.js'
import * as Rpc from '../../core/Rpc.js'
import { ProviderRpcError } from '../../core/RpcErrors.js'
import { type Client, type EventsOf, type Handle, request } from '../request.js'
import * as Events from '../wire/events.js'
import * as Methods from '../wire/methods.js'

/** `getIdToken` options. */
export type GetIdTokenConfiguration = {
  /** Token lifespan in seconds. */
  lifespan?: number | undefined
}

/** `generateIdToken` options. */
export type GenerateIdTokenConfiguration = GetIdTokenConfiguration & {
  /** Data to sign with the token. */
  attachment?: string | undefined
}

/** The user's info as `getInfo` returns it. */
export type MagicUserMetadata = {
  issuer: string | null
  email: string | null
  phoneNumber: string | null
  isMfaEnabled: boolean
  recoveryFactors: { type: string; value: string }[]
  firstLoginAt?: string | null | undefined
  wallets?:
    | Record<
        string,
        | {
            publicAddress: string | null
            subAccounts: { name: string; publicAddress: string }[]
          }
        | undefined
      >
    | undefined
  /** Third-party wallet mode only. */
  publicAddress?: string | null | undefined
  walletType?: string | undefined
}

/** `requestInfoWithUI` scope. */
export type RequestUserInfoScope = {
  scope?: { email?: 'required' | 'optional' | undefined } | undefined
}

/** `showSettings` options. */
export type ShowSettingsConfiguration = {
  page?: 'update-email' | 'mfa' | 'recovery' | undefined
  /** @default true */
  showUI?: boolean | undefined
}

/** `recoverAccount` options. */
export type RecoverAccountConfiguration = {
  email: string
  showUI?: boolean | undefined
}

/** `enableMFA` / `disableMFA` options. */
export type MFAConfiguration = {
  /** @default true */
  showUI?: boolean | undefined
}

/** Called with `true` when the user turns out to be logged out. */
export type UserLoggedOutCallback = (loggedOut: boolean) => void

/** The `user` module. */
export type UserModule = ReturnType<typeof create>

/** Storage key of the logged-in flag (with `useStorageCache`). */
export const isLoggedInKey = 'magic_auth_is_logged_in'

/** The login methods after which the logged-in flag is stored. */
const loginMethods: ReadonlySet<string> = new Set([
  Methods.loginWithEmailOtp,
  Methods.loginWithSms,
  Methods.loginWithMagicLink,
  Methods.loginWithCredential,
  Methods.loginWithOidc,
])

/**
 * With `useStorageCache`, stores the logged-in flag after a successful
 * login (`method` as sent, test-mode names included), so that the next
 * client's `isLoggedIn` answers from the cache. Storage failures are
 * ignored. Returns `undefined` (nothing to wait for) for other methods.
 */
export function rememberLogin(
  client: Client,
  method: string,
): Promise<void> | undefined {
  if (!client.useStorageCache) return undefined
  if (!loginMethods.has(Methods.fromTestMode(method) ?? method)) return
  return client.storage.setItem(isLoggedInKey, 'true').catch(() => {})
}

/** Builds the `user` module of a client. */
export function create(client: Client) {
  const method = (name: string) => Methods.wireMethod(name, client.testMode)
  const callbacks: UserLoggedOutCallback[] = []
  const loggedOut = (value: boolean) => {
    for (const callback of [...callbacks]) callback(value)
  }
  /** Counts logouts: an answer that crossed one must not cache `true`. */
  let logouts = 0
  /** Runs an async body as a handle (for methods with local steps). */
  const handle = <result>(body: () => Promise<result>): Handle<result> =>
    PromiEvent.create<result, EventsOf<never>>(async (resolve) => {
      resolve(await body())
    }) as unknown as Handle<result>

  return {
    /** A DID token of the logged-in user. */
    getIdToken(configuration?: GetIdTokenConfiguration): Handle<string> {
      return request(
        client,
        Rpc.createRequest(method(Methods.getIdToken), [configuration]),
      )
    },

    /** A new DID token, optionally signing `attachment`. */
    generateIdToken(
      configuration?: GenerateIdTokenConfiguration,
    ): Handle<string> {
      return request(
        client,
        Rpc.createRequest(method(Methods.generateIdToken), [configuration]),
      )
    },

    /** The logged-in user's info. */
    getInfo(): Handle<MagicUserMetadata> {
      return request(client, Rpc.createRequest(Methods.getInfo, []))
    },

    /**
     * Whether a user is logged in. With `useStorageCache`, a stored flag
     * answers `true` at once; the iframe's answer then updates the flag,
     * and a `false` after a cached `true` calls the `onUserLoggedOut`
     * callbacks.
     */
    isLoggedIn(): Handle<boolean> {
      return PromiEvent.create<boolean, EventsOf<never>>(async (resolve) => {
        let cached = false
        if (client.useStorageCache) {
          cached = (await client.storage.getItem(isLoggedInKey)) === 'true'
          if (cached) resolve(true)
        }
        const payload = Rpc.createRequest(method(Methods.isLoggedIn), [])
        const before = logouts
        const loggedIn = await request<boolean>(client, payload)
        if (client.useStorageCache) {
          // A cached `true` answered at once and this confirmation may come
          // back after a logout the app ran meanwhile: it must not bring
          // the flag back.
          if (loggedIn) {
            if (before === logouts)
              await client.storage.setItem(isLoggedInKey, 'true')
          } else {
            await client.storage.removeItem(isLoggedInKey)
            if (cached) loggedOut(true)
          }
        }
        resolve(loggedIn)
      }) as unknown as Handle<boolean>
    },

    /**
     * Logs out: first removes the logged-in flag and every device share
     * from storage, then asks the iframe, then removes the refresh token.
     * The logout request still carries the refresh token, so the provider
     * can revoke the session (without it the session stays live there).
     */
    logout(): Handle<boolean> {
      return handle(async () => {
        const { storage } = client
        logouts++
        await storage.removeItem(isLoggedInKey)
        // The chunk the transport loads too (see ../transport/index.ts).
        const Envelope = await import('../transport/envelope.js')
        await Envelope.forgetShares(storage)
        const payload = Rpc.createRequest(method(Methods.logout), [])
        let result: boolean
        try {
          result = await request<boolean>(client, payload)
        } finally {
          await Envelope.forget(storage)
        }
        if (client.useStorageCache) loggedOut(result)
        return result
      })
    },

    /** Asks the user to share their info (e.g. email) with the app. */
    requestInfoWithUI(
      scope?: RequestUserInfoScope,
    ): Handle<{ email?: string | undefined }> {
      return request(
        client,
        Rpc.createRequest(Methods.requestUserInfo, scope ? [scope] : []),
      )
    },

    /** Opens the settings (email, MFA, recovery factors). */
    showSettings(
      configuration?: ShowSettingsConfiguration,
    ): Handle<string | null, Events.RecoveryFactor> {
      const { showUI = true } = configuration ?? {}
      return request(
        client,
        Rpc.createRequest(method(Methods.settings), [configuration]),
        { forward: showUI ? [] : Events.recoveryFactor.emit },
      )
    },

    /** Recovers an account with its recovery factor. */
    recoverAccount(
      configuration: RecoverAccountConfiguration,
    ): Handle<
      string | boolean | null,
      Events.RecoverAccount | Events.UpdateEmail
    > {
      const { email, showUI } = configuration
      return request(
        client,
        Rpc.createRequest(method(Methods.recoverAccount), [{ email, showUI }]),
        { forward: showUI ? [] : Events.recoverAccount.emit },
      )
    },

    /** Shows the user's EVM private key in the iframe. */
    revealEVMPrivateKey(): Handle<boolean> {
      return request(
        client,
        Rpc.createRequest(Methods.revealKey, [{ chain: 'ETH' }]),
      )
    },

    /**
     * Decommissioned: always throws, with the published text, as EIP-1193's
     * 4200 (the provider does not support the method). A provider error of
     * that code rather than its own class, which would be the only reason
     * to ship that class with every page.
     */
    revealPrivateKey(): never {
      throw new ProviderRpcError(
        4200,
        'revealPrivateKey() has been decommissioned. For EVM chains, use `user.revealEVMPrivateKey()` instead. For non-EVM chains, use `[extension].revealPrivateKey()` instead.',
      )
    },

    /** Adds a callback for logouts noticed with `useStorageCache`. */
    onUserLoggedOut(callback: UserLoggedOutCallback): void {
      callbacks.push(callback)
    },

    /** Turns MFA on. */
    enableMFA(
      configuration: MFAConfiguration = {},
    ): Handle<string | boolean | null, Events.EnableMfa> {
      const { showUI = true } = configuration
      return request(
        client,
        Rpc.createRequest(Methods.enableMfa, [{ showUI }]),
        { forward: showUI ? [] : Events.enableMfa.emit },
      )
    },

    /** Turns MFA off. */
    disableMFA(
      configuration: MFAConfiguration = {},
    ): Handle<string | boolean | null, Events.DisableMfa> {
      const { showUI = true } = configuration
      return request(
        client,
        Rpc.createRequest(Methods.disableMfa, [{ showUI }]),
        { forward: showUI ? [] : Events.disableMfa.emit },
      )
    },
  }
}
