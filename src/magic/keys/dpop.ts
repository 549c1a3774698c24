import { randomUuid } from '../../core/internal/uuid.js'
import type * as Storage from '../../core/Storage.js'
import * as Base64 from '../wire/base64.js'

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

type KeyPair = { privateKey: CryptoKey; publicJwk: JsonWebKey }

/** Key pairs being read or made, per storage, so two requests share one. */
const pending = new WeakMap<Storage.Storage, Promise<KeyPair>>()

/**
 * Whether WebCrypto is usable here (it is missing in insecure contexts and
 * some embedded runtimes); without it no proof is made.
 *
 * @example
 * ```ts
 * if (Dpop.isSupported()) console.info('proofs on')
 * ```
 */
export function isSupported(): boolean {
  return typeof globalThis.crypto?.subtle?.sign === 'function'
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
 * @param options - `now` (ms clock, for tests).
 * @returns The proof, or `undefined` without WebCrypto.
 */
export async function createProof(
  storage: Storage.Storage,
  options: createProof.Options = {},
): Promise<string | undefined> {
  const { now = () => Date.now() } = options
  if (!isSupported()) return undefined
  const { privateKey, publicJwk } = await keyPair(storage)
  const header = Base64.urlFromString(
    JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: publicJwk }),
  )
  const claims = Base64.urlFromString(
    JSON.stringify({ iat: Math.floor(now() / 1000), jti: randomUuid() }),
  )
  const input = new TextEncoder().encode(`${header}.${claims}`)
  const signed = await crypto.subtle.sign(signature, privateKey, input)
  return `${header}.${claims}.${Base64.urlFromBytes(new Uint8Array(signed))}`
}

export declare namespace createProof {
  type Options = {
    /** Clock in milliseconds. @default Date.now */
    now?: (() => number) | undefined
  }
}

/**
 * Deletes both key entries (after the iframe answers -10019, DPoP
 * invalidated), so the next proof uses a new pair.
 *
 * @example
 * ```ts
 * await Dpop.clear(storage)
 * ```
 */
export async function clear(storage: Storage.Storage): Promise<void> {
  pending.delete(storage)
  await storage.removeItem(publicJwkKey)
  await storage.removeItem(privateKeyKey)
}

function keyPair(storage: Storage.Storage): Promise<KeyPair> {
  let promise = pending.get(storage)
  if (!promise) {
    promise = readOrGenerate(storage).finally(() => {
      if (pending.get(storage) === promise) pending.delete(storage)
    })
    pending.set(storage, promise)
  }
  return promise
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
