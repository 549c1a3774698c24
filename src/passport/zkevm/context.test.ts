import type { Address } from 'viem'
import { describe, expect, test } from 'vitest'
import { createNonceReservations } from './context.js'

const wallet = '0x00000000000000000000000000000000000000aa' as Address

/** Reservations over a chain whose next nonce the test sets. */
function reservations(start: bigint) {
  const chain = { nonce: start }
  const nonces = createNonceReservations(async () => chain.nonce)
  const reserve = () => nonces.reserve(wallet, 0n)
  const release = (nonce: bigint) => nonces.release(wallet, 0n, nonce)
  return { chain, nonces, reserve, release }
}

describe('createNonceReservations', () => {
  test('behavior: parallel reservations are consecutive from the chain nonce', async () => {
    const { reserve } = reservations(5n)
    expect(await Promise.all([reserve(), reserve(), reserve()])).toEqual([
      5n,
      6n,
      7n,
    ])
  })

  test('behavior: the latest reservation given back is handed out again', async () => {
    const { reserve, release } = reservations(5n)
    expect(await reserve()).toBe(5n)
    release(5n)
    expect(await reserve()).toBe(5n)
  })

  test('behavior: a nonce given back while later ones are out is handed out again once they are all given back, in any order', async () => {
    const { reserve, release } = reservations(5n)
    await Promise.all([reserve(), reserve(), reserve()])
    // The first one stalled; the two queued behind it end later.
    release(5n)
    expect(await reserve()).toBe(8n)
    release(8n)
    release(7n)
    release(6n)
    expect(await reserve()).toBe(5n)
    expect(await reserve()).toBe(6n)
  })

  test('behavior: while one reservation above a given-back nonce ran, the next nonce stays after it', async () => {
    const { reserve, release } = reservations(5n)
    await Promise.all([reserve(), reserve(), reserve()])
    release(5n)
    release(7n)
    // 6 was sent: 5 is not handed out again (6 would never run after it).
    expect(await reserve()).toBe(7n)
  })

  test('behavior: a given-back nonce that landed late is not handed out again', async () => {
    const { chain, reserve, release } = reservations(5n)
    await Promise.all([reserve(), reserve()])
    // 5 timed out, then landed after all, and 6 after it.
    release(5n)
    chain.nonce = 7n
    expect(await reserve()).toBe(7n)
    release(7n)
    expect(await reserve()).toBe(7n)
  })

  test('default: a nonce not reserved, or at or above the next one, is ignored', async () => {
    const { reserve, release } = reservations(5n)
    release(5n)
    expect(await reserve()).toBe(5n)
    release(9n)
    release(6n)
    expect(await reserve()).toBe(6n)
  })
})
