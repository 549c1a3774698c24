import { type Hex, toHex, verifyMessage } from 'viem'
import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Storage from '../../src/core/Storage.js'
import * as Session from '../../src/magic/keys/session.js'
import {
  createMagic,
  database,
  destroyClients,
  freshEmail,
  loginWithEmail,
  readDatabase,
  store,
} from './magicClient.js'

/**
 * Our `Magic` client against the emulator, with real IndexedDB and
 * WebCrypto: what it keeps in memory (the key pair, proofs signed ahead, the
 * refresh token, the device share) never makes it send a used proof or a
 * stale session, and a second client of the same database (as another tab
 * of the dApp is) follows the first one's writes.
 */
describe('Magic client against the emulator: what it keeps in memory', () => {
  afterEach(() => {
    destroyClients()
  })

  /** Two storage objects on one fresh database, as two tabs have. */
  function sharedDatabase() {
    const name = `${database}-test-${crypto.randomUUID()}`
    return {
      name,
      a: Storage.indexedDb({ database: name, store }),
      b: Storage.indexedDb({ database: name, store }),
    }
  }

  test('every request carries a proof of its own: sequential and 200 parallel requests pass the replay check', async () => {
    const { name, a } = sharedDatabase()
    const magic = createMagic({ storage: a })
    await loginWithEmail(magic, freshEmail('single-use'))
    const { STORE_KEY_PUBLIC_JWK: jwk } = await readDatabase(name)
    // The emulator refuses a proof whose jti it has seen (-10019), which
    // would also clear the keys; every request must pass.
    for (let i = 0; i < 50; i++)
      expect(await magic.user.isLoggedIn()).toBe(true)
    const parallel = await Promise.all(
      Array.from({ length: 200 }, () => magic.user.isLoggedIn()),
    )
    expect(parallel).toEqual(Array.from({ length: 200 }, () => true))
    for (let i = 0; i < 10; i++)
      expect(await magic.user.isLoggedIn()).toBe(true)
    expect((await readDatabase(name)).STORE_KEY_PUBLIC_JWK).toEqual(jwk)
  })

  test('a login, then a rotated session, in one client are used by a second client of the same database', async () => {
    const { name, a, b } = sharedDatabase()
    const first = createMagic({ storage: a })
    const second = createMagic({ storage: b })
    const email = freshEmail('two-tabs')
    // The second client reads (and keeps) "no session" first.
    expect(await second.user.isLoggedIn()).toBe(false)
    await loginWithEmail(first, email)
    await vi.waitFor(async () =>
      expect(await second.user.isLoggedIn()).toBe(true),
    )
    const { rt: rotated } = await readDatabase(name)

    // A new login replaces the session: its rt and device share change and
    // the provider revokes the old rt.
    await loginWithEmail(first, email)
    const stored = await readDatabase(name)
    expect(stored.rt).not.toBe(rotated)
    await vi.waitFor(async () =>
      expect((await second.user.getInfo()).email).toBe(email),
    )
    // The old rt was revoked: this answer came with the rotated one.
    // Signing needs the new session's device share (-10011 otherwise).
    const { publicAddress } = await second.user.getInfo()
    const address = publicAddress as Hex
    const message = 'signed by the second client'
    const signature = (await second.rpcProvider.request({
      method: 'personal_sign',
      params: [toHex(message), address],
    })) as Hex
    expect(await verifyMessage({ address, message, signature })).toBe(true)
  })

  test('logout clears what both clients of the database hold in memory', async () => {
    const { name, a, b } = sharedDatabase()
    const first = createMagic({ storage: a })
    const second = createMagic({ storage: b })
    await loginWithEmail(first, freshEmail('logout'))
    await vi.waitFor(async () =>
      expect(await second.user.isLoggedIn()).toBe(true),
    )

    expect(await first.user.logout()).toBe(true)
    const stored = await readDatabase(name)
    expect(
      Object.keys(stored).filter(
        (key) => key === 'rt' || key.startsWith('ds_'),
      ),
    ).toEqual([])
    expect(await Session.of(a).rt).toBe(undefined)
    expect(Session.of(a).pool).toEqual([])
    expect(await Session.of(a).shares.get(first.networkHash)).toBe(undefined)
    await vi.waitFor(() => expect(Session.of(b).rt).toBe(undefined))
    expect(Session.of(b).shares.size).toBe(0)
    expect(await second.user.isLoggedIn()).toBe(false)
    expect(await first.user.isLoggedIn()).toBe(false)
  })
})
