import type * as Storage from '../../core/Storage.js'

/**
 * What a client keeps in memory of its storage, so that a request reads
 * nothing from IndexedDB: the device key pair, proofs signed ahead with it,
 * the refresh token and the decrypted device shares. One state per storage
 * object, shared by the clients that use that object.
 *
 * Every write through this package updates the state before it reaches
 * storage, and removals set it to "none". Other clients of the same origin
 * (another tab of the dApp shares its IndexedDB, and so does a second
 * `Magic` instance of this page with its own storage object) learn of a
 * write from a `BroadcastChannel` message posted once the write is stored;
 * they drop what they hold and read storage again on their next request.
 * The message names no value, only what changed.
 */

/** The device key pair: the private key stays a non-extractable `CryptoKey`. */
export type KeyPair = {
  privateKey: CryptoKey
  publicJwk: JsonWebKey
}

/** A proof signed ahead, and when (ms, the client's clock). */
export type Pooled = { jwt: string; at: number }

export type State = {
  /** The key pair being read or made, then kept. */
  keys?: Promise<KeyPair> | undefined
  /** Proofs signed ahead, oldest first; replaced, never emptied in place. */
  pool: Pooled[]
  /** Whether a refill is scheduled or running. */
  filling?: boolean | undefined
  /** The refresh token, once read or written. */
  rt?: Promise<string | undefined> | undefined
  /**
   * The device-share encryption key, read or made once (two shares
   * arriving together are sealed with one key).
   */
  ek?: Promise<CryptoKey> | undefined
  /** Decrypted device shares by network hash, once read or written. */
  shares: Map<string, Promise<string | undefined>>
  channel?: BroadcastChannel | undefined
}

/**
 * The name of the channel that carries "storage changed" between clients of
 * one origin. One name for every storage: a client cannot tell whether
 * another's storage object is backed by the same database, so any write
 * makes every other client read again (writes are rare: a login, a new
 * device share, a key change).
 */
export const channelName = 'embedded-wallets:magic-session'

/** What a change message says: only keys, or also the key pair changed. */
export type Change = 'session' | 'keys'

const states = new WeakMap<Storage.Storage, State>()

/**
 * The in-memory state of `storage`, made empty on first use.
 *
 * @example
 * ```ts
 * const { pool } = Session.of(storage)
 * ```
 */
export function of(storage: Storage.Storage): State {
  let state = states.get(storage)
  if (!state) {
    state = { pool: [], shares: new Map() }
    states.set(storage, state)
  }
  return state
}

/**
 * Forgets the refresh token and device shares (read again on next use);
 * with `'keys'`, the key pair and every proof signed with it, and the
 * share encryption key, too.
 *
 * @example
 * ```ts
 * Session.drop(Session.of(storage), 'keys')
 * ```
 */
export function drop(state: State, change: Change): void {
  state.rt = undefined
  state.shares = new Map()
  if (change === 'keys') {
    state.keys = state.ek = undefined
    state.pool = []
  }
}

/**
 * Tells the other clients of this origin that `storage` changed (call it
 * once the write is stored, so that what they read again is the new
 * value). Only a storage some transport uses has a channel to tell them
 * with: every write of a session happens once its transport exists (a
 * logout's writes end after its request), and without a page (SSR) or
 * `BroadcastChannel` there is nobody to tell.
 *
 * @example
 * ```ts
 * await storage.setItem('rt', rt)
 * Session.notify(storage, 'session')
 * ```
 */
export function notify(storage: Storage.Storage, change: Change): void {
  states.get(storage)?.channel?.postMessage(change)
}

/**
 * Starts listening to other clients' changes to `storage`, once per storage
 * object (its transports call it when made). The channel stays open with
 * the page: a client cannot tell whether another instance still uses the
 * same storage object, and one idle channel per storage costs nothing
 * between changes.
 */
export function listen(storage: Storage.Storage): void {
  const state = of(storage)
  // Only a page listens (Node's channels would keep an SSR process alive).
  if (
    state.channel ||
    typeof document === 'undefined' ||
    typeof BroadcastChannel !== 'function'
  )
    return
  state.channel = new BroadcastChannel(channelName)
  // Any message but 'keys' (same origin only) counts as 'session'.
  state.channel.onmessage = (event) => drop(state, event.data)
}
