import type * as Storage from '../../core/Storage.js'

/** Storage key of the refresh token the iframe hands out. */
export const refreshTokenKey = 'rt'

/**
 * Reads the stored refresh token; `undefined` when there is none (or the
 * stored value is not a non-empty string).
 *
 * @example
 * ```ts
 * const rt = await Session.getRefreshToken(storage)
 * ```
 */
export async function getRefreshToken(
  storage: Storage.Storage,
): Promise<string | undefined> {
  const value = await storage.getItem(refreshTokenKey)
  return typeof value === 'string' && value ? value : undefined
}

/**
 * Stores the refresh token the iframe sent (`rt` of an incoming message).
 *
 * @example
 * ```ts
 * await Session.setRefreshToken(storage, 'rt-from-iframe')
 * ```
 */
export async function setRefreshToken(
  storage: Storage.Storage,
  refreshToken: string,
): Promise<void> {
  await storage.setItem(refreshTokenKey, refreshToken)
}

/**
 * Removes the stored refresh token (logout).
 *
 * @example
 * ```ts
 * await Session.removeRefreshToken(storage)
 * ```
 */
export async function removeRefreshToken(
  storage: Storage.Storage,
): Promise<void> {
  await storage.removeItem(refreshTokenKey)
}
