import type {} from '@vitest/browser-playwright'
import type { CDPSession } from 'playwright'
import type { BrowserCommand } from 'vitest/node'

/*
 * Browser commands that answer a hosted origin's requests from a local one,
 * at the browser's network layer: a published SDK that calls a host it
 * does not let a game configure (the @imtbl/passport 2.14.0 StarkEx
 * signer's key custody, its x-client's account lookup) is pointed at the
 * emulator without changing a line of it.
 *
 * Through the DevTools protocol's Fetch domain on the test page's target,
 * with a pattern per routed origin, rather than Playwright's `route`: once
 * any `route` is set, Playwright pauses every request of the context and
 * answers each CORS preflight itself, allowing whatever was asked, so no
 * preflight of any origin would reach a server while the routes stand.
 * Here only the routed origins' requests pause, and their preflights too
 * are answered by the local origin: the browser applies its real CORS
 * answers, as if it served the hosted origin.
 */

/**
 * A request answered from another origin: what the page asked, and the
 * status it was answered (0 until answered, or when it failed).
 */
export type RoutedRequest = { method: string; url: string; status: number }

/** What a routing leaves behind to undo it. */
type Routing = {
  session: CDPSession
  seen: RoutedRequest[]
}

/** The routing of each test session (its page), while it stands. */
const routings = new Map<string, Routing>()

/** Request headers the forwarder sets itself (or must not forward). */
const ownRequestHeaders = new Set([
  'host',
  'connection',
  'content-length',
  'accept-encoding',
])

/**
 * Response headers that no longer describe the body once Node's fetch has
 * read it (decoded, de-chunked).
 */
const ownResponseHeaders = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
])

/** `origin` and a request URL on it, as an origin without a trailing path. */
function parseOrigin(value: string): string {
  const url = new URL(value)
  if (url.origin !== value)
    throw new Error(`Not an origin: ${value} (expected ${url.origin}).`)
  return url.origin
}

/**
 * Routes every request of the test page to each `from` origin to the same
 * path and query on its `to` origin, until {@link originsUnroute}. Replaces
 * a routing already standing.
 */
export const originsRoute: BrowserCommand<
  [routes: readonly { from: string; to: string }[]]
> = async (context, routes) => {
  await unroute(context.sessionId)
  const targets = new Map(
    routes.map(({ from, to }) => [parseOrigin(from), parseOrigin(to)]),
  )
  const session = await context.context.newCDPSession(context.page)
  const routing: Routing = { session, seen: [] }
  session.on('Fetch.requestPaused', (event) => {
    const { requestId, request } = event
    const url = new URL(request.url)
    const to = targets.get(url.origin)
    if (to === undefined) {
      session.send('Fetch.continueRequest', { requestId }).catch(() => {})
      return
    }
    const seen: RoutedRequest = {
      method: request.method,
      url: request.url,
      status: 0,
    }
    routing.seen.push(seen)
    const headers = new Headers()
    for (const [name, value] of Object.entries(request.headers))
      if (!ownRequestHeaders.has(name.toLowerCase())) headers.set(name, value)
    const body = request.postDataEntries
      ?.map((entry) => Buffer.from(entry.bytes ?? '', 'base64'))
      .reduce((all, part) => Buffer.concat([all, part]), Buffer.alloc(0))
    const answered = fetch(`${to}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      ...(body === undefined ? {} : { body }),
      redirect: 'manual',
    }).then(async (response) => {
      const responseHeaders: { name: string; value: string }[] = []
      response.headers.forEach((value, name) => {
        if (!ownResponseHeaders.has(name)) responseHeaders.push({ name, value })
      })
      const bytes = Buffer.from(await response.arrayBuffer())
      seen.status = response.status
      await session.send('Fetch.fulfillRequest', {
        requestId,
        responseCode: response.status,
        responseHeaders,
        body: bytes.toString('base64'),
      })
    })
    // The local origin unreachable: the page sees a network error, as it
    // would from an unreachable host. A page gone meanwhile ends it too.
    answered.catch(() =>
      session
        .send('Fetch.failRequest', { requestId, errorReason: 'Failed' })
        .catch(() => {}),
    )
  })
  await session.send('Fetch.enable', {
    patterns: [...targets.keys()].map((origin) => ({
      urlPattern: `${origin}/*`,
      requestStage: 'Request' as const,
    })),
  })
  routings.set(context.sessionId, routing)
}

/** Ends the routing of a test session; returns the requests it answered. */
async function unroute(sessionId: string): Promise<RoutedRequest[]> {
  const routing = routings.get(sessionId)
  if (routing === undefined) return []
  routings.delete(sessionId)
  await routing.session.send('Fetch.disable').catch(() => {})
  await routing.session.detach().catch(() => {})
  return routing.seen
}

/**
 * Ends the routing {@link originsRoute} set; answers the requests it routed
 * (preflights included), in order.
 */
export const originsUnroute: BrowserCommand<[]> = (context) =>
  unroute(context.sessionId)

/** The requests routed so far (preflights included), in order. */
export const originsRouted: BrowserCommand<[]> = (context) =>
  (routings.get(context.sessionId)?.seen ?? []).map((seen) => ({ ...seen }))

declare module 'vitest/browser' {
  interface BrowserCommands {
    /**
     * Answers the test page's requests to each `from` origin from the same
     * path on `to`, CORS preflights included, until {@link originsUnroute}.
     */
    originsRoute(routes: readonly { from: string; to: string }[]): Promise<void>
    /** Ends the routing; the requests it routed, in order. */
    originsUnroute(): Promise<RoutedRequest[]>
    /** The requests routed so far, in order. */
    originsRouted(): Promise<RoutedRequest[]>
  }
}
