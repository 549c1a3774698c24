/**
 * The tap every testkit of an emulated service puts in front of it, so that
 * the real service is the one test double of its backend.
 *
 * A tap serves the service's origin behind the emulator's request rules
 * (`startServer`) and forwards each request, unchanged and with its `Host`,
 * to the service on a private loopback port; it records the request and
 * the service's answer. A test can also script the answers the real service
 * never gives (a 500, a malformed body, a dropped connection, a stall) for
 * the next requests matching a method, a path or a JSON-RPC method: those
 * requests are answered by the tap and never reach the service. Scripted
 * answers are per test; the service itself speaks the wire (src/<product>/
 * wire/) for everything else. Used by the tests; not part of the emulator's
 * runtime.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as nodeRequest,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { findFreePort } from './net.js'
import { startServer } from './server.js'

/** One request the tap received, and what it answered. */
export type Exchange = {
  method: string
  /** The path and query, as sent. */
  url: string
  /** The path alone. */
  path: string
  headers: IncomingHttpHeaders
  /** The body as text ('' when there is none). */
  body: string
  /** `Date.now()` when the request arrived. */
  at: number
  /** The answer's status; undefined while it is stalled or on its way. */
  status?: number | undefined
  /** The answer's body as text. */
  response?: string | undefined
  /** Whether the tap answered from a script instead of the service. */
  scripted: boolean
}

/**
 * A scripted answer: a status with a body (an object or array is sent as
 * JSON, a string as it is), `'drop'` (the connection is destroyed before
 * any answer: the client's fetch fails) or `'stall'` (never answered until
 * the tap stops or the client goes away). A function builds the answer
 * from the request (e.g. to echo a JSON-RPC id), or holds it until the
 * test resolves its promise.
 */
export type Reply =
  | {
      status: number
      body?: unknown
      headers?: Record<string, string> | undefined
    }
  | 'drop'
  | 'stall'
  | ((exchange: Exchange) => Reply | Promise<Reply>)

/**
 * Which requests a script answers: every field given must match. `rpc` is
 * the method of a JSON-RPC request sent alone (or alone in its batch).
 */
export type Match =
  | {
      method?: string | undefined
      path?: string | RegExp | undefined
      rpc?: string | undefined
    }
  | ((exchange: Exchange) => boolean)

/** Turns a service's JSON answer into the one sent on. */
export type Edit = (answer: unknown) => unknown

/** A running tap. */
export type Tap = {
  /** The origin the tests and clients call. */
  readonly url: string
  /** Every request so far, oldest first. */
  readonly requests: Exchange[]
  /**
   * Answers the next requests matching `match` with `replies`, one each,
   * in order; then they reach the service again.
   */
  answer(match: Match, ...replies: Reply[]): void
  /**
   * Answers every request matching `match` with `reply`, until `clear` or
   * until the returned function is called.
   */
  always(match: Match, reply: Reply): () => void
  /**
   * Lets the next requests matching `match` reach the service and changes
   * the service's JSON answers with `edits`, one each, in order: an answer
   * the real service gives at another time (a relayer's SUBMITTED for a
   * transaction it already reports as mined).
   */
  rewrite(match: Match, ...edits: Edit[]): void
  /** The requests to `path` (the path alone), oldest first. */
  to(path: string): Exchange[]
  /**
   * The JSON-RPC calls received, oldest first, a batch's calls in order;
   * `batch` is the size of the batch a call came in (1 when alone).
   */
  calls(): RpcCall[]
  /** Forgets the recorded requests and every script. */
  clear(): void
  /** Stops the tap and the private server. Idempotent. */
  stop(): Promise<void>
}

/** A JSON-RPC call the tap received. */
export type RpcCall = {
  method: string
  params: unknown
  id: unknown
  /** The size of the batch it came in; 1 when it came alone. */
  batch: number
  /** The exchange it came in. */
  exchange: Exchange
}

/** A Node request handler, as the services' `handler`s are. */
type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown

/**
 * Starts a tap on a free port (or `options.port`) in front of `upstream`:
 * the origin of a running server (Anvil), or a service's handler, which the
 * tap then serves on a private port of its own. The other options are the
 * front server's (`localOnly`, `framable`, `name`, `bodyLimit`), as the
 * service would be started with.
 *
 * @example
 * ```ts
 * const tap = await startTap({ upstream: toNodeHandler(app.fetch, { name }) })
 * tap.answer({ path: '/v1/things' }, { status: 503, body: { message: 'busy' } })
 * ```
 */
export async function startTap(options: startTap.Options): Promise<Tap> {
  const { upstream } = options
  let inner: Server | undefined
  let target: URL
  if (typeof upstream === 'string') target = new URL(upstream)
  else {
    inner = createServer(upstream)
    await new Promise<void>((resolve) => inner?.listen(0, '127.0.0.1', resolve))
    target = new URL(
      `http://127.0.0.1:${(inner.address() as AddressInfo).port}`,
    )
  }

  const requests: Exchange[] = []
  const scripts: { match: Match; replies: Reply[]; forever: boolean }[] = []
  const rewrites: { match: Match; edits: Edit[] }[] = []
  const stalled = new Set<ServerResponse>()

  const scriptFor = (exchange: Exchange): Reply | undefined => {
    const index = scripts.findIndex((script) => matches(script.match, exchange))
    const script = scripts[index]
    if (!script) return undefined
    if (script.forever) return script.replies[0]
    const reply = script.replies.shift()
    if (script.replies.length === 0) scripts.splice(index, 1)
    return reply
  }

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    const url = req.url ?? '/'
    const exchange: Exchange = {
      method: req.method ?? 'GET',
      url,
      path: url.split('?')[0] ?? '/',
      headers: req.headers,
      body: body.toString('utf8'),
      at: Date.now(),
      scripted: false,
    }
    requests.push(exchange)
    const reply = scriptFor(exchange)
    if (reply !== undefined) {
      exchange.scripted = true
      await play(reply, exchange, res, stalled)
      return
    }
    const index = rewrites.findIndex((rewrite) =>
      matches(rewrite.match, exchange),
    )
    const rewrite = rewrites[index]
    const edit = rewrite?.edits.shift()
    if (rewrite && rewrite.edits.length === 0) rewrites.splice(index, 1)
    await forward(target, req, body, res, exchange, edit)
  }

  const port = options.port ?? (await findFreePort())
  const front = await startServer({
    handler,
    port,
    name: options.name ?? 'tap',
    bodyLimit: options.bodyLimit,
    localOnly: options.localOnly,
    framable: options.framable,
  })

  let stopping: Promise<void> | undefined
  return {
    url: front.url,
    requests,
    answer(match, ...replies) {
      if (replies.length > 0) scripts.push({ match, replies, forever: false })
    },
    always(match, reply) {
      const script = { match, replies: [reply], forever: true }
      scripts.push(script)
      return () => {
        const index = scripts.indexOf(script)
        if (index >= 0) scripts.splice(index, 1)
      }
    },
    rewrite(match, ...edits) {
      if (edits.length > 0) rewrites.push({ match, edits })
    },
    to: (path) => requests.filter((exchange) => exchange.path === path),
    calls: () => requests.flatMap(callsOf),
    clear() {
      requests.length = 0
      scripts.length = 0
      rewrites.length = 0
    },
    stop() {
      stopping ??= (async () => {
        for (const res of stalled) res.destroy()
        stalled.clear()
        await front.stop()
        if (inner) {
          const server = inner
          await new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          })
        }
      })()
      return stopping
    },
  }
}

export declare namespace startTap {
  type Options = {
    /** The running server's origin, or the service's Node handler. */
    upstream: string | NodeHandler
    /** The port to listen on. @default a free one */
    port?: number | undefined
    /** The service's name, in the front server's errors. @default 'tap' */
    name?: string | undefined
    bodyLimit?: number | undefined
    localOnly?: readonly string[] | undefined
    framable?: readonly string[] | undefined
  }
}

/** A response read as JSON (`body` undefined when it is not JSON). */
export type JsonAnswer = {
  status: number
  headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes.
  body: any
  text: string
}

/**
 * A JSON request to an emulated service, as the route tests send them:
 * `body` (a string as is, else as JSON), `token` in `Authorization:
 * Bearer`, and any other `headers`.
 */
export async function requestJson(
  url: string,
  method: string,
  path: string,
  options: {
    body?: unknown
    token?: string | undefined
    headers?: Record<string, string> | undefined
  } = {},
): Promise<JsonAnswer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(options.body === undefined
        ? {}
        : { 'content-type': 'application/json' }),
      ...(options.token === undefined
        ? {}
        : { authorization: `Bearer ${options.token}` }),
      ...options.headers,
    },
    ...(options.body === undefined
      ? {}
      : {
          body:
            typeof options.body === 'string'
              ? options.body
              : JSON.stringify(options.body),
        }),
  })
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: response.status, headers: response.headers, body, text }
}

/** The parsed JSON body of a request or answer; undefined when not JSON. */
export function jsonOf(text: string | undefined): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The form fields of a `application/x-www-form-urlencoded` request. */
export function formOf(exchange: Exchange): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(exchange.body))
}

/**
 * A JSON-RPC error answer to the request it answers (its id echoed; an
 * array for a batch of one), with HTTP status 200, as JSON-RPC services
 * send their errors.
 */
export function rpcError(error: {
  code: number
  message: string
  data?: unknown
}): Reply {
  return (exchange) => rpcAnswer(exchange, { error })
}

/** A JSON-RPC result answer to the request it answers (as {@link rpcError}). */
export function rpcResult(result: unknown): Reply {
  return (exchange) => rpcAnswer(exchange, { result })
}

function rpcAnswer(
  exchange: Exchange,
  outcome: { result: unknown } | { error: unknown },
): Reply {
  const [call] = callsOf(exchange)
  const answer = { jsonrpc: '2.0', id: call?.id ?? null, ...outcome }
  const batch = Array.isArray(jsonOf(exchange.body))
  return { status: 200, body: batch ? [answer] : answer }
}

function callsOf(exchange: Exchange): RpcCall[] {
  const body = jsonOf(exchange.body)
  const list = Array.isArray(body) ? body : body === undefined ? [] : [body]
  return list
    .filter(
      (call): call is { method: string; params?: unknown; id?: unknown } =>
        typeof call === 'object' &&
        call !== null &&
        typeof (call as { method?: unknown }).method === 'string',
    )
    .map((call) => ({
      method: call.method,
      params: call.params,
      id: call.id,
      batch: list.length,
      exchange,
    }))
}

function matches(match: Match, exchange: Exchange): boolean {
  if (typeof match === 'function') return match(exchange)
  if (match.method !== undefined && match.method !== exchange.method)
    return false
  if (match.path !== undefined) {
    const ok =
      typeof match.path === 'string'
        ? match.path === exchange.path
        : match.path.test(exchange.path)
    if (!ok) return false
  }
  if (match.rpc !== undefined) {
    const calls = callsOf(exchange)
    if (calls.length !== 1 || calls[0]?.method !== match.rpc) return false
  }
  return true
}

async function play(
  reply: Reply,
  exchange: Exchange,
  res: ServerResponse,
  stalled: Set<ServerResponse>,
): Promise<void> {
  const answer = typeof reply === 'function' ? await reply(exchange) : reply
  if (typeof answer === 'function') {
    await play(answer, exchange, res, stalled)
    return
  }
  if (answer === 'drop') {
    res.socket?.destroy()
    return
  }
  if (answer === 'stall') {
    stalled.add(res)
    res.on('close', () => stalled.delete(res))
    return
  }
  const text =
    answer.body === undefined
      ? ''
      : typeof answer.body === 'string'
        ? answer.body
        : JSON.stringify(answer.body)
  const type =
    answer.body === undefined || typeof answer.body === 'string'
      ? 'text/plain; charset=utf-8'
      : 'application/json'
  exchange.status = answer.status
  exchange.response = text
  res.writeHead(answer.status, {
    'content-type': type,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...answer.headers,
  })
  res.end(text)
}

/**
 * Sends the request on to the service and its answer back (changed by
 * `edit` when given), recording it.
 */
function forward(
  target: URL,
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
  exchange: Exchange,
  edit?: Edit | undefined,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const upstream = nodeRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: wholeBodyHeaders(req.headers, body.length),
      },
      (answer) => {
        const chunks: Buffer[] = []
        const status = answer.statusCode ?? 502
        if (!edit) res.writeHead(status, answer.rawHeaders)
        answer.on('data', (chunk: Buffer) => {
          chunks.push(chunk)
          if (!edit) res.write(chunk)
        })
        answer.on('end', () => {
          let text = Buffer.concat(chunks).toString('utf8')
          if (edit) {
            text = JSON.stringify(edit(jsonOf(text)))
            res.writeHead(status, {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(text),
              'cache-control': 'no-store',
            })
            res.write(text)
          }
          exchange.status = status
          exchange.response = text
          res.end()
          resolve()
        })
        answer.on('error', () => {
          res.destroy()
          resolve()
        })
      },
    )
    upstream.on('error', () => {
      // The service went away mid-request: so does the answer.
      res.destroy()
      resolve()
    })
    // The client gave up: so does the request to the service.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy()
    })
    upstream.end(body)
  })
}

/** The request's headers for a body sent whole: its length, never chunked. */
function wholeBodyHeaders(
  headers: IncomingHttpHeaders,
  length: number,
): IncomingHttpHeaders {
  const { 'transfer-encoding': _, ...rest } = headers
  return { ...rest, 'content-length': String(length) }
}
