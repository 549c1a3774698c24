import { createStore, type Store } from 'mipd'
import { afterEach, describe, expect, test } from 'vitest'
import * as Announce from './Announce.js'

const icon = 'data:image/svg+xml;base64,PHN2Zy8+'
const uuidV4 =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

function store(): Store {
  const created = createStore()
  cleanups.push(() => created.destroy())
  return created
}

function announce(rdns: string, uuid?: string) {
  const provider = { request: async () => null }
  const unsubscribe = Announce.announce({
    provider,
    info: { name: `Wallet ${rdns}`, icon, rdns, uuid },
  })
  cleanups.push(unsubscribe)
  return { provider, unsubscribe }
}

describe('Announce.announce', () => {
  test('default: a mipd store discovers the provider', () => {
    const providers = store()
    const { provider } = announce('com.example.default')
    const detail = providers.findProvider({ rdns: 'com.example.default' })
    expect(detail?.provider).toBe(provider)
    expect(detail?.info).toEqual({
      icon,
      name: 'Wallet com.example.default',
      rdns: 'com.example.default',
      uuid: expect.stringMatching(uuidV4),
    })
    expect(providers.getProviders()).toHaveLength(1)
  })

  test('behavior: a provider announced before the store is found', () => {
    const { provider } = announce('com.example.early')
    const providers = store()
    expect(
      providers.findProvider({ rdns: 'com.example.early' })?.provider,
    ).toBe(provider)
  })

  test('behavior: one uuid per rdns for the page session', () => {
    const first = store()
    announce('com.example.same')
    const uuid = first.findProvider({ rdns: 'com.example.same' })?.info.uuid
    const second = store()
    second.clear()
    announce('com.example.same')
    announce('com.example.other')
    expect(second.findProvider({ rdns: 'com.example.same' })?.info.uuid).toBe(
      uuid,
    )
    expect(
      second.findProvider({ rdns: 'com.example.other' })?.info.uuid,
    ).not.toBe(uuid)
  })

  test('param: info.uuid is used as given', () => {
    const providers = store()
    announce('com.example.fixed', '3f0259bb-54c0-4ff0-85f2-6bb7c2d8b6c8')
    expect(
      providers.findProvider({ rdns: 'com.example.fixed' })?.info.uuid,
    ).toBe('3f0259bb-54c0-4ff0-85f2-6bb7c2d8b6c8')
  })

  test('behavior: a v4 uuid is made without crypto.randomUUID', () => {
    Object.defineProperty(crypto, 'randomUUID', {
      configurable: true,
      value: undefined,
    })
    cleanups.push(() => Reflect.deleteProperty(crypto, 'randomUUID'))
    const providers = store()
    announce('com.example.insecure')
    const uuid = providers.findProvider({ rdns: 'com.example.insecure' })?.info
      .uuid
    expect(uuid).toMatch(uuidV4)
  })

  test('behavior: unsubscribe stops re-announcing', () => {
    const { unsubscribe } = announce('com.example.gone')
    const before = store()
    expect(before.findProvider({ rdns: 'com.example.gone' })).toBeDefined()
    unsubscribe()
    before.reset()
    expect(before.findProvider({ rdns: 'com.example.gone' })).toBe(undefined)
    const after = store()
    expect(after.getProviders()).toEqual([])
  })
})
