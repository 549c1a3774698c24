/**
 * `npm run size`: what `new Magic(…)` plus its `rpcProvider` add to a dApp's
 * browser bundle, minified and gzipped, for this package and for the
 * published magic-sdk, measured the same way in the same run. Fails when
 * ours is over its budget.
 *
 * Ours is bundled from the built package (`embedded-wallets/magic`, so run
 * `npm run build` first) together with every dependency it pulls in, as a
 * dApp's bundler would.
 *
 * It is bundled as an app build does it (Vite sets
 * `preserveEntrySignatures: false` for apps): the entry exports nothing and
 * hands the provider to the page, so nothing can be tree-shaken away.
 *
 * Two numbers per package: `initial` is the entry chunk and the chunks it
 * imports statically (what loads with the page); `total` adds every chunk
 * loaded later with `import()`. Each chunk is gzipped on its own, as it is
 * served. The 12 KiB budget applies to `initial`, what every dApp pays on
 * page load; code that only some dApps run is split off and loads on first
 * use (typed-data checks on the first `eth_signTypedData_*`, third-party
 * wallet mode on `thirdPartyWallets.connect`, passkey MFA when the provider
 * asks for a passkey, the localStorage and memory fallbacks when IndexedDB
 * is unavailable). The total is held to 16 KiB (about half the published
 * SDK's), so that the split-off code cannot grow unnoticed.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { rolldown } from 'rolldown'

/**
 * Size budget of ours, gzipped, loaded with the page: what a dApp pays before
 * its first request, well under half of the published SDK.
 */
export const budget = 12 * 1024

/** Our total (lazy chunks included), gzipped: about half the published SDK's. */
export const totalBudget = 16 * 1024

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

/** The code a dApp writes: construct the client, take the provider. */
function entryFor(specifier: string): string {
  return [
    `import { Magic } from '${specifier}'`,
    `const magic = new Magic('pk_live_SIZE_CHECK')`,
    'globalThis.provider = magic.rpcProvider',
    '',
  ].join('\n')
}

/** Bundles `entry` for the browser, minified, and measures it. */
export async function measure(
  name: string,
  specifier: string,
): Promise<Measurement> {
  const id = '\0size-entry.js'
  const bundle = await rolldown({
    input: id,
    platform: 'browser',
    preserveEntrySignatures: false,
    logLevel: 'silent',
    transform: {
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    },
    plugins: [
      {
        name: 'size-entry',
        resolveId: (source) => (source === id ? id : null),
        load: (source) => (source === id ? entryFor(specifier) : null),
      },
    ],
  })
  const { output } = await bundle.generate({ format: 'esm', minify: true })
  await bundle.close()
  const chunks = new Map(
    output.flatMap((chunk) =>
      chunk.type === 'chunk' ? [[chunk.fileName, chunk] as const] : [],
    ),
  )
  // The entry and its static imports, transitively.
  const initial = new Set<string>()
  const visit = (fileName: string) => {
    const chunk = chunks.get(fileName)
    if (!chunk || initial.has(fileName)) return
    initial.add(fileName)
    for (const imported of chunk.imports) visit(imported)
  }
  for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName)
  const sizes = [...chunks.values()].map((chunk) => ({
    initial: initial.has(chunk.fileName),
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

async function main() {
  // magic-sdk's exports map hides its package.json: read it by path.
  const published = JSON.parse(
    readFileSync(
      fileURLToPath(
        new URL('../node_modules/magic-sdk/package.json', import.meta.url),
      ),
      'utf8',
    ),
  ).version
  const ours = await measure('embedded-wallets/magic', 'embedded-wallets/magic')
  const theirs = await measure(`magic-sdk@${published}`, 'magic-sdk')
  const rows = [ours, theirs].flatMap((m) => [
    `  ${m.name.padEnd(26)} total   ${kib(m.gzipped).padStart(10)} gzip  ${kib(m.minified).padStart(10)} minified  (${m.chunks} chunk${m.chunks === 1 ? '' : 's'})`,
    `  ${''.padEnd(26)} initial ${kib(m.initialGzipped).padStart(10)} gzip  ${kib(m.initialMinified).padStart(10)} minified`,
  ])
  process.stdout.write(
    [
      'new Magic(…) + rpcProvider, bundled for the browser (minified, gzip -9 per chunk):',
      ...rows,
      `  ours is ${percent(ours.initialGzipped, theirs.initialGzipped)} of the published SDK on page load, ${percent(ours.gzipped, theirs.gzipped)} in total`,
      `  budget: ${kib(budget)} on page load, ${kib(totalBudget)} in total`,
      '',
    ].join('\n'),
  )
  if (ours.initialGzipped > budget) {
    process.stderr.write(
      `Over budget: ${kib(ours.initialGzipped)} > ${kib(budget)} gzipped on page load.\n`,
    )
    process.exitCode = 1
  }
  if (ours.gzipped > totalBudget) {
    process.stderr.write(
      `Over budget: ${kib(ours.gzipped)} > ${kib(totalBudget)} gzipped in total.\n`,
    )
    process.exitCode = 1
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
