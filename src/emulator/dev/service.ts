import { randomBytes } from 'node:crypto'
import type { Hono } from 'hono'
import type { Contracts } from '../chain/deploy.js'
import { normalizeContact } from '../contact.js'
import * as Inspect from '../inspect.js'
import { createApp, startServer } from '../server.js'
import { defineService } from '../service.js'
import { type ChainWatch, createChainWatch } from './chain.js'
import { controlPaths, controlRoutes } from './controls.js'
import type { Store } from './mailbox.js'
import { uiRoutes } from './ui.js'
import * as View from './view.js'

/**
 * Creates the dev service's HTTP app: the mailbox as JSON for tests and the
 * playground, the mailbox page for people, the emulator's UI, and a health
 * check.
 *
 * - `GET /health` → `{ "ok": true }`
 * - `GET /mailbox[?to=…]` → `[{ to, kind, code?, link?, at }]`, newest first;
 *   it holds login codes, so only loopback pages may read it (the server's
 *   `localOnly` rule, see {@link service}).
 * - `GET /mailbox/view[?to=…]` → an HTML page listing the messages, which
 *   no site may frame.
 * - `GET /ui` and what it loads (see ui.ts): the emulator's UI, given
 *   `inspect` (loopback pages only).
 *
 * A `+` in `to` is kept as a `+` (phone numbers), not read as a space.
 *
 * @example
 * ```ts
 * import * as Mailbox from './mailbox.js'
 * import { createDevApp } from './service.js'
 *
 * const mailbox = Mailbox.create()
 * const app = createDevApp({ mailbox })
 * await app.request('/mailbox?to=ada@example.com')
 * ```
 *
 * @param options.mailbox - The store to read.
 * @param options.inspect - The observation hub the UI shows; no UI without it.
 * @param options.chain - The main chain's view for the UI.
 * @param options.contracts - The deployed contracts, to name them in decoded calls.
 * @returns The Hono app.
 */
export function createDevApp(
  options: createDevApp.Options,
): createDevApp.ReturnType {
  const { mailbox } = options
  const app = createApp()
  if (options.controls) controlRoutes(app, options.controls)
  if (options.inspect)
    uiRoutes(app, {
      inspect: options.inspect,
      chain: options.chain,
      contracts: options.contracts,
    })

  app.get('/health', (c) => c.json({ ok: true }))

  app.get('/mailbox', (c) => {
    const to = readQuery(c.req.url, 'to')
    if (to === null) return c.json({ error: 'Malformed query string.' }, 400)
    return c.json(mailbox.list({ to }))
  })

  app.get('/mailbox/view', (c) => {
    const to = readQuery(c.req.url, 'to')
    if (to === null) return c.json({ error: 'Malformed query string.' }, 400)
    const nonce = randomBytes(16).toString('base64')
    return c.html(
      View.render({
        messages: mailbox.list({ to }),
        to: to === undefined ? undefined : normalizeContact(to),
        nonce,
      }),
      200,
      {
        'content-security-policy': View.policy(nonce),
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        // It shows login codes: never keep it in a cache.
        'cache-control': 'no-store',
      },
    )
  })

  return app
}

export declare namespace createDevApp {
  type Options = {
    /** The store to read. */
    mailbox: Store
    /** The scenario and clock routes' state (see controls.ts); none without. */
    controls?: controlRoutes.Options | undefined
    /** The observation hub the UI shows; no UI without it. */
    inspect?: Inspect.Hub | undefined
    /** The main chain's view for the UI. */
    chain?: ChainWatch | undefined
    /** The deployed contracts, to name them in decoded calls. */
    contracts?: Contracts | undefined
  }
  type ReturnType = Hono
}

/**
 * Reads one query parameter, percent-decoding it but keeping `+` literal, so
 * that `?to=+15550100000` finds the phone number people type. An empty value
 * counts as absent.
 *
 * @returns The value, `undefined` if absent or empty, `null` if malformed.
 */
function readQuery(url: string, name: string): string | undefined | null {
  const search = new URL(url).search.slice(1)
  for (const pair of search.split('&')) {
    const separator = pair.indexOf('=')
    const key = separator === -1 ? pair : pair.slice(0, separator)
    if (key !== name) continue
    const value = separator === -1 ? '' : pair.slice(separator + 1)
    try {
      const decoded = decodeURIComponent(value)
      return decoded.trim() === '' ? undefined : decoded
    } catch {
      return null
    }
  }
  return undefined
}

/**
 * The dev service: the mailbox (JSON and page) and the emulator's UI on the
 * first port of the block. Adds `mailbox` (the JSON endpoint) and `ui` (the
 * UI's page) to the JSON line.
 */
export const service = defineService({
  name: 'dev',
  async start(context) {
    const [main] = context.chains
    const chain = createChainWatch({
      chain: main,
      onChange: () => context.inspect.changed(Inspect.sources.chain),
    })
    context.inspect.register(Inspect.sources.chain, {
      snapshot: chain.snapshot,
    })
    const server = await startServer({
      fetch: createDevApp({
        mailbox: context.mailbox,
        inspect: context.inspect,
        chain,
        contracts: main.contracts,
        controls: context,
      }).fetch,
      ...context.listen,
      localOnly: ['/mailbox', '/ui', ...controlPaths],
    }).catch((error: unknown) => {
      chain.stop()
      throw error
    })
    return {
      url: server.url,
      info: { mailbox: `${server.url}/mailbox`, ui: `${server.url}/ui` },
      async stop() {
        chain.stop()
        await server.stop()
      },
    }
  },
})
