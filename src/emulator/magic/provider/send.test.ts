import { Hono } from 'hono'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { encodeParams } from '../../../magic/wire/messages.js'
import { resolveBrowserApp } from '../../assets.js'
import { errorResponse, readLines, runFlow } from './app/backend.js'
import { hostOrigin, readParams } from './app/params.js'
import type { FlowLine } from './protocol.js'
import { contentSecurityPolicy, sendRoutes } from './send.js'

function createApp() {
  const app = new Hono()
  sendRoutes(app, { apiKeys: ['pk_test'] })
  return app
}

describe('sendRoutes', () => {
  test.each(['/send', '/send/'])(
    'GET %s serves the framable page with a strict CSP',
    async (path) => {
      const response = await createApp().request(`${path}?params=abc`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      expect(response.headers.get('content-security-policy')).toBe(
        contentSecurityPolicy,
      )
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('x-frame-options')).toBeNull()
      const html = await response.text()
      expect(html).toContain('<script type="module" src="/app.js"></script>')
      expect(html).toContain('id="root"')
      expect(html).toContain('<title>')
      // No inline script: every <script> has a src.
      expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g)).toBeNull()
    },
  )

  test('the CSP allows only its own scripts, styles and connections', () => {
    expect(contentSecurityPolicy).toContain("script-src 'self'")
    expect(contentSecurityPolicy).toContain("connect-src 'self'")
    expect(contentSecurityPolicy).not.toContain('unsafe-inline')
    expect(contentSecurityPolicy).not.toContain('frame-ancestors')
  })

  test('GET /app.js serves the bundled app (built from source)', async () => {
    const response = await createApp().request('/app.js')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/)
    const code = await response.text()
    expect(code).toContain('MAGIC_OVERLAY_READY')
    expect(code).toContain('/v1/flow')
    expect(code).not.toMatch(/^import /m)
  }, 30_000)

  test('error: GET /app.js answers a JSON 400 when the app cannot be built', async () => {
    vi.resetModules()
    vi.doMock('../../assets.js', () => ({
      loadBrowserApp: () =>
        Promise.reject(new Error('esbuild failed\nat line 2')),
    }))
    try {
      const { sendRoutes: routes } = await import('./send.js')
      const app = new Hono()
      routes(app, { apiKeys: ['pk_test'] })
      const response = await app.request('/app.js')
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({
        error: 'Cannot build the iframe app: esbuild failed',
      })
    } finally {
      vi.doUnmock('../../assets.js')
      vi.resetModules()
    }
  })

  test('GET /app.css serves the stylesheet', async () => {
    const response = await createApp().request('/app.css')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/css/)
  })
})

describe('resolveBrowserApp', () => {
  test('uses the prebuilt bundle beside the built module', () => {
    const moduleUrl = 'file:///pkg/dist/emulator/index.js'
    expect(
      resolveBrowserApp('magic', {
        moduleUrl,
        exists: (path) => path === '/pkg/dist/emulator/app/magic.js',
      }),
    ).toEqual({ kind: 'prebuilt', path: '/pkg/dist/emulator/app/magic.js' })
  })

  test('finds it from a shared chunk at the output root', () => {
    const moduleUrl = 'file:///pkg/dist/chunk-abc.js'
    expect(
      resolveBrowserApp('magic', {
        moduleUrl,
        exists: (path) => path === '/pkg/dist/emulator/app/magic.js',
      }),
    ).toEqual({ kind: 'prebuilt', path: '/pkg/dist/emulator/app/magic.js' })
  })

  test('falls back to the source entry when running from source', () => {
    expect(
      resolveBrowserApp('magic', {
        moduleUrl: 'file:///repo/src/emulator/assets.ts',
        exists: () => false,
      }),
    ).toEqual({
      kind: 'source',
      entry: '/repo/src/emulator/magic/provider/app/main.ts',
    })
  })

  test('from this repository, the source entry (no prebuilt file)', () => {
    const source = resolveBrowserApp('magic')
    expect(source.kind).toBe('source')
  })
})

describe('iframe app helpers', () => {
  const encoded = encodeParams({
    API_KEY: 'pk_test',
    DOMAIN_ORIGIN: 'http://127.0.0.1:5173',
    host: '127.0.0.1:4401',
    sdk: 'magic-sdk',
    version: '33.13.0',
    locale: 'en_US',
  })

  test('readParams keeps the raw base64, encoded or not', () => {
    expect(readParams(`?params=${encodeURIComponent(encoded)}`)).toBe(encoded)
    expect(readParams('?x=1&params=ab+c/d==')).toBe('ab+c/d==')
    expect(readParams('?x=1')).toBeUndefined()
    expect(readParams('?params=%E0%A4%A')).toBeUndefined()
  })

  test('hostOrigin reads DOMAIN_ORIGIN only when it is an origin', () => {
    expect(hostOrigin(encoded)).toBe('http://127.0.0.1:5173')
    expect(hostOrigin('not base64!')).toBeUndefined()
    const path = encodeParams({
      API_KEY: 'pk_test',
      DOMAIN_ORIGIN: 'http://127.0.0.1:5173/page',
      host: 'h',
      sdk: 's',
      version: 'v',
      locale: 'en_US',
    })
    expect(hostOrigin(path)).toBeUndefined()
  })

  test('readLines splits NDJSON across chunk boundaries', async () => {
    const encoder = new TextEncoder()
    const chunks = ['{"a":1}\n{"b"', ':2}\n\n', '{"c":"é"}']
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
        controller.close()
      },
    })
    const lines: string[] = []
    for await (const line of readLines(stream)) lines.push(line)
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":"é"}'])
  })

  test('errorResponse is an internal error by default', () => {
    expect(errorResponse(7, 'down')).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'down' },
    })
  })
})

describe('runFlow', () => {
  afterEach(() => vi.unstubAllGlobals())

  const request = {
    jsonrpc: '2.0' as const,
    id: 9,
    method: 'magic_get_info',
    params: [],
  }

  async function run(fetch: typeof globalThis.fetch) {
    vi.stubGlobal('fetch', fetch)
    const lines: FlowLine[] = []
    const started: string[] = []
    await runFlow(
      { params: 'p', request, jwt: 'j' },
      { onStart: (id) => started.push(id), onLine: (line) => lines.push(line) },
    )
    return { lines, started }
  }

  test('posts the flow request and relays every line in order', async () => {
    const body = [
      { kind: 'event', event: 'email-otp-sent', params: [] },
      { kind: 'overlay', show: true },
      { kind: 'response', response: { jsonrpc: '2.0', id: 9, result: 1 } },
    ]
    const fetch = vi.fn(
      async () =>
        new Response(body.map((line) => JSON.stringify(line)).join('\n'), {
          headers: { 'x-flow-id': 'f1' },
        }),
    )
    const { lines, started } = await run(fetch)
    expect(started).toEqual(['f1'])
    expect(lines).toEqual(body)
    expect(fetch).toHaveBeenCalledWith(
      '/v1/flow',
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({ params: 'p', request, jwt: 'j' }),
      }),
    )
  })

  test.each([
    ['a network failure', async () => Promise.reject(new TypeError('down'))],
    ['a non-OK answer', async () => new Response('nope', { status: 502 })],
    ['a stream with no response', async () => new Response('')],
    ['an unreadable line', async () => new Response('{oops\n')],
  ])('turns %s into a -32603 response', async (_, fetch) => {
    const { lines } = await run(fetch as typeof globalThis.fetch)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({
      kind: 'response',
      response: { jsonrpc: '2.0', id: 9, error: { code: -32603 } },
    })
  })
})
