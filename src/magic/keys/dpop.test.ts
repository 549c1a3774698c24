import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Storage from '../../core/Storage.js'
import * as Base64 from '../wire/base64.js'
import * as Dpop from './dpop.js'
import * as Session from './session.js'

afterEach(() => {
  vi.unstubAllGlobals()
})

function decode(part: string) {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/')
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4)
  return Base64.toBytes(padded)
}

function json(part: string): unknown {
  return JSON.parse(new TextDecoder().decode(decode(part)))
}

describe('Dpop.createProof', () => {
  test('default: header, claims and a verifiable ES256 signature', async () => {
    const storage = Storage.memory()
    const proof = await Dpop.createProof(storage, () => 1_700_000_000_999)
    const [header, claims, signature, ...rest] = proof?.split('.') ?? []
    expect(rest).toEqual([])
    const jwk = await storage.getItem<JsonWebKey>(Dpop.publicJwkKey)
    expect(header && json(header)).toEqual({
      typ: 'dpop+jwt',
      alg: 'ES256',
      jwk,
    })
    expect(Object.keys(json(header as string) as object)).toEqual([
      'typ',
      'alg',
      'jwk',
    ])
    const body = json(claims as string) as { iat: number; jti: string }
    expect(Object.keys(body)).toEqual(['iat', 'jti'])
    expect(body.iat).toBe(1_700_000_000)
    expect(body.jti).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    expect(signature).toMatch(/^[A-Za-z0-9_-]{86}$/)

    const { key_ops: _, ...publicJwk } = jwk as JsonWebKey
    const key = await crypto.subtle.importKey(
      'jwk',
      publicJwk,
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    )
    const valid = await crypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      key,
      decode(signature as string),
      new TextEncoder().encode(`${header}.${claims}`),
    )
    expect(valid).toBe(true)
  })

  test('behavior: the pair is made once, even for concurrent proofs', async () => {
    const storage = Storage.memory()
    const [a, b] = await Promise.all([
      Dpop.createProof(storage),
      Dpop.createProof(storage),
    ])
    const headerOf = (proof: string | undefined) =>
      json(proof?.split('.')[0] as string)
    expect(headerOf(a)).toEqual(headerOf(b))
    const key = await storage.getItem<CryptoKey>(Dpop.privateKeyKey)
    expect(key?.extractable).toBe(false)
    expect(key?.usages).toEqual(['sign'])
    expect(a?.split('.')[1]).not.toBe(b?.split('.')[1])
  })

  test('behavior: clear deletes both entries and the next proof has a new key', async () => {
    const storage = Storage.memory()
    const first = await Dpop.createProof(storage)
    await Dpop.clear(storage)
    expect(await storage.keys()).toEqual([])
    const second = await Dpop.createProof(storage)
    const jwkOf = (proof: string | undefined) =>
      (json(proof?.split('.')[0] as string) as { jwk: JsonWebKey }).jwk
    expect(jwkOf(second).x).not.toBe(jwkOf(first).x)
  })

  test('behavior: without WebCrypto there is no proof and nothing is stored', async () => {
    vi.stubGlobal('crypto', {})
    const storage = Storage.memory()
    expect(Dpop.isSupported()).toBe(false)
    expect(await Dpop.createProof(storage)).toBe(undefined)
    expect(await storage.keys()).toEqual([])
  })

  test('behavior: WebCrypto without randomUUID (no jti to draw) makes no proof either', async () => {
    vi.stubGlobal('crypto', { subtle: globalThis.crypto.subtle })
    const storage = Storage.memory()
    expect(Dpop.isSupported()).toBe(false)
    expect(await Dpop.createProof(storage)).toBe(undefined)
    expect(await storage.keys()).toEqual([])
  })
})

function claimsOf(proof: string | undefined) {
  return json(proof?.split('.')[1] as string) as { iat: number; jti: string }
}

function jwkOf(proof: string | undefined) {
  return (json(proof?.split('.')[0] as string) as { jwk: JsonWebKey }).jwk
}

/** Waits until the pool of `storage` holds `Dpop.poolSize` proofs. */
async function filled(storage: Storage.Storage) {
  await vi.waitFor(() =>
    expect(Session.of(storage).pool.length).toBe(Dpop.poolSize),
  )
  return Session.of(storage).pool.map(({ jwt }) => jwt)
}

describe('Dpop.takeProof', () => {
  test('default: the first proof is signed on the spot, then the pool fills', async () => {
    const storage = Storage.memory()
    const now = () => 1_700_000_000_000
    const first = await Dpop.takeProof(storage, now)
    expect(claimsOf(first).iat).toBe(1_700_000_000)
    const ahead = await filled(storage)
    expect(ahead).not.toContain(first)
    for (const proof of ahead) {
      expect(claimsOf(proof).iat).toBe(1_700_000_000)
      expect(jwkOf(proof)).toEqual(jwkOf(first))
    }
  })

  test('behavior: a proof signed ahead is taken once, oldest first, and replaced', async () => {
    const storage = Storage.memory()
    const now = () => 1_700_000_000_000
    await Dpop.takeProof(storage, now)
    const ahead = await filled(storage)
    const taken = await Dpop.takeProof(storage, now)
    expect(taken).toBe(ahead[0])
    expect(Session.of(storage).pool.map(({ jwt }) => jwt)).not.toContain(taken)
    const refilled = await filled(storage)
    expect(refilled).not.toContain(taken)
    const next = await Dpop.takeProof(storage, now)
    expect(next).toBe(ahead[1])
  })

  test('behavior: no two proofs taken share a jti', async () => {
    const storage = Storage.memory()
    const proofs: (string | undefined)[] = []
    for (let i = 0; i < 20; i++) {
      proofs.push(await Dpop.takeProof(storage))
      if (i % 5 === 0) await filled(storage)
    }
    proofs.push(
      ...(await Promise.all(
        Array.from({ length: 20 }, () => Dpop.takeProof(storage)),
      )),
    )
    expect(new Set(proofs).size).toBe(40)
    expect(new Set(proofs.map((proof) => claimsOf(proof).jti)).size).toBe(40)
  })

  test('behavior: a proof as old as maxAge is dropped unused; one just younger is taken', async () => {
    const storage = Storage.memory()
    let time = 1_700_000_000_000
    const now = () => time
    await Dpop.takeProof(storage, now)
    const ahead = await filled(storage)
    time += Dpop.maxAge - 1
    expect(await Dpop.takeProof(storage, now)).toBe(ahead[0])
    time += 1
    const fresh = await Dpop.takeProof(storage, now)
    expect(ahead).not.toContain(fresh)
    expect(claimsOf(fresh).iat).toBe(Math.floor(time / 1000))
    expect(Session.of(storage).pool.map(({ jwt }) => jwt)).not.toContain(
      ahead[1],
    )
  })

  test('behavior: clear (-10019) empties the pool; what is signed next uses the new pair', async () => {
    const storage = Storage.memory()
    const first = await Dpop.takeProof(storage)
    const ahead = await filled(storage)
    await Dpop.clear(storage)
    expect(Session.of(storage).pool).toEqual([])
    const next = await Dpop.takeProof(storage)
    expect(ahead).not.toContain(next)
    expect(jwkOf(next).x).not.toBe(jwkOf(first).x)
    for (const proof of await filled(storage))
      expect(jwkOf(proof)).toEqual(jwkOf(next))
  })

  test('behavior: a proof signed for a pool dropped meanwhile is thrown away', async () => {
    const storage = Storage.memory()
    await Dpop.takeProof(storage)
    const ahead = await filled(storage)
    // From a full pool, so that the only signature is the refill's (two
    // signatures under way at once may end in either order).
    const sign = crypto.subtle.sign.bind(crypto.subtle)
    let calls = 0
    vi.spyOn(crypto.subtle, 'sign').mockImplementation(async (...args) => {
      const signed = await sign(...args)
      // The refill's signature ends after its pool was dropped.
      if (++calls === 1) Session.drop(Session.of(storage), 'keys')
      return signed
    })
    expect(await Dpop.takeProof(storage)).toBe(ahead[0])
    await vi.waitFor(() => expect(calls).toBe(1))
    await vi.waitFor(() => expect(Session.of(storage).filling).toBe(false))
    expect(calls).toBe(1)
    expect(Session.of(storage).pool).toEqual([])
    vi.restoreAllMocks()
  })

  test('behavior: without WebCrypto there is no proof and nothing is signed ahead', async () => {
    vi.stubGlobal('crypto', {})
    const storage = Storage.memory()
    expect(await Dpop.takeProof(storage)).toBe(undefined)
    await vi.waitFor(() => expect(Session.of(storage).filling).toBe(false))
    expect(Session.of(storage).pool).toEqual([])
    expect(await storage.keys()).toEqual([])
  })
})
