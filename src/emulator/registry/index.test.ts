import { recoverMessageAddress, verifyTypedData } from 'viem'
import { describe, expect, test } from 'vitest'
import { createRegistry, RegistryFullError } from './index.js'

describe('createRegistry', () => {
  test('behavior: findOrCreate returns the same user for the same normalised identity', async () => {
    const registry = createRegistry({
      now: () => new Date('2026-01-01T00:00:00Z'),
    })
    const ada = await registry.findOrCreate({ email: ' Ada@Example.com' })
    expect(await registry.findOrCreate({ email: 'ada@example.com' })).toBe(ada)
    expect(ada).toMatchObject({
      email: 'ada@example.com',
      createdAt: '2026-01-01T00:00:00.000Z',
      deviceApprovalRequired: false,
    })
    const phone = await registry.findOrCreate({ phoneNumber: '+1 555 0100' })
    expect(registry.find({ phoneNumber: '+15550100' })).toBe(phone)
    const oidc = await registry.findOrCreate({
      oidc: { issuer: 'https://idp', subject: '1' },
    })
    expect(new Set([ada.id, phone.id, oidc.id]).size).toBe(3)
    expect(registry.get(ada.id)).toBe(ada)
  })

  test('behavior: the registry signs with the user key without exposing it on the user', async () => {
    const registry = createRegistry()
    const user = await registry.findOrCreate({ email: 'ada@example.com' })
    expect(Object.values(user)).not.toContain(registry.revealKey(user.id))
    const signature = await registry.signMessage(user.id, 'hi')
    expect(await recoverMessageAddress({ message: 'hi', signature })).toBe(
      user.address,
    )
    const typed = {
      domain: { name: 'T' },
      types: { M: [{ name: 'a', type: 'uint8' }] },
      primaryType: 'M',
      message: { a: 1 },
    } as const
    expect(
      await verifyTypedData({
        address: user.address,
        signature: await registry.signTypedData(user.id, typed),
        ...typed,
      }),
    ).toBe(true)
  })

  test('behavior: setEmail moves the user to the new address', async () => {
    const registry = createRegistry()
    const user = await registry.findOrCreate({ email: 'ada@example.com' })
    registry.setEmail(user.id, 'New@Example.com')
    expect(registry.find({ email: 'ada@example.com' })).toBe(undefined)
    expect(registry.find({ email: 'new@example.com' })).toBe(user)
  })

  test('behavior: setPassport records registrations, keeps the others and removes undefined ones', async () => {
    const registry = createRegistry()
    const user = await registry.findOrCreate({ email: 'ada@example.com' })
    expect(user.passport).toEqual({})
    registry.setPassport(user.id, {
      zkevmEthAddress: '0x1111111111111111111111111111111111111111',
      zkevmUserAdminAddress: '0x2222222222222222222222222222222222222222',
    })
    registry.setPassport(user.id, {
      imxStarkAddress: '0x0333',
      zkevmUserAdminAddress: undefined,
    })
    expect(registry.get(user.id)?.passport).toEqual({
      zkevmEthAddress: '0x1111111111111111111111111111111111111111',
      imxStarkAddress: '0x0333',
    })
    expect(() => registry.setPassport('nobody', {})).toThrow(
      'Unknown user nobody.',
    )
  })

  test('error: funding against an unreachable chain fails the creation', async () => {
    const registry = createRegistry({ rpcUrl: 'http://127.0.0.1:1' })
    await expect(
      registry.findOrCreate({ email: 'ada@example.com' }),
    ).rejects.toThrow()
    expect(registry.find({ email: 'ada@example.com' })).toBe(undefined)
  })

  test('error: past maxUsers a new user is refused; known users are still found', async () => {
    const registry = createRegistry({ maxUsers: 2 })
    const ada = await registry.findOrCreate({ email: 'ada@example.com' })
    await registry.findOrCreate({ email: 'bob@example.com' })
    const error = await registry
      .findOrCreate({ email: 'eve@example.com' })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(RegistryFullError)
    expect((error as RegistryFullError).shortMessage).toBe(
      'The emulator holds 2 users already; restart it to start afresh.',
    )
    expect(await registry.findOrCreate({ email: 'ada@example.com' })).toBe(ada)
    expect(registry.find({ email: 'eve@example.com' })).toBeUndefined()
  })
})
