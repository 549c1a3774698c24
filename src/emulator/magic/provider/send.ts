/**
 * The emulated provider's `/send` page: the iframe a dApp's client loads
 * (hidden, then shown as an overlay) and talks to with postMessage. The page
 * is a static shell; its script (`/app.js`, built from `app/main.ts`) does
 * the work and calls the backend (`/v1/flow`) on the same origin.
 *
 * @packageDocumentation
 */
import type { Hono } from 'hono'
import { loadBrowserApp } from '../../assets.js'
import { styles } from './app/styles.js'

/**
 * The page's Content-Security-Policy: only its own script and stylesheet,
 * network calls only to its own origin, no plugins, no forms, no base
 * rewriting. No `frame-ancestors`: any dApp may frame it (the app itself
 * talks only to the origin named in its params).
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ')

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Secure Modal (emulated)</title>
    <link rel="stylesheet" href="/app.css" />
    <script type="module" src="/app.js"></script>
  </head>
  <body>
    <main id="root" data-testid="magic-root"></main>
  </body>
</html>
`

/**
 * Mounts the iframe page and its assets on the magic service's app:
 *
 * - `GET /send` and `GET /send/` (React Native) → the HTML shell, with a
 *   strict CSP and `nosniff`, and framable (no `X-Frame-Options`). The API
 *   key in `?params=` is not checked here: the backend answers each request
 *   of an unknown key with an error, so the page still comes up.
 * - `GET /app.js` → the bundled iframe app (400 `{ error }` when it cannot
 *   be built).
 * - `GET /app.css` → its stylesheet.
 *
 * @example
 * ```ts
 * const app = new Hono()
 * sendRoutes(app, { apiKeys: [defaultApiKey] })
 * ```
 *
 * @param app - The magic service's Hono app.
 * @param options.apiKeys - The service's API keys (reserved; the page does
 *   not check them).
 */
export function sendRoutes(app: Hono, _options: sendRoutes.Options): void {
  const send = () =>
    new Response(page, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': contentSecurityPolicy,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      },
    })
  app.get('/send', send)
  app.get('/send/', send)

  app.get('/app.js', async () => {
    try {
      const code = await loadBrowserApp('magic')
      return new Response(code, {
        headers: {
          'content-type': 'text/javascript; charset=utf-8',
          'x-content-type-options': 'nosniff',
          'cache-control': 'no-cache',
        },
      })
    } catch (error) {
      // Like every failure of the emulator, a JSON 4xx, never a 5xx.
      const message =
        error instanceof Error ? error.message.split('\n')[0] : 'unknown'
      return Response.json(
        { error: `Cannot build the iframe app: ${message}` },
        { status: 400, headers: { 'cache-control': 'no-store' } },
      )
    }
  })

  app.get(
    '/app.css',
    () =>
      new Response(styles, {
        headers: {
          'content-type': 'text/css; charset=utf-8',
          'x-content-type-options': 'nosniff',
          'cache-control': 'no-cache',
        },
      }),
  )
}

export declare namespace sendRoutes {
  type Options = {
    /** The API keys the service accepts. */
    apiKeys: readonly string[]
  }
}
