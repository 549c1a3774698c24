import type * as Storage from '../../core/Storage.js'
import * as Base64 from '../wire/base64.js'
import { isSupported } from './dpop.js'
import * as Session from './session.js'

/**
 * The device share the iframe hands out, kept encrypted at rest under
 * `ds_<networkHash>` with an AES-GCM-256 key (`ek`, non-extractable).
 *
 * Unlike the published SDK, which stores one IV (`iv`) and reuses it for
 * every encryption (a GCM nonce reuse), each encryption here draws a fresh
 * random 12-byte IV and stores it in front of the ciphertext:
 * `ds_<hash>` = base64(iv ‖ ciphertext). Values in the published format (or
 * otherwise unreadable) are treated as absent and deleted.
 */

/** Storage key of the AES-GCM `CryptoKey`. */
export const encryptionKeyKey = 'ek'
/** Prefix of every device-share entry. */
export const prefix = 'ds_'

const ivLength = 12
/** AES-GCM appends a 16-byte tag, so shorter values cannot be ours. */
const minLength = ivLength + 16

/**
 * The storage key of the share for `networkHash`.
 *
 * @example
 * ```ts
 * DeviceShare.storageKey('pk_live_X_eth_mainnet') // 'ds_pk_live_X_eth_mainnet'
 * ```
 */
export function storageKey(networkHash: string): string {
  return `${prefix}${networkHash}`
}

/**
 * Encrypts the base64 device share the iframe sent and stores it for
 * `networkHash`, making the encryption key on first use. Does nothing
 * without WebCrypto.
 *
 * @example
 * ```ts
 * await DeviceShare.encrypt(storage, networkHash, event.data.deviceShare)
 * ```
 * @param share - The share as the iframe sent it (standard base64).
 */
export async function encrypt(
  storage: Storage.Storage,
  networkHash: string,
  share: string,
): Promise<void> {
  if (!isSupported() || !share) return
  Session.of(storage).shares.set(networkHash, Promise.resolve(share))
  const plain = Base64.toBytes(share)
  const key = await encryptionKey(storage)
  const iv = crypto.getRandomValues(new Uint8Array(ivLength))
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain),
  )
  const value = new Uint8Array(ivLength + sealed.length)
  value.set(iv)
  value.set(sealed, ivLength)
  await storage.setItem(storageKey(networkHash), Base64.fromBytes(value))
  Session.notify(storage, 'session')
}

/**
 * Reads and decrypts the share for `networkHash` as base64. Resolves
 * `undefined` when there is none, when WebCrypto is missing, and when the
 * stored value cannot be decrypted (published format, corrupt, key gone), in
 * which case the entry is deleted. Never rejects.
 *
 * @example
 * ```ts
 * const deviceShare = await DeviceShare.decrypt(storage, networkHash)
 * ```
 */
export function decrypt(
  storage: Storage.Storage,
  networkHash: string,
): Promise<string | undefined> {
  const { shares } = Session.of(storage)
  const share = shares.get(networkHash) ?? read(storage, networkHash)
  shares.set(networkHash, share)
  return share
}

async function read(storage: Storage.Storage, networkHash: string) {
  if (!isSupported()) return undefined
  const name = storageKey(networkHash)
  let value: unknown
  let key: unknown
  try {
    value = await storage.getItem(name)
    if (value === null) return undefined
    key = await storage.getItem(encryptionKeyKey)
  } catch {
    return undefined
  }
  const plain = await open(value, key)
  if (plain) return Base64.fromBytes(plain)
  await storage.removeItem(name).catch(() => {})
  return undefined
}

/**
 * Removes every `ds_*` entry (logout, or `User denied account access.`).
 * The encryption key stays.
 *
 * @example
 * ```ts
 * await DeviceShare.clearAll(storage)
 * ```
 */
export async function clearAll(storage: Storage.Storage): Promise<void> {
  const state = Session.of(storage)
  // Forgotten before and after: a read between the two saw a share the
  // deletes had not reached yet.
  state.shares = new Map()
  const keys = await storage.keys()
  for (const key of keys)
    if (key.startsWith(prefix)) await storage.removeItem(key)
  state.shares = new Map()
  Session.notify(storage, 'session')
}

async function open(value: unknown, key: unknown) {
  if (typeof value !== 'string' || !isAesKey(key)) return undefined
  try {
    const bytes = Base64.toBytes(value)
    if (bytes.length < minLength) return undefined
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, ivLength) },
      key,
      bytes.subarray(ivLength),
    )
    return new Uint8Array(plain)
  } catch {
    return undefined
  }
}

/** The encryption key, read or made once per storage and kept in memory. */
function encryptionKey(storage: Storage.Storage): Promise<CryptoKey> {
  const state = Session.of(storage)
  state.ek ??= readOrGenerate(storage)
  return state.ek
}

async function readOrGenerate(storage: Storage.Storage): Promise<CryptoKey> {
  const stored = await storage.getItem(encryptionKeyKey)
  if (isAesKey(stored)) return stored
  const key = await crypto.subtle.generateKey(
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
  await storage.setItem(encryptionKeyKey, key)
  return key
}

function isAesKey(value: unknown): value is CryptoKey {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as CryptoKey).type === 'secret' &&
    (value as CryptoKey).algorithm?.name === 'AES-GCM'
  )
}
