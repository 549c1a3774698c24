/**
 * Session helpers for handlers: require a login, open a session, mint DID
 * tokens, check the device share.
 */
import type { User } from '../registry/index.js'
import type { Context } from './context.js'
import { createDidToken } from './didToken.js'
import { failures } from './errors.js'

/** The logged-in user, or -10011 "The user is not logged in." */
export function requireUser(ctx: Context): User {
  if (!ctx.user) throw failures.notLoggedIn()
  return ctx.user
}

/**
 * The logged-in user, for signing methods. A device share on the request
 * must be the session's (-10011 otherwise). Without one (another network's
 * client of the same page: the SDK stores shares per network), the key is
 * reconstructed the slow way, as the real provider does, and the share goes
 * back on the response for the client to keep for that network.
 */
export function requireSigner(ctx: Context): User {
  const user = requireUser(ctx)
  const expected = ctx.session?.deviceShare
  if (ctx.deviceShare === undefined) {
    if (expected !== undefined) ctx.out.deviceShare = expected
  } else if (ctx.deviceShare !== expected) throw failures.deviceShare()
  return user
}

/**
 * Opens a session for `user` bound to the request's DPoP key, puts `rt` and
 * `deviceShare` on the response, and returns a DID token.
 */
export async function login(
  ctx: Context,
  user: User,
  lifespan?: unknown,
): Promise<string> {
  // A new login replaces the session this device had.
  if (ctx.session) ctx.deps.sessions.revoke(ctx.session.rt)
  const session = ctx.deps.sessions.create({ userId: user.id, jkt: ctx.jkt })
  ctx.session = session
  ctx.user = user
  ctx.out.rt = session.rt
  ctx.out.deviceShare = session.deviceShare
  const token = await didToken(ctx, user, { lifespan })
  ctx.emit('Auth/id-token-created', token)
  return token
}

/** A DID token for `user` (lifespan in seconds, attachment as `add`). */
export function didToken(
  ctx: Context,
  user: User,
  options: { lifespan?: unknown; attachment?: unknown } = {},
): Promise<string> {
  const { lifespan, attachment } = options
  return createDidToken({
    address: user.address,
    subject: user.id,
    audience: ctx.clientId,
    now: ctx.deps.now(),
    lifespan:
      typeof lifespan === 'number' && lifespan > 0 ? lifespan : undefined,
    attachment: typeof attachment === 'string' ? attachment : undefined,
    sign: (message) => ctx.deps.registry.signMessage(user.id, message),
  })
}
