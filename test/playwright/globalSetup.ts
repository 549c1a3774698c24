import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, preview } from 'vite'

/**
 * Builds the test pages (./pages) once and serves them to every worker on
 * a free loopback port, handed to the workers in `PAGES_URL`. Built, not
 * served by Vite's dev server: each test opens its pages in a fresh
 * browser context, which would fetch this package's sources module by
 * module every time. `ISOLATION_DIR`: a directory of this run where the
 * isolation tests of two workers meet.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const root = fileURLToPath(new URL('./pages', import.meta.url))
  const scratch = await mkdtemp(join(tmpdir(), 'embedded-wallets-pw-'))
  const outDir = join(scratch, 'pages')
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      reportCompressedSize: false,
      rollupOptions: {
        input: Object.fromEntries(
          ['magic', 'passport', 'passport-redirect'].map((page) => [
            page,
            join(root, `${page}.html`),
          ]),
        ),
      },
    },
  })
  const server = await preview({
    root,
    configFile: false,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  })
  const address = server.httpServer.address()
  if (!address || typeof address === 'string')
    throw new Error('The pages server has no port.')
  process.env.PAGES_URL = `http://127.0.0.1:${address.port}`
  const isolation = join(scratch, 'isolation')
  process.env.ISOLATION_DIR = isolation
  await mkdir(isolation)
  return async () => {
    await server.close()
    await rm(scratch, { recursive: true, force: true })
  }
}
