import { describe, expect, test } from 'vitest'
import * as Rpc from '../../core/Rpc.js'
import * as Storage from '../../core/Storage.js'
import * as DeviceShare from '../keys/deviceShare.js'
import * as Dpop from '../keys/dpop.js'
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
