/**
 * The browser side of the bench: the pages (bundled by rolldown, minified,
 * for production, the same way for ours and the published SDK), two static
 * servers on two loopback sites (the dApp's and the iframe's) and Chromium.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { type Browser, chromium } from 'playwright-core'
import { rolldown } from 'rolldown'
import { chromiumArgs } from '../vitest.config.js'

/**
 * The browser tests' Chromium flags (a machine with no network but
 * loopback), and more: the bench keeps pages busy in the background of no
 * window, and without these a hidden renderer's timers and tasks are
 * throttled.
 */
const benchArgs = [
  ...chromiumArgs,
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
]

const pagesDir = fileURLToPath(new URL('./pages/', import.meta.url))

/**
 * The pages: each a script, bundled on its own. `magic.ts` is bundled
 * twice, with `bench:magic` resolved to ours and to the published SDK;
 * `passport.ts` likewise with `bench:passport`.
 */
const pages = {
  /** Our iframe client (the built `embedded-wallets/magic`). */
  ours: { source: 'magic.ts', sdk: 'embedded-wallets/magic' },
  /** The published magic-sdk. */
  theirs: { source: 'magic.ts', sdk: 'magic-sdk' },
  /** Our game wallet (the built `embedded-wallets/passport`). */
  gameOurs: { source: 'passport.ts', sdk: 'embedded-wallets/passport' },
  /** The published @imtbl/passport. */
  gameTheirs: { source: 'passport.ts', sdk: '@imtbl/passport' },
  /** The bare postMessage echo client (no SDK). */
  echo: { source: 'echo.ts', sdk: undefined },
  /** The instant `/send` iframe (served on the iframe origin). */
  instantFrame: { source: 'instantFrame.ts', sdk: undefined },
  /** The echo iframe (served on the iframe origin). */
  echoFrame: { source: 'echoFrame.ts', sdk: undefined },
} as const

export type PageName = keyof typeof pages

/** The pages served on the dApp's origin. */
export type DappPage = Exclude<PageName, `${string}Frame`>

/** Bundles one page: its chunks by file name, and the entry's name. */
async function bundle(
  name: PageName,
): Promise<{ files: Map<string, string>; entry: string }> {
  const { source, sdk } = pages[name]
  const build = await rolldown({
    input: `${pagesDir}${source}`,
    platform: 'browser',
    logLevel: 'silent',
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    transform: {
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    },
    plugins: [
      {
        name: 'bench-sdk',
        resolveId(source, importer) {
          if (source !== 'bench:magic' && source !== 'bench:passport')
            return null
          if (!sdk) throw new Error(`${name} cannot import ${source}`)
          return this.resolve(sdk, importer, { skipSelf: true })
        },
      },
    ],
  })
  const { output } = await build.generate({ format: 'esm', minify: true })
  await build.close()
  const files = new Map<string, string>()
  let entry = ''
  for (const chunk of output) {
    if (chunk.type !== 'chunk') continue
    files.set(chunk.fileName, chunk.code)
    if (chunk.isEntry) entry = chunk.fileName
  }
  return { files, entry }
}

const html = (script: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body><script type="module" src="${script}"></script></body></html>`

/** A static server: `routes` maps a path (no query) to a body and type. */
async function serve(
  routes: Map<string, { body: string; type: string }>,
): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    const route = routes.get(path)
    if (!route) {
      response.writeHead(404).end()
      return
    }
    response.writeHead(200, {
      'content-type': route.type,
      // Scripts may come from the cache on a warm load; pages are fetched.
      'cache-control': route.type.startsWith('text/html')
        ? 'no-store'
        : 'max-age=3600',
    })
    response.end(route.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

export type Site = {
  /**
   * The dApp's origin (`http://localhost:<port>`, another site than the
   * iframes on 127.0.0.1, so Chromium puts them out of process as a real
   * provider's iframe is; `http://127.0.0.1:<port>` with `sameSite`).
   */
  dappOrigin: string
  /** The instant and echo iframes' origin (`http://127.0.0.1:<port>`). */
  frameOrigin: string
  /** The URL of a dApp page. */
  url(page: DappPage): string
  close(): Promise<void>
}

/**
 * Bundles the pages and serves them on the two origins. With `sameSite`
 * the dApp is served on 127.0.0.1 too, so Chromium keeps the iframes in
 * the page's process (a cheaper postMessage than a real deployment's).
 */
export async function startSite(
  options: { sameSite?: boolean | undefined } = {},
): Promise<Site> {
  const dapp = new Map<string, { body: string; type: string }>()
  const frame = new Map<string, { body: string; type: string }>()
  const js = 'text/javascript; charset=utf-8'
  const htmlType = 'text/html; charset=utf-8'
  for (const name of Object.keys(pages) as PageName[]) {
    const { files, entry } = await bundle(name)
    const routes = name.endsWith('Frame') ? frame : dapp
    for (const [file, code] of files)
      routes.set(`/p/${name}/${file}`, { body: code, type: js })
    const path =
      name === 'instantFrame'
        ? '/send'
        : name === 'echoFrame'
          ? '/echo'
          : `/${name}.html`
    routes.set(path, { body: html(`/p/${name}/${entry}`), type: htmlType })
  }
  const dappServer = await serve(dapp)
  const frameServer = await serve(frame)
  const servers = [dappServer, frameServer]
  const dappHost = options.sameSite ? '127.0.0.1' : 'localhost'
  const dappOrigin = `http://${dappHost}:${dappServer.port}`
  return {
    dappOrigin,
    frameOrigin: `http://127.0.0.1:${frameServer.port}`,
    url: (page) => `${dappOrigin}/${page}.html`,
    async close() {
      for (const { server } of servers) {
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
      }
    },
  }
}

/** Headless Chromium, the system's (nothing is downloaded). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      ...benchArgs,
      // The dApp is served on localhost; the servers listen on 127.0.0.1.
      // The published game SDK reports telemetry to its hosted API from the
      // moment it loads, and carries on when that fails, as offline: the
      // name does not resolve. Not a Playwright route: with one, every
      // request of the context, the wallets' included, would wait on a
      // round trip to this process (which runs the emulator too) before it
      // is sent.
      '--host-resolver-rules=MAP localhost 127.0.0.1, MAP api.immutable.com ~NOTFOUND',
    ],
  })
}
