import * as jose from 'jose'
import { describe, expect, test } from 'vitest'
import * as Mailbox from '../../dev/mailbox.js'
import { createRegistry } from '../../registry/index.js'
import { createVerifier } from './dpop.js'
import { createMagicService } from './service.js'
import { call, createDevice, loginByEmail } from './testkit.js'

const now = new Date('2026-01-01T00:00:00Z')
const nowSeconds = now.getTime() / 1000

async function rejection(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    (error: { code: number; shortMessage: string }) => ({
      code: error.code,
      message: error.shortMessage,
    }),
  )
}

describe('createVerifier', () => {
  test("behavior: after time travel, a proof dated on the device's clock or on the services' is fresh; one old on both is not", async () => {
    const day = 24 * 60 * 60
    const verifier = createVerifier({
      now: () => new Date(now.getTime() + day * 1000),
      deviceNow: () => now,
    })
    const device = await createDevice({ now: () => now })
    await verifier.verify(await device.proof())
    await verifier.verify(await device.proof({ iat: nowSeconds + day }))
    expect(
      await rejection(
        verifier.verify(await device.proof({ iat: nowSeconds - 301 })),
      ),
    ).toEqual({
      code: -10019,
      message: expect.stringContaining(
        'iat is missing or more than 5 minutes off.',
      ),
    })
  })

  test('behavior: a valid proof answers the RFC 7638 thumbprint of its key', async () => {
    const verifier = createVerifier({ now: () => now })
    const device = await createDevice({ now: () => now })
    expect(await verifier.verify(await device.proof())).toBe(
      await jose.calculateJwkThumbprint(device.publicJwk, 'sha256'),
    )
  })

  test('error: a bad signature is -10019', async () => {
    const verifier = createVerifier({ now: () => now })
    const device = await createDevice({ now: () => now })
    const other = await createDevice({ now: () => now })
    const [header] = (await device.proof()).split('.')
    const [, payload, signature] = (await other.proof()).split('.')
    expect(
      await rejection(verifier.verify(`${header}.${payload}.${signature}`)),
    ).toEqual({
      code: -10019,
      message: 'Invalid DPoP proof: the signature does not verify.',
    })
  })

  test('error: an iat more than 5 minutes off is -10019', async () => {
    const verifier = createVerifier({ now: () => now })
    const device = await createDevice()
    expect(
      await rejection(
        verifier.verify(await device.proof({ iat: nowSeconds - 301 })),
      ),
    ).toEqual({
      code: -10019,
      message: 'Invalid DPoP proof: iat is missing or more than 5 minutes off.',
    })
    expect(
      await verifier.verify(await device.proof({ iat: nowSeconds - 300 })),
    ).toMatch(/^[\w-]{43}$/)
  })

  test('error: an iat more than 60 seconds in the future is -10019', async () => {
    const verifier = createVerifier({ now: () => now })
    const device = await createDevice()
    expect(
      await rejection(
        verifier.verify(await device.proof({ iat: nowSeconds + 61 })),
      ),
    ).toEqual({
      code: -10019,
      message: 'Invalid DPoP proof: iat is more than 60 seconds in the future.',
    })
    expect(
      await verifier.verify(await device.proof({ iat: nowSeconds + 60 })),
    ).toMatch(/^[\w-]{43}$/)
  })

  test('error: a signed payload that is not a JSON object is -10019, not an internal error', async () => {
    const verifier = createVerifier({ now: () => now })
    const { privateKey, publicKey } = await jose.generateKeyPair('ES256')
    const jwk = await jose.exportJWK(publicKey)
    for (const payload of ['null', '7', '[1,2]'])
      expect(
        await rejection(
          verifier.verify(
            await new jose.CompactSign(new TextEncoder().encode(payload))
              .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
              .sign(privateKey),
          ),
        ),
      ).toEqual({
        code: -10019,
        message:
          'Invalid DPoP proof: iat is missing or more than 5 minutes off.',
      })
  })

  test('error: a replayed jti is -10019', async () => {
    const verifier = createVerifier({ now: () => now })
    const device = await createDevice({ now: () => now })
    const proof = await device.proof({ jti: 'abc' })
    await verifier.verify(proof)
    expect(await rejection(verifier.verify(proof))).toEqual({
      code: -10019,
      message: 'Invalid DPoP proof: jti was already used.',
    })
  })

  test('error: a wrong typ, alg or a private jwk is -10019', async () => {
    const verifier = createVerifier({ now: () => now })
    const { privateKey, publicKey } = await jose.generateKeyPair('ES256', {
      extractable: true,
    })
    const sign = (header: jose.JWTHeaderParameters) =>
      new jose.SignJWT({ iat: nowSeconds, jti: crypto.randomUUID() })
        .setProtectedHeader(header)
        .sign(privateKey)
    const jwk = await jose.exportJWK(publicKey)
    expect(
      await rejection(
        verifier.verify(await sign({ alg: 'ES256', typ: 'jwt', jwk })),
      ),
    ).toEqual({
      code: -10019,
      message: 'Invalid DPoP proof: the header typ is not dpop+jwt.',
    })
    expect(
      await rejection(
        verifier.verify(
          await sign({
            alg: 'ES256',
            typ: 'dpop+jwt',
            jwk: await jose.exportJWK(privateKey),
          }),
        ),
      ),
    ).toEqual({
      code: -10019,
      message:
        'Invalid DPoP proof: the header jwk is not an EC P-256 public key.',
    })
    expect(await rejection(verifier.verify('not.a.jws'))).toEqual({
      code: -10019,
      message: 'Invalid DPoP proof: not a compact JWS.',
    })
  })
})

describe('sessions bound to the DPoP key', () => {
  test('error: the session rt with a proof from another key is -10019', async () => {
    const mailbox = Mailbox.create()
    const app = createMagicService({
      mailbox,
      registry: createRegistry(),
      chain: { rpcUrl: 'http://127.0.0.1:1', chainId: 31337 },
    })
    const device = await createDevice()
    await loginByEmail(app, mailbox, 'ada@example.com', device)
    const thief = await createDevice()
    thief.rt = device.rt
    thief.deviceShare = device.deviceShare
    expect(
      (await call(app, 'magic_is_logged_in', [], { device: thief })).error,
    ).toEqual({
      code: -10019,
      message:
        'Invalid DPoP proof: the proof key is not the key of this session.',
    })
    expect((await call(app, 'magic_is_logged_in', [], { device })).result).toBe(
      true,
    )
  })

  test('behavior: a request without a proof is anonymous even with an rt', async () => {
    const mailbox = Mailbox.create()
    const app = createMagicService({
      mailbox,
      registry: createRegistry(),
      chain: { rpcUrl: 'http://127.0.0.1:1', chainId: 31337 },
    })
    const device = await createDevice()
    await loginByEmail(app, mailbox, 'ada@example.com', device)
    const flow = await app.request('/v1/flow', {
      method: 'POST',
      body: JSON.stringify({
        params: btoa(JSON.stringify({ API_KEY: 'pk_live_EMULATOR0000000000' })),
        request: {
          jsonrpc: '2.0',
          id: 7,
          method: 'magic_is_logged_in',
          params: [],
        },
        rt: device.rt,
      }),
    })
    expect(await flow.text()).toBe(
      `${JSON.stringify({ kind: 'response', response: { jsonrpc: '2.0', id: 7, result: false } })}\n`,
    )
  })
})
