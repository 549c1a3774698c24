import { Hono } from 'hono'
import { describe, expect, test } from 'vitest'
import { findFreePort } from './net.js'
import { PortInUseError, startServer } from './server.js'

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
