import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Storage from '../../core/Storage.js'
import * as Base64 from '../wire/base64.js'
import * as Dpop from './dpop.js'

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
    const proof = await Dpop.createProof(storage, {
      now: () => 1_700_000_000_999,
    })
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
})
