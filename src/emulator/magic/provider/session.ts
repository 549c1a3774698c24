/**
 * Sessions of the emulated provider: an opaque refresh token (`rt`) bound to
 * a user, the app (API key) it was opened for, the DPoP key that logged in
 * (`jkt`) and a device share. The store, and what handlers do with it:
 * require a login, open a session, mint DID tokens, check the device share.
 */
import * as Events from '../../../magic/wire/events.js'
import type { User } from '../../registry/index.js'
import { cap, maxSessions, sweep } from './bounds.js'
import type { Context } from './context.js'
import { createDidToken } from './didToken.js'
import { failures } from './errors.js'

/** A logged-in session. */
export type Session = {
  readonly rt: string
  readonly userId: string
  /**
   * The publishable key of the app that opened it: the hosted provider keeps
   * each app's sessions apart, so another app's client on the same page
   * (which may hold this `rt`) is not logged in by it.
   */
  readonly apiKey: string
  /** RFC 7638 thumbprint of the DPoP key; `undefined` if none was used. */
  readonly jkt: string | undefined
  /** The device share handed out at login (base64). */
  readonly deviceShare: string
  readonly expiresAt: number
}

/** The session store. */
export type Sessions = {
  /** Opens a session of app `apiKey` for `userId`, bound to `jkt`. */
  create(options: {
    userId: string
    apiKey: string
    jkt: string | undefined
  }): Session
  /** The live session of `rt` opened for app `apiKey`, if any. */
  get(rt: string, apiKey: string): Session | undefined
  /** Revokes a session. */
  revoke(rt: string): void
  /**
   * Ends a session a newer one replaced, {@link replacedSessionGrace}
   * from now: requests sent with it before the client had the new one
   * still answer.
   */
  retire(rt: string): void
  /** How many sessions are kept (live or not yet swept). */
  size(): number
  /** The live sessions, newest first. */
  list(): readonly Session[]
}

/**
 * How long a replaced session still answers: 30 s, as identity providers
 * let a rotated refresh token be used again for a short while, so that
 * requests already on their way with it do not fail.
 */
export const replacedSessionGrace = 30_000

/** How long a session lives without use: 7 days. */
export const sessionLifetime = 7 * 24 * 60 * 60 * 1000

/**
 * Creates an in-memory session store.
 *
 * @param options.now - The clock. @default () => new Date()
 * @param options.onChange - Called after a session is opened or revoked.
 */
export function createSessions(
  options: {
    now?: (() => Date) | undefined
    onChange?: (() => void) | undefined
  } = {},
): Sessions {
  const { now = () => new Date(), onChange } = options
  const sessions = new Map<string, Session>()
  return {
    create({ userId, apiKey, jkt }) {
      const at = now().getTime()
      sweep(sessions, (session) => session.expiresAt <= at)
      const session: Session = {
        rt: randomToken(32),
        userId,
        apiKey,
        jkt,
        deviceShare: Buffer.from(
          crypto.getRandomValues(new Uint8Array(32)),
        ).toString('base64'),
        expiresAt: at + sessionLifetime,
      }
      sessions.set(session.rt, session)
      cap(sessions, maxSessions)
      onChange?.()
      return session
    },
    get(rt, apiKey) {
      const session = sessions.get(rt)
      // Another app's session reads as none, whatever its state: the
      // caller learns nothing of it.
      if (!session || session.apiKey !== apiKey) return undefined
      if (session.expiresAt <= now().getTime()) {
        sessions.delete(rt)
        return undefined
      }
      return session
    },
    revoke(rt) {
      if (sessions.delete(rt)) onChange?.()
    },
    retire(rt) {
      const session = sessions.get(rt)
      if (!session) return
      const end = now().getTime() + replacedSessionGrace
      if (end < session.expiresAt)
        sessions.set(rt, { ...session, expiresAt: end })
    },
    size: () => sessions.size,
    list() {
      const at = now().getTime()
      return [...sessions.values()]
        .filter((session) => session.expiresAt > at)
        .reverse()
    },
  }
}

/** A random base64url token of `bytes` random bytes. */
export function randomToken(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString(
    'base64url',
  )
}

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
 * `deviceShare` on the response, and returns a DID token, announced by the
 * logins' event (`Auth/id-token-created`, the token) or, for the UI login
 * (`connect`), by `connectWithUI`'s (`id-token-created`, `{ idToken }`).
 */
export async function login(
  ctx: Context,
  user: User,
  lifespan?: unknown,
  options: { via?: 'auth' | 'connect' } = {},
): Promise<string> {
  // A new login replaces the session this device had (a new refresh
  // token, as the hosted provider rotates it), once the flow has answered
  // and then after a grace period: the client learns the new token only
  // from the flow's last line, and a request its page made meanwhile (an
  // account recovered from the wallet's own menu, the page checking its
  // accounts) still carries the old one.
  if (ctx.session) ctx.replaced.push(ctx.session.rt)
  const session = ctx.deps.sessions.create({
    userId: user.id,
    apiKey: ctx.apiKey,
    jkt: ctx.jkt,
  })
  ctx.session = session
  ctx.user = user
  ctx.out.rt = session.rt
  ctx.out.deviceShare = session.deviceShare
  const token = await didToken(ctx, user, { lifespan })
  if (options.via === 'connect')
    ctx.emit(Events.connectIdTokenCreated, { idToken: token })
  else ctx.emit(Events.idTokenCreated, token)
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
    now: ctx.deps.wallNow(),
    lifespan:
      typeof lifespan === 'number' && lifespan > 0 ? lifespan : undefined,
    attachment: typeof attachment === 'string' ? attachment : undefined,
    sign: (message) => ctx.deps.registry.signMessage(user.id, message),
  })
}
