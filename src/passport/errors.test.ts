import { describe, expect, test } from 'vitest'
import { BaseError } from '../core/Errors.js'
import {
  cannotBeNull,
  isPassportError,
  messages,
  PassportError,
  PassportErrorType,
  typeOf,
  withPassportError,
} from './errors.js'
import { serviceUnavailable } from './zkevm/errors.js'

describe('PassportErrorType', () => {
  test('default: every published value this wallet raises is its own name', () => {
    expect(Object.values(PassportErrorType)).toEqual([
      'AUTHENTICATION_ERROR',
      'INVALID_CONFIGURATION',
      'WALLET_CONNECTION_ERROR',
      'NOT_LOGGED_IN_ERROR',
      'SILENT_LOGIN_ERROR',
      'USER_NOT_REGISTERED_ERROR',
      'LOGOUT_ERROR',
      'LINK_WALLET_ALREADY_LINKED_ERROR',
      'LINK_WALLET_MAX_WALLETS_LINKED_ERROR',
      'LINK_WALLET_VALIDATION_ERROR',
      'LINK_WALLET_DUPLICATE_NONCE_ERROR',
      'LINK_WALLET_GENERIC_ERROR',
      'SERVICE_UNAVAILABLE_ERROR',
      'USER_REGISTRATION_ERROR',
      'TRANSFER_ERROR',
      'CREATE_ORDER_ERROR',
      'CANCEL_ORDER_ERROR',
      'CREATE_TRADE_ERROR',
      'EXCHANGE_TRANSFER_ERROR',
      'OPERATION_NOT_SUPPORTED_ERROR',
    ])
    for (const [key, value] of Object.entries(PassportErrorType))
      expect(value).toBe(key)
  })
})

describe('messages', () => {
  test('default: the exact texts of the published SDK', () => {
    expect(messages).toEqual({
      tokenExpired: 'Token expired, please log in again',
      userDeniedAccess: 'User denied access',
      errorGettingToken: 'Error getting token',
      stateMismatch: 'Provided state does not match stored state',
      noPkceData: 'No code verifier or state for PKCE',
      popupClosed: 'Popup closed by user',
      timedOut: 'Timed out',
      loggedOut: 'User has been logged out',
      refreshFailed: 'Failed to refresh token',
    })
  })

  test('cannotBeNull: joins fields and prefixes', () => {
    expect(cannotBeNull(['clientId'])).toBe('clientId cannot be null')
    expect(cannotBeNull(['clientId', 'redirectUri'])).toBe(
      'clientId, redirectUri cannot be null',
    )
    expect(cannotBeNull(['relayerUrl'], 'overrides')).toBe(
      'overrides - relayerUrl cannot be null',
    )
  })
})

describe('PassportError', () => {
  test('default: message, type and name, on the core BaseError', () => {
    const error = new PassportError('boom', PassportErrorType.LOGOUT_ERROR)
    expect(error).toBeInstanceOf(Error)
    expect(error).toBeInstanceOf(BaseError)
    expect(error.message).toBe('boom')
    expect(error.type).toBe('LOGOUT_ERROR')
    expect(error.name).toBe('PassportError')
    expect(isPassportError(error)).toBe(true)
    expect(isPassportError(error, 'LOGOUT_ERROR')).toBe(true)
    expect(isPassportError(error, 'AUTHENTICATION_ERROR')).toBe(false)
    expect(isPassportError(new Error('x'))).toBe(false)
  })

  test('behavior: the message is the text alone; the cause stays underneath', () => {
    const cause = new Error('HTTP 500 from https://auth.example/oauth/token')
    const error = new PassportError('Failed to refresh token', 'LOGOUT_ERROR', {
      cause,
    })
    expect(error.message).toBe('Failed to refresh token')
    expect(error.shortMessage).toBe('Failed to refresh token')
    expect(error.cause).toBe(cause)
    expect(error.details).toBe('')
    expect(error.walk()).toBe(cause)
  })

  test('behavior: typeOf reads the published type of a PassportError or a typed provider error', () => {
    expect(typeOf(new PassportError('x', 'LOGOUT_ERROR'))).toBe('LOGOUT_ERROR')
    expect(typeOf(serviceUnavailable())).toBe('SERVICE_UNAVAILABLE_ERROR')
    expect(typeOf(Object.assign(new Error('x'), { type: 'OTHER' }))).toBe(
      undefined,
    )
    expect(typeOf({ type: 'LOGOUT_ERROR' })).toBe(undefined)
  })
})

describe('withPassportError', () => {
  test('default: returns the result', async () => {
    await expect(
      withPassportError(async () => 42, 'AUTHENTICATION_ERROR'),
    ).resolves.toBe(42)
  })

  test('behavior: an Error becomes a PassportError of the given type', async () => {
    const cause = new Error('network down')
    const error = await withPassportError(async () => {
      throw cause
    }, 'LOGOUT_ERROR').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PassportError)
    expect(error).toMatchObject({
      message: 'network down',
      type: 'LOGOUT_ERROR',
      cause,
    })
  })

  test('behavior: a PassportError is re-typed (published semantics)', async () => {
    const error = await withPassportError(async () => {
      throw new PassportError('Timed out', 'NOT_LOGGED_IN_ERROR')
    }, 'AUTHENTICATION_ERROR').catch((e: unknown) => e)
    expect(error).toMatchObject({
      message: 'Timed out',
      type: 'AUTHENTICATION_ERROR',
    })
  })

  test('behavior: SERVICE_UNAVAILABLE_ERROR keeps its type, from a PassportError or a provider error', async () => {
    for (const thrown of [
      new PassportError('Service unavailable', 'SERVICE_UNAVAILABLE_ERROR'),
      serviceUnavailable({ cause: new Error('403') }),
    ]) {
      const error = await withPassportError(async () => {
        throw thrown
      }, 'LOGOUT_ERROR').catch((e: unknown) => e)
      expect(error).toBeInstanceOf(PassportError)
      expect(error).toMatchObject({
        message: 'Service unavailable',
        type: 'SERVICE_UNAVAILABLE_ERROR',
        cause: thrown,
      })
    }
  })

  test('behavior: an OAuth error answer gives its description, else its code', async () => {
    const described = Object.assign(
      new Error('server responded with an error'),
      {
        error: 'invalid_grant',
        error_description: 'Unknown or invalid refresh token.',
      },
    )
    await expect(
      withPassportError(async () => {
        throw described
      }, 'AUTHENTICATION_ERROR'),
    ).rejects.toMatchObject({ message: 'Unknown or invalid refresh token.' })
    const bare = Object.assign(new Error('server responded with an error'), {
      error: 'server_error',
    })
    await expect(
      withPassportError(async () => {
        throw bare
      }, 'AUTHENTICATION_ERROR'),
    ).rejects.toMatchObject({ message: 'server_error' })
  })

  test('behavior: an API error body gives its message', async () => {
    const httpError = Object.assign(
      new Error('Request failed with status code 400'),
      {
        response: {
          status: 400,
          data: { code: 'VALIDATION_ERROR', message: 'bad nonce' },
        },
      },
    )
    await expect(
      withPassportError(async () => {
        throw httpError
      }, 'LINK_WALLET_GENERIC_ERROR'),
    ).rejects.toMatchObject({
      message: 'bad nonce',
      type: 'LINK_WALLET_GENERIC_ERROR',
    })
    await expect(
      withPassportError(async () => {
        throw { code: 'CONFLICT_ERROR', message: 'already registered' }
      }, 'AUTHENTICATION_ERROR'),
    ).rejects.toMatchObject({
      message: 'already registered',
      type: 'AUTHENTICATION_ERROR',
    })
  })
})
