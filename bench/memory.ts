/**
 * Memory rows: the dApp page's JS heap after many requests through the
 * instant iframe, ours beside the published SDK and the bare echo page,
 * and whether it comes back to its baseline (a per-request leak would not).
 *
 * The heap is read through the Chrome DevTools Protocol, after a forced
 * garbage collection, so that garbage not yet collected is not counted: the
 * baseline after a warm-up, the reading after `iterations.memory` requests
 * (in rounds of 100 at once). The iframe runs in a process of its own
 * (cross-site, the default), so the page's heap is the client's alone.
 */
import type { Browser } from 'playwright-core'
import type { Info } from '../src/emulator/index.js'
import type { Site } from './browser.js'
import {
  clientConfig,
  floorName,
  type Iterations,
  type Names,
  type Open,
  open,
  type Subject,
} from './iframeWallet.js'
import { type Row, row, type Side } from './report.js'

/** Requests at once, per round. */
const batch = 100

/** The bound on what stays on the heap after the requests. */
const retainedTarget = 1024 * 1024

/** The page's JS heap in use after a full garbage collection, in bytes. */
async function heapAfterGc(client: Open): Promise<number> {
  const session = await client.page.context().newCDPSession(client.page)
  try {
    // Twice: the first collection may leave objects finalizers released.
    await session.send('HeapProfiler.collectGarbage')
    await session.send('HeapProfiler.collectGarbage')
    const { usedSize } = await session.send('Runtime.getHeapUsage')
    return usedSize
  } finally {
    await session.detach()
  }
}

async function measure(
  client: Open,
  requests: number,
): Promise<{ baseline: number; after: number }> {
  const { page } = client
  await page.evaluate((count) => window.bench.parallel(count, 5), batch)
  const baseline = await heapAfterGc(client)
  await page.evaluate(
    ([count, rounds]) => window.bench.parallel(count, rounds),
    [batch, Math.ceil(requests / batch)] as const,
  )
  const after = await heapAfterGc(client)
  if (client.errors.length > 0) throw client.errors[0]
  return { baseline, after }
}

export async function memoryRows(options: {
  browser: Browser
  site: Site
  emulator: Info
  names: Names
  iterations: Iterations
}): Promise<Row[]> {
  const { browser, site, emulator, names, iterations } = options
  const config = clientConfig(emulator, site.frameOrigin)
  const sides: Side[] = []
  for (const [subject, name, role] of [
    ['ours', names.ours, 'ours'],
    ['theirs', names.theirs, 'theirs'],
    ['echo', floorName, 'floor'],
  ] as const satisfies readonly [Subject, string, Side['role']][]) {
    const client = await open(browser, site, subject, config, '0x7a69')
    try {
      const { baseline, after } = await measure(client, iterations.memory)
      sides.push({
        name,
        role,
        value: after,
        detail: { baseline, retained: after - baseline },
      })
    } finally {
      await client.close()
    }
  }
  return [
    row(
      {
        group: 'memory',
        id: 'memory.instant.heap',
        title: `JS heap of the dApp page after ${iterations.memory.toLocaleString('en')} \`eth_chainId\` through the instant iframe (after GC)`,
        unit: 'bytes',
        sides,
      },
      (ours) => {
        const retained = ours.detail?.retained ?? Number.NaN
        return {
          text: `${(retained / 1024).toFixed(1)} KiB over the baseline ≤ 1 MiB`,
          pass: retained <= retainedTarget,
        }
      },
    ),
  ]
}
