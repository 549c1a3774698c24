import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  call,
  cleanup,
  fixtureOrigin,
  forgeFrom,
  forgeFromSelf,
  iframesOf,
  otherOrigin,
  setup,
} from '../../../test/browser/fixtures/transportClient.js'
import * as Rpc from '../../core/Rpc.js'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

/**
 * Posts a held request, lets `forge` send a forged answer to it, checks the
 * request is still pending, then releases the real answer.
 */
async function heldAgainst(forge: (forged: object) => Promise<void>) {
  const { encoded, transport } = setup()
  await transport.preload()
  const request = Rpc.createRequest('fixture_hold')
  let settled = false
  const pending = transport.post(request).finally(() => {
    settled = true
  })
  const forged = {
    msgType: `MAGIC_HANDLE_RESPONSE-${encoded}`,
    response: { jsonrpc: '2.0', id: request.id, result: 'forged' },
  }
  await forge(forged)
  // Give a (wrongly) accepted answer time to settle the request.
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(settled).toBe(false)
  await call(transport, 'fixture_release')
  const response = await pending
  expect(response.result).toEqual(
    expect.objectContaining({ method: 'fixture_hold' }),
  )
}

describe('Transport.create: message checks', () => {
  test('behavior: a message from this page (another origin) is ignored', async () => {
    await heldAgainst(forgeFromSelf)
  })

  test('behavior: a message from a window of another origin is ignored', async () => {
    await heldAgainst((forged) => forgeFrom(otherOrigin, forged))
  })

  test('behavior: a message from another window of the endpoint origin is ignored', async () => {
    await heldAgainst((forged) => forgeFrom(fixtureOrigin, forged))
  })

  test('behavior: our own iframe navigated to another origin is ignored', async () => {
    const { encoded, transport } = setup()
    await transport.preload()
    const iframe = iframesOf(encoded)[0] as HTMLIFrameElement
    const request = Rpc.createRequest('fixture_hold')
    let settled = false
    transport.post(request).then(
      () => (settled = true),
      () => {},
    )
    const loaded = new Promise((resolve) =>
      iframe.addEventListener('load', resolve, { once: true }),
    )
    await call(transport, 'fixture_navigate', [{ url: `${otherOrigin}/forge` }])
    await loaded
    // The same window (our iframe's), now of another origin, forges.
    const nonce = crypto.randomUUID()
    const acked = new Promise<void>((resolve) =>
      window.addEventListener('message', function listener(event) {
        if (event.data?.ack !== nonce) return
        window.removeEventListener('message', listener)
        resolve()
      }),
    )
    iframe.contentWindow?.postMessage(
      {
        forged: {
          msgType: `MAGIC_HANDLE_RESPONSE-${encoded}`,
          response: { jsonrpc: '2.0', id: request.id, result: 'forged' },
        },
        nonce,
      },
      otherOrigin,
    )
    await acked
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(settled).toBe(false)
  })

  test('behavior: a forged ready from another window does not start requests', async () => {
    const { encoded, transport } = setup({ meta: { readyDelay: 400 } })
    const pending = call(transport, 'after_ready')
    await forgeFrom(fixtureOrigin, {
      msgType: `MAGIC_OVERLAY_READY-${encoded}`,
    })
    expect((await pending).result.early).toBe(0)
  })
})

describe('Transport.create: lost iframe, offline, duplicates, destroy', () => {
  test('behavior: an iframe removed from the DOM is re-created and the request succeeds', async () => {
    const { encoded, transport, warnings } = setup()
    await transport.preload()
    const first = iframesOf(encoded)[0]
    first?.remove()
    expect((await call(transport, 'after_removal')).result.method).toBe(
      'after_removal',
    )
    const [second, ...others] = iframesOf(encoded)
    expect(others).toEqual([])
    expect(second).not.toBe(first)
    expect(warnings).toEqual([
      { code: undefined, message: 'Magic SDK: Modal lost, re-initiating' },
    ])
  })

  test('behavior: an iframe whose src was changed is reset and waited for', async () => {
    const { encoded, transport } = setup()
    await transport.preload()
    const iframe = iframesOf(encoded)[0] as HTMLIFrameElement
    iframe.src = `${fixtureOrigin}/forge`
    const response = await call(transport, 'after_reset')
    expect(response.result.method).toBe('after_reset')
    expect(iframe.src).toBe(
      `${fixtureOrigin}/send?params=${encodeURIComponent(encoded)}`,
    )
  })

  test('error: offline, post rejects with MODAL_NOT_READY and sends nothing', async () => {
    const { transport } = setup()
    await transport.preload()
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
    await expect(
      transport.post(Rpc.createRequest('offline')),
    ).rejects.toMatchObject({
      code: 'MODAL_NOT_READY',
      message: 'Magic SDK Error: [MODAL_NOT_READY] Modal is not ready',
    })
    await expect(
      transport.postBatch([Rpc.createRequest('offline')]),
    ).rejects.toMatchObject({ code: 'MODAL_NOT_READY' })
    onLine.mockRestore()
    const log = (await call(transport, 'fixture_log')).result as unknown as {
      payload: { method: string }
    }[]
    expect(log.map((entry) => entry.payload.method)).toEqual(['fixture_log'])
  })

  test('behavior: a foreign duplicate iframe is warned about, and ours works', async () => {
    const { encoded, transport, warnings } = setup()
    const foreign = document.createElement('iframe')
    foreign.className = 'magic-iframe test-element'
    foreign.src = `${fixtureOrigin}/forge?params=${encodeURIComponent(encoded)}`
    document.body.appendChild(foreign)
    expect((await call(transport, 'works')).result.method).toBe('works')
    expect(warnings).toEqual([
      { code: 'DUPLICATE_IFRAME', message: 'Duplicate iframes found.' },
    ])
    expect(iframesOf(encoded).length).toBe(2)
  })

  test('behavior: destroy rejects pending requests and removes the iframe', async () => {
    const { encoded, transport } = setup()
    await transport.preload()
    const pending = transport.post(Rpc.createRequest('fixture_hold'))
    transport.destroy()
    await expect(pending).rejects.toMatchObject({ code: 'MODAL_NOT_READY' })
    expect(iframesOf(encoded)).toEqual([])
    // A new transport with the same params gets a new iframe.
    const again = setup({ params: { ...paramsOf(encoded) } })
    expect((await call(again.transport, 'again')).result.method).toBe('again')
    expect(iframesOf(encoded).length).toBe(1)
  })
})

function paramsOf(encoded: string) {
  const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0))
  return JSON.parse(new TextDecoder().decode(bytes))
}
