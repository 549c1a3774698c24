import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServer } from 'vite'

/**
 * Serves the test pages (./pages) for every worker: a Vite dev server on a
 * free loopback port, its URL handed to the workers in `PAGES_URL`. The
 * pages import this package's sources and the published SDKs, pre-bundled
 * once before the first test. `ISOLATION_DIR`: a directory of this run
 * where the isolation tests of two workers meet.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const root = fileURLToPath(new URL('./pages', import.meta.url))
  const repo = fileURLToPath(new URL('../..', import.meta.url))
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'warn',
    cacheDir: fileURLToPath(
      new URL('../../node_modules/.vite/playwright', import.meta.url),
    ),
    server: {
      host: '127.0.0.1',
      port: 0,
      strictPort: false,
      fs: { allow: [repo] },
    },
    // Every package the pages import, bundled when the server starts: a
    // package found only when a page loads would make Vite reload that
    // page under a running test.
    optimizeDeps: {
      entries: ['*.html'],
      include: [
        'magic-sdk',
        '@imtbl/passport',
        'viem',
        'jose',
        'oauth4webapi',
        'mipd',
      ],
      noDiscovery: true,
    },
  })
  await server.listen()
  const address = server.httpServer?.address()
  if (!address || typeof address === 'string')
    throw new Error('The pages server has no port.')
  process.env.PAGES_URL = `http://127.0.0.1:${address.port}`
  const isolation = await mkdtemp(join(tmpdir(), 'embedded-wallets-pw-'))
  process.env.ISOLATION_DIR = isolation
  return async () => {
    await server.close()
    await rm(isolation, { recursive: true, force: true })
  }
}
