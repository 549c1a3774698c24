import { afterEach, describe, expect, test } from 'vitest'
import * as Storage from '../../core/Storage.js'
import * as Base64 from '../wire/base64.js'
import * as DeviceShare from './deviceShare.js'
import * as Dpop from './dpop.js'

const databases: string[] = []
afterEach(async () => {
  for (const name of databases.splice(0))
    await new Promise((resolve, reject) => {
      const request = indexedDB.deleteDatabase(name)
      request.onsuccess = resolve
      request.onerror = () => reject(request.error)
      request.onblocked = () => reject(new Error(`${name} stayed open`))
    })
})

/** Options of a fresh IndexedDB store, deleted after the test. */
function names() {
  const database = `KeysTest-${crypto.randomUUID()}`
  databases.push(database)
  return { database, store: 'MagicAuthLocalStorage' }
}

function decode(part: string) {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/')
  return Base64.toBytes(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
}

function header(proof: string) {
  const [part] = proof.split('.')
  return JSON.parse(new TextDecoder().decode(decode(part as string))) as {
    typ: string
    alg: string
    jwk: JsonWebKey
  }
}

/** Verifies a proof with the public JWK of its own header. */
async function verify(proof: string) {
  const [head, claims, signature] = proof.split('.')
  // The pair is made with usages ['sign'] only (as the published SDK
  // does), so the exported public JWK has `key_ops: []`; import ignores it.
  const { key_ops: _, ...jwk } = header(proof).jwk
  const key = await crypto.subtle.importKey(
    'jwk',
    jwk,
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['verify'],
  )
  return crypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    key,
    decode(signature as string),
    new TextEncoder().encode(`${head}.${claims}`),
  )
}

describe('Dpop.createProof (Chromium)', () => {
  test('default: the proof verifies with the exported public JWK', async () => {
    const storage = Storage.indexedDb(names())
    const proof = (await Dpop.createProof(storage)) as string
    expect(header(proof)).toEqual({
      typ: 'dpop+jwt',
      alg: 'ES256',
      jwk: await storage.getItem(Dpop.publicJwkKey),
    })
    expect(header(proof).jwk).toEqual({
      crv: 'P-256',
      ext: true,
      key_ops: [],
      kty: 'EC',
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      y: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    })
    expect(await verify(proof)).toBe(true)
  })

  test('behavior: the private key is non-extractable and survives a reload from IndexedDB', async () => {
    const options = names()
    const first = (await Dpop.createProof(Storage.indexedDb(options))) as string

    // A second store instance opens its own connection: keys come from disk.
    const reopened = Storage.indexedDb(options)
    const key = await reopened.getItem<CryptoKey>(Dpop.privateKeyKey)
    expect(key).toBeInstanceOf(CryptoKey)
    expect(key?.extractable).toBe(false)
    expect(key?.usages).toEqual(['sign'])
    await expect(
      crypto.subtle.exportKey('jwk', key as CryptoKey),
    ).rejects.toThrow()

    const second = (await Dpop.createProof(reopened)) as string
    expect(header(second).jwk).toEqual(header(first).jwk)
    expect(await verify(second)).toBe(true)
  })
})

describe('DeviceShare (Chromium)', () => {
  const share = Base64.fromBytes(crypto.getRandomValues(new Uint8Array(48)))

  test('default: round-trips through IndexedDB with a non-extractable key', async () => {
    const options = names()
    await DeviceShare.encrypt(Storage.indexedDb(options), 'pk_X_eth', share)
    const reopened = Storage.indexedDb(options)
    expect(await DeviceShare.decrypt(reopened, 'pk_X_eth')).toBe(share)
    const key = await reopened.getItem<CryptoKey>(DeviceShare.encryptionKeyKey)
    expect(key?.extractable).toBe(false)
    expect(key?.algorithm).toEqual({ name: 'AES-GCM', length: 256 })
    expect(await reopened.getItem('ds_pk_X_eth')).not.toContain(share)
  })

  test('behavior: two encryptions of one share differ in IV and ciphertext', async () => {
    const storage = Storage.indexedDb(names())
    await DeviceShare.encrypt(storage, 'a', share)
    const a = Base64.toBytes((await storage.getItem<string>('ds_a')) as string)
    await DeviceShare.encrypt(storage, 'a', share)
    const b = Base64.toBytes((await storage.getItem<string>('ds_a')) as string)
    expect(a.length).toBe(12 + 48 + 16)
    expect(b.length).toBe(a.length)
    expect(a.subarray(0, 12)).not.toEqual(b.subarray(0, 12))
    expect(a.subarray(12)).not.toEqual(b.subarray(12))
    expect(await DeviceShare.decrypt(storage, 'a')).toBe(share)
  })
})
