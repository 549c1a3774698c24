/**
 * Sessions: an opaque refresh token (`rt`) bound to a user, the DPoP key
 * that logged in (`jkt`) and a device share.
 */

/** A logged-in session. */
export type Session = {
  readonly rt: string
  readonly userId: string
  /** RFC 7638 thumbprint of the DPoP key; `undefined` if none was used. */
  readonly jkt: string | undefined
  /** The device share handed out at login (base64). */
  readonly deviceShare: string
  readonly expiresAt: number
}

/** The session store. */
export type Sessions = {
  /** Opens a session for `userId`, bound to `jkt`. */
  create(options: { userId: string; jkt: string | undefined }): Session
  /** The live session of `rt`, if any. */
  get(rt: string): Session | undefined
  /** Revokes a session. */
  revoke(rt: string): void
}

/** How long a session lives without use: 7 days. */
export const sessionLifetime = 7 * 24 * 60 * 60 * 1000

/**
 * Creates an in-memory session store.
 *
 * @param options.now - The clock. @default () => new Date()
 */
export function createSessions(
  options: { now?: (() => Date) | undefined } = {},
): Sessions {
  const { now = () => new Date() } = options
  const sessions = new Map<string, Session>()
  return {
    create({ userId, jkt }) {
      const session: Session = {
        rt: randomToken(32),
        userId,
        jkt,
        deviceShare: Buffer.from(
          crypto.getRandomValues(new Uint8Array(32)),
        ).toString('base64'),
        expiresAt: now().getTime() + sessionLifetime,
      }
      sessions.set(session.rt, session)
      return session
    },
    get(rt) {
      const session = sessions.get(rt)
      if (!session) return undefined
      if (session.expiresAt <= now().getTime()) {
        sessions.delete(rt)
        return undefined
      }
      return session
    },
    revoke(rt) {
      sessions.delete(rt)
    },
  }
}

/** A random base64url token of `bytes` random bytes. */
export function randomToken(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString(
    'base64url',
  )
}
