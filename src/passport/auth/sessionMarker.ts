/**
 * The game wallet's session marker: the signed-in user is persisted in
 * `localStorage` under `oidc.user:<authority>:<client_id>` (the key the
 * published SDK's oidc-client-ts writes), written at sign-in and removed at
 * logout or when a refresh fails. The wagmi connector reads it on page load
 * to decide, without loading the client, whether a session may exist.
 */

const prefix = 'oidc.user:'

/** `oidc.user:<authority>:<client_id>`, the published storage key. */
export function storageKey(authority: string, clientId: string): string {
  return `${prefix}${authority}:${clientId}`
}

/**
 * Whether the page holds a signed-in user of `clientId` (of any client when
 * it is not given), read synchronously. Where `localStorage` is missing
 * (SSR) or refused, the client keeps its user in memory, so no session can
 * have outlived the page: `false`.
 */
export function mayExist(clientId?: string | undefined): boolean {
  try {
    const storage = globalThis.localStorage as globalThis.Storage | undefined
    if (!storage) return false
    for (let index = 0; index < storage.length; index++) {
      const key = storage.key(index)
      if (!key?.startsWith(prefix)) continue
      if (clientId === undefined || key.endsWith(`:${clientId}`)) return true
    }
    return false
  } catch {
    return false
  }
}
