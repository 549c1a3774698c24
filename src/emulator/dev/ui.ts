/**
 * The emulator's UI on the dev origin: one page showing, live, what the
 * services registered on the observation hub (users, sessions, mailbox,
 * verdicts, relayed transactions, session activity, the chain), with a few
 * controls (end a session, approve or reject a verdict, scenario switches).
 *
 * - `GET /ui`: the page (a React app, see ui/main.tsx);
 * - `GET /ui/app.js`: its script, prebuilt in the package or bundled from
 *   source on first request (see assets.ts);
 * - `GET /ui/events`: server-sent events, one `source` event
 *   `{ name, data }` per source at once and again after each change;
 * - `POST /ui/actions` `{ source, action, input }`: runs an action of a
 *   source.
 *
 * Every route answers loopback pages only (the server's `localOnly` rule):
 * the page shows login codes and can settle the guardian's verdicts. An
 * action must also come from the page itself: its `Origin` must be this
 * origin (browsers set it, pages cannot) and it must carry the page's
 * token, which only a page of this origin can read. So no other page, not
 * even the dApp's on another loopback port, can press the page's buttons.
 *
 * @packageDocumentation
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { Hono, Context as HonoContext } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { Hex } from 'viem'
import { loadBrowserApp } from '../assets.js'
import type { Contracts } from '../chain/deploy.js'
import * as Inspect from '../inspect.js'
import type { ChainWatch } from './chain.js'
import { decodeCall } from './decode.js'

/**
 * How long a burst of changes is gathered into one update, ms; also the
 * least time between two updates of a page.
 */
export const coalesceMs = 50

/** The header that carries the page's token on an action. */
export const tokenHeader = 'x-emulator-ui-token'

/** The largest action body, in characters. */
const maxActionBody = 4096

/** Adds the UI's routes to `app`. */
export function uiRoutes(
  app: Hono,
  options: {
    inspect: Inspect.Hub
    chain?: ChainWatch | undefined
    contracts?: Contracts | undefined
  },
): void {
  const { inspect, chain, contracts } = options
  const token = randomBytes(32).toString('hex')

  app.get('/ui', (c) => {
    const nonce = randomBytes(16).toString('base64')
    return c.html(page({ nonce, token }), 200, {
      'content-security-policy': policy(nonce),
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      // It shows login codes: never keep it in a cache.
      'cache-control': 'no-store',
    })
  })

  app.get('/ui/app.js', async (c) => {
    const code = await loadBrowserApp('ui')
    return c.body(code, 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    })
  })

  /** A source's snapshot as the page gets it: relayed calls decoded. */
  const view = (name: string): unknown => {
    const data = inspect.snapshot(name)
    if (name !== Inspect.sources.relayer || !contracts) return data
    const relayer = data as {
      transactions: { calls: { target: Hex; data: Hex; value: string }[] }[]
    }
    return {
      ...relayer,
      transactions: relayer.transactions.map((transaction) => ({
        ...transaction,
        calls: transaction.calls.map((call) => ({
          ...call,
          decoded: decodeCall(
            { to: call.target, data: call.data, value: BigInt(call.value) },
            contracts,
          ),
        })),
      })),
    }
  }

  app.get('/ui/events', (c) =>
    streamSSE(c, async (stream) => {
      const dirty = new Set<string>(inspect.names())
      let wake: (() => void) | undefined
      let closed = false
      const unsubscribe = inspect.subscribe((name) => {
        dirty.add(name)
        wake?.()
      })
      stream.onAbort(() => {
        closed = true
        wake?.()
      })
      chain?.watch()
      try {
        while (!closed) {
          if (dirty.size === 0) {
            await new Promise<void>((resolve) => {
              wake = resolve
            })
            wake = undefined
            if (closed) break
          }
          // Gather the rest of a burst (a login changes several sources),
          // and send at most one update per source in each interval.
          await stream.sleep(coalesceMs)
          for (const name of [...dirty]) {
            dirty.delete(name)
            await stream.writeSSE({
              event: 'source',
              data: JSON.stringify({ name, data: view(name) ?? null }, json),
            })
          }
        }
      } finally {
        unsubscribe()
        chain?.unwatch()
      }
    }),
  )

  app.post('/ui/actions', async (c) => {
    const refused = refuse(c, token)
    if (refused) return c.json({ error: refused }, 403)
    const text = await c.req.text()
    if (text.length > maxActionBody)
      return c.json({ error: 'The action is too large.' }, 413)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return c.json({ error: 'The body is not JSON.' }, 400)
    }
    const { source, action, input } = (
      typeof body === 'object' && body !== null ? body : {}
    ) as Record<string, unknown>
    if (typeof source !== 'string' || typeof action !== 'string')
      return c.json({ error: 'Send { source, action, input }.' }, 400)
    try {
      return c.json(
        JSON.parse(
          JSON.stringify(
            (await inspect.act(source, action, input)) ?? null,
            json,
          ),
        ),
      )
    } catch (error) {
      if (error instanceof Inspect.ActionError)
        return c.json({ error: error.shortMessage }, error.status)
      return c.json(
        { error: error instanceof Error ? error.message : String(error) },
        400,
      )
    }
  })
}

/**
 * Why an action request is refused, or `undefined`: it must come from this
 * origin's own page (its `Origin`, and `Sec-Fetch-Site` when sent) with
 * the page's token.
 */
function refuse(c: HonoContext, token: string): string | undefined {
  const own = new URL(c.req.url).origin
  const site = c.req.header('sec-fetch-site')
  if (
    c.req.header('origin') !== own ||
    (site !== undefined && site !== 'same-origin')
  )
    return "Only the emulator's UI page may act."
  const sent = c.req.header(tokenHeader) ?? ''
  if (
    !/^[0-9a-f]{64}$/.test(sent) ||
    !timingSafeEqual(Buffer.from(sent, 'hex'), Buffer.from(token, 'hex'))
  )
    return "Only the emulator's UI page may act."
  return undefined
}

/** JSON.stringify's replacer: bigints as decimal strings. */
function json(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value
}

/**
 * The page's Content-Security-Policy: its own script and stylesheet (by
 * nonce), requests to itself only, and no site may frame it.
 */
export function policy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

function page(options: { nonce: string; token: string }): string {
  const { nonce, token } = options
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="emulator-ui-token" content="${token}">
<title>Emulator</title>
<style nonce="${nonce}">${style}</style>
</head>
<body>
<div id="root"></div>
<script type="module" nonce="${nonce}" src="/ui/app.js"></script>
</body>
</html>`
}

const style = `
:root { color-scheme: light; --ink: #1d2433; --muted: #5b6478; --line: #e3e6ec; --bg: #f5f6f8; --ok: #17784a; --bad: #b42318; --wait: #9a6700; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--ink); background: var(--bg); }
header { display: flex; align-items: baseline; gap: 12px; padding: 14px 24px; background: #fff; border-bottom: 1px solid var(--line); }
header h1 { margin: 0; font-size: 18px; }
header .live { font-size: 12px; color: var(--muted); }
header .live.on::before { content: "●"; color: var(--ok); margin-right: 4px; }
main { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 16px; padding: 16px 24px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; min-width: 0; }
section.wide { grid-column: 1 / -1; }
section h2 { margin: 0 0 8px; font-size: 14px; display: flex; justify-content: space-between; }
section h2 small { font-weight: normal; color: var(--muted); }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
.mono { font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
.code { font: 600 15px ui-monospace, monospace; letter-spacing: 0.06em; }
.empty { color: var(--muted); margin: 4px 0; }
.status { font-weight: 600; }
.status.SUCCESSFUL, .status.success, .status.allowed { color: var(--ok); }
.status.FAILED, .status.REVERTED, .status.reverted, .status.rejected, .status.CANCELLED { color: var(--bad); }
.status.PENDING, .status.SUBMITTED, .status.pending { color: var(--wait); }
button { font: inherit; font-size: 12px; padding: 2px 10px; border: 1px solid #c5cad3; border-radius: 4px; background: #fff; cursor: pointer; }
button:hover { background: var(--bg); }
button.approve { border-color: var(--ok); color: var(--ok); }
button.reject, button.end { border-color: var(--bad); color: var(--bad); }
.call { margin: 2px 0; }
.call .fn { font-weight: 600; }
.call ul { margin: 2px 0 2px 14px; padding: 0; list-style: none; border-left: 2px solid var(--line); padding-left: 8px; }
.revert { color: var(--bad); }
.error { color: var(--bad); margin: 4px 0; }
label.switch { display: flex; gap: 8px; align-items: flex-start; padding: 4px 0; border-bottom: 1px solid var(--line); }
label.switch small { display: block; color: var(--muted); }
`
