import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Storage from '../../core/Storage.js'
import * as Session from './session.js'

afterEach(() => {
  vi.unstubAllGlobals()
})

/** A state holding a key pair, a proof, an rt and a share. */
function held(storage: Storage.Storage) {
  const state = Session.of(storage)
  const keys = Promise.resolve({} as Session.KeyPair)
  state.keys = keys
  state.pool = [{ jwt: 'a.b.c', at: 1 }]
  state.rt = Promise.resolve('rt')
  state.shares.set('hash', Promise.resolve('share'))
  return { state, keys }
}

/** Posts `change` as another client would; resolves once it arrived. */
async function fromAnotherClient(change: string) {
  const other = new BroadcastChannel(Session.channelName)
  const probe = new BroadcastChannel(Session.channelName)
  const arrived = new Promise((resolve) => {
    probe.onmessage = resolve
  })
  other.postMessage(change)
  await arrived
  // The listener got it in the same turn as the probe; let it run.
  await new Promise((resolve) => setTimeout(resolve, 0))
  other.close()
  probe.close()
}

describe('Session.drop', () => {
  test("default: 'session' forgets the rt and shares, keeps the pair and proofs", () => {
    const storage = Storage.memory()
    const { state, keys } = held(storage)
    Session.drop(state, 'session')
    expect(state.rt).toBe(undefined)
    expect(state.shares.size).toBe(0)
    expect(state.keys).toBe(keys)
    expect(state.pool).toEqual([{ jwt: 'a.b.c', at: 1 }])
  })

  test("behavior: 'keys' forgets the pair and its proofs too", () => {
    const storage = Storage.memory()
    const { state } = held(storage)
    const pool = state.pool
    Session.drop(state, 'keys')
    expect([state.keys, state.rt, state.shares.size]).toEqual([
      undefined,
      undefined,
      0,
    ])
    expect(state.pool).toEqual([])
    // A new array: a refill still signing for the old one sees it is gone.
    expect(state.pool).not.toBe(pool)
  })
})

describe('Session.listen', () => {
  test("behavior: another client's change makes this one forget", async () => {
    vi.stubGlobal('document', {})
    const storage = Storage.memory()
    Session.listen(storage)
    const { state, keys } = held(storage)
    await fromAnotherClient('session')
    expect([state.rt, state.shares.size, state.keys]).toEqual([
      undefined,
      0,
      keys,
    ])
    held(storage)
    await fromAnotherClient('keys')
    expect([state.rt, state.keys, state.pool]).toEqual([
      undefined,
      undefined,
      [],
    ])
    Session.of(storage).channel?.close()
  })

  test('behavior: without a document (SSR) nothing listens', () => {
    const storage = Storage.memory()
    Session.listen(storage)
    expect(Session.of(storage).channel).toBe(undefined)
    Session.of(storage).channel?.close()
  })
})

describe('Session.notify', () => {
  test('default: the other clients get the change, not the client that wrote', async () => {
    vi.stubGlobal('document', {})
    const storage = Storage.memory()
    Session.listen(storage)
    const { state, keys } = held(storage)
    const other = new BroadcastChannel(Session.channelName)
    const received = new Promise((resolve) => {
      other.onmessage = (event) => resolve(event.data)
    })
    Session.notify(storage, 'keys')
    expect(await received).toBe('keys')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(state.keys).toBe(keys)
    other.close()
    Session.of(storage).channel?.close()
  })
})
