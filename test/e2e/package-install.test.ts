import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chromiumArgs } from '../../vitest.config.js'
import { userEnv } from './process.js'

/**
 * The package as a dApp meets it: packed with `npm pack`, installed into a
 * fresh app that installed only `wagmi` and what wagmi needs (npm then
 * nests `@wagmi/core` under `wagmi`, out of the package's reach), built with
 * Vite and type-checked with `skipLibCheck`, as Vite's templates set it.
 * npm runs with its defaults, as in a new project: not with this
 * repository's configuration (its `legacy-peer-deps` would hoist
 * `@wagmi/core`). The app's dependencies are pinned to this repository's
 * versions and installed from the npm cache where it has them (`npm test`
 * builds before Vitest).
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const bin = (path: string) => join(root, 'node_modules', path)

/** The app's dependencies: wagmi's peers, at the versions this repo uses. */
const appDependencies = ['wagmi', 'viem', '@tanstack/react-query', 'react']

/**
 * The dApp's code. Each `@ts-expect-error` fails the type check when the
 * connectors' types are `any` (wagmi's types unresolved) or their options
 * are untyped.
 */
const main = `import { defineChain } from 'viem'
import { type CreateConnectorFn, createConfig, http } from 'wagmi'
import { reconnect } from 'wagmi/actions'
import { magic, passport } from 'embedded-wallets/connectors'

const chain = defineChain({
  id: 31337,
  name: 'Anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
})

const iframeWallet: CreateConnectorFn = magic({
  apiKey: 'pk_live_APP',
  options: { endpoint: 'http://127.0.0.1:1' },
})

export const config = createConfig({
  chains: [chain],
  connectors: [
    iframeWallet,
    passport({
      config: {
        baseConfig: { environment: 'sandbox' },
        clientId: 'app',
        redirectUri: 'http://127.0.0.1:1/redirect',
      },
    }),
  ],
  transports: { [chain.id]: http() },
})

// @ts-expect-error a connector is a function of wagmi's config, not a number
export const notANumber: number = magic({ apiKey: 'pk_live_APP' })
// @ts-expect-error the client's options are typed: a misspelt one is refused
magic({ apiKey: 'pk_live_APP', options: { endpiont: 'http://127.0.0.1:1' } })
// @ts-expect-error the game wallet's configuration needs a clientId
passport({ config: { baseConfig: { environment: 'sandbox' }, redirectUri: 'x' } })

// What wagmi runs on mount; the test reads its outcome from the page.
reconnect(config).then(
  (connections) => {
    document.body.dataset.reconnected = String(connections.length)
  },
  (error: Error) => {
    document.body.dataset.reconnected = \`failed: \${error.message}\`
  },
)
`

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    moduleResolution: 'Bundler',
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['src'],
}

/**
 * The environment of a person's shell: without what Vitest adds, nor the
 * configuration npm passes to the scripts it runs (`npm_config_*`).
 */
const env = Object.fromEntries(
  Object.entries(userEnv()).filter(
    ([key]) => !key.toLowerCase().startsWith('npm_config_'),
  ),
)

/** Runs a command to its end; rejects with its output when it fails. */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `${command} ${args.join(' ')} failed (${error.code}):\n${stdout}\n${stderr}`,
            ),
          )
        else resolve(stdout)
      },
    )
  })
}

/** A package's version in this repository's node_modules. */
async function versionOf(name: string): Promise<string> {
  const json = await readFile(bin(`${name}/package.json`), 'utf8')
  return (JSON.parse(json) as { version: string }).version
}

describe('the packed package in a fresh wagmi app', () => {
  let work: string
  let app: string

  beforeAll(async () => {
    if (!existsSync(join(root, 'dist/connectors/index.js')))
      throw new Error('dist is missing: run `npm run build` first')
    work = await mkdtemp(join(tmpdir(), 'embedded-wallets-app-'))
    app = join(work, 'app')
    await mkdir(join(app, 'src'), { recursive: true })
    const packed = JSON.parse(
      await run(
        'npm',
        ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
        root,
      ),
    ) as { filename: string }[]
    const tarball = join(work, packed[0]!.filename)
    const versions = await Promise.all(
      appDependencies.map(async (name) => `${name}@${await versionOf(name)}`),
    )
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    )
    await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--loglevel=error',
        ...versions,
        tarball,
      ],
      app,
    )
    await writeFile(join(app, 'src/main.ts'), main)
    await writeFile(join(app, 'tsconfig.json'), JSON.stringify(tsconfig))
    await writeFile(
      join(app, 'index.html'),
      '<!doctype html><script type="module" src="/src/main.ts"></script>\n',
    )
  })

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true })
  })

  test('default: npm nests @wagmi/core under wagmi, out of the package’s reach', () => {
    expect(existsSync(join(app, 'node_modules/embedded-wallets'))).toBe(true)
    expect(existsSync(join(app, 'node_modules/@wagmi/core'))).toBe(false)
    expect(
      existsSync(join(app, 'node_modules/wagmi/node_modules/@wagmi/core')),
    ).toBe(true)
  })

  test('behavior: type-checks with skipLibCheck, and the connectors are typed (not any)', async () => {
    await run(
      process.execPath,
      [bin('typescript/bin/tsc'), '-p', 'tsconfig.json'],
      app,
    )
  })

  test('behavior: Vite builds it, and its page load (wagmi reconnect, no session) fetches neither client nor makes an iframe', async () => {
    await run(
      process.execPath,
      [bin('vite/bin/vite.js'), 'build', '--manifest', '--logLevel', 'error'],
      app,
    )
    type Entry = { file: string; imports?: string[]; isEntry?: boolean }
    const manifest = JSON.parse(
      await readFile(join(app, 'dist/.vite/manifest.json'), 'utf8'),
    ) as Record<string, Entry>
    // The entry chunk and what it imports statically: the page load.
    const initial = new Set<string>()
    const visit = (key: string) => {
      const entry = manifest[key]
      if (!entry || initial.has(entry.file)) return
      initial.add(entry.file)
      for (const imported of entry.imports ?? []) visit(imported)
    }
    for (const [key, entry] of Object.entries(manifest))
      if (entry.isEntry) visit(key)
    expect(initial.size).toBeGreaterThan(0)
    const code = (
      await Promise.all(
        [...initial].map((file) => readFile(join(app, 'dist', file), 'utf8')),
      )
    ).join('\n')
    // The connectors are there; the iframe wallet's client (its storage
    // database) and the game wallet's (its logout callback) are not.
    expect(code).toContain('link.magic')
    expect(code).toContain('com.immutable.passport')
    expect(code).not.toContain('MagicAuthLocalStorageDB')
    expect(code).not.toContain('logoutSilentCallback')

    // The built page in Chromium: reconnect completes, with what loaded
    // being the page-load chunks only.
    const server = await serve(join(app, 'dist'))
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: chromiumArgs,
    })
    try {
      const page = await browser.newPage()
      const errors: string[] = []
      const scripts: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname
        if (path.endsWith('.js')) scripts.push(path.slice(1))
      })
      const { port } = server.address() as AddressInfo
      await page.goto(`http://127.0.0.1:${port}/`)
      const body = page.locator('body[data-reconnected]')
      await body.waitFor({ state: 'attached', timeout: 20_000 })
      expect(await body.getAttribute('data-reconnected')).toBe('0')
      expect(errors).toEqual([])
      expect(scripts.length).toBeGreaterThan(0)
      expect(scripts.filter((file) => !initial.has(file))).toEqual([])
      expect(await page.locator('iframe').count()).toBe(0)
    } finally {
      await browser.close()
      server.close()
    }
  })
})

/** Serves `directory` on a free loopback port, as a static host would. */
async function serve(directory: string): Promise<Server> {
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
  }
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    const file = normalize(join(directory, path === '/' ? 'index.html' : path))
    try {
      if (!file.startsWith(directory)) throw new Error('outside')
      const body = await readFile(file)
      response.writeHead(200, {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
      })
      response.end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}
