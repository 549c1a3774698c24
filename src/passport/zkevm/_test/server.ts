/**
 * A real local HTTP server for the zkEVM modules' unit tests: it records
 * every request (method, path with query, headers, body) and answers with
 * the test's handler, over real sockets.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request the server received. */
export type Received = {
  method: string
  /** Path and query, as sent. */
  url: string
  headers: IncomingMessage['headers']
  body: string
}

/** What the handler answers: a status and an optional JSON body. */
export type Reply = { status: number; body?: unknown }

/** Starts the server on a free loopback port. */
export async function startTestServer(
  handler: (request: Received) => Reply | Promise<Reply>,
) {
  const received: Received[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const request: Received = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    }
    received.push(request)
    const reply = await handler(request)
    if (reply.body === undefined) {
      res.writeHead(reply.status).end()
      return
    }
    const text = JSON.stringify(reply.body)
    res
      .writeHead(reply.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      })
      .end(text)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
