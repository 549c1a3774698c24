import { RpcError } from '../../../core/RpcErrors.js'
import { rpcCodes, userDeniedAccountAccess } from '../../../magic/wire/codes.js'

/**
 * A JSON-RPC error the emulated backend answers with: an
 * `RpcErrors.RpcError` of the core model, with the provider's own codes
 * (-10xxx) as well as the standard ones. Throw it (or any core RPC error)
 * from a flow; the service turns it into the `error` of the final
 * `response` line with `toObject()`.
 */
export class RpcFailure extends RpcError {
  override name = 'Magic.RpcFailure'
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data === undefined ? {} : { data })
  }
}

/** Whether `error` is the -10014 a flow throws on the user's `cancel`. */
export function isUserCancel(error: unknown): boolean {
  return (
    error instanceof RpcFailure &&
    error.code === rpcCodes.RequestCancelled &&
    error.message === failures.cancelled().message
  )
}

/** The error texts and codes this backend uses where the spec is silent. */
export const failures = {
  cancelled: () =>
    new RpcFailure(rpcCodes.RequestCancelled, 'User canceled the request.'),
  /**
   * The user declined to connect: -10012 UserRejectedAction with the exact
   * message on which clients delete every stored device share (as the
   * published SDK does).
   */
  userDenied: () =>
    new RpcFailure(rpcCodes.UserRejectedAction, userDeniedAccountAccess),
  timedOut: () =>
    new RpcFailure(
      rpcCodes.RequestCancelled,
      'The request timed out waiting for an answer.',
    ),
  /** Too many flows waited at once; this one had waited longest. */
  evicted: () =>
    new RpcFailure(
      rpcCodes.RequestCancelled,
      'The request was cancelled: too many requests were waiting for an answer.',
    ),
  /** -10010: the address cannot receive mail (see ./mail.ts). */
  inactiveRecipient: () =>
    new RpcFailure(
      rpcCodes.InactiveRecipient,
      'Mail cannot be delivered to this email address.',
    ),
  notLoggedIn: () =>
    new RpcFailure(rpcCodes.AccessDeniedToUser, 'The user is not logged in.'),
  dpop: (reason: string) =>
    new RpcFailure(rpcCodes.DpopInvalidated, `Invalid DPoP proof: ${reason}`),
  invalidParams: (reason: string) =>
    new RpcFailure(rpcCodes.InvalidParams, reason),
  maxAttempts: () =>
    new RpcFailure(
      rpcCodes.MaxAttemptsReached,
      'Too many wrong codes: the code is no longer valid.',
    ),
  throttled: () =>
    new RpcFailure(
      rpcCodes.LoginThrottled,
      'Too many codes were requested: try again later.',
    ),
  deviceShare: () =>
    new RpcFailure(
      rpcCodes.AccessDeniedToUser,
      'The device share is missing or does not belong to this session.',
    ),
  internal: (reason: string) => new RpcFailure(rpcCodes.InternalError, reason),
} as const
