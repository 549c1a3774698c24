import type { Address } from 'viem'
import { describe, expect, test } from 'vitest'
import { create } from './accountStore.js'

const a = '0x00000000000000000000000000000000000000Aa' as Address
const b = '0x00000000000000000000000000000000000000bB' as Address

function store(wallet: () => Promise<Address | undefined> = async () => a) {
  const events: Address[][] = []
  const accounts = create({ wallet, onChange: (list) => events.push(list) })
  return { accounts, events }
}

describe('AccountStore', () => {
  test('behavior: one event per change, none for a repeat (any case)', () => {
    const { accounts, events } = store()
    accounts.set(a)
    accounts.set(a)
    accounts.set(a.toLowerCase() as Address)
    accounts.set(b)
    accounts.set(undefined)
    accounts.set(undefined)
    expect(events).toEqual([[a], [b], []])
    expect(accounts.address).toBeUndefined()
  })

  test('behavior: the wallet at start is recorded without an event; a change after it emits', () => {
    const { accounts, events } = store()
    accounts.start(a)
    accounts.set(a)
    expect(events).toEqual([])
    expect(accounts.address).toBe(a)
    accounts.set(undefined)
    expect(events).toEqual([[]])
  })

  test('behavior: a start read that comes after a logout or sign-in changes nothing', () => {
    const { accounts, events } = store()
    accounts.set(b)
    accounts.start(a)
    accounts.set(undefined)
    accounts.start(a)
    expect(accounts.address).toBeUndefined()
    expect(events).toEqual([[b], []])
  })

  test('behavior: read records the session wallet; a session that cannot be read records nothing', async () => {
    let answer: () => Promise<Address | undefined> = async () => a
    const { accounts, events } = store(() => answer())
    expect(await accounts.read()).toBe(a)
    expect(await accounts.read()).toBe(a)
    answer = async () => {
      throw new Error('refresh failed')
    }
    expect(await accounts.read()).toBeUndefined()
    expect(accounts.address).toBe(a)
    answer = async () => undefined
    expect(await accounts.read()).toBeUndefined()
    expect(events).toEqual([[a], []])
  })
})
