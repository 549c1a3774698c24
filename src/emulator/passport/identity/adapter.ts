/**
 * oidc-provider's storage for the emulator: in memory, one store per
 * identity service. oidc-provider's own quick-start adapter keeps one
 * module-wide LRU of 1000 entries (shared by every provider in the process,
 * evicting live sessions under load) and warns on every start; the emulator
 * is meant to forget everything on restart, so a map per service is enough,
 * bounded because any page can make the provider store something.
 */

/** What oidc-provider stores: a model's payload. */
type Payload = {
  grantId?: string
  userCode?: string
  uid?: string
  consumed?: number
  [key: string]: unknown
}

/** The adapter oidc-provider calls for one model (`Session`, `Grant`, …). */
export type Adapter = {
  upsert(id: string, payload: Payload, expiresIn?: number): Promise<void>
  find(id: string): Promise<Payload | undefined>
  findByUserCode(userCode: string): Promise<Payload | undefined>
  findByUid(uid: string): Promise<Payload | undefined>
  consume(id: string): Promise<void>
  destroy(id: string): Promise<void>
  revokeByGrantId(grantId: string): Promise<void>
}

/**
 * Seconds an entry outlives its `expiresIn`: oidc-provider checks expiry
 * itself and must still find an expired device code to answer
 * `expired_token` (not `invalid_grant`); the store only forgets it later.
 */
const graceSeconds = 600

/**
 * The most entries the store keeps: 10,000. Any page can make the
 * provider store something (every visit to the device page stores a
 * session for 14 days, every authorization request an interaction), so
 * the store is bounded: when it is full, expired entries are dropped, then
 * the least recently written. A sign-in stores about five entries, so this
 * holds some 2,000 sign-ins, far more than a developer or a test run
 * makes, in a few tens of megabytes at most.
 */
export const maxEntries = 10_000

/** A stored payload and what points at it. */
type Entry = {
  payload: Payload
  expiresAt: number
  /** The grant it was issued under, if any. */
  grantId: string | undefined
  /** Its secondary keys (a user code, a session uid). */
  indexes: string[]
}

/**
 * A factory for oidc-provider's `adapter` option: every model name gets an
 * adapter over one shared store, whose entries are dropped
 * {@link graceSeconds} after their `expiresIn`, and which holds at most
 * {@link maxEntries}.
 *
 * @example
 * ```ts
 * new Provider(issuer, { adapter: createMemoryAdapter(), … })
 * ```
 *
 * @param options.now - The clock entries expire by (ms since the epoch). @default Date.now
 * @param options.hidden - Whether a model's entries read as absent now
 *   (they stay stored): a refresh token that cannot be found is refused
 *   with `invalid_grant`, as a revoked one is. @default never
 */
export function createMemoryAdapter(
  options: {
    now?: (() => number) | undefined
    hidden?: ((model: string) => boolean) | undefined
    /** Called with the model's name after an entry of it is written or removed. */
    onChange?: ((model: string) => void) | undefined
  } = {},
): MemoryStore {
  const { now = Date.now, hidden = () => false, onChange } = options
  /** The entries, least recently written first. */
  const entries = new Map<string, Entry>()
  /** Keys of the entries issued under a grant, to revoke them together. */
  const grants = new Map<string, Set<string>>()
  /** Secondary keys: device user codes and session uids. */
  const indexes = new Map<string, string>()

  /** Removes an entry and everything that points at it. */
  const remove = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    onChange?.(key.slice(0, key.indexOf(':')))
    for (const index of entry.indexes)
      if (indexes.get(index) === key) indexes.delete(index)
    if (entry.grantId !== undefined) {
      const members = grants.get(entry.grantId)
      members?.delete(key)
      if (members?.size === 0) grants.delete(entry.grantId)
    }
  }

  /** Frees one place when the store is full. */
  const makeRoom = () => {
    if (entries.size < maxEntries) return
    const at = now()
    for (const [key, entry] of entries) if (entry.expiresAt <= at) remove(key)
    for (const key of entries.keys()) {
      if (entries.size < maxEntries) break
      remove(key)
    }
  }

  const read = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= now()) {
      remove(key)
      return undefined
    }
    return entry.payload
  }

  const adapterOf = (model: string): Adapter => {
    const keyOf = (id: string) => `${model}:${id}`
    const byIndex = (index: string) => {
      const key = indexes.get(index)
      return key === undefined ? undefined : read(key)
    }
    return {
      async upsert(id, payload, expiresIn) {
        const key = keyOf(id)
        // Written again: it moves to the end, with its new keys only.
        remove(key)
        makeRoom()
        const entry: Entry = {
          payload,
          expiresAt:
            expiresIn === undefined
              ? Infinity
              : now() + (expiresIn + graceSeconds) * 1000,
          grantId: payload.grantId || undefined,
          indexes: [],
        }
        if (payload.userCode) entry.indexes.push(`userCode:${payload.userCode}`)
        if (model === 'Session' && payload.uid)
          entry.indexes.push(`uid:${payload.uid}`)
        entries.set(key, entry)
        onChange?.(model)
        for (const index of entry.indexes) indexes.set(index, key)
        if (entry.grantId !== undefined) {
          const members = grants.get(entry.grantId) ?? new Set()
          members.add(key)
          grants.set(entry.grantId, members)
        }
      },
      async find(id) {
        return hidden(model) ? undefined : read(keyOf(id))
      },
      async findByUserCode(userCode) {
        return byIndex(`userCode:${userCode}`)
      },
      async findByUid(uid) {
        return byIndex(`uid:${uid}`)
      },
      async consume(id) {
        const payload = read(keyOf(id))
        if (payload) payload.consumed = Math.floor(now() / 1000)
      },
      async destroy(id) {
        remove(keyOf(id))
      },
      async revokeByGrantId(grantId) {
        for (const key of grants.get(grantId) ?? []) remove(key)
        grants.delete(grantId)
      },
    }
  }
  return Object.assign(adapterOf, {
    list(model: string) {
      const at = now()
      const prefix = `${model}:`
      const found: { id: string; payload: Payload }[] = []
      for (const [key, entry] of entries)
        if (key.startsWith(prefix) && entry.expiresAt > at)
          found.push({ id: key.slice(prefix.length), payload: entry.payload })
      return found
    },
    endGrant(grantId: string) {
      for (const key of grants.get(grantId) ?? []) remove(key)
      grants.delete(grantId)
      remove(`Grant:${grantId}`)
      // The browser's sign-in that made the grant ends with it.
      for (const [key, entry] of entries)
        if (
          key.startsWith('Session:') &&
          Object.values(
            (entry.payload.authorizations ?? {}) as Record<
              string,
              { grantId?: string }
            >,
          ).some((authorization) => authorization.grantId === grantId)
        )
          remove(key)
    },
  })
}

/**
 * The store: oidc-provider's adapter factory, and what the emulator's UI
 * reads and does to it.
 */
export type MemoryStore = ((model: string) => Adapter) & {
  /** The live entries of `model`, least recently written first. */
  list(model: string): { id: string; payload: Payload }[]
  /**
   * Ends a grant: its tokens, the grant itself and the sessions that hold
   * it are removed, so its refresh token is refused from now on.
   */
  endGrant(grantId: string): void
}
