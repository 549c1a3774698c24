/**
 * An emulator per test worker: each parallel worker of a test runner
 * (Playwright's `workerIndex`, Vitest's pool id) starts its own emulator on
 * ports no other worker draws, with a kit over it.
 *
 * @packageDocumentation
 */
import {
  StartError,
  type startEmulator as start,
  startEmulator,
} from '../emulator/index.js'
import { isPortFree } from '../emulator/net.js'
import { slots } from '../emulator/ports.js'
import { PortInUseError } from '../emulator/server.js'
import { createTestKit, type TestKit } from './kit.js'

/**
 * How many stripes the port range is cut into: worker `i` takes its ports
 * from stripe `i mod workerStripes` only, so workers with indexes below
 * this count never race each other for a port between the check and the
 * bind.
 */
export const workerStripes = 16

/**
 * The ports workers draw from: 20000–32767, below Linux's ephemeral range
 * (32768–60999), where the system hands out ports for outgoing connections
 * and `listen(0)` (see `findFreePortRange`).
 */
const range = { low: 20_000, high: 32_767 } as const

/** How many times a worker draws again when another process took a port first. */
const attempts = 3

/**
 * The stripe of ports a worker's emulator takes its block of `count`
 * consecutive ports from: the block starts at a port from `first` to
 * `last`, so it ends before the next worker's stripe begins.
 *
 * @example
 * ```ts
 * workerPortStripe({ workerIndex: 1, count: 10 }) // { first: 20798, last: 21586 }
 * ```
 */
export function workerPortStripe(options: {
  workerIndex: number
  count: number
}): { first: number; last: number } {
  const { workerIndex, count } = options
  const width = Math.floor((range.high - range.low + 1) / workerStripes)
  if (!Number.isInteger(count) || count < 1 || count > width)
    throw new RangeError(`count must be a whole number from 1 to ${width}.`)
  const first = range.low + (workerIndex % workerStripes) * width
  return { first, last: first + width - count }
}

/** A block of `count` free ports in the worker's stripe: its first port. */
async function drawPorts(workerIndex: number, count: number): Promise<number> {
  const { first, last } = workerPortStripe({ workerIndex, count })
  for (let draw = 0; draw < 50; draw++) {
    const base = first + Math.floor(Math.random() * (last - first + 1))
    let free = true
    for (let port = base; free && port < base + count; port++)
      free = await isPortFree({ port })
    if (free) return base
  }
  throw new Error(
    `No ${count} free consecutive ports from ${first} to ${last + count - 1} (worker ${workerIndex}).`,
  )
}

/**
 * Starts an emulator for one test worker: its services and its Anvil take
 * a block of consecutive free ports drawn from the worker's own stripe of
 * 20000–32767 ({@link workerPortStripe}), so workers started side by side
 * never collide; a port taken
 * by another process between the check and the bind makes it draw again.
 * Each emulator is a chain and services of its own: nothing is shared
 * between workers.
 *
 * @example
 * ```ts
 * import { startWorkerEmulator } from 'embedded-wallets/testing'
 *
 * const { info, kit, stop } = await startWorkerEmulator({ workerIndex: 0 })
 * await kit.fund('0x70997970C51812dc3A010C7d01b50e0d17dc79C8', { eth: '1' })
 * await stop()
 * ```
 *
 * @param options.workerIndex - The worker's index (0, 1, …).
 * @returns The emulator's JSON line, a kit over it, and `stop`.
 * @throws {StartError} If the emulator cannot start.
 */
export async function startWorkerEmulator(
  options: startWorkerEmulator.Options,
): Promise<startWorkerEmulator.ReturnType> {
  const { workerIndex, ...rest } = options
  if (!Number.isInteger(workerIndex) || workerIndex < 0)
    throw new RangeError(
      `workerIndex must be a whole number from 0, not ${workerIndex}.`,
    )
  for (let attempt = 1; ; attempt++) {
    // The services' ports, then Anvil's right after them.
    const portBase = await drawPorts(workerIndex, slots.length + 1)
    try {
      const emulator = await startEmulator({
        ...rest,
        portBase,
        anvilPort: portBase + slots.length,
      })
      return {
        info: emulator.info,
        kit: createTestKit(emulator.info),
        stop: () => emulator.stop(),
      }
    } catch (error) {
      const taken =
        error instanceof StartError && error.cause instanceof PortInUseError
      if (!taken || attempt >= attempts) throw error
    }
  }
}

export declare namespace startWorkerEmulator {
  type Options = Omit<
    start.Options,
    'portBase' | 'anvilPort' | 'extraChains'
  > & {
    /** The worker's index (0, 1, …): it picks the worker's port stripe. */
    workerIndex: number
  }
  type ReturnType = {
    /** The emulator's JSON line. */
    info: TestKit['info']
    /** The kit's helpers over it. */
    kit: TestKit
    /** Stops the emulator and its Anvil. Idempotent. */
    stop(): Promise<void>
  }
}
