import { describe, expect, test, vi } from 'vitest'
import * as Rpc from '../../core/Rpc.js'
import * as Storage from '../../core/Storage.js'
import * as DeviceShare from '../keys/deviceShare.js'
import * as Dpop from '../keys/dpop.js'
import * as Session from '../keys/session.js'
import * as Base64 from '../wire/base64.js'
import * as Envelope from './envelope.js'

const share = Base64.fromBytes(new Uint8Array([1, 2, 3, 4]))

function context() {
  return {
    networkHash: 'pk_X_eth_mainnet',
    now: () => 0,
    storage: Storage.memory(),
  }
}

describe('Envelope.build', () => {
  test('default: a proof, the stored rt and the decrypted share', async () => {
    const ctx = context()
    await ctx.storage.setItem('rt', 'refresh')
    await DeviceShare.encrypt(ctx.storage, ctx.networkHash, share)
    const request = Rpc.createRequest('magic_get_info')
    const envelope = await Envelope.build('T-x', request, ctx)
    expect(Object.keys(envelope)).toEqual([
      'msgType',
      'payload',
      'jwt',
      'rt',
      'deviceShare',
    ])
    expect(envelope.payload).toBe(request)
    expect(envelope.jwt?.split('.').length).toBe(3)
    expect(envelope.rt).toBe('refresh')
    expect(envelope.deviceShare).toBe(share)
  })

  test('behavior: nothing stored, only msgType, payload and jwt', async () => {
    const envelope = await Envelope.build('T-x', [], context())
    expect(Object.keys(envelope)).toEqual(['msgType', 'payload', 'jwt'])
  })
})

describe('Envelope.absorb', () => {
  test('default: stores rt and encrypts the device share', async () => {
    const ctx = context()
    await Envelope.absorb(
      { response: {}, rt: 'new-rt', deviceShare: share },
      ctx,
    )
    expect(await ctx.storage.getItem('rt')).toBe('new-rt')
    expect(await DeviceShare.decrypt(ctx.storage, ctx.networkHash)).toBe(share)
  })

  test('behavior: -10019 deletes the DPoP key entries and the rt bound to them only', async () => {
    const ctx = context()
    await Dpop.createProof(ctx.storage)
    await ctx.storage.setItem('rt', 'bound-to-the-key')
    await ctx.storage.setItem('other', 'kept')
    await Envelope.absorb(
      { response: { error: { code: -10019, message: 'DPoP invalidated' } } },
      ctx,
    )
    expect(await ctx.storage.keys()).toEqual(['other'])
  })

  test('behavior: "User denied account access." wins over an incoming share', async () => {
    const ctx = context()
    await DeviceShare.encrypt(ctx.storage, 'other', share)
    await Envelope.absorb(
      {
        response: {
          error: { code: -32603, message: 'User denied account access.' },
        },
        deviceShare: share,
      },
      ctx,
    )
    expect(await ctx.storage.keys()).toEqual(['ek'])
  })
})

/** What the next request would carry, beside the proof. */
async function carried(ctx: ReturnType<typeof context>) {
  const { rt, deviceShare } = await Envelope.build('T-x', [], ctx)
  return { rt, deviceShare }
}

describe('Envelope: what is kept in memory', () => {
  test('default: the rt and share are read from storage once', async () => {
    const ctx = context()
    await ctx.storage.setItem('rt', 'first')
    await DeviceShare.encrypt(ctx.storage, ctx.networkHash, share)
    Session.drop(Session.of(ctx.storage), 'keys')
    const getItem = vi.spyOn(ctx.storage, 'getItem')
    expect(await carried(ctx)).toEqual({ rt: 'first', deviceShare: share })
    const reads = getItem.mock.calls.length
    expect(await carried(ctx)).toEqual({ rt: 'first', deviceShare: share })
    expect(await carried(ctx)).toEqual({ rt: 'first', deviceShare: share })
    expect(getItem.mock.calls.length).toBe(reads)
  })

  test('behavior: an absorbed rt is sent next and stored; the same rt is not written again', async () => {
    const ctx = context()
    await ctx.storage.setItem('rt', 'old')
    expect((await carried(ctx)).rt).toBe('old')
    await Envelope.absorb({ response: {}, rt: 'rotated' }, ctx)
    expect((await carried(ctx)).rt).toBe('rotated')
    expect(await ctx.storage.getItem('rt')).toBe('rotated')
    const setItem = vi.spyOn(ctx.storage, 'setItem')
    await Envelope.absorb({ response: {}, rt: 'rotated' }, ctx)
    expect(setItem).not.toHaveBeenCalled()
  })

  test('behavior: an absorbed share is sent next; the same share is not encrypted again', async () => {
    const ctx = context()
    await DeviceShare.encrypt(ctx.storage, ctx.networkHash, share)
    expect((await carried(ctx)).deviceShare).toBe(share)
    const next = Base64.fromBytes(new Uint8Array([5, 6, 7]))
    await Envelope.absorb({ response: {}, deviceShare: next }, ctx)
    expect((await carried(ctx)).deviceShare).toBe(next)
    Session.drop(Session.of(ctx.storage), 'session')
    expect(await DeviceShare.decrypt(ctx.storage, ctx.networkHash)).toBe(next)
    const setItem = vi.spyOn(ctx.storage, 'setItem')
    await Envelope.absorb({ response: {}, deviceShare: next }, ctx)
    expect(setItem).not.toHaveBeenCalled()
  })

  test('behavior: -10019 forgets the rt and the pair in memory, and the proofs signed ahead', async () => {
    const ctx = context()
    await ctx.storage.setItem('rt', 'bound-to-the-key')
    const before = await Envelope.build('T-x', [], ctx)
    await vi.waitFor(() =>
      expect(Session.of(ctx.storage).pool.length).toBe(Dpop.poolSize),
    )
    await Envelope.absorb(
      { response: { error: { code: -10019, message: 'DPoP invalidated' } } },
      ctx,
    )
    expect(Session.of(ctx.storage).pool).toEqual([])
    const after = await Envelope.build('T-x', [], ctx)
    expect(after.rt).toBe(undefined)
    const jwk = (proof: string | undefined) =>
      JSON.parse(
        atob(
          (proof?.split('.')[0] ?? '').replace(/-/g, '+').replace(/_/g, '/'),
        ),
      ).jwk
    expect(jwk(after.jwt).x).not.toBe(jwk(before.jwt).x)
  })

  test('behavior: "User denied account access." forgets the share in memory', async () => {
    const ctx = context()
    await DeviceShare.encrypt(ctx.storage, ctx.networkHash, share)
    expect((await carried(ctx)).deviceShare).toBe(share)
    await Envelope.absorb(
      {
        response: {
          error: { code: -32603, message: 'User denied account access.' },
        },
      },
      ctx,
    )
    expect((await carried(ctx)).deviceShare).toBe(undefined)
  })

  test('behavior: forget (logout) removes the rt and forgets the share and the proofs', async () => {
    const ctx = context()
    await ctx.storage.setItem('rt', 'session')
    await DeviceShare.encrypt(ctx.storage, ctx.networkHash, share)
    expect(await carried(ctx)).toEqual({ rt: 'session', deviceShare: share })
    await vi.waitFor(() =>
      expect(Session.of(ctx.storage).pool.length).toBe(Dpop.poolSize),
    )
    await DeviceShare.clearAll(ctx.storage)
    await Envelope.forget(ctx.storage)
    expect(Session.of(ctx.storage).pool).toEqual([])
    expect(await ctx.storage.getItem('rt')).toBe(null)
    expect(await carried(ctx)).toEqual({
      rt: undefined,
      deviceShare: undefined,
    })
  })
})
