import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Session from '../../src/magic/keys/session.js'
import {
  copyOf,
  createMagic,
  destroyClients,
  freshEmail,
  isolatedStorage,
  loginWithEmail,
  rejection,
} from './magicClient.js'

/**
 * Our `Magic` client (src/magic) against the emulated provider: the DPoP
 * proofs that bind a session to the device key, and what the client does
 * when the provider rejects them (-10019: clear the keys, start again).
 */
describe('Magic client against the emulator: DPoP and sessions', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    destroyClients()
  })

  const keyEntries = ['STORE_KEY_PRIVATE_KEY', 'STORE_KEY_PUBLIC_JWK']

  test('a replayed proof (same jti) is rejected with -10019; the client clears its keys and recovers with a new pair', async () => {
    const { storage } = isolatedStorage()
    const magic = createMagic({ storage })
    const email = freshEmail('replay')
    await loginWithEmail(magic, email)
    const oldJwk = await storage.getItem<JsonWebKey>('STORE_KEY_PUBLIC_JWK')
    expect(oldJwk?.kty).toBe('EC')

    // Every proof the client makes now carries the same jti.
    const jti = crypto.randomUUID()
    vi.spyOn(crypto, 'randomUUID').mockReturnValue(jti)
    // Proofs the client signed ahead carry jtis drawn before the mock.
    Session.drop(Session.of(storage), 'keys')
    expect(await magic.user.isLoggedIn()).toBe(true)
    const error = await rejection(magic.user.getInfo())
    vi.restoreAllMocks()
    expect(error.code).toBe(-10019)
    expect(error.message).toBe(
      'Magic RPC Error: [-10019] Invalid DPoP proof: jti was already used.',
    )
    for (const key of keyEntries) expect(await storage.getItem(key)).toBe(null)

    // The session was bound to the cleared key: the client starts afresh.
    expect(await magic.user.isLoggedIn()).toBe(false)
    const newJwk = await storage.getItem<JsonWebKey>('STORE_KEY_PUBLIC_JWK')
    expect(newJwk?.kty).toBe('EC')
    expect(newJwk?.x).not.toBe(oldJwk?.x)
    await loginWithEmail(magic, email)
    expect((await magic.user.getInfo()).email).toBe(email)
  })

  test('a proof with a stale iat is rejected with -10019 and the keys are cleared', async () => {
    const { storage } = isolatedStorage()
    const magic = createMagic({ storage })
    await loginWithEmail(magic, freshEmail('stale'))
    const now = Date.now()
    vi.spyOn(Date, 'now').mockReturnValue(now - 6 * 60 * 1000)
    // Proofs the client signed ahead carry the real time.
    Session.drop(Session.of(storage), 'keys')
    const error = await rejection(magic.user.getInfo())
    vi.restoreAllMocks()
    expect(error.code).toBe(-10019)
    expect(error.message).toBe(
      'Magic RPC Error: [-10019] Invalid DPoP proof: iat is missing or more than 5 minutes off.',
    )
    for (const key of keyEntries) expect(await storage.getItem(key)).toBe(null)
  })

  test('a session used with another key pair is rejected with -10019; the owner keeps it', async () => {
    const { storage } = isolatedStorage()
    const owner = createMagic({ storage })
    const email = freshEmail('stolen')
    await loginWithEmail(owner, email)

    // Another client (its own device key) with the owner's refresh token.
    const thief = createMagic({ storage: await copyOf(storage, ['rt']) })
    const error = await rejection(thief.user.getInfo())
    expect(error.code).toBe(-10019)
    expect(error.message).toBe(
      'Magic RPC Error: [-10019] Invalid DPoP proof: the proof key is not the key of this session.',
    )
    expect((await owner.user.getInfo()).email).toBe(email)
  })

  test('logout revokes the session at the provider: its key and refresh token no longer log in', async () => {
    const { storage } = isolatedStorage()
    const magic = createMagic({ storage })
    await loginWithEmail(magic, freshEmail('revoke'))
    const copy = await copyOf(storage, [...keyEntries, 'rt'])
    // The copy is the same device and session: logged in, before logout.
    const before = createMagic({ storage: copy })
    expect(await before.user.isLoggedIn()).toBe(true)
    destroyClients()

    const again = createMagic({ storage })
    expect(await again.user.logout()).toBe(true)
    const after = createMagic({
      storage: await copyOf(copy, [...keyEntries, 'rt']),
    })
    expect(await after.user.isLoggedIn()).toBe(false)
  })
})
