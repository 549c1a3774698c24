/**
 * The iframe wallet's rows: request round trips (one after another, and
 * many at once) through the instant iframe (the clients' own cost) and
 * through the emulator (end to end), and the iframe's ready time, cold and
 * warm; ours, the published magic-sdk and the bare postMessage echo, each in
 * a browser context of its own so that none warms a cache for another.
 */
import type { Browser, Page } from 'playwright-core'
import type { Info } from '../src/emulator/index.js'
import type { Site } from './browser.js'
import type { Config } from './pages/harness.js'
import { sessionApiKey } from './pages/instantFrame.js'
import { type Row, row, type Side, summarise, type Target } from './report.js'

export type Iterations = {
  /** Requests before the timed ones. */
  warmup: number
  /** Timed requests one after another. */
  sequential: number
  /** Requests at once, in one round. */
  parallel: number
  /** Rounds of `parallel`. */
  rounds: number
  /** Cold (and as many warm) ready-time samples. */
  ready: number
  /** Requests between the heap's baseline and its reading. */
  memory: number
  /** The game wallet's sends before the timed ones (the first deploys it). */
  sendWarmup: number
  /** Its timed sends, one after another (and as many EOA sends). */
  sends: number
  /** Its sends traced fetch by fetch after the timed ones (the profile). */
  traced: number
  /** Its timed `personal_sign`, one after another. */
  signs: number
  /** Reads at once, in one round. */
  reads: number
  /** Rounds of `reads`. */
  readRounds: number
}

export type Subject = 'ours' | 'theirs' | 'echo'

export type Names = { ours: string; theirs: string }

export const floorName = 'postMessage echo'

/** A dApp page open in a browser context of its own, its client started. */
export type Open = { page: Page; errors: Error[]; close(): Promise<void> }

async function openBench(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.waitForFunction(() => 'bench' in window)
}

/**
 * Opens `subject`'s page in a fresh context, starts its client on `config`
 * and checks that a request is answered `expected`.
 */
export async function open(
  browser: Browser,
  site: Site,
  subject: Subject,
  config: Config,
  expected: string,
): Promise<Open> {
  const context = await browser.newContext()
  const errors: Error[] = []
  try {
    const page = await context.newPage()
    page.on('pageerror', (error) => errors.push(error))
    await openBench(page, site.url(subject))
    await page.evaluate((config) => window.bench.start(config), config)
    const answer = await page.evaluate(() => window.bench.check())
    if (answer !== expected)
      throw new Error(`${subject} answered ${String(answer)}, not ${expected}`)
    return { page, errors, close: () => context.close() }
  } catch (error) {
    await context.close()
    throw error
  }
}

type Latency = {
  sequential: { samples: number[]; total: number }
  parallel: number[]
}

/** Sequential requests are timed in slices of this many, taking turns. */
const slice = 20

/**
 * Times the requests of every open client. They take turns, a slice of
 * sequential requests or one parallel round each, so that a change in the
 * machine's load over the run weighs on every side alike.
 */
async function measureLatency(
  clients: readonly Open[],
  iterations: Iterations,
): Promise<Latency[]> {
  const results = clients.map(
    (): Latency => ({ sequential: { samples: [], total: 0 }, parallel: [] }),
  )
  for (const { page } of clients)
    await page.evaluate(
      (warmup) => window.bench.sequential(0, warmup),
      iterations.warmup,
    )
  for (let done = 0; done < iterations.sequential; done += slice) {
    const count = Math.min(slice, iterations.sequential - done)
    for (const [index, { page }] of clients.entries()) {
      const { samples, total } = await page.evaluate(
        (count) => window.bench.sequential(count, 0),
        count,
      )
      const sequential = results[index]!.sequential
      sequential.samples.push(...samples)
      sequential.total += total
    }
  }
  for (let round = 0; round < iterations.rounds; round++)
    for (const [index, { page }] of clients.entries())
      results[index]!.parallel.push(
        ...(await page.evaluate(
          (count) => window.bench.parallel(count, 1),
          iterations.parallel,
        )),
      )
  for (const { errors } of clients) if (errors.length > 0) throw errors[0]
  return results
}

/**
 * The target on a client's own cost per sequential request: the
 * round trip less the bare postMessage one (the floor, which depends on
 * whether Chromium runs the iframe in another process), ≤ 0.3 ms and
 * ≤ 0.15× the published SDK's own cost.
 */
function sequentialTarget(ours: Side, theirs: Side, floor?: Side): Target {
  const base = floor?.value ?? 0
  const cost = ours.value - base
  const ratio = cost / (theirs.value - base)
  return {
    text: `own cost (less the echo) ${cost.toFixed(2)} ms ≤ 0.3 ms, ${ratio.toFixed(2)}× magic-sdk's ≤ 0.15×`,
    pass: cost <= 0.3 && ratio <= 0.15,
  }
}

type Ready = { cold: number[]; warm: number[] }

/**
 * Cold and warm ready times: a fresh context, then a second page in it.
 * The subjects take turns, one sample each, for the same reason as the
 * round trips', and the one that goes first changes each turn (the first
 * context after the last one closed may pay for its teardown).
 */
async function measureReady(
  browser: Browser,
  site: Site,
  subjects: readonly { subject: Subject; config: Config }[],
  samples: number,
): Promise<Ready[]> {
  const results = subjects.map((): Ready => ({ cold: [], warm: [] }))
  for (let i = 0; i < samples; i++)
    for (let turn = 0; turn < subjects.length; turn++) {
      const index = (i + turn) % subjects.length
      const { subject, config } = subjects[index]!
      const context = await browser.newContext()
      try {
        const { cold, warm } = results[index]!
        for (const into of [cold, warm]) {
          const page = await context.newPage()
          await openBench(page, site.url(subject))
          into.push(
            await page.evaluate((config) => window.bench.start(config), config),
          )
          await page.close()
        }
      } finally {
        await context.close()
      }
    }
  return results
}

function sequentialSide(
  name: string,
  role: Side['role'],
  { sequential }: Latency,
): Side {
  return {
    name,
    role,
    // The mean from the loop's total: per-request samples are rounded by
    // the page's clock (100 µs without cross-origin isolation).
    value: sequential.total / sequential.samples.length,
    stat: summarise(sequential.samples),
  }
}

function parallelSide(
  name: string,
  role: Side['role'],
  { parallel }: Latency,
): Side {
  const stat = summarise(parallel)
  return { name, role, value: stat.p50, stat }
}

function timesSide(name: string, role: Side['role'], samples: number[]): Side {
  const stat = summarise(samples)
  return { name, role, value: stat.p50, stat }
}

/** A client's config against the emulator, its iframe at `endpoint`. */
export function clientConfig(emulator: Info, endpoint: string): Config {
  return {
    apiKey: emulator.magic.apiKey,
    rpcUrl: emulator.rpcUrl,
    chainId: emulator.chainId,
    endpoint,
  }
}

/**
 * Every row of the iframe wallet. `emulator` is the running emulator's
 * info; `names` label ours and the published SDK.
 */
export async function iframeWalletRows(options: {
  browser: Browser
  site: Site
  emulator: Info
  names: Names
  iterations: Iterations
}): Promise<Row[]> {
  const { browser, site, emulator, names, iterations } = options
  // The instant iframe answers eth_chainId with Anvil's default chain id.
  const instant = clientConfig(emulator, site.frameOrigin)
  // Logged in: the instant iframe hands out a refresh token and a device
  // share and then refuses any request that does not carry them.
  const session = { ...instant, apiKey: sessionApiKey }
  const real = clientConfig(emulator, emulator.magic.endpoint)
  const chainHex = `0x${emulator.chainId.toString(16)}`
  const { parallel } = iterations

  const rows: Row[] = []
  for (const [key, target, config, expected] of [
    ['instant', 'instant iframe', instant, '0x7a69'],
    [
      'instant-session',
      'instant iframe, logged in (refresh token and device share sent with each)',
      session,
      '0x7a69',
    ],
    ['emulator', 'emulator', real, chainHex],
  ] as const) {
    // The floor takes turns with the clients in every group: a floor
    // measured once, for an earlier group, would count the machine's drift
    // since then as the clients' own cost.
    const clients = [
      await open(browser, site, 'ours', config, expected),
      await open(browser, site, 'theirs', config, expected),
      await open(browser, site, 'echo', instant, '0x7a69'),
    ]
    let results: Latency[]
    try {
      results = await measureLatency(clients, iterations)
    } finally {
      for (const client of clients) await client.close()
    }
    const [ours, theirs, floor] = results as [Latency, Latency, Latency]
    const instantIframe = key !== 'emulator'
    rows.push(
      row(
        {
          group: 'latency',
          id: `latency.${key}.sequential`,
          title: `\`eth_chainId\` one after another, through the ${target}: mean per request`,
          unit: 'ms',
          sides: [
            sequentialSide(names.ours, 'ours', ours),
            sequentialSide(names.theirs, 'theirs', theirs),
            sequentialSide(floorName, 'floor', floor),
          ],
        },
        instantIframe ? sequentialTarget : undefined,
      ),
      row(
        {
          group: 'latency',
          id: `latency.${key}.parallel`,
          title: `${parallel} \`eth_chainId\` at once, through the ${target}: all answered`,
          unit: 'ms',
          sides: [
            parallelSide(names.ours, 'ours', ours),
            parallelSide(names.theirs, 'theirs', theirs),
            parallelSide(floorName, 'floor', floor),
          ],
        },
        instantIframe
          ? (ours, theirs) => ({
              text: '≤ 0.2× magic-sdk',
              pass: ours.value <= 0.2 * theirs.value,
            })
          : undefined,
      ),
    )
  }

  const [readyOurs, readyTheirs, readyFloor] = (await measureReady(
    browser,
    site,
    [
      { subject: 'ours', config: real },
      { subject: 'theirs', config: real },
      { subject: 'echo', config: instant },
    ],
    iterations.ready,
  )) as [Ready, Ready, Ready]
  const ready = { ours: readyOurs, theirs: readyTheirs, floor: readyFloor }
  for (const state of ['cold', 'warm'] as const)
    rows.push(
      row({
        group: 'ready',
        id: `ready.${state}`,
        title: `\`new Magic(…)\` to \`preload()\` resolved, emulator's \`/send\` app, ${state === 'cold' ? 'cold (fresh context)' : 'warm (second page of the context)'}`,
        unit: 'ms',
        sides: [
          timesSide(names.ours, 'ours', ready.ours[state]),
          timesSide(names.theirs, 'theirs', ready.theirs[state]),
          timesSide(`${floorName} iframe`, 'floor', ready.floor[state]),
        ],
      }),
    )
  return rows
}
