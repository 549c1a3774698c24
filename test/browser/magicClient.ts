/**
 * Our `Magic` client against the emulator: clients with storage of their
 * own, headless logins answered from the dev mailbox, DID token decoding and
 * raw reads of the client's IndexedDB.
 */
import { expect, inject } from 'vitest'
import * as Storage from '../../src/core/Storage.js'
import {
  Magic,
  type MagicOptions,
  MagicRPCError,
  type MagicSDK,
} from '../../src/magic/index.js'
import { waitForCode } from './mailbox.js'

/**
 * The client's IndexedDB database and object store: the names the published
 * SDK's localforage store uses, which ours keeps so that sessions carry over.
 */
export const database = 'MagicAuthLocalStorageDB'
export const store = 'MagicAuthLocalStorage'

const clients: MagicSDK[] = []

/**
 * A storage in a database of its own: test files run in parallel on one
 * origin, so clients on the default database would share one session.
 */
export function isolatedStorage(): {
  storage: Storage.Storage
  name: string
} {
  const name = `${database}-test-${crypto.randomUUID()}`
  return { storage: Storage.indexedDb({ database: name, store }), name }
}

/**
 * A client on the emulator's endpoint, with isolated storage unless
 * `options.storage` is given. {@link destroyClients} releases it.
 */
export function createMagic(options: MagicOptions = {}): MagicSDK {
  const { endpoint, apiKey } = inject('magicEmulator')
  const magic = new Magic(apiKey, {
    endpoint,
    announceProvider: false,
    storage: options.storage ?? isolatedStorage().storage,
    ...options,
  })
  clients.push(magic)
  return magic
}

/** Releases every client {@link createMagic} made (their iframes go). */
export function destroyClients(): void {
  for (const magic of clients.splice(0)) magic.destroy()
}

/** A fresh email address. */
export function freshEmail(label: string): string {
  return `${label}-${crypto.randomUUID()}@example.com`
}

/**
 * Logs in by email OTP headless, answering `email-otp-sent` with the code
 * from the mailbox (sent after `after`).
 */
export function loginWithEmail(
  magic: MagicSDK,
  email: string,
  after = new Date().toISOString(),
) {
  const { mailbox } = inject('magicEmulator')
  const login = magic.auth.loginWithEmailOTP({ email, showUI: false })
  login.on('email-otp-sent', async () => {
    login.emit(
      'verify-email-otp',
      await waitForCode({ mailbox, to: email, after }),
    )
  })
  return login
}

/** The claim object of a DID token. */
export type DidClaim = {
  iat: number
  ext: number
  nbf: number
  iss: string
  sub: string
  aud: string
  tid: string
  /** The user's `personal_sign` signature of the attachment (`'none'` by default). */
  add: `0x${string}`
}

/**
 * Decodes a DID token as the provider documents it: standard base64 of the
 * JSON array `[proof, claim]`, `claim` itself a JSON string.
 */
export function decodeDidToken(token: string): {
  proof: `0x${string}`
  message: string
  claim: DidClaim
} {
  const [proof, message] = JSON.parse(atob(token)) as [`0x${string}`, string]
  return { proof, message, claim: JSON.parse(message) as DidClaim }
}

/**
 * Reads every entry of a database's `MagicAuthLocalStorage` store with the
 * raw IndexedDB API (not through the client's storage code).
 */
export async function readDatabase(
  name: string = database,
): Promise<Record<string, unknown>> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name)
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
  try {
    if (!db.objectStoreNames.contains(store)) return {}
    const transaction = db.transaction(store, 'readonly')
    const objects = transaction.objectStore(store)
    const [keys, values] = await Promise.all(
      [objects.getAllKeys(), objects.getAll()].map(
        (request) =>
          new Promise<unknown[]>((resolve, reject) => {
            request.onsuccess = () => resolve(request.result as unknown[])
            request.onerror = () => reject(request.error)
          }),
      ),
    )
    return Object.fromEntries(
      (keys ?? []).map((key, index) => [String(key), values?.[index]]),
    )
  } finally {
    db.close()
  }
}

/** The client's iframe (`.magic-iframe`) on the test page. */
export function magicIframe(): HTMLIFrameElement {
  const iframe = document.querySelector<HTMLIFrameElement>(
    'iframe.magic-iframe',
  )
  if (!iframe) throw new Error('No .magic-iframe on the page')
  return iframe
}

/** The error `promise` rejects with, asserted to be a `MagicRPCError`. */
export async function rejection(
  promise: Promise<unknown>,
): Promise<MagicRPCError> {
  const error = await promise.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(error).toBeInstanceOf(MagicRPCError)
  return error as MagicRPCError
}

/** A storage of its own holding a copy of `from`'s entries `keys`. */
export async function copyOf(
  from: Storage.Storage,
  keys: readonly string[],
): Promise<Storage.Storage> {
  const { storage } = isolatedStorage()
  for (const key of keys) await storage.setItem(key, await from.getItem(key))
  return storage
}
