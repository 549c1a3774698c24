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
import { findFreePortRange } from '../emulator/net.js'
import { slots } from '../emulator/ports.js'
import { PortInUseError } from '../emulator/server.js'
import { createTestKit, type TestKit } from './kit.js'

/**
 * How many stripes the port range is cut into: worker `i` draws its ports
 * from stripe `i mod stripes` only, so workers below this count never race
 * each other for a block between the check and the bind.
 */
export const workerStripes = 16

/** How many times a worker draws again when another process took a port first. */
const attempts = 3

/**
 * Starts an emulator for one test worker: its services and its Anvil take
 * a block of consecutive free ports drawn from the worker's own stripe of
 * 20000–32767, so workers started side by side never collide; a port taken
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
  const stripe = workerIndex % workerStripes
  // Draws land in [stripe, stripe + 1) / stripes of findFreePortRange's span.
  const random = () => (stripe + Math.random()) / workerStripes
  for (let attempt = 1; ; attempt++) {
    // The services' ports, then Anvil's right after them.
    const portBase = await findFreePortRange(slots.length + 1, { random })
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
