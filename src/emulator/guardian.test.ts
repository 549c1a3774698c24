import { type Address, type Hex, toHex } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  createGuardian,
  maxAllowances,
  maxVerdicts,
  maxVerdictText,
} from './guardian.js'

const wallet: Address = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'
const digest = (n: number): Hex => toHex(n, { size: 32 })

const transaction = (n: number, payload: unknown = {}) => ({
  kind: 'transaction' as const,
  chainId: 31337,
  wallet,
  digest: digest(n),
  payload,
})

describe('verdicts', () => {
  test('a pending verdict allows nothing until settled allowed; a settled one cannot be settled again', () => {
    const guardian = createGuardian()
    const verdict = guardian.record({ ...transaction(1), state: 'pending' })
    const query = { chainId: 31337, wallet, digest: digest(1) }
    expect(guardian.isAllowed(query)).toBe(false)
    expect(guardian.settle(verdict.id, 'allowed')).toBe(true)
    expect(guardian.isAllowed(query)).toBe(true)
    // Checksum and digest case do not matter.
    expect(
      guardian.isAllowed({
        ...query,
        wallet: wallet.toLowerCase() as Address,
        digest: digest(1).toUpperCase().replace('0X', '0x') as Hex,
      }),
    ).toBe(true)
    expect(guardian.settle(verdict.id, 'rejected')).toBe(false)
    expect(guardian.get(verdict.id)?.state).toBe('allowed')
  })

  test(`keeps at most ${maxVerdicts} verdicts, forgetting the oldest`, () => {
    const guardian = createGuardian()
    const ids = Array.from(
      { length: maxVerdicts + 1 },
      (_, n) => guardian.record({ ...transaction(n), state: 'pending' }).id,
    )
    expect(guardian.get(ids[0] as string)).toBeUndefined()
    expect(guardian.get(ids[1] as string)?.digest).toBe(digest(1))
    expect(guardian.get(ids[maxVerdicts] as string)?.digest).toBe(
      digest(maxVerdicts),
    )
  })

  test('keeps at most 32 MiB of payload text over all verdicts, forgetting the oldest', () => {
    const guardian = createGuardian()
    const big = 'x'.repeat(1024 * 1024 - 2) // 1 MiB of JSON text with its quotes
    const ids = Array.from(
      { length: 33 },
      (_, n) =>
        guardian.record({ ...transaction(n, big), state: 'pending' }).id,
    )
    expect(maxVerdictText).toBe(32 * 1024 * 1024)
    expect(guardian.get(ids[0] as string)).toBeUndefined()
    expect(ids.slice(1).every((id) => guardian.get(id)?.payload === big)).toBe(
      true,
    )
    // A small one fits beside them only once another big one goes.
    const small = guardian.record({ ...transaction(99, 'y'), state: 'pending' })
    expect(guardian.get(small.id)?.payload).toBe('y')
    expect(guardian.get(ids[1] as string)).toBeUndefined()
    expect(guardian.get(ids[2] as string)?.payload).toBe(big)
  })
})

describe('find', () => {
  test("behavior: finds the newest verdict on a digest for the wallet, of the kinds asked, on the chain asked; never another wallet's", () => {
    const guardian = createGuardian()
    const older = guardian.record({ ...transaction(1), state: 'allowed' })
    const newer = guardian.record({ ...transaction(1), state: 'pending' })
    const otherChain = guardian.record({
      ...transaction(1),
      chainId: 1337,
      state: 'pending',
    })
    const message = guardian.record({
      ...transaction(2),
      kind: 'message',
      state: 'pending',
    })
    const query = { wallet, digest: digest(1), kinds: ['transaction'] as const }
    expect(guardian.find({ ...query, chainId: 31337 })?.id).toBe(newer.id)
    expect(guardian.find(query)?.id).toBe(otherChain.id)
    expect(guardian.find({ ...query, chainId: 1337 })?.id).toBe(otherChain.id)
    // Case does not matter; kind, wallet and chain do.
    expect(
      guardian.find({
        ...query,
        wallet: wallet.toLowerCase() as Address,
        digest: digest(1).toUpperCase().replace('0X', '0x') as Hex,
        chainId: 31337,
      })?.id,
    ).toBe(newer.id)
    expect(guardian.find({ ...query, digest: digest(2) })).toBeUndefined()
    expect(
      guardian.find({ ...query, digest: digest(2), kinds: ['message'] })?.id,
    ).toBe(message.id)
    expect(
      guardian.find({
        ...query,
        wallet: '0x0000000000000000000000000000000000000001',
      }),
    ).toBeUndefined()
    expect(guardian.find({ ...query, chainId: 5 })).toBeUndefined()
    expect(older.state).toBe('allowed')
  })
})

describe('allowances', () => {
  test(`keeps at most ${maxAllowances} allowed digests, forgetting the oldest (even after their verdicts went)`, () => {
    const guardian = createGuardian()
    for (let n = 0; n <= maxAllowances; n++)
      guardian.record({ ...transaction(n), state: 'allowed' })
    const allowed = (n: number) =>
      guardian.isAllowed({ chainId: 31337, wallet, digest: digest(n) })
    expect(allowed(0)).toBe(false)
    expect(allowed(1)).toBe(true)
    expect(allowed(maxAllowances)).toBe(true)
    // Allowing a digest again makes it the newest.
    guardian.record({ ...transaction(1), state: 'allowed' })
    guardian.record({ ...transaction(maxAllowances + 1), state: 'allowed' })
    expect(allowed(1)).toBe(true)
    expect(allowed(2)).toBe(false)
  })
})

describe('secrets', () => {
  test("behavior: a verdict's secret is its own and this guardian's: another verdict's, another guardian's or a malformed one does not match", () => {
    const guardian = createGuardian()
    const one = guardian.record({ ...transaction(1), state: 'pending' })
    const two = guardian.record({ ...transaction(2), state: 'pending' })
    const secret = guardian.secretOf(one.id)
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
    expect(guardian.secretOf(one.id)).toBe(secret)
    expect(guardian.isSecretOf(one.id, secret)).toBe(true)
    expect(guardian.isSecretOf(two.id, secret)).toBe(false)
    expect(createGuardian().isSecretOf(one.id, secret)).toBe(false)
    for (const bad of [secret.toUpperCase(), secret.slice(2), 42, undefined])
      expect(guardian.isSecretOf(one.id, bad)).toBe(false)
  })
})
