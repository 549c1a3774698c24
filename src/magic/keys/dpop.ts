import type * as Storage from '../../core/Storage.js'
import * as Base64 from '../wire/base64.js'
import * as Session from './session.js'

/**
 * The device key pair behind the DPoP proofs sent with every request: an
 * ECDSA P-256 pair made lazily on first use, the private key kept
 * non-extractable (a structured-cloned `CryptoKey` in IndexedDB), the public
 * key kept as the JWK the browser exported.
 */

/** Storage key of the non-extractable private `CryptoKey`. */
export const privateKeyKey = 'STORE_KEY_PRIVATE_KEY'
/** Storage key of the exported public JWK. */
export const publicJwkKey = 'STORE_KEY_PUBLIC_JWK'

const algorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const
const signature = { name: 'ECDSA', hash: 'SHA-256' } as const

type KeyPair = Session.KeyPair

/**
 * How many proofs are signed ahead. Sequential requests take one each and
 * the refill signs the next while the request travels; a burst of parallel
 * requests takes them all and signs the rest on the spot.
 */
export const poolSize = 2

/**
 * How long a proof signed ahead may wait, in ms: 5 seconds. The proof says
 * when it was made (`iat`, whole seconds) and a server accepts it only
 * within a window around its own clock (the emulated provider: 5 minutes
 * back, 60 seconds ahead); RFC 9449 leaves the window to the server and
 * asks for a short one. A proof used within 5 seconds of signing looks to
 * the server like one signed at sending by a device whose clock is a few
 * seconds behind, which any window must tolerate. Older ones are dropped
 * unused, never sent.
 */
export const maxAge = 5_000

/**
 * Whether WebCrypto is usable here (it is missing in insecure contexts and
 * some embedded runtimes); without it no proof is made. `randomUUID` (the
 * proof's `jti`) is limited to secure contexts as `subtle` is, so where
 * one is missing so is the other; a runtime that has only `subtle` makes
 * no proofs either.
 *
 * @example
 * ```ts
 * if (Dpop.isSupported()) console.info('proofs on')
 * ```
 */
export function isSupported(): boolean {
  const { crypto } = globalThis
  return (
    typeof crypto?.subtle?.sign === 'function' &&
    typeof crypto.randomUUID === 'function'
  )
}

/**
 * Makes a fresh DPoP proof: a compact JWS with header
 * `{typ:'dpop+jwt', alg:'ES256', jwk}` (in that order) and claims
 * `{iat, jti}` (seconds, random UUID v4), signed with the stored private key
 * (raw r‖s, base64url). Makes and stores the key pair on first use. Resolves
 * `undefined` without WebCrypto.
 *
 * @example
 * ```ts
 * const jwt = await Dpop.createProof(storage)
 * ```
 * @param storage - Where the key pair lives (IndexedDB or memory).
 * @param now - The clock in milliseconds (for `iat`).
 * @returns The proof, or `undefined` without WebCrypto.
 */
export async function createProof(
  storage: Storage.Storage,
  now: () => number = Date.now,
): Promise<string | undefined> {
  if (!isSupported()) return undefined
  const pair = await keyPair(storage)
  const header = encodedHeader(pair)
  const claims = Base64.urlFromString(
    JSON.stringify({ iat: Math.floor(now() / 1000), jti: crypto.randomUUID() }),
  )
  const input = utf8.encode(`${header}.${claims}`)
  const signed = await crypto.subtle.sign(signature, pair.privateKey, input)
  return `${header}.${claims}.${Base64.urlFromBytes(new Uint8Array(signed))}`
}

/** The proof header of a key pair: the same for each of its proofs. */
const headers = new WeakMap<KeyPair, string>()

function encodedHeader(pair: KeyPair): string {
  let header = headers.get(pair)
  if (header === undefined) {
    header = Base64.urlFromString(
      JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: pair.publicJwk }),
    )
    headers.set(pair, header)
  }
  return header
}

const utf8 = /* @__PURE__ */ new TextEncoder()

/**
 * The proof for one request: a proof signed ahead when one younger than
 * {@link maxAge} (by the `now` clock) is waiting (it leaves the pool, so no two requests share
 * one), else a new one as {@link createProof} makes it. Either way the pool
 * is refilled afterwards, off the request's path. Resolves `undefined`
 * without WebCrypto.
 *
 * @example
 * ```ts
 * const jwt = await Dpop.takeProof(storage, now)
 * ```
 */
export function takeProof(
  storage: Storage.Storage,
  now: () => number = Date.now,
): Promise<string | undefined> {
  const state = Session.of(storage)
  let pooled = state.pool.shift()
  while (pooled && now() - pooled.at >= maxAge) pooled = state.pool.shift()
  refill(storage, state, now)
  return pooled ? Promise.resolve(pooled.jwt) : createProof(storage, now)
}

/**
 * Deletes both key entries (after the iframe answers -10019, DPoP
 * invalidated), so the next proof uses a new pair; the pair kept in memory
 * and every proof signed with it are dropped at once.
 *
 * @example
 * ```ts
 * await Dpop.clear(storage)
 * ```
 */
export async function clear(storage: Storage.Storage): Promise<void> {
  Session.drop(Session.of(storage), 'keys')
  // Both deletes are queued before any later read of the pair.
  await Promise.all([
    storage.removeItem(publicJwkKey),
    storage.removeItem(privateKeyKey),
  ])
  Session.notify(storage, 'keys')
}

/**
 * Signs proofs ahead until the pool is full, one at a time, from a timer
 * (never during the request that asked). A proof whose pair was dropped
 * meanwhile (a -10019, a logout, another client's key change) is thrown
 * away: the pool it was meant for is gone.
 */
function refill(
  storage: Storage.Storage,
  state: Session.State,
  now: () => number,
) {
  if (state.filling) return
  state.filling = true
  setTimeout(async () => {
    try {
      for (let pool = state.pool; pool.length < poolSize; pool = state.pool) {
        const at = now()
        const jwt = await createProof(storage, () => at)
        if (!jwt || pool !== state.pool) break
        pool.push({ jwt, at })
      }
    } catch {
    } finally {
      state.filling = false
    }
  })
}

/** The pair, read or made once per storage and kept in memory. */
function keyPair(storage: Storage.Storage): Promise<KeyPair> {
  const state = Session.of(storage)
  if (!state.keys) {
    const promise = readOrGenerate(storage)
    state.keys = promise
    // A failure is not kept: the next request tries again.
    promise.catch(() => {
      if (state.keys === promise) state.keys = undefined
    })
  }
  return state.keys
}

async function readOrGenerate(storage: Storage.Storage): Promise<KeyPair> {
  const privateKey = await storage.getItem(privateKeyKey)
  const publicJwk = await storage.getItem(publicJwkKey)
  if (isPrivateKey(privateKey) && isJwk(publicJwk))
    return { privateKey, publicJwk }
  // The private key is never extractable; only the public half is exported.
  const pair = await crypto.subtle.generateKey(algorithm, false, ['sign'])
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey)
  await storage.setItem(privateKeyKey, pair.privateKey)
  await storage.setItem(publicJwkKey, jwk)
  Session.notify(storage, 'keys')
  return { privateKey: pair.privateKey, publicJwk: jwk }
}

function isPrivateKey(value: unknown): value is CryptoKey {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as CryptoKey).type === 'private' &&
    (value as CryptoKey).algorithm?.name === 'ECDSA'
  )
}

function isJwk(value: unknown): value is JsonWebKey {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as JsonWebKey).kty === 'EC'
  )
}
