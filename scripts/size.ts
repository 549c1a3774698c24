/**
 * `npm run size`: what each wallet adds to a dApp's browser bundle, minified
 * and gzipped, for this package and for the published SDK it replaces,
 * measured the same way in the same run. Fails when ours is over a budget.
 *
 * - the iframe wallet: `new Magic(…)` plus its `rpcProvider`, beside the
 *   published magic-sdk;
 * - the game wallet: `new Passport(…)` with every method a dApp may call
 *   (`connectEvm` among them), beside the published @imtbl/passport (its
 *   browser build, with @imtbl/auth, @imtbl/wallet, their viem, axios,
 *   oidc-client-ts and the rest);
 * - the platform API clients: an app calling two operations, beside the
 *   published @imtbl/generated-clients (with its axios).
 *
 * Ours is bundled from the built package (`embedded-wallets/magic`,
 * `embedded-wallets/passport`, so run `npm run build` first) together with
 * every dependency it pulls in, as a dApp's bundler would.
 *
 * It is bundled as an app build does it (Vite sets
 * `preserveEntrySignatures: false` for apps): the entry exports nothing and
 * hands the provider to the page, so nothing can be tree-shaken away.
 *
 * Each product is bundled twice, by rolldown and by esbuild (code splitting
 * on). Two numbers per package: `initial` is the entry chunk and the chunks
 * it imports statically (what loads with the page); `total` adds every
 * chunk loaded later with `import()`. Each chunk is gzipped on its own, as
 * it is served. The 12 KiB budget applies to `initial` under both bundlers,
 * what every dApp pays on page load. Code that only some dApps run, or
 * that no request needs before the iframe is ready, is split off: the
 * session material (DPoP keys, device shares), whose download starts with
 * the iframe's; typed-data checks on the first `eth_signTypedData_*`;
 * third-party wallet mode on `thirdPartyWallets.connect`; passkey MFA when
 * the provider asks for a passkey; the localStorage and memory fallbacks
 * when IndexedDB is unavailable. The total is held to 16.25 KiB under
 * rolldown (about half the published SDK's), so that the split-off code
 * cannot grow unnoticed.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { rolldown } from 'rolldown'

/**
 * One wallet to measure: the code a dApp writes (`entry`, given the package
 * to import), ours and the published SDK's package names, and our budgets.
 */
export type Product = {
  /** What the dApp code does, for the report's heading. */
  title: string
  /** Our package entry. */
  ours: string
  /** The published SDK's package name. */
  theirs: string
  /** The dApp's code, importing from `specifier`. */
  entry: (specifier: string) => string
  /**
   * The dApp's code for ours, when it differs from {@link Product.entry}
   * (an import of ours that the published package does not offer).
   */
  oursEntry?: ((specifier: string) => string) | undefined
  /** Ours, gzipped, loaded with the page. */
  budget: number
  /** {@link Product.budget} under one bundler, where it differs. */
  bundlerBudgets?:
    | Readonly<Partial<Record<'rolldown' | 'esbuild', number>>>
    | undefined
  /** Ours, gzipped, lazy chunks included. */
  totalBudget?: number | undefined
}

/**
 * The iframe wallet. Loaded with the page: what a dApp pays before its first
 * request, well under half of the published SDK; in total about half the
 * published SDK's.
 */
export const magic: Product = {
  title: 'new Magic(…) + rpcProvider',
  ours: 'embedded-wallets/magic',
  theirs: 'magic-sdk',
  entry: (specifier) =>
    [
      `import { Magic } from '${specifier}'`,
      `const magic = new Magic('pk_live_SIZE_CHECK')`,
      'globalThis.provider = magic.rpcProvider',
      '',
    ].join('\n'),
  budget: 12 * 1024,
  totalBudget: 16.25 * 1024,
}

/**
 * The game wallet. The instance is handed to the page whole, so every
 * method stays in the bundle, `connectEvm` (the zkEVM provider) included.
 * Sign-in loads with the page, within 40 KiB gzipped; `connectEvm` loads
 * the zkEVM provider, its custody signer (with the iframe wallet's client),
 * the confirmation popup and session activity on first use. With it, about
 * 71 KiB in total: under half the published SDK's, because the provider needs
 * no chain client (a small batched JSON-RPC transport in core), no general
 * secp256k1 library (only `ecrecover` of a co-signer's part) and no ABI
 * lookup (fixed selectors). Its platform calls go through the generated
 * API classes of the four tags it uses (chains, passport, passport-profile,
 * guardian; a class carries every operation of its tag), their error
 * classes and the core fetch helper. `connectImx` loads the StarkEx layer
 * on first use (nothing of it on page load): the Stark curve and BIP32
 * (@scure/starknet 1.x and @scure/bip32 1.x, the versions built on the
 * @noble/curves and @noble/hashes viem already brings, so the two share one
 * copy), the five legacy exchange API tags it calls and its workflows; with
 * it the total is held to 102 KiB.
 */
export const passport: Product = {
  title:
    'new Passport(…), the whole instance (connectEvm and connectImx included)',
  ours: 'embedded-wallets/passport',
  theirs: '@imtbl/passport',
  entry: (specifier) =>
    [
      `import { Passport } from '${specifier}'`,
      'globalThis.passport = new Passport({',
      `  baseConfig: { environment: 'sandbox' },`,
      `  clientId: 'SIZE_CHECK',`,
      `  redirectUri: 'https://game.example/callback',`,
      '})',
      '',
    ].join('\n'),
  budget: 40 * 1024,
  totalBudget: 102 * 1024,
}

/** What an app calling two operations of the platform API writes. */
const twoOperations = (imports: string, namespace = '') =>
  [
    imports,
    `const config = createConfig({ basePath: 'https://api.sandbox.immutable.com' })`,
    `globalThis.listChains = () => new ${namespace}ChainsApi(config).listChains()`,
    'globalThis.getNFT = (chainName, contractAddress, tokenId) =>',
    `  new ${namespace}NftsApi(config).getNFT({ chainName, contractAddress, tokenId })`,
    '',
  ].join('\n')

/**
 * The platform API, imported as from the published package (the `mr`
 * namespace): rolldown (Vite) keeps the two operations' tags only, within
 * 4.5 KiB; esbuild keeps every class of a namespace that a package
 * re-exports (the published package's too), within 11.5 KiB, a third of
 * the published package.
 */
export const api: Product = {
  title:
    'two operations of the platform API (listChains, getNFT) through the mr namespace',
  ours: 'embedded-wallets/api',
  theirs: '@imtbl/generated-clients',
  entry: (specifier) =>
    twoOperations(`import { createConfig, mr } from '${specifier}'`, 'mr.'),
  budget: 4.5 * 1024,
  bundlerBudgets: { esbuild: 11.5 * 1024 },
}

/**
 * The same app importing the two classes from `embedded-wallets/api/mr`:
 * the form every bundler tree-shakes, within 4.5 KiB under both.
 */
export const apiPerTag: Product = {
  ...api,
  title:
    'the same two operations, their classes imported from embedded-wallets/api/mr',
  bundlerBudgets: undefined,
  oursEntry: (specifier) =>
    twoOperations(
      [
        `import { createConfig } from '${specifier}'`,
        `import { ChainsApi, NftsApi } from '${specifier}/mr'`,
      ].join('\n'),
    ),
  budget: 4.5 * 1024,
}

export type Measurement = {
  name: string
  /** Every chunk, lazy ones included: bytes minified. */
  minified: number
  /** Every chunk, lazy ones included: sum of each chunk's gzip size. */
  gzipped: number
  /** The chunks loaded with the page only: bytes minified. */
  initialMinified: number
  /** The chunks loaded with the page only: sum of gzip sizes. */
  initialGzipped: number
  /** How many chunks in all. */
  chunks: number
}

/**
 * Bundles `entry(specifier)` for the browser with rolldown, minified, and
 * measures it. `external` names packages the dApp already loads (e.g.
 * `@wagmi/core` beside a connector), left out of the bundle.
 */
export async function measure(
  name: string,
  specifier: string,
  entry: (specifier: string) => string,
  external: readonly string[] = [],
): Promise<Measurement> {
  const id = '\0size-entry.js'
  const bundle = await rolldown({
    input: id,
    platform: 'browser',
    preserveEntrySignatures: false,
    logLevel: 'silent',
    external: isExternal(external),
    transform: {
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    },
    plugins: [
      {
        name: 'size-entry',
        resolveId: (source) => (source === id ? id : null),
        load: (source) => (source === id ? entry(specifier) : null),
      },
    ],
  })
  const { output } = await bundle.generate({ format: 'esm', minify: true })
  await bundle.close()
  return summarise(
    name,
    output.flatMap((chunk) =>
      chunk.type === 'chunk'
        ? [
            {
              name: chunk.fileName,
              code: chunk.code,
              entry: chunk.isEntry,
              imports: chunk.imports,
            },
          ]
        : [],
    ),
  )
}

/**
 * The same as {@link measure}, bundled by esbuild (code splitting on, so
 * dynamic imports become lazy chunks as with rolldown).
 */
export async function measureEsbuild(
  name: string,
  specifier: string,
  entry: (specifier: string) => string,
  external: readonly string[] = [],
): Promise<Measurement> {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const result = await build({
    entryPoints: ['size-entry'],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    metafile: true,
    outdir: '/size-out',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    external: external.flatMap((name) => [name, `${name}/*`]),
    plugins: [
      {
        name: 'size-entry',
        setup(build) {
          build.onResolve({ filter: /^size-entry$/ }, () => ({
            path: 'size-entry',
            namespace: 'size-entry',
          }))
          build.onLoad({ filter: /.*/, namespace: 'size-entry' }, () => ({
            contents: entry(specifier),
            loader: 'js',
            resolveDir: root,
          }))
        },
      },
    ],
  })
  const code = new Map(
    result.outputFiles.map((file) => [file.path, file.text] as const),
  )
  if (code.size !== Object.keys(result.metafile.outputs).length)
    throw new Error('esbuild: outputs and metafile disagree.')
  const outputs = Object.entries(result.metafile.outputs).filter(([path]) =>
    path.endsWith('.js'),
  )
  return summarise(
    name,
    // The metafile's paths are relative to the working directory.
    outputs.map(([path, output]) => ({
      name: resolve(path),
      code: code.get(resolve(path)) ?? '',
      // Each dynamic import is an entry point too; only ours is the page's.
      entry: output.entryPoint === 'size-entry:size-entry',
      imports: output.imports
        .filter((imported) => imported.kind === 'import-statement')
        .map((imported) => resolve(imported.path)),
    })),
  )
}

/** A bundler's output, as {@link summarise} reads it. */
type Chunk = {
  name: string
  code: string
  entry: boolean
  /** The chunks it imports statically. */
  imports: readonly string[]
}

function isExternal(external: readonly string[]) {
  return (source: string) =>
    external.some((name) => source === name || source.startsWith(`${name}/`))
}

/** Sizes every chunk and the ones loaded with the page. */
function summarise(name: string, chunks: readonly Chunk[]): Measurement {
  const byName = new Map(chunks.map((chunk) => [chunk.name, chunk] as const))
  // The entry and its static imports, transitively.
  const initial = new Set<string>()
  const visit = (fileName: string) => {
    const chunk = byName.get(fileName)
    if (!chunk || initial.has(fileName)) return
    initial.add(fileName)
    for (const imported of chunk.imports) visit(imported)
  }
  for (const chunk of chunks) if (chunk.entry) visit(chunk.name)
  const sizes = chunks.map((chunk) => ({
    initial: initial.has(chunk.name),
    minified: Buffer.byteLength(chunk.code),
    gzipped: gzipSync(chunk.code, { level: 9 }).byteLength,
  }))
  const sum = (key: 'minified' | 'gzipped', onlyInitial: boolean) =>
    sizes
      .filter((size) => size.initial || !onlyInitial)
      .reduce((total, size) => total + size[key], 0)
  return {
    name,
    minified: sum('minified', false),
    gzipped: sum('gzipped', false),
    initialMinified: sum('minified', true),
    initialGzipped: sum('gzipped', true),
    chunks: sizes.length,
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`
const percent = (part: number, whole: number) =>
  `${((part / whole) * 100).toFixed(0)}%`

/** A published package's version (read by path: exports maps may hide it). */
function versionOf(name: string): string {
  return JSON.parse(
    readFileSync(
      fileURLToPath(
        new URL(`../node_modules/${name}/package.json`, import.meta.url),
      ),
      'utf8',
    ),
  ).version
}

/** The bundlers a dApp may use; the page-load budget holds under each. */
const bundlers = [
  { name: 'rolldown', measure },
  { name: 'esbuild', measure: measureEsbuild },
] as const

/**
 * Measures ours and theirs with each bundler, prints them; answers whether
 * ours fits. The page-load budget holds under both bundlers. The total is
 * held under rolldown only: esbuild moves every module that the page and a
 * lazy chunk both import into a chunk of its own, so the same code counts
 * in more, separately gzipped, files (about 1 KiB more in all).
 */
async function report(product: Product): Promise<boolean> {
  const { totalBudget } = product
  let fits = true
  for (const bundler of bundlers) {
    const budget = product.bundlerBudgets?.[bundler.name] ?? product.budget
    const ours = await bundler.measure(
      product.ours,
      product.ours,
      product.oursEntry ?? product.entry,
    )
    const theirs = await bundler.measure(
      `${product.theirs}@${versionOf(product.theirs)}`,
      product.theirs,
      product.entry,
    )
    const width = Math.max(ours.name.length, theirs.name.length) + 2
    const rows = [ours, theirs].flatMap((m) => [
      `  ${m.name.padEnd(width)} total   ${kib(m.gzipped).padStart(10)} gzip  ${kib(m.minified).padStart(10)} minified  (${m.chunks} chunk${m.chunks === 1 ? '' : 's'})`,
      `  ${''.padEnd(width)} initial ${kib(m.initialGzipped).padStart(10)} gzip  ${kib(m.initialMinified).padStart(10)} minified`,
    ])
    const holdsTotal = bundler.name === 'rolldown' && totalBudget !== undefined
    process.stdout.write(
      [
        `${product.title}, bundled by ${bundler.name} for the browser (minified, gzip -9 per chunk):`,
        ...rows,
        `  ours is ${percent(ours.initialGzipped, theirs.initialGzipped)} of the published SDK on page load, ${percent(ours.gzipped, theirs.gzipped)} in total`,
        `  budget: ${kib(budget)} on page load${holdsTotal ? `, ${kib(totalBudget)} in total` : ''}`,
        '',
      ].join('\n'),
    )
    if (ours.initialGzipped > budget) {
      process.stderr.write(
        `${product.ours} over budget (${bundler.name}): ${kib(ours.initialGzipped)} > ${kib(budget)} gzipped on page load.\n`,
      )
      fits = false
    }
    if (holdsTotal && ours.gzipped > totalBudget) {
      process.stderr.write(
        `${product.ours} over budget (${bundler.name}): ${kib(ours.gzipped)} > ${kib(totalBudget)} gzipped in total.\n`,
      )
      fits = false
    }
  }
  return fits
}

/** The chain and game-wallet configuration of the wagmi app below. */
const appSetup = [
  `const chain = { id: 31337, name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } }`,
  `const passportConfig = { baseConfig: { environment: 'sandbox' }, clientId: 'SIZE_CHECK', redirectUri: 'https://game.example/callback' }`,
]

/**
 * A wagmi app with both wallets, on page load: `createConfig` with the two
 * connectors and the `reconnect` wagmi runs on mount, with no session.
 * What loads before any click is its `initial` (`total` adds what the first
 * connect loads).
 *
 * - ours: `magic()` and `passport()` from `embedded-wallets/connectors`;
 *   measured with wagmi and viem (the page) and without them (what the
 *   connectors add to it). The budget holds the connectors' share: their
 *   code and the products' names, icons and session markers, no client.
 * - theirs: the published SDKs as a wagmi app loads them. The published
 *   iframe-wallet connector (`@magiclabs/wagmi-connector`, built for wagmi 2
 *   and not installed here) imports magic-sdk statically; the published
 *   game wallet has no connector: the app makes its `Passport` and calls
 *   `connectEvm()` so that wagmi finds the provider through EIP-6963. The
 *   connector packages' own code is not counted.
 */
export const wagmiApp = {
  title:
    'A wagmi app with both wallets, before any click (createConfig + reconnect, no session)',
  ours: (specifier: string) =>
    [
      `import { createConfig, http, reconnect } from '@wagmi/core'`,
      `import { magic, passport } from '${specifier}'`,
      ...appSetup,
      'const config = createConfig({',
      '  chains: [chain],',
      `  connectors: [magic({ apiKey: 'pk_live_SIZE_CHECK' }), passport({ config: passportConfig })],`,
      '  transports: { [chain.id]: http() },',
      '})',
      'reconnect(config)',
      'globalThis.config = config',
      '',
    ].join('\n'),
  theirs: () =>
    [
      `import { createConfig, http, reconnect } from '@wagmi/core'`,
      `import { Magic } from 'magic-sdk'`,
      `import { Passport } from '@imtbl/passport'`,
      ...appSetup,
      `globalThis.Magic = Magic`,
      'new Passport(passportConfig).connectEvm()',
      'const config = createConfig({',
      '  chains: [chain],',
      '  transports: { [chain.id]: http() },',
      '})',
      'reconnect(config)',
      'globalThis.config = config',
      '',
    ].join('\n'),
  /** The connectors' share of the page load, gzipped, under each bundler. */
  budget: 4.5 * 1024,
}

/**
 * Measures the wagmi app with each bundler, prints it; answers whether the
 * connectors' share of the page load fits {@link wagmiApp}'s budget.
 */
async function reportWagmiApp(): Promise<boolean> {
  const { budget } = wagmiApp
  const specifier = 'embedded-wallets/connectors'
  let fits = true
  for (const bundler of bundlers) {
    const page = await bundler.measure('the page', specifier, wagmiApp.ours)
    const connectors = await bundler.measure(
      `${specifier} (wagmi, viem left out)`,
      specifier,
      wagmiApp.ours,
      ['@wagmi/core', 'viem'],
    )
    const theirs = await bundler.measure(
      `magic-sdk@${versionOf('magic-sdk')} + @imtbl/passport@${versionOf('@imtbl/passport')}`,
      '',
      wagmiApp.theirs,
    )
    const width =
      Math.max(page.name.length, connectors.name.length, theirs.name.length) + 2
    const rows = [page, connectors, theirs].map(
      (m) =>
        `  ${m.name.padEnd(width)} initial ${kib(m.initialGzipped).padStart(10)} gzip  total ${kib(m.gzipped).padStart(10)} gzip  (${m.chunks} chunk${m.chunks === 1 ? '' : 's'})`,
    )
    process.stdout.write(
      [
        `${wagmiApp.title}, bundled by ${bundler.name} (minified, gzip -9 per chunk):`,
        ...rows,
        `  the page is ${percent(page.initialGzipped, theirs.initialGzipped)} of the published SDKs' before any click`,
        `  budget: the connectors ${kib(budget)} on page load`,
        '',
      ].join('\n'),
    )
    if (connectors.initialGzipped > budget) {
      process.stderr.write(
        `${specifier} over budget (${bundler.name}): ${kib(connectors.initialGzipped)} > ${kib(budget)} gzipped on a wagmi app's page load.\n`,
      )
      fits = false
    }
  }
  return fits
}

async function main() {
  for (const product of [magic, passport, api, apiPerTag])
    if (!(await report(product))) process.exitCode = 1
  if (!(await reportWagmiApp())) process.exitCode = 1
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
