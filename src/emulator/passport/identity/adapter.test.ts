import { describe, expect, test } from 'vitest'
import { createMemoryAdapter, maxEntries } from './adapter.js'

function setup() {
  let time = 1_000_000
  const factory = createMemoryAdapter({ now: () => time })
  return { factory, advance: (ms: number) => (time += ms) }
}

describe('createMemoryAdapter', () => {
  test('behavior: finds what was stored, per model, by id, user code and session uid', async () => {
    const { factory } = setup()
    const devices = factory('DeviceCode')
    const sessions = factory('Session')
    await devices.upsert('d1', { userCode: 'BCDF-GHJK' }, 600)
    await sessions.upsert('s1', { uid: 'u1' }, 600)
    expect(await devices.find('d1')).toEqual({ userCode: 'BCDF-GHJK' })
    expect(await sessions.find('d1')).toBe(undefined)
    expect(await devices.findByUserCode('BCDF-GHJK')).toEqual({
      userCode: 'BCDF-GHJK',
    })
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1' })
  })

  test('behavior: an entry outlives its expiresIn by 600 s, so the provider can still call it expired', async () => {
    const { factory, advance } = setup()
    const codes = factory('DeviceCode')
    await codes.upsert('d1', { userCode: 'X' }, 10)
    advance(10_000 + 599_999)
    expect(await codes.find('d1')).toEqual({ userCode: 'X' })
    advance(1)
    expect(await codes.find('d1')).toBe(undefined)
    expect(await codes.findByUserCode('X')).toBe(undefined)
  })

  test('behavior: consume marks the entry, destroy removes it', async () => {
    const { factory } = setup()
    const codes = factory('AuthorizationCode')
    await codes.upsert('c1', { grantId: 'g1' }, 60)
    await codes.consume('c1')
    expect(await codes.find('c1')).toEqual({
      grantId: 'g1',
      consumed: 1000,
    })
    await codes.destroy('c1')
    expect(await codes.find('c1')).toBe(undefined)
  })

  test('behavior: revokeByGrantId removes every model issued under the grant, and nothing else', async () => {
    const { factory } = setup()
    const access = factory('AccessToken')
    const refresh = factory('RefreshToken')
    await access.upsert('a1', { grantId: 'g1' }, 60)
    await refresh.upsert('r1', { grantId: 'g1' }, 60)
    await refresh.upsert('r2', { grantId: 'g2' }, 60)
    await access.revokeByGrantId('g1')
    expect(await access.find('a1')).toBe(undefined)
    expect(await refresh.find('r1')).toBe(undefined)
    expect(await refresh.find('r2')).toEqual({ grantId: 'g2' })
  })

  test('behavior: it holds at most 10,000 entries; when full, expired ones go first, then the least recently written', async () => {
    expect(maxEntries).toBe(10_000)
    const { factory, advance } = setup()
    const sessions = factory('Session')
    const codes = factory('DeviceCode')
    // Ten short-lived device codes, then sessions up to the cap.
    for (let i = 0; i < 10; i++)
      await codes.upsert(`d${i}`, { userCode: `U${i}`, grantId: 'g' }, 1)
    for (let i = 10; i < maxEntries; i++)
      await sessions.upsert(`s${i}`, { uid: `u${i}` }, 3600)
    advance(601_000)
    // Full: a new entry drops the ten expired codes, and nothing else.
    await sessions.upsert('new', { uid: 'u-new' }, 3600)
    expect(await codes.findByUserCode('U0')).toBe(undefined)
    expect(await sessions.find('s10')).toEqual({ uid: 'u10' })
    for (let i = 0; i < 9; i++)
      await sessions.upsert(`more${i}`, { uid: `m${i}` }, 3600)
    // Full of live entries: writing s10 again makes s11 the oldest.
    await sessions.upsert('s10', { uid: 'u10', touched: true }, 3600)
    await sessions.upsert('newest', { uid: 'u-newest' }, 3600)
    expect(await sessions.find('s11')).toBe(undefined)
    expect(await sessions.findByUid('u11')).toBe(undefined)
    expect(await sessions.find('s10')).toEqual({ uid: 'u10', touched: true })
    expect(await sessions.findByUid('u-newest')).toEqual({ uid: 'u-newest' })
    expect(await sessions.find('s12')).toEqual({ uid: 'u12' })
  })

  test('behavior: a rewritten entry is found by its new secondary key only', async () => {
    const { factory } = setup()
    const codes = factory('DeviceCode')
    await codes.upsert('d1', { userCode: 'OLD', grantId: 'g1' }, 60)
    await codes.upsert('d1', { userCode: 'NEW' }, 60)
    expect(await codes.findByUserCode('OLD')).toBe(undefined)
    expect(await codes.findByUserCode('NEW')).toEqual({ userCode: 'NEW' })
    // No longer under g1: revoking it leaves the entry.
    await codes.revokeByGrantId('g1')
    expect(await codes.find('d1')).toEqual({ userCode: 'NEW' })
  })

  test('behavior: endGrant removes the grant, its tokens and the sign-in holding it, and says so per model', async () => {
    const changed: string[] = []
    const factory = createMemoryAdapter({
      onChange: (model) => changed.push(model),
    })
    await factory('Grant').upsert('g1', { accountId: 'u1' }, 600)
    await factory('Grant').upsert('g2', { accountId: 'u2' }, 600)
    await factory('RefreshToken').upsert('r1', { grantId: 'g1' }, 600)
    await factory('Session').upsert(
      's1',
      { uid: 'x', authorizations: { client: { grantId: 'g1' } } },
      600,
    )
    await factory('Session').upsert(
      's2',
      { uid: 'y', authorizations: { client: { grantId: 'g2' } } },
      600,
    )
    expect(factory.list('Grant').map((grant) => grant.id)).toEqual(['g1', 'g2'])
    changed.length = 0
    factory.endGrant('g1')
    expect(factory.list('Grant').map((grant) => grant.id)).toEqual(['g2'])
    expect(await factory('RefreshToken').find('r1')).toBe(undefined)
    expect(await factory('Session').find('s1')).toBe(undefined)
    expect(await factory('Session').find('s2')).toMatchObject({ uid: 'y' })
    expect(changed.toSorted()).toEqual(['Grant', 'RefreshToken', 'Session'])
  })
})
