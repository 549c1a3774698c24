import type * as Rpc from '../../core/Rpc.js'
import type * as Storage from '../../core/Storage.js'
import * as DeviceShare from '../keys/deviceShare.js'
import * as Dpop from '../keys/dpop.js'
import * as Codes from '../wire/codes.js'
import type * as Messages from '../wire/messages.js'

/**
 * The session material around each request: what goes out with it (a fresh
 * DPoP proof, the refresh token, the device share) and what comes back with
 * its response (a new refresh token or device share, or an error that
 * clears keys). Storage and crypto failures never fail a request.
 */

/**
 * Storage key of the refresh token the iframe hands out with a response
 * (`rt`); it goes back with every request that carries a DPoP proof, and a
 * logout removes it.
 */
export const refreshTokenKey = 'rt'

export type Context = {
  storage: Storage.Storage
  networkHash: string
  now: () => number
}

/**
 * Builds the request envelope: `jwt` when WebCrypto can make a proof, `rt`
 * only with a `jwt`, `deviceShare` when one is stored for the network.
 *
 * @example
 * ```ts
 * const data = await Envelope.build(msgType, request, context)
 * ```
 */
export async function build(
  msgType: string,
  payload: Rpc.Request | readonly Rpc.Request[],
  context: Context,
): Promise<Messages.RequestEnvelope> {
  const { networkHash, now, storage } = context
  const jwt = await Dpop.createProof(storage, { now }).catch(() => undefined)
  const stored = jwt
    ? await storage.getItem(refreshTokenKey).catch(() => undefined)
    : undefined
  const rt = typeof stored === 'string' ? stored : undefined
  const deviceShare = await DeviceShare.decrypt(storage, networkHash)
  return {
    msgType,
    payload,
    ...(jwt ? { jwt } : {}),
    ...(rt ? { rt } : {}),
    ...(deviceShare ? { deviceShare } : {}),
  }
}

/**
 * Takes in what a response message carries: stores its `rt`; on error
 * -10019 deletes the DPoP keys and the refresh token (its session is bound
 * to the deleted key, so every later request would be refused -10019 too);
 * deletes every device share on `User denied account access.`, else stores
 * its `deviceShare` encrypted.
 *
 * @example
 * ```ts
 * await Envelope.absorb(message, context)
 * ```
 */
export async function absorb(
  message: Record<string, unknown>,
  context: Context,
): Promise<void> {
  const { networkHash, storage } = context
  const { deviceShare, rt } = message
  const response = message.response as Partial<Rpc.Response> | undefined
  const error = response?.error
  const tasks: Promise<void>[] = []
  if (error?.code === Codes.DpopInvalidated)
    tasks.push(Dpop.clear(storage), storage.removeItem(refreshTokenKey))
  else if (typeof rt === 'string' && rt)
    tasks.push(storage.setItem(refreshTokenKey, rt))
  if (error?.message === Codes.userDeniedAccountAccess)
    tasks.push(DeviceShare.clearAll(storage))
  else if (typeof deviceShare === 'string' && deviceShare)
    tasks.push(DeviceShare.encrypt(storage, networkHash, deviceShare))
  await Promise.allSettled(tasks)
}
