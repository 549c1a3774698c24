/**
 * oidc-provider's storage for the emulator: in memory, one store per
 * identity service. oidc-provider's own quick-start adapter keeps one
 * module-wide LRU of 1000 entries (shared by every provider in the process,
 * evicting live sessions under load) and warns on every start; the emulator
 * is meant to forget everything on restart, so a plain map per service is
 * the whole requirement.
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
 * A factory for oidc-provider's `adapter` option: every model name gets an
 * adapter over one shared store, whose entries are dropped
 * {@link graceSeconds} after their `expiresIn`.
 *
 * @example
 * ```ts
 * new Provider(issuer, { adapter: createMemoryAdapter(), … })
 * ```
 */
export function createMemoryAdapter(
  options: { now?: () => number } = {},
): (model: string) => Adapter {
  const { now = Date.now } = options
  const entries = new Map<string, { payload: Payload; expiresAt: number }>()
  /** Keys of the entries issued under a grant, to revoke them together. */
  const grants = new Map<string, Set<string>>()
  /** Secondary keys: device user codes and session uids. */
  const indexes = new Map<string, string>()

  const read = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= now()) {
      entries.delete(key)
      return undefined
    }
    return entry.payload
  }

  return (model) => {
    const keyOf = (id: string) => `${model}:${id}`
    const byIndex = (index: string) => {
      const key = indexes.get(index)
      return key === undefined ? undefined : read(key)
    }
    return {
      async upsert(id, payload, expiresIn) {
        const key = keyOf(id)
        entries.set(key, {
          payload,
          expiresAt:
            expiresIn === undefined
              ? Infinity
              : now() + (expiresIn + graceSeconds) * 1000,
        })
        if (payload.grantId) {
          const members = grants.get(payload.grantId) ?? new Set()
          members.add(key)
          grants.set(payload.grantId, members)
        }
        if (payload.userCode) indexes.set(`userCode:${payload.userCode}`, key)
        if (model === 'Session' && payload.uid)
          indexes.set(`uid:${payload.uid}`, key)
      },
      async find(id) {
        return read(keyOf(id))
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
        entries.delete(keyOf(id))
      },
      async revokeByGrantId(grantId) {
        for (const key of grants.get(grantId) ?? []) entries.delete(key)
        grants.delete(grantId)
      },
    }
  }
}
