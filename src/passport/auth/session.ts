/**
 * The session manager: returns the cached user while its tokens are fresh,
 * otherwise runs ONE refresh shared by all concurrent callers, removes the
 * stored user when a refresh fails for good, runs the published login order,
 * and emits `loggedIn`, `loggedOut`, `tokenRefreshed` and `userRemoved`.
 *
 * A failed refresh is judged as the published @imtbl/passport 2.24.8 judges
 * it (the SDK's main branch instead removes the user on any failure but a
 * time-out):
 * - a permanent OAuth error (`invalid_grant`, … {@link permanentOAuthErrors})
 *   → `NOT_LOGGED_IN_ERROR`, the user is removed (`userRemoved` first);
 * - a transient failure (network error, time-out, HTTP 5xx/429 without an
 *   OAuth body, any other OAuth code such as `server_error` or
 *   `temporarily_unavailable`) is retried (3 times, ~1 s jittered) and then
 *   → `SILENT_LOGIN_ERROR`, the user is kept: the refresh token may still
 *   work once the provider answers again;
 * - anything else (an invalid token response, e.g. a bad id-token signature)
 *   → `AUTHENTICATION_ERROR`, the user is removed.
 */
import * as oauth from 'oauth4webapi'
import * as Emitter from '../../core/Emitter.js'
import * as Http from '../../core/Http.js'
import {
  messages,
  PassportError,
  PassportErrorType,
  withPassportError,
} from '../errors.js'
import type { Client } from './oidc.js'
import {
  decodePayload,
  fromTokenResponse,
  type StoredUser,
  type TokenResponse,
  toUser,
  type User,
  type UserStore,
  validityBufferSeconds,
} from './user.js'

/** The session's events (published `AuthEvents`). */
export type Events = {
  loggedIn: (user: User) => void
  loggedOut: () => void
  tokenRefreshed: (user: User) => void
  userRemoved: (event: { reason: 'refresh_failed'; error: string }) => void
}

/** The published `login` options. */
export type LoginOptions = {
  /** Only use an existing session; never prompt. */
  useCachedSession?: boolean | undefined
  /** Without a cached session, try a refresh instead of prompting. */
  useSilentLogin?: boolean | undefined
  /** Prompt by redirect instead of popup. */
  useRedirectFlow?: boolean | undefined
  anonymousId?: string | undefined
  /** Passed through to the interactive step (direct login method etc.). */
  directLoginOptions?: unknown
}

/** What {@link create} needs. */
export type Options = {
  client: Pick<Client, 'refresh' | 'revoke' | 'endSessionUrl'>
  users: UserStore
  /**
   * The popup or redirect step of `login`. A redirect leaves the page and
   * resolves `null`; a popup resolves the signed-in user (already stored).
   */
  loginInteractively?:
    | ((
        options: LoginOptions & { useRedirectFlow: boolean },
      ) => Promise<User | null>)
    | undefined
  /**
   * Tokens closer than this to `exp` count as expired: both must expire
   * more than an hour ahead ({@link validityBufferSeconds}). @default 3600
   */
  refreshMarginSeconds?: number | undefined
  /** Extra attempts after a transient refresh failure. @default 3 */
  retries?: number | undefined
  /** Base delay between attempts; each waits 0.5–1.5× this. @default 1000 */
  retryDelayMs?: number | undefined
  now?: (() => number) | undefined
  /** Source of the delays' jitter, in [0, 1). @default Math.random */
  random?: (() => number) | undefined
}

/** The session manager returned by {@link create}. */
export type Session = {
  readonly emitter: Emitter.Emitter<Events>
  /**
   * The cached user when fresh, else the refreshed one (one shared refresh),
   * else `null`. A refresh failure is thrown as a {@link PassportError}.
   * With `typeAssertion`, a user failing it counts as none.
   */
  getUser<user extends User = User>(
    typeAssertion?: ((user: User) => user is user) | undefined,
  ): Promise<user | null>
  /** Refreshes now (shared with concurrent callers); `null` without a refresh token. */
  refresh(): Promise<User | null>
  /** {@link Session.refresh}, with a failure turned into `null`. */
  forceUserRefresh(): Promise<User | null>
  /** The published login order; emits `loggedIn` when it yields a user. */
  login(options?: LoginOptions | undefined): Promise<User | null>
  /** Stores tokens obtained by a login flow and emits `loggedIn`. */
  storeTokens(response: TokenResponse): Promise<User>
  /** Removes the stored user (no event). */
  removeUser(): Promise<void>
  /** Revokes the refresh token, removes the user, emits `loggedOut`; returns the end-session URL. */
  logout(): Promise<string>
  /** Removes the user locally, emits `loggedOut`, returns the end-session URL. */
  getLogoutUrl(): Promise<string>
}

/**
 * Creates the session manager.
 *
 * @example
 * ```ts
 * const session = create({ client, users, loginInteractively: popupLogin })
 * session.emitter.on('loggedIn', (user) => console.info(user.profile.sub))
 * const user = await session.login({ useCachedSession: true })
 * ```
 */
export function create(options: Options): Session {
  const { client, users } = options
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const margin = options.refreshMarginSeconds ?? validityBufferSeconds
  const retries = options.retries ?? 3
  const retryDelayMs = options.retryDelayMs ?? 1000
  const emitter = Emitter.create<Events>()
  let refreshing: Promise<User | null> | undefined
  let loggingIn: Promise<User | null> | undefined

  function isFresh(stored: StoredUser) {
    const limit = now() / 1000 + margin
    const access = decodePayload(stored.access_token)?.exp ?? stored.expires_at
    const id = stored.id_token ? decodePayload(stored.id_token)?.exp : undefined
    return (
      access !== undefined && access > limit && id !== undefined && id > limit
    )
  }

  function attempt(refreshToken: string) {
    return Http.retry(() => client.refresh(refreshToken), {
      retries,
      interval: () => Math.round(retryDelayMs * (0.5 + random())),
      shouldRetry: (error) => classify(error) === 'transient',
    })
  }

  async function runRefresh(): Promise<User | null> {
    const previous = await users.get()
    if (!previous?.refresh_token) return null
    try {
      const response = await attempt(previous.refresh_token)
      const stored = fromTokenResponse(response, { now: now(), previous })
      await users.set(stored)
      const user = toUser(stored, { now: now() })
      emitter.emit('tokenRefreshed', user)
      return user
    } catch (error) {
      const kind = classify(error)
      let message = `${messages.refreshFailed}: ${describe(error)}`
      if (kind !== 'transient') {
        emitter.emit('userRemoved', {
          reason: 'refresh_failed',
          error: message,
        })
        try {
          await users.remove()
        } catch (removeError) {
          message = `${message}: Failed to remove user: ${describe(removeError)}`
        }
      }
      throw new PassportError(message, errorTypes[kind], { cause: error })
    }
  }

  function refresh() {
    refreshing ??= runRefresh().finally(() => {
      refreshing = undefined
    })
    return refreshing
  }

  async function getUser<user extends User>(
    typeAssertion: (user: User) => user is user = (_): _ is user => true,
  ): Promise<user | null> {
    const check = (user: User | null) =>
      user && typeAssertion(user) ? user : null
    if (refreshing) return check(await refreshing)
    const stored = await users.get()
    if (!stored) return null
    if (isFresh(stored)) {
      const user = check(toUser(stored, { now: now() }))
      if (user) return user
    }
    if (stored.refresh_token) return check(await refresh())
    return null
  }

  async function runLogin(login: LoginOptions): Promise<User | null> {
    const { useCachedSession = false, useSilentLogin = false } = login
    let user: User | null = null
    try {
      user = await getUser()
    } catch (error) {
      if (useCachedSession) throw error
    }
    if (!user && useSilentLogin) user = await forceUserRefresh()
    else if (!user && !useCachedSession) {
      if (!options.loginInteractively)
        throw new PassportError(
          'No interactive login is configured',
          PassportErrorType.AUTHENTICATION_ERROR,
        )
      const useRedirectFlow = login.useRedirectFlow ?? false
      user = await options.loginInteractively({ ...login, useRedirectFlow })
      if (useRedirectFlow) return null
    }
    if (user) emitter.emit('loggedIn', user)
    return user
  }

  function forceUserRefresh() {
    return refresh().catch(() => null)
  }

  return {
    emitter,
    getUser,
    refresh,
    forceUserRefresh,
    login(login = {}) {
      loggingIn ??= runLogin(login).finally(() => {
        loggingIn = undefined
      })
      return loggingIn
    },
    async storeTokens(response) {
      const stored = fromTokenResponse(response, { now: now() })
      await users.set(stored)
      const user = toUser(stored, { now: now() })
      emitter.emit('loggedIn', user)
      return user
    },
    removeUser: () => users.remove(),
    logout: () =>
      withPassportError(async () => {
        const refreshToken = (await users.get())?.refresh_token
        if (refreshToken) await client.revoke(refreshToken, 'refresh_token')
        await users.remove()
        emitter.emit('loggedOut')
        return client.endSessionUrl()
      }, PassportErrorType.LOGOUT_ERROR),
    async getLogoutUrl() {
      await users.remove()
      emitter.emit('loggedOut')
      return client.endSessionUrl()
    },
  }
}

/** OAuth codes that mean the refresh token can never work again. */
export const permanentOAuthErrors: readonly string[] = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'access_denied',
  'login_required',
  'consent_required',
  'interaction_required',
  'account_selection_required',
]

/** The three kinds of refresh failure. */
export type Kind = 'permanent' | 'transient' | 'invalid'

/** The error type thrown for each kind. */
const errorTypes: Record<Kind, PassportErrorType> = {
  permanent: PassportErrorType.NOT_LOGGED_IN_ERROR,
  transient: PassportErrorType.SILENT_LOGIN_ERROR,
  invalid: PassportErrorType.AUTHENTICATION_ERROR,
}

/** Sorts a refresh failure into the three kinds above. */
export function classify(error: unknown): Kind {
  if (error instanceof oauth.ResponseBodyError)
    return permanentOAuthErrors.includes(error.error)
      ? 'permanent'
      : 'transient'
  if (
    error instanceof oauth.OperationProcessingError &&
    error.code === oauth.RESPONSE_IS_NOT_CONFORM &&
    error.cause instanceof Response
  )
    return error.cause.status >= 500 || error.cause.status === 429
      ? 'transient'
      : 'invalid'
  // fetch's network failure (oauth4webapi's own TypeErrors carry a `code`)
  if (error instanceof TypeError && !('code' in error)) return 'transient'
  const name = (error as { name?: unknown } | null)?.name
  if (name === 'AbortError' || name === 'TimeoutError') return 'transient'
  return 'invalid'
}

/** The text after `Failed to refresh token: `. */
function describe(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError)
    return error.error_description || error.error
  return error instanceof Error ? error.message : String(error)
}
