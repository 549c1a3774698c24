import { describe, expect, test } from 'vitest'
import {
  call,
  createDevice,
  createTestService,
  loginByEmail,
  rawJson,
} from './testkit.js'

/** A service with ada@example.com logged in on `device`. */
async function setup() {
  const env = createTestService()
  const device = await createDevice({ now: env.now })
  await loginByEmail(env.app, env.mailbox, 'ada@example.com', device)
  const address = env.registry.find({ email: 'ada@example.com' })!.address
  return { ...env, device, address }
}

describe('mc_disconnect', () => {
  test('behavior: answers true and ends the session server-side, like logout', async () => {
    const { app, device } = await setup()
    const rt = device.rt
    expect((await call(app, 'mc_disconnect', [], { device })).result).toBe(true)
    // The device still sends its old rt: the server no longer accepts it.
    expect(device.rt).toBe(rt)
    expect((await call(app, 'magic_is_logged_in', [], { device })).result).toBe(
      false,
    )
    expect((await call(app, 'eth_accounts', [], { device })).result).toEqual([])
    expect((await call(app, 'magic_get_info', [], { device })).error).toEqual({
      code: -10011,
      message: 'The user is not logged in.',
    })
  })

  test('behavior: without a session it still answers true', async () => {
    const { app } = await setup()
    expect((await call(app, 'mc_disconnect')).result).toBe(true)
  })
})

describe('magic_get_multichain_public_address', () => {
  test('default: chain ETH (or none) is the user’s address', async () => {
    const { app, device, address } = await setup()
    expect(
      (
        await call(
          app,
          'magic_get_multichain_public_address',
          [{ chain: 'ETH' }],
          {
            device,
          },
        )
      ).result,
    ).toBe(address)
    expect(
      (await call(app, 'magic_get_multichain_public_address', [], { device }))
        .result,
    ).toBe(address)
  })

  test('error: a chain the emulator holds no keys for is -32602', async () => {
    const { app, device } = await setup()
    expect(
      (
        await call(
          app,
          'magic_get_multichain_public_address',
          [{ chain: 'SOLANA' }],
          { device },
        )
      ).error,
    ).toEqual({
      code: -32602,
      message:
        'magic_get_multichain_public_address: the emulator holds keys for chain ETH only, not "SOLANA".',
    })
    const deep = rawJson(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)
    expect(
      (
        await call(
          app,
          'magic_get_multichain_public_address',
          [{ chain: deep }],
          { device },
        )
      ).error,
    ).toEqual({
      code: -32602,
      message:
        'magic_get_multichain_public_address: the emulator holds keys for chain ETH only, not an array.',
    })
  })

  test('error: logged out is -10011', async () => {
    const { app } = await setup()
    expect(
      (
        await call(app, 'magic_get_multichain_public_address', [
          { chain: 'ETH' },
        ])
      ).error,
    ).toEqual({ code: -10011, message: 'The user is not logged in.' })
  })
})
