/**
 * How the OIDC client (`oidc.ts`) checks a token response: oauth4webapi's
 * check, with id-token claim failures reworded as `AUTHENTICATION_ERROR`s.
 */
import * as oauth from 'oauth4webapi'
import { PassportError, PassportErrorType } from '../errors.js'
import { invalidIdToken } from './tokens.js'
import type { TokenResponse } from './user.js'

/**
 * Runs an oauth4webapi response check. OAuth error bodies
 * (`ResponseBodyError`) pass through for the caller to classify; id-token
 * claim failures become `AUTHENTICATION_ERROR`s worded like `tokens.ts`.
 */
export async function processed(
  check: () => Promise<oauth.TokenEndpointResponse>,
): Promise<TokenResponse> {
  try {
    return (await check()) as TokenResponse
  } catch (error) {
    if (
      error instanceof oauth.OperationProcessingError &&
      (error.code === oauth.JWT_CLAIM_COMPARISON ||
        error.code === oauth.JWT_TIMESTAMP_CHECK)
    ) {
      const { claim } = (error.cause ?? {}) as { claim?: string }
      const detail =
        error.code === oauth.JWT_TIMESTAMP_CHECK && claim === 'exp'
          ? 'token expired'
          : `unexpected "${claim}" claim value`
      throw new PassportError(
        `${invalidIdToken}: ${detail}`,
        PassportErrorType.AUTHENTICATION_ERROR,
        { cause: error },
      )
    }
    throw error
  }
}
