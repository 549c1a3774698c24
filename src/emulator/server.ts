/**
 * The HTTP server every emulated service runs on, and the rules it enforces
 * before a service sees a request.
 *
 * The emulator runs on a developer's machine while they browse, so any page
 * they open can send it requests. Whatever a request carries, the process
 * must keep serving, and a page on another site must not read its secrets
 * or steer it. So, for every service:
 *
 * - the `Host` (or the host of an absolute-form target) must be the
 *   loopback address the service listens on: a page of a site whose DNS
 *   name was re-pointed at 127.0.0.1 (DNS rebinding) would otherwise be
 *   same-origin with the service;
 * - a body must announce its length and stay within the limit (1 MiB by
 *   default): 411 or 413 before anything is parsed;
 * - a path that does not percent-decode answers 400: the router decodes
 *   what it can and keeps the rest, so such a path would reach a route by
 *   a spelling no rule here could read;
 * - routes the service declares local (`localOnly`: control routes, the
 *   mailbox), however their path is spelled, answer loopback origins
 *   only, and a write to them must be a JSON request, which browsers never
 *   send cross-origin without a CORS preflight (so a form post or a
 *   `text/plain` beacon cannot reach them);
 * - an HTML page that sets no Content-Security-Policy of its own may be
 *   framed by no site (`frame-ancestors 'none'`, `X-Frame-Options: DENY`):
 *   a framing page could lay its own buttons over a sign-in or approval
 *   page and have them clicked. A page meant to be framed says so, with a
 *   policy of its own (the iframe wallet) or by its path (`framable`: the
 *   identity provider's logout, which the game wallet loads in a hidden
 *   iframe);
 * - a handler that throws answers a JSON 4xx; it never stops the process
 *   and never answers 500.
 */
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http'
import { getRequestListener } from '@hono/node-server'
import { type Env, Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { BaseError } from '../core/Errors.js'
import { isLoopbackOrigin } from './loopback.js'

/** A running HTTP server. */
export type Running = {
  /** The server's origin, e.g. `http://127.0.0.1:4400`. */
  readonly url: string
  /** The port it listens on. */
  readonly port: number
  /** Closes the server and its open connections. Idempotent. */
  stop(): Promise<void>
}

/** The body limit when a service sets none: 1 MiB. */
export const defaultBodyLimit = 1024 * 1024

/** The hosts that name the loopback interface in a `Host` header. */
const loopbackNames = ['127.0.0.1', 'localhost', '[::1]']

/**
 * Serves a fetch handler (e.g. a Hono app's `fetch`) or a Node request
 * handler (e.g. a Koa app's `callback()`) on Node, behind the emulator's
 * request rules (see the module's description).
 *
 * @example
 * ```ts
 * import { createApp, startServer } from './server.js'
 *
 * const app = createApp().get('/hello', (c) => c.text('hi'))
 * const server = await startServer({ fetch: app.fetch, port: 4400 })
 * await server.stop()
 * ```
 *
 * @param options.fetch - The request handler (or `options.handler`, a Node one).
 * @param options.port - The port to listen on.
 * @param options.host - The interface to bind. @default '127.0.0.1'
 * @param options.name - The service name used in error messages.
 * @param options.bodyLimit - The largest request body, in bytes. @default 1 MiB
 * @param options.localOnly - Path prefixes only loopback origins may use.
 * @returns The running server, once it listens.
 * @throws {PortInUseError} If the port is taken.
 * @throws {ListenError} If listening fails for another reason.
 */
export async function startServer(
  options: startServer.Options,
): Promise<startServer.ReturnType> {
  const {
    port,
    host = '127.0.0.1',
    name = 'server',
    bodyLimit = defaultBodyLimit,
    localOnly = [],
    framable = [],
  } = options
  const inner =
    'handler' in options
      ? options.handler
      : toNodeHandler(options.fetch, { name, hostname: host })
  const hosts = allowedHosts(host, port)

  // Node answers a request without a Host with a bare 400 itself; let the
  // Host rule below answer it, with a JSON body like every other refusal.
  const server: Server = createServer(
    { requireHostHeader: false },
    (req, res) => {
      const refused = check(req, { hosts, bodyLimit, localOnly })
      if (refused) {
        answer(res, refused)
        return
      }
      if (isLocalPath(req, localOnly) && allowLoopbackCors(req, res)) return
      if (!isPathUnder(req, framable)) denyFramingOfPages(res)
      try {
        const pending = inner(req, res)
        if (pending instanceof Promise)
          pending.catch((error: unknown) => fail(res, name, error))
      } catch (error) {
        fail(res, name, error)
      }
    },
  )
  // A request Node cannot parse (a bad header character, headers over
  // Node's size limit) or a socket that errors must not become an uncaught
  // 'error' event; the client is told why, in JSON, when it can still read.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const [status, message] = clientErrors[error.code ?? ''] ?? [
      400,
      'The request is not valid HTTP/1.1.',
    ]
    const body = JSON.stringify({ error: message })
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    )
  })

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening)
      if (error.code === 'EADDRINUSE')
        reject(new PortInUseError({ port, host, name, cause: error }))
      else reject(new ListenError({ port, host, name, cause: error }))
    }
    const onListening = () => {
      server.off('error', onError)
      resolve()
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(port, host)
  })

  let stopping: Promise<void> | undefined
  return {
    url: `http://${hostOf(host)}:${port}`,
    port,
    stop() {
      stopping ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      })
      return stopping
    },
  }
}

export declare namespace startServer {
  type Options = (
    | {
        /** The request handler, e.g. a Hono app's `fetch`. */
        fetch: (request: Request) => Response | Promise<Response>
      }
    | {
        /** A Node request handler, e.g. a Koa app's `callback()`. */
        handler: (req: IncomingMessage, res: ServerResponse) => unknown
      }
  ) & {
    /** The port to listen on. */
    port: number
    /** The interface to bind. @default '127.0.0.1' */
    host?: string | undefined
    /** The service name used in error messages. @default 'server' */
    name?: string | undefined
    /** The largest request body, in bytes. @default 1 MiB */
    bodyLimit?: number | undefined
    /**
     * Path prefixes only loopback origins may use (control routes, the
     * mailbox), e.g. `['/dev/', '/mailbox']`.
     */
    localOnly?: readonly string[] | undefined
    /**
     * Path prefixes whose pages other sites may frame, e.g. a logout page
     * a client loads in a hidden iframe. Every other HTML page without a
     * policy of its own is sent with `frame-ancestors 'none'`.
     */
    framable?: readonly string[] | undefined
  }
  type ReturnType = Running
}

/**
 * A fetch handler (e.g. a Hono app's `fetch`) as a Node request handler,
 * for a service that mounts a Hono app beside a Node one (the identity
 * provider's Koa app): every failure answers a JSON 400, never the
 * adapter's 500.
 *
 * @param fetch - The fetch handler.
 * @param options.name - The service name used in the stderr log.
 * @param options.hostname - The host of a request without `Host`.
 */
export function toNodeHandler(
  fetch: (request: Request) => Response | Promise<Response>,
  options: { name: string; hostname?: string | undefined },
): (req: IncomingMessage, res: ServerResponse) => Promise<unknown> {
  const { name, hostname } = options
  return getRequestListener(answerOf(fetch), {
    ...(hostname === undefined ? {} : { hostname }),
    // The emulator runs inside its host's process (a test run, a dApp's
    // script): the adapter must not swap the global Request and Response
    // for its own classes, or a Response from Node's fetch stops being
    // `instanceof Response` for every other library there.
    overrideGlobalObjects: false,
    // Hono answers its own errors (see createApp); this catches what fails
    // while the adapter builds the Request (a malformed URL), a handler
    // that rejects (Hono hands only Errors to onError) and one that answers
    // no Response. Without it the adapter answers 500.
    errorHandler: (error) => {
      log(name, error)
      return refusal(400, 'The request could not be handled.')
    },
  })
}

/**
 * A Hono app whose failures answer JSON: a handler that throws answers
 * `400 { error }` (never 500), an unknown route `404 { error }`. Every
 * emulated service built on Hono starts from this.
 *
 * @example
 * ```ts
 * const app = createApp()
 * app.post('/v1/things', async (c) => c.json(await c.req.json()))
 * ```
 */
export function createApp<env extends Env = Env>(): Hono<env> {
  const app = new Hono<env>()
  app.onError((error, c) => {
    // Hono's own HTTP errors carry a 4xx status; keep it.
    const status =
      error instanceof HTTPException && error.status < 500 ? error.status : 400
    return c.json({ error: describe(error) }, status)
  })
  app.notFound((c) =>
    c.json(
      { error: `No route ${c.req.method} ${new URL(c.req.url).pathname}.` },
      404,
    ),
  )
  return app
}

/** A refusal: the status and the sentence of its JSON `{ error }` body. */
type Refusal = {
  status: number
  error: string
}

function refusal(status: number, error: string): Response {
  return Response.json({ error }, { status })
}

/** What Node's HTTP parser rejects, as the status and sentence to answer. */
const clientErrors: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
}

/**
 * A fetch handler that always settles with a Response: `@hono/node-server`
 * answers 500 when it gets anything else.
 */
function answerOf(
  fetch: (request: Request) => Response | Promise<Response>,
): (request: Request, ...rest: unknown[]) => Promise<Response> {
  // The adapter also passes Node's request and response (Hono's `c.env`,
  // which the identity provider's pages hand to oidc-provider): pass them on.
  const call = fetch as (request: Request, ...rest: unknown[]) => unknown
  return async (request, ...rest) => {
    const response = await call(request, ...rest)
    if (!(response instanceof Response))
      throw new TypeError('The handler answered no Response.')
    return response
  }
}

/** Checks a request against the rules that come before any handler. */
function check(
  req: IncomingMessage,
  rules: {
    hosts: ReadonlySet<string>
    bodyLimit: number
    localOnly: readonly string[]
  },
): Refusal | undefined {
  // A target in absolute form (`GET http://host/path`) names the host the
  // request is for, and HTTP/1.1 (RFC 9112) has it override the Host
  // header; it is also what the handlers see as the request's URL.
  const target = req.url ?? '/'
  const host = target.startsWith('/')
    ? req.headers.host
    : (URL.parse(target)?.host ?? '')
  if (host === undefined || !rules.hosts.has(host.toLowerCase()))
    return {
      status: 403,
      error: `This service answers requests addressed to ${[...rules.hosts][0]} only.`,
    }
  if (!pathDecodes(target))
    return {
      status: 400,
      error: 'The request path is not valid percent-encoded UTF-8.',
    }
  if (req.headers['transfer-encoding'] !== undefined)
    return {
      status: 411,
      error: 'Send the request body with a Content-Length.',
    }
  const length = Number(req.headers['content-length'] ?? 0)
  if (!Number.isSafeInteger(length) || length < 0)
    return { status: 400, error: 'The Content-Length is not a number.' }
  if (length > rules.bodyLimit)
    return {
      status: 413,
      error: `The request body is larger than ${rules.bodyLimit} bytes.`,
    }
  if (isLocalPath(req, rules.localOnly)) {
    const origin = req.headers.origin
    if (origin !== undefined && !isLoopbackOrigin(origin))
      return {
        status: 403,
        error: 'Only pages on a loopback origin may use this route.',
      }
    // A request with no Origin is a navigation, or comes from outside a
    // browser. A cross-site subresource request without one (an <img> or
    // <script> pointed here) is not.
    if (
      origin === undefined &&
      req.headers['sec-fetch-site'] === 'cross-site' &&
      req.headers['sec-fetch-mode'] !== 'navigate'
    )
      return {
        status: 403,
        error: 'Only pages on a loopback origin may use this route.',
      }
    const method = req.method ?? 'GET'
    if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) {
      const type = req.headers['content-type'] ?? ''
      if (!/^application\/json\s*(;|$)/i.test(type))
        return {
          status: 415,
          error: 'Send control requests as application/json.',
        }
    }
  }
  return undefined
}

/**
 * Whether the request's path starts with one of the local-only prefixes,
 * however it is spelled. A router matches a path after a URL parser has
 * resolved its dot segments (`/x/../mailbox`) and an absolute-form target
 * (`GET http://host/mailbox`), and Hono then percent-decodes it
 * (`/%6Dailbox`); the rule must see every spelling the router would
 * route to the same place, or a page could reach a local route by
 * spelling it differently. Hono decodes escape by escape when the whole
 * path does not decode (`/%64ev/x%C0` routes as `/dev/x%C0`), which is why
 * {@link check} refuses such paths before this runs: every path that gets
 * here decodes whole, to what the router sees. Letters are compared
 * without case, which refuses more than needed and never less.
 */
function isLocalPath(req: IncomingMessage, localOnly: readonly string[]) {
  if (localOnly.length === 0) return false
  const spellings = pathSpellings(req.url ?? '/').map((path) =>
    path.toLowerCase(),
  )
  return localOnly.some((prefix) =>
    spellings.some((path) => path.startsWith(prefix.toLowerCase())),
  )
}

/**
 * Whether the request's path, as the router sees it (parsed and
 * percent-decoded), is under one of `prefixes`. Unlike
 * {@link isLocalPath}, which must refuse every spelling, this grants
 * something, so only the one path the request reaches counts.
 */
function isPathUnder(req: IncomingMessage, prefixes: readonly string[]) {
  if (prefixes.length === 0) return false
  let path: string
  try {
    path = decodeURI(parsedPath(req.url ?? '/'))
  } catch {
    return false
  }
  return prefixes.some(
    (prefix) =>
      path === prefix ||
      path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`),
  )
}

/** The request target's path as written, as parsed, and percent-decoded. */
function pathSpellings(target: string): string[] {
  const written = writtenPath(target)
  const parsed = parsedPath(target)
  const spellings = [written, parsed]
  for (const decode of [decodeURI, decodeURIComponent])
    try {
      spellings.push(decode(parsed))
    } catch {
      // Refused before (see pathDecodes); kept total for safety.
    }
  return spellings
}

/**
 * Whether the target's path, as written and as a URL parser resolves it,
 * is valid percent-encoding of UTF-8 (RFC 3986), so that it decodes whole.
 * The query is left to the handler.
 */
function pathDecodes(target: string): boolean {
  try {
    decodeURIComponent(writtenPath(target))
    decodeURIComponent(parsedPath(target))
    return true
  } catch {
    return false
  }
}

function writtenPath(target: string): string {
  return target.split(/[?#]/)[0] ?? ''
}

/** The path a URL parser makes of the target: what the router receives. */
function parsedPath(target: string): string {
  const url = URL.parse(
    target.startsWith('/') ? `http://host${target}` : target,
  )
  return url?.pathname ?? writtenPath(target)
}

/**
 * Lets loopback pages read local-only routes cross-origin (the playground
 * and test pages run on other ports than the services), and answers their
 * preflights.
 *
 * @returns Whether the request was a preflight, now answered.
 */
function allowLoopbackCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin
  if (origin === undefined) return false
  res.setHeader('Access-Control-Allow-Origin', origin)
  res.setHeader('Vary', 'Origin')
  if (req.method !== 'OPTIONS') return false
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE',
    'Access-Control-Allow-Headers': 'Content-Type',
    'Access-Control-Max-Age': '600',
  })
  res.end()
  return true
}

/**
 * Makes the page `res` carries unframable when it sets no policy of its
 * own. Node hands every response's headers to `writeHead` (an explicit
 * call, or the implicit one of a first `write` or `end`), so that is where
 * the answer's type and policy are known, whichever framework wrote them.
 */
function denyFramingOfPages(res: ServerResponse) {
  const writeHead = res.writeHead
  res.writeHead = function (
    this: ServerResponse,
    ...args: Parameters<ServerResponse['writeHead']>
  ) {
    const given = args.find(
      (arg): arg is OutgoingHttpHeaders | OutgoingHttpHeader[] =>
        typeof arg === 'object' && arg !== null,
    )
    const read = (name: string) => headerOf(given, name) ?? this.getHeader(name)
    if (
      /^\s*text\/html\b/i.test(String(read('content-type') ?? '')) &&
      read('content-security-policy') === undefined
    ) {
      this.setHeader('content-security-policy', "frame-ancestors 'none'")
      if (read('x-frame-options') === undefined)
        this.setHeader('x-frame-options', 'DENY')
    }
    return writeHead.apply(this, args)
  } as ServerResponse['writeHead']
}

/** A header of `writeHead`'s headers argument (an object, or name-value pairs). */
function headerOf(
  headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined,
  name: string,
): unknown {
  if (headers === undefined) return undefined
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2)
      if (String(headers[i]).toLowerCase() === name) return headers[i + 1]
    return undefined
  }
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name) return value
  return undefined
}

/**
 * The `Host` values that name this server: its address and port. Any
 * loopback name is accepted for a loopback address: a page on `localhost`
 * and one on `127.0.0.1` reach the same service.
 */
function allowedHosts(host: string, port: number): ReadonlySet<string> {
  const own = hostOf(host)
  const names = loopbackNames.includes(own) ? loopbackNames : [own]
  const hosts = [own, ...names.filter((name) => name !== own)]
  return new Set(hosts.map((name) => `${name}:${port}`.toLowerCase()))
}

/** A bind address as a URL or `Host` names it: IPv6 in brackets. */
function hostOf(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
}

function answer(res: ServerResponse, refused: Refusal) {
  const body = JSON.stringify({ error: refused.error })
  res.writeHead(refused.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    connection: 'close',
  })
  res.end(body)
}

/**
 * A handler failed: answer a JSON 400 if nothing was sent yet, else end the
 * connection (the answer is already partly on its way).
 */
function fail(res: ServerResponse, name: string, error: unknown) {
  log(name, error)
  if (res.headersSent || res.writableEnded) {
    res.destroy()
    return
  }
  try {
    // Drop what the handler had set for its own answer (a length, a type,
    // half of a failed writeHead's headers); keep what CORS needs for the
    // page to read the error.
    for (const header of res.getHeaderNames())
      if (header !== 'access-control-allow-origin' && header !== 'vary')
        res.removeHeader(header)
    answer(res, { status: 400, error: 'The request could not be handled.' })
  } catch {
    res.destroy()
  }
}

/** Tells the developer, on stderr, that a request failed and why. */
function log(name: string, error: unknown) {
  process.stderr.write(
    `[emulator] ${name}: a request failed: ${describe(error)}\n`,
  )
}

/** One line about an error, without its stack. */
function describe(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name
  return 'Unknown error.'
}

/** Thrown when a service's port is already taken. */
export class PortInUseError extends BaseError<Error | undefined> {
  override readonly name = 'Server.PortInUseError'
  /** The port that is taken. */
  readonly port: number
  constructor(options: PortInUseError.Options) {
    const { port, host, name, cause, flag = '--port-base' } = options
    super(
      `Cannot start the ${name} service: port ${port} on ${host} is already in use. Free it or choose other ports (${flag}).`,
      { cause, details: '' },
    )
    this.port = port
  }
}

export declare namespace PortInUseError {
  type Options = Omit<ErrorOptions, 'cause'> & {
    cause?: Error | undefined
    /** The option that moves the port. @default '--port-base' */
    flag?: string | undefined
  }
}

/** Thrown when a service cannot listen for another reason than a taken port. */
export class ListenError extends BaseError<Error> {
  override readonly name = 'Server.ListenError'
  /** The port the service was to listen on. */
  readonly port: number
  constructor(options: ErrorOptions) {
    const { port, host, name, cause } = options
    super(`Cannot start the ${name} service on ${host}:${port}.`, { cause })
    this.port = port
  }
}

type ErrorOptions = {
  port: number
  host: string
  name: string
  cause: Error
}
