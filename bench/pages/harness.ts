/**
 * The measuring side of the dApp pages (bench/run.ts drives it through
 * `window.bench`). Every page installs the same harness with a `Factory`:
 * ours, the published magic-sdk and the bare postMessage echo differ only
 * in what one `request()` does, so the loops, the clock and the page around
 * them are the same for each.
 */

/** What the runner passes to the page. */
export type Config = {
  /** The iframe's origin: the SDK's `endpoint`. */
  endpoint: string
  apiKey: string
  rpcUrl: string
  chainId: number
}

/** One client under measurement, made by the page's factory. */
export type Subject = {
  /** One `eth_chainId` round trip; resolves with its result. */
  request(): Promise<unknown>
  /** Resolves once the client's iframe said it is ready. */
  ready(): Promise<void>
}

export type Factory = (config: Config) => Subject

/** What the runner calls, through `page.evaluate`. */
export type Bench = {
  /** Makes the client and waits for its iframe: milliseconds. */
  start(config: Config): Promise<number>
  /** One request's result (to check the answer is the expected one). */
  check(): Promise<unknown>
  /**
   * `warmup` requests, then `count` one after another: each one's
   * milliseconds, and the whole loop's.
   */
  sequential(
    count: number,
    warmup: number,
  ): Promise<{ samples: number[]; total: number }>
  /** `rounds` times `count` requests at once: each round's milliseconds. */
  parallel(count: number, rounds: number): Promise<number[]>
  /** The JS heap in bytes (Chromium's `performance.memory`), if known. */
  heap(): number | undefined
}

declare global {
  interface Window {
    bench: Bench
  }
}

export function install(factory: Factory): void {
  let subject: Subject | undefined
  const current = () => {
    if (!subject) throw new Error('bench.start() was not called.')
    return subject
  }
  window.bench = {
    async start(config) {
      const started = performance.now()
      subject = factory(config)
      await subject.ready()
      return performance.now() - started
    },
    check: () => current().request(),
    async sequential(count, warmup) {
      const client = current()
      for (let i = 0; i < warmup; i++) await client.request()
      const samples: number[] = []
      const started = performance.now()
      for (let i = 0; i < count; i++) {
        const before = performance.now()
        await client.request()
        samples.push(performance.now() - before)
      }
      return { samples, total: performance.now() - started }
    },
    async parallel(count, rounds) {
      const client = current()
      const times: number[] = []
      for (let round = 0; round < rounds; round++) {
        const started = performance.now()
        await Promise.all(Array.from({ length: count }, () => client.request()))
        times.push(performance.now() - started)
      }
      return times
    },
    heap() {
      const memory = (performance as { memory?: { usedJSHeapSize: number } })
        .memory
      return memory?.usedJSHeapSize
    },
  }
}
