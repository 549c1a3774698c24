/**
 * The interactive sign-in flows behind `Passport.login`:
 * the popup (PKCE S256 + state + nonce, `openLoginPopup`, then the code
 * exchange) and the redirect (state kept in storage, the page navigates, the
 * redirect page finishes it), plus `loginCallback`, which the redirect page
 * runs for both. The pending request is stored as oidc-client-ts stores its
 * `SigninState` (`oidc.<state>` in `localStorage`, `request_type` `si:p` for
 * a popup, `si:r` for a redirect), so the redirect page can tell the two
 * apart. Nothing here touches `window` at import time.
 */

import type * as Storage from '../../core/Storage.js'
import { PassportError, PassportErrorType } from '../errors.js'
import { requestParams } from '../wire/identity.js'
import type { AuthorizationRequest, Client } from './oidc.js'
import type { PopupOverlayOptions } from './overlay.js'
import { notifyOpener, openLoginPopup } from './popup.js'
import { fromTokenResponse, toUser, type User, type UserStore } from './user.js'

/** What the flows need. */
export type Context = {
  client: Client
  /** Where pending requests wait for the callback (`localStorage`). */
  storage: Storage.Storage
  /** Where the signed-in user is persisted. */
  users: UserStore
  /** The redirect flow's callback page. */
  redirectUri: string
  /** The popup's callback page (`popupRedirectUri ?? redirectUri`). */
  popupRedirectUri: string
  /** The host's overlay switches. */
  overlay?: PopupOverlayOptions | undefined
  /** Clock in ms. @default Date.now */
  now?: (() => number) | undefined
}

/**
 * The published `MarketingConsentStatus` values, a runtime object as the
 * published enum is, so `MarketingConsentStatus.OptedIn` keeps compiling.
 */
export const MarketingConsentStatus = {
  OptedIn: 'opted_in',
  Unsubscribed: 'unsubscribed',
  Subscribed: 'subscribed',
} as const

/** One of the {@link MarketingConsentStatus} values. */
export type MarketingConsentStatus =
  (typeof MarketingConsentStatus)[keyof typeof MarketingConsentStatus]

/** The published `DirectLoginOptions`: skip the provider's method picker. */
export type DirectLoginOptions = {
  /** `'google'`, `'apple'`, `'facebook'`, `'email'`… */
  directLoginMethod: string
  /** Required with `'email'` (without it the direct parameters are dropped). */
  email?: string | undefined
  marketingConsentStatus?: MarketingConsentStatus | undefined
}

/** Options of the interactive step. */
export type InteractiveOptions = {
  /** Sent as `third_party_a_id`. */
  anonymousId?: string | undefined
  directLoginOptions?: DirectLoginOptions | undefined
}

/** A pending request as stored (oidc-client-ts `SigninState` fields). */
export type StoredRequest = {
  id: string
  code_verifier: string
  nonce: string
  redirect_uri: string
  /** `si:p` popup, `si:r` redirect. */
  request_type: 'si:p' | 'si:r'
  /** Seconds since the epoch. */
  created: number
}

/**
 * How long a pending request is kept: oidc-client-ts's
 * `staleStateAgeInSeconds` (15 minutes). Older ones (logins the user
 * abandoned) are removed when a new one is stored.
 */
export const staleRequestSeconds = 900

/** oidc-client-ts's text for a state it does not hold. */
export const noMatchingState = 'No matching state found in storage'

/** The storage key of a pending request (oidc-client-ts's `oidc.` prefix). */
export function requestKey(state: string): string {
  return `oidc.${state}`
}

/**
 * The authorization-request extras of the published `buildExtraQueryParams`:
 * `third_party_a_id` when an anonymous id is given; `direct` (+ `email` for
 * the email method, dropped without one) and `marketingConsent`.
 *
 * @example
 * ```ts
 * extraParams({ directLoginOptions: { directLoginMethod: 'google' } })
 * // { direct: 'google' }
 * ```
 */
export function extraParams(
  options: InteractiveOptions = {},
): Record<string, string> {
  const params: Record<string, string> = {}
  if (options.anonymousId)
    params[requestParams.anonymousId] = options.anonymousId
  const direct = options.directLoginOptions
  if (direct) {
    if (direct.directLoginMethod !== 'email')
      params[requestParams.direct] = direct.directLoginMethod
    else if (direct.email) {
      params[requestParams.direct] = 'email'
      params[requestParams.email] = direct.email
    }
    if (direct.marketingConsentStatus)
      params[requestParams.marketingConsent] = direct.marketingConsentStatus
  }
  return params
}

/**
 * Signs in through the login popup: builds the authorization request for
 * the popup redirect URI, opens it (the blocked overlay offers Try again),
 * waits for the redirect page's callback, checks its `state`, exchanges the
 * code (id token verified, with the nonce) and stores the user.
 *
 * @throws The popup's errors (e.g. `PopupClosedError`), OAuth errors, or a
 *   {@link PassportError}; the caller wraps them as `AUTHENTICATION_ERROR`.
 */
export async function loginWithPopup(
  context: Context,
  options: InteractiveOptions = {},
): Promise<User> {
  const redirectUri = context.popupRedirectUri
  const request = await context.client.authorizationUrl({
    redirectUri,
    extraQueryParams: extraParams(options),
  })
  const stored = await save(context, request, redirectUri, 'si:p')
  try {
    const { params } = await openLoginPopup({
      url: request.url.href,
      origin: new URL(redirectUri).origin,
      overlay: context.overlay,
    })
    return await complete(context, params, stored)
  } finally {
    await context.storage.removeItem(requestKey(stored.id))
  }
}

/**
 * Starts the redirect flow: stores the request and leaves the page for the
 * authorization URL (`navigate`, default `location.assign`).
 */
export async function loginWithRedirect(
  context: Context,
  options: InteractiveOptions = {},
  navigate: (url: string) => void = (url) => location.assign(url),
): Promise<void> {
  const request = await context.client.authorizationUrl({
    redirectUri: context.redirectUri,
    extraQueryParams: extraParams(options),
  })
  await save(context, request, context.redirectUri, 'si:r')
  navigate(request.url.href)
}

/**
 * The redirect page's step, for both flows:
 * - a popup's callback (its stored request says `si:p`, or none is stored
 *   and the page has an opener) is posted to the opener, pinned to this
 *   origin (`notifyOpener`), and the popup closes: resolves `undefined`;
 * - a redirect's callback is completed here (state looked up in storage,
 *   code exchanged, user stored) and the response parameters are taken off
 *   the address bar: resolves the user.
 *
 * @throws {PassportError} `'No matching state found in storage'` for an
 *   unknown state; the provider's `error_description` for an error answer.
 */
export async function loginCallback(
  context: Context,
  url: string = location.href,
): Promise<User | undefined> {
  const params = responseParams(url)
  const state = params.get('state')
  const stored = state ? await read(context.storage, state) : undefined
  const opener: Window | null =
    typeof window === 'undefined' ? null : window.opener
  if (stored?.request_type === 'si:p' || (!stored && opener)) {
    if (!notifyOpener({ url }))
      throw new PassportError(
        "No window.opener. Can't complete notification.",
        PassportErrorType.AUTHENTICATION_ERROR,
      )
    return undefined
  }
  if (!stored || !state)
    throw new PassportError(
      noMatchingState,
      PassportErrorType.AUTHENTICATION_ERROR,
    )
  await context.storage.removeItem(requestKey(state))
  const user = await complete(context, params, stored)
  if (typeof history !== 'undefined' && url === location.href)
    history.replaceState(history.state, '', withoutResponse(url))
  return user
}

/** Checks the callback against the stored request and exchanges the code. */
async function complete(
  context: Context,
  params: URLSearchParams,
  stored: StoredRequest,
): Promise<User> {
  const error = params.get('error')
  if (error)
    throw new PassportError(
      params.get('error_description') || error,
      PassportErrorType.AUTHENTICATION_ERROR,
    )
  if (params.get('state') !== stored.id)
    throw new PassportError(
      noMatchingState,
      PassportErrorType.AUTHENTICATION_ERROR,
    )
  const code = params.get('code')
  if (!code)
    throw new PassportError(
      'No code in the authorization response',
      PassportErrorType.AUTHENTICATION_ERROR,
    )
  const response = await context.client.exchangeCode({
    code,
    state: stored.id,
    iss: params.get('iss') ?? undefined,
    codeVerifier: stored.code_verifier,
    nonce: stored.nonce,
    redirectUri: stored.redirect_uri,
  })
  const now = (context.now ?? Date.now)()
  const user = fromTokenResponse(response, { now })
  await context.users.set(user)
  return toUser(user, { now })
}

async function save(
  context: Context,
  request: AuthorizationRequest,
  redirectUri: string,
  type: StoredRequest['request_type'],
): Promise<StoredRequest> {
  const created = Math.floor((context.now ?? Date.now)() / 1000)
  await removeStale(context.storage, created - staleRequestSeconds)
  const stored: StoredRequest = {
    id: request.state,
    code_verifier: request.codeVerifier,
    nonce: request.nonce,
    redirect_uri: redirectUri,
    request_type: type,
    created,
  }
  await context.storage.setItem(requestKey(stored.id), JSON.stringify(stored))
  return stored
}

/** Removes the pending requests created before `before` (seconds). */
async function removeStale(storage: Storage.Storage, before: number) {
  for (const key of await storage.keys()) {
    if (!key.startsWith(requestKey(''))) continue
    const stored = await read(storage, key.slice(requestKey('').length))
    if (stored && stored.created < before) await storage.removeItem(key)
  }
}

/** The pending request of `state` as oidc-client-ts stores it (JSON text). */
async function read(
  storage: Storage.Storage,
  state: string,
): Promise<StoredRequest | undefined> {
  const text = await storage.getItem<string>(requestKey(state))
  try {
    const value = JSON.parse(text ?? 'null') as StoredRequest | null
    return value?.id === state && typeof value.code_verifier === 'string'
      ? value
      : undefined
  } catch {
    return undefined
  }
}

/** The response parameters of a redirect URL: query, else fragment. */
function responseParams(url: string): URLSearchParams {
  const parsed = new URL(url)
  return parsed.search
    ? parsed.searchParams
    : new URLSearchParams(parsed.hash.slice(1))
}

const responseKeys = [
  'code',
  'state',
  'iss',
  'session_state',
  'error',
  'error_description',
]

/** `url` without the authorization response's parameters. */
function withoutResponse(url: string): string {
  const parsed = new URL(url)
  for (const key of responseKeys) parsed.searchParams.delete(key)
  return parsed.href
}
