/**
 * The heartbeat timing, free of the DOM. After each bit of activity (an
 * incoming message, the iframe's `load`) it waits an hour (debounced); then
 * it ticks every 5 minutes: a tick pings, unless no pong came since the
 * first ping, or the last pong is older than 10 minutes, in which case it
 * asks for a reload and starts over.
 *
 * Unlike the published SDK, a pong only records its time and does not count
 * as activity: there every message (pongs too) stops the ping loop and
 * clears the pong time, so the 10-minute rule can never fire.
 */

/** The published SDK's timings, in milliseconds. */
export const timings = {
  /** Quiet time before the ping loop starts. */
  delay: 60 * 60 * 1000,
  /** Time between ticks. */
  interval: 5 * 60 * 1000,
  /** Age after which the last pong counts as lost. */
  pongTimeout: 10 * 60 * 1000,
} as const

/** A running heartbeat. */
export type Heartbeat = {
  /** Stops the ping loop, forgets the pong time and re-arms the delay. */
  activity(): void
  /** Records a pong's arrival. */
  pong(): void
  /** Stops every timer (nothing is re-armed). */
  stop(): void
}

/**
 * Creates a heartbeat. Nothing runs until the first {@link Heartbeat.activity}.
 *
 * @example
 * ```ts
 * const heartbeat = Heartbeat.create({ ping, reload })
 * heartbeat.activity()
 * ```
 */
export function create(options: create.Options): Heartbeat {
  const {
    delay = timings.delay,
    interval = timings.interval,
    now = () => Date.now(),
    ping,
    pongTimeout = timings.pongTimeout,
    reload,
  } = options
  let delayTimer: ReturnType<typeof setTimeout> | undefined
  let loop: ReturnType<typeof setInterval> | undefined
  let lastPong: number | undefined
  let firstTick = true

  function stopLoop() {
    if (loop !== undefined) clearInterval(loop)
    loop = undefined
    lastPong = undefined
  }

  function tick() {
    const lost =
      lastPong === undefined ? !firstTick : now() - lastPong > pongTimeout
    if (lost) {
      heartbeat.activity()
      reload()
      return
    }
    firstTick = false
    ping()
  }

  const heartbeat: Heartbeat = {
    activity() {
      stopLoop()
      if (delayTimer !== undefined) clearTimeout(delayTimer)
      delayTimer = setTimeout(() => {
        delayTimer = undefined
        firstTick = true
        loop = setInterval(tick, interval)
      }, delay)
    },
    pong() {
      lastPong = now()
    },
    stop() {
      stopLoop()
      if (delayTimer !== undefined) clearTimeout(delayTimer)
      delayTimer = undefined
    },
  }
  return heartbeat
}

export declare namespace create {
  type Options = {
    /** Posts a ping. */
    ping: () => void
    /** Reloads the iframe. */
    reload: () => void
    /** Clock in milliseconds. @default Date.now */
    now?: (() => number) | undefined
    /** @default 3_600_000 */
    delay?: number | undefined
    /** @default 300_000 */
    interval?: number | undefined
    /** @default 600_000 */
    pongTimeout?: number | undefined
  }
}
