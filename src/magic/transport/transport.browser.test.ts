import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  call,
  cleanup,
  type Echo,
  fixtureOrigin,
  iframesOf,
  params,
  setup,
} from '../../../test/browser/fixtures/transportClient.js'
import * as Rpc from '../../core/Rpc.js'
import * as Storage from '../../core/Storage.js'
import * as Dpop from '../keys/dpop.js'
import * as Base64 from '../wire/base64.js'

/** The hidden styles as Chromium serialises them (`border: none` expands). */
const hiddenStyle =
  'display: none; position: fixed; top: 0px; right: 0px; width: 100%; height: 100%; border-radius: 0px; border-width: medium; border-style: none; border-color: currentcolor; border-image: none; opacity: 0; z-index: -1;'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

describe('Transport.create', () => {
  test('default: a lazy iframe with the exact attributes and hidden styles', async () => {
    const { encoded, transport } = setup()
    expect(iframesOf(encoded)).toEqual([])
    await transport.preload()
    const [iframe, ...others] = iframesOf(encoded)
    expect(others).toEqual([])
    expect(iframe?.parentElement).toBe(document.body)
    expect(iframe?.className).toBe('magic-iframe')
    expect(iframe?.dataset.magicIframeLabel).toBe(new URL(fixtureOrigin).host)
    expect(iframe?.title).toBe('Secure Modal')
    expect(iframe?.allow).toBe('clipboard-read; clipboard-write')
    expect(iframe?.src).toBe(
      `${fixtureOrigin}/send?params=${encodeURIComponent(encoded)}`,
    )
    expect(iframe?.getAttribute('style')).toBe(hiddenStyle)
  })

  test('behavior: nothing is posted before the overlay-ready message', async () => {
    const { transport } = setup({ meta: { readyDelay: 300 } })
    const order: string[] = []
    transport.on('MAGIC_OVERLAY_READY', () => order.push('ready'))
    const started = performance.now()
    const response = await call(transport, 'eth_chainId', ['x'])
    order.push('answered')
    expect(performance.now() - started).toBeGreaterThanOrEqual(300)
    expect(order).toEqual(['ready', 'answered'])
    expect(response.result).toEqual({
      method: 'eth_chainId',
      params: ['x'],
      jwt: true,
      rt: null,
      deviceShare: null,
      early: 0,
    } satisfies Echo)
  })

  test('behavior: only the exact suffix and a strictly equal id match', async () => {
    const { transport } = setup()
    const request = Rpc.createRequest('fixture_decoys')
    // Decoys first: a string id, no suffix, another suffix, no response.
    expect(await transport.post(request)).toEqual({
      jsonrpc: '2.0',
      id: request.id,
      result: expect.objectContaining({ method: 'fixture_decoys' }),
    })
  })

  test('behavior: one iframe per distinct params, shared by equal ones', async () => {
    const shared = params()
    const a = setup({ params: shared })
    const b = setup({ params: shared })
    const c = setup()
    await Promise.all([a.transport.preload(), b.transport.preload()])
    await c.transport.preload()
    expect(iframesOf(a.encoded).length).toBe(1)
    expect(iframesOf(c.encoded).length).toBe(1)
    expect((await call(a.transport, 'one')).result.method).toBe('one')
    expect((await call(b.transport, 'two')).result.method).toBe('two')
    a.transport.destroy()
    expect(iframesOf(a.encoded).length).toBe(1)
    expect((await call(b.transport, 'three')).result.method).toBe('three')
    b.transport.destroy()
    expect(iframesOf(a.encoded)).toEqual([])
    expect(iframesOf(c.encoded).length).toBe(1)
  })

  test('behavior: the overlay shows and hides, and focus returns', async () => {
    const { encoded, transport } = setup()
    const button = document.createElement('button')
    button.className = 'test-element'
    document.body.appendChild(button)
    button.focus()
    await call(transport, 'fixture_show_overlay')
    const iframe = iframesOf(encoded)[0] as HTMLIFrameElement
    expect([
      iframe.style.display,
      iframe.style.zIndex,
      iframe.style.opacity,
    ]).toEqual(['block', '2147483647', '1'])
    expect(document.activeElement).toBe(iframe)
    await call(transport, 'fixture_hide_overlay')
    expect(iframe.getAttribute('style')).toBe(hiddenStyle)
    expect(document.activeElement).toBe(button)
  })

  test('behavior: flow events go to the listeners of their request id', async () => {
    const { transport } = setup()
    const request = Rpc.createRequest('fixture_event', [
      {
        events: [
          { event: 'email-otp-sent', params: ['a@b.c'] },
          { id: 999_999_999, event: 'elsewhere', params: [] },
          { event: 'invalid-email-otp' },
        ],
      },
    ])
    const mine: unknown[] = []
    const other: unknown[] = []
    const removed: unknown[] = []
    transport.onEvent(request.id, (...args) => mine.push(args))
    transport.onEvent(999_999_999, (...args) => other.push(args))
    transport.onEvent(request.id, (...args) => removed.push(args))()
    await transport.post(request)
    expect(mine).toEqual([
      ['email-otp-sent', ['a@b.c']],
      ['invalid-email-otp', []],
    ])
    expect(other).toEqual([['elsewhere', []]])
    expect(removed).toEqual([])
  })

  test('behavior: a batch goes in one message and resolves in request order', async () => {
    const { transport } = setup({ meta: { reverseBatch: true } })
    const batch = [
      Rpc.createRequest('first'),
      Rpc.createRequest('second', [2]),
      Rpc.createRequest('third'),
    ]
    const responses = await transport.postBatch(batch)
    expect(responses.map((r) => [r.id, (r.result as Echo).method])).toEqual(
      batch.map((request) => [request.id, request.method]),
    )
    const log = (await call(transport, 'fixture_log')).result as unknown as {
      payload: unknown
    }[]
    expect(log.map((entry) => Array.isArray(entry.payload))).toEqual([
      true,
      false,
    ])
    expect(await transport.postBatch([])).toEqual([])
  })

  test('behavior: rt and device share are persisted and sent back', async () => {
    const storage = Storage.memory()
    const { transport } = setup({ storage })
    const share = Base64.fromBytes(crypto.getRandomValues(new Uint8Array(32)))
    await call(transport, 'fixture_rt', [{ rt: 'rt-1' }])
    expect(await storage.getItem('rt')).toBe('rt-1')
    await call(transport, 'fixture_device_share', [{ deviceShare: share }])
    const stored = await storage.getItem<string>('ds_pk_test_eth_mainnet')
    expect(typeof stored).toBe('string')
    expect(stored).not.toBe(share)
    const echo = (await call(transport, 'next')).result
    expect([echo.jwt, echo.rt, echo.deviceShare]).toEqual([true, 'rt-1', share])
  })

  test('behavior: error -10019 deletes the DPoP keys; the next proof is new', async () => {
    const storage = Storage.memory()
    const { transport } = setup({ storage })
    await call(transport, 'first')
    const before = await storage.getItem(Dpop.publicJwkKey)
    expect(before).not.toBe(null)
    const error = { code: -10019, message: 'DPoP invalidated' }
    const response = await call(transport, 'fixture_error', [{ error }])
    expect(response.error).toEqual(error)
    expect(await storage.getItem(Dpop.publicJwkKey)).toBe(null)
    expect(await storage.getItem(Dpop.privateKeyKey)).toBe(null)
    expect((await call(transport, 'again')).result.jwt).toBe(true)
    expect(await storage.getItem(Dpop.publicJwkKey)).not.toEqual(before)
  })

  test('behavior: "User denied account access." deletes every device share', async () => {
    const storage = Storage.memory()
    const { transport } = setup({ storage })
    const share = Base64.fromBytes(new Uint8Array([9, 9, 9]))
    await call(transport, 'fixture_device_share', [{ deviceShare: share }])
    await storage.setItem('ds_other', 'x')
    await storage.setItem('rt', 'kept')
    const error = { code: -32603, message: 'User denied account access.' }
    await call(transport, 'fixture_error', [{ error, deviceShare: share }])
    expect((await storage.keys()).filter((k) => k.startsWith('ds_'))).toEqual(
      [],
    )
    expect(await storage.getItem('rt')).toBe('kept')
    expect((await call(transport, 'next')).result.deviceShare).toBe(null)
  })

  test('behavior: a product announcement is warned', async () => {
    const { transport, warnings } = setup()
    await call(transport, 'fixture_announce', [{ text: 'New: passkeys' }])
    expect(warnings).toEqual([
      { code: 'ANNOUNCEMENT', message: 'New: passkeys' },
    ])
  })

  test('behavior: send() suffixes msgType and waits for ready', async () => {
    const { encoded, transport } = setup({ meta: { readyDelay: 200 } })
    transport.send('MAGIC_THIRD_PARTY_WALLET_RESPONSE', {
      response: { id: 1, jsonrpc: '2.0', result: '0x1' },
    })
    const log = (await call(transport, 'fixture_log')).result as unknown as {
      msgType: string
      ready: boolean
    }[]
    expect(log[0]).toEqual({
      msgType: `MAGIC_THIRD_PARTY_WALLET_RESPONSE-${encoded}`,
      ready: true,
      jwt: false,
      rt: null,
      deviceShare: null,
      payload: null,
    })
  })
})
