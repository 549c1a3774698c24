import { request } from 'node:http'
import { connect } from 'node:net'
import type { HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { BaseError } from '../core/Errors.js'
import { findFreePort } from './net.js'
import {
  createApp,
  defaultBodyLimit,
  PortInUseError,
  type Running,
  startServer,
  toNodeHandler,
} from './server.js'

const app = new Hono().get('/hello', (c) => c.text('hi'))

describe('startServer', () => {
  test('default: serves the app on 127.0.0.1 until stopped', async () => {
    const port = await findFreePort()
    const server = await startServer({ fetch: app.fetch, port })
    expect(server.url).toBe(`http://127.0.0.1:${port}`)
    expect(server.port).toBe(port)
    const response = await fetch(`${server.url}/hello`)
    expect(await response.text()).toBe('hi')
    await server.stop()
    await expect(fetch(`${server.url}/hello`)).rejects.toThrowError(
      'fetch failed',
    )
  })

  test('behavior: stop is idempotent and closes kept-alive connections', async () => {
    const server = await startServer({
      fetch: app.fetch,
      port: await findFreePort(),
    })
    // Node's fetch keeps the connection alive; stop must not wait for it.
    await fetch(`${server.url}/hello`).then((response) => response.text())
    const first = server.stop()
    expect(server.stop()).toBe(first)
    await first
    await server.stop()
  })

  test('error: a taken port is named', async () => {
    const port = await findFreePort()
    const first = await startServer({ fetch: app.fetch, port })
    try {
      const error = await startServer({
        fetch: app.fetch,
        port,
        name: 'dev (mailbox)',
      }).then(
        () => expect.unreachable(),
        (error: unknown) => error,
      )
      expect(error).toBeInstanceOf(PortInUseError)
      expect((error as PortInUseError).port).toBe(port)
      expect((error as PortInUseError).message).toBe(
        `Cannot start the dev (mailbox) service: port ${port} on 127.0.0.1 is already in use. Free it or choose other ports (--port-base).`,
      )
    } finally {
      await first.stop()
    }
  })
})

describe('startServer: the Host rule (DNS rebinding)', () => {
  let server: Running
  let port: number
  beforeAll(async () => {
    port = await findFreePort()
    server = await startServer({ fetch: app.fetch, port })
  })
  afterAll(() => server.stop())

  test('behavior: every loopback name of its port is accepted, in any case', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      `LocalHost:${port}`,
    ])
      expect(await send(server, '/hello', { headers: { host } })).toEqual({
        status: 200,
        headers: expect.any(Object),
        body: 'hi',
      })
  })

  test('error: another name, another port, no port or no Host is refused, before the app runs', async () => {
    const refused = {
      status: 403,
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
      body: JSON.stringify({
        error: `This service answers requests addressed to 127.0.0.1:${port} only.`,
      }),
    }
    for (const host of [
      `rebound.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      `localhost.:${port}`,
    ])
      expect(await send(server, '/hello', { headers: { host } })).toEqual(
        refused,
      )
    // A target in absolute form names the host instead of the Host header.
    expect(
      await send(server, 'http://rebound.example/hello', {
        headers: { host: `127.0.0.1:${port}` },
      }),
    ).toEqual({ ...refused, body: expect.stringContaining('127.0.0.1') })
    expect((await send(server, `http://localhost:${port}/hello`)).body).toBe(
      'hi',
    )
    const noHost = await sendRaw(port, 'GET /hello HTTP/1.0\r\n\r\n')
    expect(noHost).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/)
    expect(noHost).toContain(refused.body)
  })

  test('behavior: a server on the IPv6 loopback address names itself in brackets and accepts every loopback name', async () => {
    const v6port = await findFreePort()
    const v6 = await startServer({
      fetch: app.fetch,
      port: v6port,
      host: '::1',
    })
    try {
      expect(v6.url).toBe(`http://[::1]:${v6port}`)
      expect((await fetch(`${v6.url}/hello`)).status).toBe(200)
      const aliased = await send(v6, '/hello', {
        headers: { host: `localhost:${v6port}` },
      })
      expect(aliased.status).toBe(200)
      const foreign = await send(v6, '/hello', {
        headers: { host: `rebound.example:${v6port}` },
      })
      expect(JSON.parse(foreign.body)).toEqual({
        error: `This service answers requests addressed to [::1]:${v6port} only.`,
      })
    } finally {
      await v6.stop()
    }
  })
})

describe('startServer: the body rules', () => {
  let server: Running
  let port: number
  const seen = vi.fn()
  beforeAll(async () => {
    port = await findFreePort()
    server = await startServer({
      fetch: createApp().post('/echo', async (c) => {
        seen()
        return c.text(await c.req.text())
      }).fetch,
      port,
      bodyLimit: 16,
    })
  })
  afterAll(() => server.stop())

  test('default: the limit is 1 MiB', () => {
    expect(defaultBodyLimit).toBe(1_048_576)
  })

  test('behavior: a body of exactly the limit is served', async () => {
    const { status, body } = await send(server, '/echo', {
      method: 'POST',
      body: 'x'.repeat(16),
    })
    expect({ status, body }).toEqual({ status: 200, body: 'x'.repeat(16) })
  })

  test('error: a Content-Length over the limit answers 413 before the body is sent', async () => {
    seen.mockClear()
    // Only the head goes out: the answer must come without the body.
    const answer = await sendRaw(
      port,
      `POST /echo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/plain\r\nContent-Length: 17\r\n\r\n`,
    )
    expect(answer).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/)
    expect(answer).toContain('connection: close')
    expect(answer.split('\r\n\r\n')[1]).toBe(
      JSON.stringify({ error: 'The request body is larger than 16 bytes.' }),
    )
    expect(seen).not.toHaveBeenCalled()
  })

  test('error: a chunked body (no Content-Length) answers 411', async () => {
    seen.mockClear()
    const { status, body } = await send(server, '/echo', {
      method: 'POST',
      headers: { 'transfer-encoding': 'chunked' },
      body: 'x',
    })
    expect({ status, body: JSON.parse(body) }).toEqual({
      status: 411,
      body: { error: 'Send the request body with a Content-Length.' },
    })
    expect(seen).not.toHaveBeenCalled()
  })

  test('error: what Node cannot parse answers JSON: a bad header character 400, oversized headers 431', async () => {
    const bad = await sendRaw(
      port,
      `GET /hello HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Bad: a\x01b\r\n\r\n`,
    )
    expect(bad).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(bad.split('\r\n\r\n')[1]).toBe(
      JSON.stringify({ error: 'The request is not valid HTTP/1.1.' }),
    )
    const big = await sendRaw(
      port,
      `GET /hello HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    )
    expect(big).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/)
    expect(big.split('\r\n\r\n')[1]).toBe(
      JSON.stringify({ error: 'The request headers are too large.' }),
    )
    expect(
      (await send(server, '/echo', { method: 'POST', body: 'ok' })).body,
    ).toBe('ok')
  })
})

describe('startServer: local-only routes', () => {
  let server: Running
  let port: number
  const calls = vi.fn()
  beforeAll(async () => {
    port = await findFreePort()
    const local = createApp()
      .get('/mailbox', (c) => {
        calls()
        return c.json(['secret'])
      })
      .post('/mailbox', async (c) => {
        calls()
        return c.json(await c.req.json())
      })
      .get('/mailbox/:id', (c) => {
        calls()
        return c.json({ id: c.req.param('id') })
      })
      .get('/hello', (c) => c.text('hi'))
    server = await startServer({
      fetch: local.fetch,
      port,
      localOnly: ['/mailbox'],
    })
  })
  afterAll(() => server.stop())

  const foreignOnly = {
    status: 403,
    body: JSON.stringify({
      error: 'Only pages on a loopback origin may use this route.',
    }),
  }

  test('behavior: a loopback page may read it cross-origin, with CORS headers for its origin', async () => {
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:63315',
      'http://[::1]:8080',
    ]) {
      const { status, headers, body } = await send(server, '/mailbox', {
        headers: { origin },
      })
      expect(status).toBe(200)
      expect(headers['access-control-allow-origin']).toBe(origin)
      expect(headers.vary).toBe('Origin')
      expect(body).toBe('["secret"]')
    }
  })

  test('behavior: a loopback preflight is answered 204 without running the app', async () => {
    calls.mockClear()
    const { status, headers, body } = await send(server, '/mailbox', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect({ status, body }).toEqual({ status: 204, body: '' })
    expect(headers).toMatchObject({
      'access-control-allow-origin': 'http://localhost:5173',
      'access-control-allow-methods': 'GET, POST, PUT, DELETE',
      'access-control-allow-headers': 'Content-Type',
      'access-control-max-age': '600',
    })
    expect(calls).not.toHaveBeenCalled()
  })

  test('error: a page on another origin, or an opaque one, is refused, preflight included', async () => {
    calls.mockClear()
    for (const origin of [
      'https://evil.example',
      'null',
      'http://localhost.evil.example',
      'https://localhost:5173',
      'http://localhost:5173/path',
    ]) {
      for (const method of ['GET', 'OPTIONS']) {
        const { status, headers, body } = await send(server, '/mailbox', {
          method,
          headers: { origin, 'access-control-request-method': 'GET' },
        })
        expect({ status, body }).toEqual(foreignOnly)
        expect(headers['access-control-allow-origin']).toBe(undefined)
      }
    }
    expect(calls).not.toHaveBeenCalled()
  })

  test('error: a cross-site subresource without Origin (an <img>, a <script>) is refused', async () => {
    const { status, body } = await send(server, '/mailbox', {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
    })
    expect({ status, body }).toEqual(foreignOnly)
  })

  test('behavior: a navigation from any site, and a program outside a browser, may open it', async () => {
    const navigation = await send(server, '/mailbox', {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    })
    expect(navigation.status).toBe(200)
    const program = await send(server, '/mailbox')
    expect(program.body).toBe('["secret"]')
  })

  test('error: a write that is not application/json (a form, a text/plain beacon) answers 415', async () => {
    calls.mockClear()
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      undefined,
    ]) {
      const { status, body } = await send(server, '/mailbox', {
        method: 'POST',
        headers: {
          origin: 'http://localhost:5173',
          ...(type === undefined ? {} : { 'content-type': type }),
        },
        body: '{"a":1}',
      })
      expect({ status, body: JSON.parse(body) }).toEqual({
        status: 415,
        body: { error: 'Send control requests as application/json.' },
      })
    }
    expect(calls).not.toHaveBeenCalled()
    for (const type of [
      'application/json',
      'Application/JSON; charset=utf-8',
    ]) {
      const { status, body } = await send(server, '/mailbox', {
        method: 'POST',
        headers: { origin: 'http://localhost:5173', 'content-type': type },
        body: '{"a":1}',
      })
      expect({ status, body }).toEqual({ status: 200, body: '{"a":1}' })
    }
  })

  test('error: every spelling of the path that routes to it is refused too', async () => {
    calls.mockClear()
    for (const path of [
      '/%6Dailbox',
      '/%6d%61%69%6c%62%6f%78',
      '/x/../mailbox',
      '/x/%2e%2e/mailbox',
      '/./mailbox',
      `http://127.0.0.1:${port}/mailbox`,
      '/MAILBOX',
      '/mailbox/',
      '/mailbox?to=a',
    ]) {
      const { status, body } = await send(server, path, {
        headers: { origin: 'https://evil.example' },
      })
      expect({ path, status, body }).toEqual({ path, ...foreignOnly })
    }
    expect(calls).not.toHaveBeenCalled()
  })

  test('error: a path that does not percent-decode answers 400, whatever the origin, before the app runs', async () => {
    // The router decodes what it can and keeps the rest (`%C0` is no UTF-8),
    // so `/%6Dailbox/x%C0` routes to `/mailbox/:id`: a rule that gave up on
    // decoding would have let it through.
    calls.mockClear()
    for (const path of [
      '/%6Dailbox/x%C0',
      '/%6d%61%69%6c%62%6f%78/%E0%A4',
      '/mailbox/x%',
      '/mailbox/%zz',
      '/hello%C0',
    ])
      for (const origin of ['https://evil.example', 'http://localhost:5173']) {
        const { status, body } = await send(server, path, {
          headers: { origin },
        })
        expect({ path, status, body: JSON.parse(body) }).toEqual({
          path,
          status: 400,
          body: {
            error: 'The request path is not valid percent-encoded UTF-8.',
          },
        })
      }
    expect(calls).not.toHaveBeenCalled()
    // A query is the handler's to read: it may hold anything.
    const { status } = await send(server, '/hello?q=%C0', {
      headers: { origin: 'https://evil.example' },
    })
    expect(status).toBe(200)
  })

  test('behavior: a loopback page reaches a local route spelled with escapes', async () => {
    const { status, body } = await send(server, '/%6Dailbox/a%20b', {
      headers: { origin: 'http://localhost:5173' },
    })
    expect({ status, body: JSON.parse(body) }).toEqual({
      status: 200,
      body: { id: 'a b' },
    })
  })

  test('behavior: routes outside the local-only prefixes answer any origin', async () => {
    const { status, body } = await send(server, '/hello', {
      headers: { origin: 'https://evil.example' },
    })
    expect({ status, body }).toEqual({ status: 200, body: 'hi' })
  })
})

describe('startServer: a handler that fails', () => {
  const handled = {
    status: 400,
    body: JSON.stringify({ error: 'The request could not be handled.' }),
  }
  let stderr: ReturnType<typeof vi.spyOn>
  beforeAll(() => {
    stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  })
  afterAll(() => stderr.mockRestore())

  test.each([
    [
      'throws',
      () => {
        throw new Error('boom')
      },
    ],
    ['rejects', async () => Promise.reject(new Error('boom'))],
    // Hono hands only Errors to its onError; anything else rejects.
    ['rejects with a non-Error', async () => Promise.reject('a string')],
    ['answers no Response', async () => 'not a response' as never],
  ])(
    'error: a fetch handler that %s answers JSON 400, and the server keeps serving',
    async (_, fail) => {
      let calls = 0
      const server = await startServer({
        fetch: (request) =>
          calls++ === 0 ? fail() : new Response(new URL(request.url).pathname),
        port: await findFreePort(),
        name: 'test',
      })
      try {
        const { status, headers, body } = await send(server, '/first')
        expect({ status, body }).toEqual(handled)
        expect(headers['content-type']).toBe('application/json')
        expect((await send(server, '/second')).body).toBe('/second')
        expect(stderr).toHaveBeenCalledWith(
          expect.stringMatching(/^\[emulator\] test: a request failed: /),
        )
      } finally {
        await server.stop()
      }
    },
  )

  test.each([
    [
      'throws',
      () => {
        throw new Error('boom')
      },
    ],
    ['rejects', async () => Promise.reject(new Error('boom'))],
    [
      'writes a header Node refuses',
      (res: import('node:http').ServerResponse) => {
        res.setHeader('content-type', 'text/html')
        res.writeHead(302, { location: 'http://127.0.0.1/\u202e' })
        res.end()
      },
    ],
  ])(
    'error: a Node handler that %s answers JSON 400, and the server keeps serving',
    async (_, fail) => {
      let calls = 0
      const server = await startServer({
        handler: (_req, res) => {
          if (calls++ === 0) return fail(res)
          res.end('ok')
        },
        port: await findFreePort(),
      })
      try {
        const { status, headers, body } = await send(server, '/first')
        expect({ status, body }).toEqual(handled)
        expect(headers['content-type']).toBe('application/json')
        expect(headers.location).toBe(undefined)
        expect((await send(server, '/second')).body).toBe('ok')
      } finally {
        await server.stop()
      }
    },
  )

  test('error: a handler that fails after its answer started ends the connection, and the server keeps serving', async () => {
    let calls = 0
    const server = await startServer({
      handler: async (_req, res) => {
        if (calls++ > 0) return res.end('ok')
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.write('partial')
        throw new Error('boom')
      },
      port: await findFreePort(),
    })
    try {
      await expect(send(server, '/first')).rejects.toThrowError()
      expect((await send(server, '/second')).body).toBe('ok')
    } finally {
      await server.stop()
    }
  })
})

describe('startServer: pages are not framed unless they say so', () => {
  let server: Running
  beforeAll(async () => {
    const pages = createApp()
      .get('/page', (c) => c.html('<p>hi</p>'))
      .get('/framable', (c) =>
        c.html('<p>frame me</p>', 200, {
          'content-security-policy': "default-src 'self'",
        }),
      )
      .get('/data', (c) => c.json({ ok: true }))
    server = await startServer({
      fetch: pages.fetch,
      port: await findFreePort(),
    })
  })
  afterAll(() => server.stop())

  test('error: an HTML page that sets no policy of its own may be framed by no site', async () => {
    const { status, headers } = await send(server, '/page')
    expect(status).toBe(200)
    expect(headers['content-security-policy']).toBe("frame-ancestors 'none'")
    expect(headers['x-frame-options']).toBe('DENY')
  })

  test('behavior: so is a page a Node handler writes (oidc-provider, Koa)', async () => {
    const node = await startServer({
      handler: (_req, res) => {
        res.statusCode = 200
        res.setHeader('content-type', 'text/html; charset=utf-8')
        res.end('<p>hi</p>')
      },
      port: await findFreePort(),
    })
    try {
      const { headers, body } = await send(node, '/')
      expect(body).toBe('<p>hi</p>')
      expect(headers['content-security-policy']).toBe("frame-ancestors 'none'")
      expect(headers['x-frame-options']).toBe('DENY')
    } finally {
      await node.stop()
    }
  })

  test('behavior: a page under a framable path may be framed (a logout a client loads in a hidden iframe), and only there', async () => {
    const logout = await startServer({
      fetch: createApp()
        .get('/logout', (c) => c.html('<p>bye</p>'))
        .get('/logout/done', (c) => c.html('<p>gone</p>'))
        .get('/logoutx', (c) => c.html('<p>not it</p>'))
        .get('/login', (c) => c.html('<p>hi</p>')).fetch,
      port: await findFreePort(),
      framable: ['/logout'],
    })
    try {
      for (const path of ['/logout', '/logout/done', '/%6Cogout'])
        expect((await send(logout, path)).headers['x-frame-options']).toBe(
          undefined,
        )
      for (const path of ['/login', '/logoutx', '/logout/../login'])
        expect((await send(logout, path)).headers['x-frame-options']).toBe(
          'DENY',
        )
    } finally {
      await logout.stop()
    }
  })

  test('behavior: a page with a policy of its own keeps it (the iframe wallet is framed on purpose); JSON gets nothing', async () => {
    const framable = await send(server, '/framable')
    expect(framable.headers['content-security-policy']).toBe(
      "default-src 'self'",
    )
    expect(framable.headers['x-frame-options']).toBe(undefined)
    const data = await send(server, '/data')
    expect(data.headers['content-security-policy']).toBe(undefined)
    expect(data.headers['x-frame-options']).toBe(undefined)
  })
})

describe('toNodeHandler', () => {
  test("behavior: the app gets Node's request as its env, and a failure answers JSON 400", async () => {
    const stderr = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation(() => true)
    const app = new Hono<{ Bindings: HttpBindings }>()
      .get('/method', (c) => c.text(c.env.incoming.method ?? ''))
      .get('/reject', () => Promise.reject('not an Error'))
    const server = await startServer({
      handler: toNodeHandler(app.fetch, { name: 'mounted' }),
      port: await findFreePort(),
    })
    try {
      expect((await send(server, '/method')).body).toBe('GET')
      const { status, body } = await send(server, '/reject')
      expect({ status, body: JSON.parse(body) }).toEqual({
        status: 400,
        body: { error: 'The request could not be handled.' },
      })
      expect(stderr).toHaveBeenCalledWith(
        '[emulator] mounted: a request failed: Unknown error.\n',
      )
    } finally {
      await server.stop()
      stderr.mockRestore()
    }
  })
})

describe('createApp', () => {
  test('error: an unknown route answers JSON 404', async () => {
    const response = await createApp().request('/nope?x=1', { method: 'PUT' })
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'No route PUT /nope.' })
  })

  test('error: a handler that throws answers JSON 400 with the one-line reason', async () => {
    const app = createApp()
      .get('/error', () => {
        throw new Error('first line\nsecond line')
      })
      .get('/base', () => {
        throw new BaseError('Short message.', { details: 'details' })
      })
      .post('/json', async (c) => c.json(await c.req.json()))
    const answers = await Promise.all(
      ['/error', '/base'].map(async (path) => {
        const response = await app.request(path)
        return [response.status, await response.json()]
      }),
    )
    expect(answers).toEqual([
      [400, { error: 'first line' }],
      [400, { error: 'Short message.' }],
    ])
    const malformed = await app.request('/json', {
      method: 'POST',
      body: '{"a":',
    })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toEqual({
      error: expect.stringMatching(/JSON/),
    })
  })

  test('behavior: an HTTPException keeps its 4xx status, a 5xx becomes 400', async () => {
    const app = createApp()
      .get('/401', () => {
        throw new HTTPException(401, { message: 'Who are you?' })
      })
      .get('/503', () => {
        throw new HTTPException(503, { message: 'Busy.' })
      })
    const unauthorized = await app.request('/401')
    expect(unauthorized.status).toBe(401)
    expect(await unauthorized.json()).toEqual({ error: 'Who are you?' })
    const busy = await app.request('/503')
    expect(busy.status).toBe(400)
    expect(await busy.json()).toEqual({ error: 'Busy.' })
  })
})

/**
 * One HTTP request with exactly these headers (fetch does not let a caller
 * set Host or Transfer-Encoding), on a connection of its own.
 */
function send(
  server: Running,
  path: string,
  options: {
    method?: string
    headers?: Record<string, string>
    body?: string
  } = {},
): Promise<{
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}> {
  const { method = 'GET', headers = {}, body } = options
  const url = new URL(server.url)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port,
        method,
        path,
        agent: false,
        headers: {
          ...(body === undefined || headers['transfer-encoding'] !== undefined
            ? {}
            : { 'content-length': Buffer.byteLength(body) }),
          ...headers,
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('error', reject)
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** Writes `text` on a raw socket and reads until the server closes it. */
function sendRaw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => {
      answer += chunk
    })
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    socket.write(text)
  })
}
