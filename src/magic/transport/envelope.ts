import type * as Rpc from '../../core/Rpc.js'
import type * as Storage from '../../core/Storage.js'
import * as DeviceShare from '../keys/deviceShare.js'
import * as Dpop from '../keys/dpop.js'
import * as Session from '../keys/session.js'
import * as Codes from '../wire/codes.js'
import type * as Messages from '../wire/messages.js'

/**
 * The session material around each request: what goes out with it (a fresh
 * DPoP proof, the refresh token, the device share) and what comes back with
 * its response (a new refresh token or device share, or an error that
 * clears keys). Storage and crypto failures never fail a request.
 *
 * Nothing here reads storage more than once: the key pair, the refresh
 * token and the decrypted shares stay in memory (keys/session.ts), and
 * proofs are signed ahead (see `Dpop.takeProof`).
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
  const [jwt, rt, deviceShare] = await Promise.all([
    Dpop.takeProof(storage, now).catch(() => undefined),
    refreshToken(storage),
    DeviceShare.decrypt(storage, networkHash),
  ])
  return {
    msgType,
    payload,
    ...(jwt ? { jwt } : {}),
    ...(jwt && rt ? { rt } : {}),
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
    tasks.push(Dpop.clear(storage), storeRefreshToken(storage, undefined))
  else if (typeof rt === 'string' && rt)
    tasks.push(storeRefreshToken(storage, rt))
  if (error?.message === Codes.userDeniedAccountAccess)
    tasks.push(DeviceShare.clearAll(storage))
  else if (typeof deviceShare === 'string' && deviceShare)
    tasks.push(
      // The share already held (the iframe may send it again) stays as is.
      DeviceShare.decrypt(storage, networkHash).then((held) =>
        held === deviceShare
          ? undefined
          : DeviceShare.encrypt(storage, networkHash, deviceShare),
      ),
    )
  await Promise.allSettled(tasks)
}

/*
 * The page's other modules reach the session material only through this
 * module, which ./index.ts loads with `import()`: a static import of
 * ../keys/ from any of them would put it back in the page's bundle.
 */

/**
 * Before a logout: removes every device share, from memory and storage.
 *
 * @example
 * ```ts
 * await Envelope.forgetShares(storage)
 * ```
 */
export const forgetShares: (storage: Storage.Storage) => Promise<void> =
  DeviceShare.clearAll

/** Follows other clients' writes to `storage` (see ../keys/session.ts). */
export const listen: (storage: Storage.Storage) => void = Session.listen

/**
 * After something else (an extension) wrote to `storage`: forgets all this
 * client keeps of it, key pair included, and tells the other clients.
 *
 * @example
 * ```ts
 * await storage.setItem(key, value)
 * Envelope.storageWritten(storage)
 * ```
 */
export function storageWritten(storage: Storage.Storage): void {
  Session.drop(Session.of(storage), 'keys')
  Session.notify(storage, 'keys')
}

/**
 * After a logout: removes the refresh token, and forgets the shares, the
 * key pair and the proofs signed ahead that memory holds (the pair stays
 * stored; the next request reads it again).
 *
 * @example
 * ```ts
 * await Envelope.forget(storage)
 * ```
 */
export async function forget(storage: Storage.Storage): Promise<void> {
  Session.drop(Session.of(storage), 'keys')
  await storeRefreshToken(storage, undefined)
}

/** The refresh token, read from storage once and then kept in memory. */
function refreshToken(storage: Storage.Storage): Promise<string | undefined> {
  const state = Session.of(storage)
  // A read that fails counts as no token, until the next write or change.
  state.rt ??= storage.getItem(refreshTokenKey).then(
    (value) => (typeof value === 'string' && value ? value : undefined),
    () => undefined,
  )
  return state.rt
}

/**
 * Writes (or with `undefined` removes) the refresh token: memory at once,
 * then storage, then the other clients are told. The token already held is
 * not written again.
 */
async function storeRefreshToken(
  storage: Storage.Storage,
  rt: string | undefined,
): Promise<void> {
  const state = Session.of(storage)
  if (rt && (await state.rt) === rt) return
  state.rt = Promise.resolve(rt)
  await (rt
    ? storage.setItem(refreshTokenKey, rt)
    : storage.removeItem(refreshTokenKey))
  Session.notify(storage, 'session')
}
