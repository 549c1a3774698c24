/**
 * The device-code flow (RFC 8628), as the published 2.x SDK had it before
 * it dropped the flow:
 * `loginWithDeviceFlow` asks for a user code and returns
 * `{ code, deviceCode, url, interval }`; `loginWithDeviceFlowCallback` polls
 * the token endpoint at the server's interval until the user has approved,
 * then stores the user. Clock and sleep are injectable for tests.
 */
import * as oauth from 'oauth4webapi'
import {
  messages,
  PassportError,
  PassportErrorType,
  withPassportError,
} from '../errors.js'
import { requestParams } from '../wire/identity.js'
import type { Client } from './oidc.js'
import { fromTokenResponse, toUser, type User, type UserStore } from './user.js'

/** The published `DeviceConnectResponse`. */
export type DeviceConnectResponse = {
  /** The user code to show. */
  code: string
  /** The device code to poll with. */
  deviceCode: string
  /** Where the user approves (`verification_uri_complete`). */
  url: string
  /** Seconds between polls, from the server. */
  interval: number
}

/** What both steps need. */
export type Context = {
  client: Client
  /** Where the signed-in user is persisted. */
  users: UserStore
  /** Clock in ms. @default Date.now */
  now?: (() => number) | undefined
  /** Waits `ms`. @default setTimeout */
  sleep?: ((ms: number) => Promise<void>) | undefined
}

/** The interval when the server names none, in seconds (RFC 8628, section 3.2). */
export const defaultIntervalSeconds = 5

/** Seconds added to the interval on `slow_down` (RFC 8628, section 3.5). */
export const slowDownSeconds = 5

/**
 * Starts the flow: `POST` to the device-authorization endpoint with
 * `client_id`, `scope` and `audience`. The URL is the server's
 * `verification_uri_complete` (else `verification_uri`), with `&rid=` and
 * `&third_party_a_id=` appended when given, as published.
 *
 * @throws {PassportError} `AUTHENTICATION_ERROR`.
 * @example
 * ```ts
 * const { code, url, deviceCode, interval } = await loginWithDeviceFlow(context)
 * ```
 */
export async function loginWithDeviceFlow(
  context: Context,
  options: {
    anonymousId?: string | undefined
    runtimeId?: string | undefined
  } = {},
): Promise<DeviceConnectResponse> {
  return withPassportError(async () => {
    const response = await context.client.deviceAuthorization()
    const { anonymousId, runtimeId } = options
    const url = [
      response.verification_uri_complete ?? response.verification_uri,
      runtimeId ? `&${requestParams.runtimeId}=${runtimeId}` : '',
      anonymousId ? `&${requestParams.anonymousId}=${anonymousId}` : '',
    ].join('')
    return {
      code: response.user_code,
      deviceCode: response.device_code,
      url,
      interval: response.interval ?? defaultIntervalSeconds,
    }
  }, PassportErrorType.AUTHENTICATION_ERROR)
}

/**
 * Polls the device-code grant until it yields tokens. Each round waits the
 * interval first (`interval` seconds, +5 s after each `slow_down`), then
 * polls:
 * - `authorization_pending`, `slow_down` → poll again;
 * - `expired_token` → `'Token expired, please log in again'`;
 * - `access_denied` → `'User denied access'`;
 * - any other OAuth error → `'Error getting token'`;
 * - another failure (network, invalid token) → its own message.
 *
 * With `timeoutMs`, once more than that has passed since the call (checked
 * before each wait and before each poll) it fails with `'Timed out'`.
 * `options.signal` (our addition) stops the polling at once, failing with
 * the signal's reason (e.g. 'This operation was aborted').
 *
 * @throws {PassportError} `AUTHENTICATION_ERROR`.
 */
export async function loginWithDeviceFlowCallback(
  context: Context,
  deviceCode: string,
  interval: number,
  timeoutMs?: number | undefined,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<User> {
  const { signal } = options
  return withPassportError(async () => {
    const now = context.now ?? Date.now
    const sleep = context.sleep ?? wait
    const start = now()
    const checkTimeout = () => {
      if (timeoutMs != null && now() - start > timeoutMs)
        throw new PassportError(
          messages.timedOut,
          PassportErrorType.AUTHENTICATION_ERROR,
        )
    }
    let seconds = interval
    for (;;) {
      checkTimeout()
      await abortable(sleep(seconds * 1000), signal)
      checkTimeout()
      try {
        const response = await context.client.deviceToken(deviceCode)
        const time = now()
        const stored = fromTokenResponse(response, { now: time })
        await context.users.set(stored)
        return toUser(stored, { now: time })
      } catch (error) {
        if (!(error instanceof oauth.ResponseBodyError)) throw error
        switch (error.error) {
          case 'authorization_pending':
            break
          case 'slow_down':
            seconds += slowDownSeconds
            break
          case 'expired_token':
            throw new PassportError(
              messages.tokenExpired,
              PassportErrorType.AUTHENTICATION_ERROR,
              { cause: error },
            )
          case 'access_denied':
            throw new PassportError(
              messages.userDeniedAccess,
              PassportErrorType.AUTHENTICATION_ERROR,
              { cause: error },
            )
          default:
            throw new PassportError(
              messages.errorGettingToken,
              PassportErrorType.AUTHENTICATION_ERROR,
              { cause: error },
            )
        }
      }
    }
  }, PassportErrorType.AUTHENTICATION_ERROR)
}

/** `promise`, or the signal's reason as soon as it aborts. */
function abortable<value>(
  promise: Promise<value>,
  signal: AbortSignal | undefined,
): Promise<value> {
  if (!signal) return promise
  signal.throwIfAborted()
  return new Promise<value>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

function wait(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms))
}
