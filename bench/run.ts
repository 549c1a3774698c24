/**
 * `npm run bench`: this package's wallets beside the published SDKs, in one
 * run, on one emulator, in one Chromium. Prints Markdown tables on stdout
 * and writes every number as JSON under bench/results/.
 *
 * Run `npm run build` first: our clients are bundled from the built package
 * (`embedded-wallets/magic`, `embedded-wallets/passport` → dist/), as a dApp
 * gets them. Each wallet's pages are one source for ours and the published
 * SDK (bench/pages/magic.ts, bench/pages/passport.ts), bundled by rolldown,
 * minified for production, and served by a static server on a dApp origin
 * (`http://localhost:<port>`); the iframes and popups live on other sites
 * (the emulator, or the bench's own `http://127.0.0.1:<port>`).
 *
 * Rows (bench/iframeWallet.ts, bench/memory.ts, bench/gameWallet.ts,
 * bench/size.ts):
 * - `eth_chainId` round trips, 1,000 one after another (after a warm-up)
 *   and 200 at once (20 rounds), through an "instant" iframe that speaks the
 *   wire protocol and answers at once (the client's own cost), and through
 *   the emulator (end to end: iframe app, backend, Anvil); ours, the
 *   published magic-sdk, and a bare postMessage echo (the floor). Both
 *   clients sign a DPoP proof for every request, logged in or not; the
 *   instant iframe's logged-in variant also hands out a refresh token and
 *   a device share and refuses requests that do not carry them back, so
 *   reading, decrypting and sending the session is measured too.
 * - iframe ready time, `new Magic(…)` to `preload()` resolved, cold (a fresh
 *   browser context) and warm (a second page of that context); every SDK and
 *   every cold sample gets its own context.
 * - memory (bench/memory.ts): the dApp page's JS heap after 10,000
 *   requests through the instant iframe, after a forced GC, and how far it
 *   is over its baseline (a per-request leak would show there).
 * - the game wallet (bench/gameWallet.ts), ours and the published
 *   @imtbl/passport each in a context of its own, signed in as a fresh
 *   player through its real login popup (the emulated login page's forms
 *   are filled from Node, with the code from the dev mailbox), the wallet
 *   registered, funded and deployed by warm-up sends:
 *   - `eth_sendTransaction` of a small transfer (the guardian's default
 *     rules pass it: no popup leaves the loading page, which is checked),
 *     timed from the request to its receipt (the hash returned, then
 *     `eth_getTransactionReceipt` asked at once and every 10 ms until
 *     there is one, the same code for every side); ours beside a plain EOA
 *     send on the same chain (viem's wallet client with a local Anvil key,
 *     in the same page: its nonce, gas and fee reads, then the raw send)
 *     with the issue's target, ours ≤ 5× the EOA send; and ours beside the
 *     published SDK. The sides take turns, 5 sends each. A few more sends
 *     are traced request by request from Chromium's side (the `detail` of
 *     each side in the JSON: every step's median start and duration), to
 *     see which step dominates. The same send again in the game bridge
 *     mode (`crossSdkBridgeEnabled`), which never opens the confirmation
 *     popup, beside EOA sends from that page: the loading popup every
 *     signing request opens first (as the published SDK's does) costs a
 *     window and a renderer, which on a small machine is most of a send.
 *   - `personal_sign`, ours beside the published SDK.
 *   - 1,000 `eth_getBalance` at once through our provider and through
 *     viem's http transport straight to the chain's gateway, in the same
 *     page (the same per-host connection limit), p50 of 10 rounds; target
 *     ≤ 1.2× viem direct. Our provider batches JSON-RPC as the published
 *     SDK's node client does; viem's http transport does not by default,
 *     so the same reads run against viem with `batch: true` too (no
 *     target: the transports themselves side by side).
 * - size, gzipped, with the page and in total, bundled by rolldown and by
 *   esbuild, ours beside the published SDK.
 *
 * Each row names both sides, their ratio (ours ÷ published; ours ÷ floor)
 * and the issue's target with pass/miss. A miss fails the command only with
 * `--strict`.
 *
 * Flags:
 * - `--smoke`: few iterations (20 sequential, 20 at once, one ready sample,
 *   3 game wallet sends and signs, one round of 100 reads), the magic size
 *   row only; what `npm test` runs (test/e2e/bench-smoke.test.ts).
 * - `--strict`: exit 1 when a target is missed.
 * - `--only <group,…>`: run only these suites (`iframe-wallet`, `memory`,
 *   `game-wallet`, `size`).
 * - `--same-site`: serve the dApp on 127.0.0.1, the iframes' site, so that
 *   Chromium keeps them in the page's process. By default the dApp is on
 *   `localhost`, another site, and each iframe runs in a process of its own
 *   as a real provider's does: postMessage then crosses processes, which
 *   raises the floor (the echo) and every round trip alike.
 * - `--no-write`: print only.
 *
 * Results: bench/results/<mode>-<timestamp>.json (ignored by git); a full
 * run also writes bench/results/latest.json, which is committed and which
 * the README's Performance section quotes.
 *
 * Adding rows: a suite is an entry of `suites` below; it gets the shared
 * emulator, browser and pages lazily (`SuiteContext`) and returns `Row`s
 * (bench/report.ts): each with an `ours` and a `theirs` side (a published
 * SDK, or a baseline such as a plain EOA send), optionally a `floor`, and
 * the issue's target as a function of them. A page is an entry of `pages`
 * in bench/browser.ts; a suite that needs more of the emulator than its
 * JSON line (the dev mailbox, to sign players in) takes
 * `context.runningEmulator()`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, platform, release } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import {
  type Emulator,
  type Info,
  startEmulator,
} from '../src/emulator/index.js'
import { findFreePort, findFreePortRange } from '../src/emulator/net.js'
import { slots } from '../src/emulator/ports.js'
import { launchBrowser, type Site, startSite } from './browser.js'
import { gameWalletRows } from './gameWallet.js'
import { type Iterations, iframeWalletRows } from './iframeWallet.js'
import { memoryRows } from './memory.js'
import { type Report, type Row, toMarkdown } from './report.js'
import { sizeRows } from './size.js'

const root = new URL('..', import.meta.url)

export type Options = {
  /** Few iterations: checks that the bench runs, measures little. */
  smoke?: boolean | undefined
  /** Only these suites (by name). */
  only?: readonly string[] | undefined
  /** Serve the dApp on the iframes' site (iframes in the page's process). */
  sameSite?: boolean | undefined
}

/** What a suite may use; each piece starts on first use, once. */
export type SuiteContext = {
  mode: Report['mode']
  iterations: Iterations
  /** Labels and versions of ours and the published packages. */
  packages: Record<string, string>
  emulator(): Promise<Info>
  /** The same emulator, whole (its dev mailbox, to sign players in). */
  runningEmulator(): Promise<Emulator>
  browser(): Promise<Browser>
  site(): Promise<Site>
}

export type Suite = {
  name: string
  run(context: SuiteContext): Promise<Row[]>
}

/** How the iframe wallet's rows name their sides. */
function magicNames(packages: Record<string, string>) {
  return {
    ours: `embedded-wallets ${packages.ours}`,
    theirs: `magic-sdk ${packages['magic-sdk']}`,
  }
}

/** How the game wallet's rows name their sides. */
function passportNames(packages: Record<string, string>) {
  return {
    ours: `embedded-wallets ${packages.ours}`,
    theirs: `@imtbl/passport ${packages['@imtbl/passport']}`,
  }
}

/** Every suite, in table order. */
export const suites: readonly Suite[] = [
  {
    name: 'iframe-wallet',
    async run(context) {
      const { packages } = context
      return iframeWalletRows({
        browser: await context.browser(),
        site: await context.site(),
        emulator: await context.emulator(),
        names: magicNames(packages),
        iterations: context.iterations,
      })
    },
  },
  {
    name: 'memory',
    async run(context) {
      const { packages } = context
      return memoryRows({
        browser: await context.browser(),
        site: await context.site(),
        emulator: await context.emulator(),
        names: magicNames(packages),
        iterations: context.iterations,
      })
    },
  },
  {
    name: 'game-wallet',
    async run(context) {
      return gameWalletRows({
        browser: await context.browser(),
        site: await context.site(),
        emulator: await context.runningEmulator(),
        names: passportNames(context.packages),
        iterations: context.iterations,
      })
    },
  },
  {
    name: 'size',
    run: (context) =>
      sizeRows({
        versions: context.packages,
        only: context.mode === 'smoke' ? ['magic'] : undefined,
      }),
  },
]

const iterations: Record<Report['mode'], Iterations> = {
  full: {
    warmup: 20,
    // The targets' margins are a few hundredths of a millisecond a
    // request, and a small machine's load drifts: 1,000 requests and 20
    // rounds, the sides taking turns, keep a run's estimate steady.
    sequential: 1000,
    parallel: 200,
    rounds: 20,
    ready: 10,
    memory: 10_000,
    sendWarmup: 2,
    sends: 20,
    traced: 5,
    signs: 20,
    reads: 1000,
    readRounds: 10,
  },
  smoke: {
    warmup: 5,
    sequential: 20,
    parallel: 20,
    rounds: 1,
    ready: 1,
    memory: 200,
    sendWarmup: 1,
    sends: 3,
    traced: 1,
    signs: 3,
    reads: 100,
    readRounds: 1,
  },
}

function versionOf(name: string): string {
  const path =
    name === '.' ? './package.json' : `./node_modules/${name}/package.json`
  return JSON.parse(readFileSync(new URL(path, root), 'utf8')).version
}

/** Starts the emulator on free ports (a few attempts: a port may be taken). */
async function startOnFreePorts(): Promise<Emulator> {
  let failure: unknown
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await startEmulator({
        portBase: await findFreePortRange(slots.length),
        anvilPort: await findFreePort(),
      })
    } catch (error) {
      failure = error
    }
  }
  throw failure
}

/** Runs the suites and returns the report; stops everything it started. */
export async function run(options: Options = {}): Promise<Report> {
  const mode = options.smoke ? 'smoke' : 'full'
  if (!existsSync(new URL('./dist/magic/index.js', root)))
    throw new Error('Run `npm run build` first: the bench bundles dist/.')
  const packages = {
    ours: versionOf('.'),
    'magic-sdk': versionOf('magic-sdk'),
    '@imtbl/passport': versionOf('@imtbl/passport'),
  }
  const started: (() => Promise<void>)[] = []
  const once = <value>(start: () => Promise<value>) => {
    let promise: Promise<value> | undefined
    return () => {
      promise ??= start()
      return promise
    }
  }
  const runningEmulator = once(async () => {
    const emulator = await startOnFreePorts()
    started.push(() => emulator.stop())
    return emulator
  })
  const context: SuiteContext = {
    mode,
    iterations: iterations[mode],
    packages,
    runningEmulator,
    emulator: async () => (await runningEmulator()).info,
    browser: once(async () => {
      const browser = await launchBrowser()
      started.push(() => browser.close())
      return browser
    }),
    site: once(async () => {
      const site = await startSite({ sameSite: options.sameSite })
      started.push(() => site.close())
      return site
    }),
  }
  try {
    const rows: Row[] = []
    for (const suite of suites)
      if (!options.only || options.only.includes(suite.name))
        rows.push(...(await suite.run(context)))
    const chromium =
      started.length > 0 ? (await context.browser()).version() : ''
    const cpu = cpus()
    return {
      timestamp: new Date().toISOString(),
      mode,
      sites: options.sameSite ? 'same-site' : 'cross-site',
      machine: {
        cpus: cpu.length,
        cpuModel: cpu[0]?.model.trim() ?? 'unknown',
        platform: `${platform()} ${release()}`,
        node: process.versions.node,
        chromium,
      },
      packages,
      iterations: { ...iterations[mode] },
      rows,
    }
  } finally {
    for (const stop of started.reverse()) await stop().catch(() => {})
  }
}

/** Writes the report under bench/results/; answers the file written. */
export function write(report: Report): string {
  const dir = new URL('./bench/results/', root)
  mkdirSync(dir, { recursive: true })
  const stamp = report.timestamp.replaceAll(':', '-')
  const file = new URL(`${report.mode}-${stamp}.json`, dir)
  const json = `${JSON.stringify(report, null, 2)}\n`
  writeFileSync(file, json)
  if (report.mode === 'full') writeFileSync(new URL('latest.json', dir), json)
  return fileURLToPath(file)
}

async function main(argv: readonly string[]): Promise<void> {
  const flag = (name: string) => argv.includes(name)
  const onlyAt = argv.indexOf('--only')
  const only = onlyAt >= 0 ? argv[onlyAt + 1]?.split(',') : undefined
  const report = await run({
    smoke: flag('--smoke'),
    only,
    sameSite: flag('--same-site'),
  })
  process.stdout.write(toMarkdown(report))
  if (!flag('--no-write')) process.stderr.write(`Results: ${write(report)}\n`)
  const missed = report.rows.filter((row) => row.target && !row.target.pass)
  if (missed.length > 0) {
    process.stderr.write(
      `${missed.length} target(s) missed: ${missed.map((row) => row.id).join(', ')}\n`,
    )
    if (flag('--strict')) process.exitCode = 1
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  await main(process.argv.slice(2))
