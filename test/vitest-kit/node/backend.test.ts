/**
 * A dApp's backend test as the Vitest helpers make it: the emulator of this
 * worker from the global setup, a headless login whose DID token the
 * published @magic-sdk/admin validates, and the chain reverted after each
 * test.
 */
import { Magic as MagicAdmin } from '@magic-sdk/admin'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import { createPublicClient, http } from 'viem'
import { describe, expect, inject, test } from 'vitest'
import { withEmulator } from '../../../src/testing/vitest.js'

const emulator = withEmulator()
const alice = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const chainOf = () =>
  createPublicClient({ transport: http(emulator.info.rpcUrl) })

describe('withEmulator', () => {
  test("behavior: the file gets its worker's emulator from the global setup", () => {
    const { emulators, shared } = inject('embeddedWallets')
    expect(emulators).toHaveLength(2)
    expect(shared).toBe(false)
    const worker = Number(process.env.VITEST_POOL_ID) - 1
    expect(emulator.info).toEqual(emulators[worker % emulators.length])
    expect(new Set(emulators.map((info) => info.rpcUrl)).size).toBe(2)
  })

  let before: bigint | undefined

  test('behavior: a test funds an address (1 of 2)', async () => {
    before = await chainOf().getBalance({ address: alice })
    const { eth } = await emulator.kit.fund(alice, { eth: '1234' })
    expect(eth).toBe(1234n * 10n ** 18n)
  })

  test('behavior: the next test finds the chain as it was before (2 of 2)', async () => {
    expect(before).toEqual(expect.any(BigInt))
    expect(await chainOf().getBalance({ address: alice })).toBe(before)
  })

  test("behavior: a headless login's DID token passes @magic-sdk/admin", async () => {
    const { didToken, publicAddress } = await emulator.kit.magic.didToken({
      email: 'backend@example.com',
    })
    const admin = new MagicAdmin('sk_live_EMULATOR0000000000', {
      endpoint: emulator.info.magic.endpoint,
    })
    admin.token.validate(didToken)
    expect(admin.token.getPublicAddress(didToken)).toBe(publicAddress)
  })

  test("behavior: the game wallet's id token verifies against the JWKS", async () => {
    const { idToken } = await emulator.kit.passport.login({
      email: 'backend@example.com',
    })
    const { payload } = await jwtVerify(
      idToken,
      createRemoteJWKSet(
        new URL(
          '/.well-known/jwks.json',
          emulator.info.passport.authenticationDomain,
        ),
      ),
    )
    expect(payload.email).toBe('backend@example.com')
  })
})
