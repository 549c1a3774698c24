import { createServer } from 'node:net'

/**
 * Where ports are drawn, below Linux's ephemeral range (32768–60999):
 * blocks from the first part, single ports from the second, so that a
 * single port (Anvil's, a page's) drawn beside a block (the emulator's
 * services) can never fall inside it, which the emulator refuses.
 */
const regions = {
  blocks: { low: 20_000, high: 28_000 },
  single: { low: 28_000, high: 32_768 },
} as const

/**
 * Finds a TCP port that is free right now on `127.0.0.1`, drawn at random
 * from 28000–32767, below Linux's ephemeral range (32768–60999) and apart
 * from the blocks {@link findFreePortRange} draws. A port the
 * system handed out with `listen(0)` is an ephemeral one, and the system
 * hands the same ports to outgoing connections as their source port: an
 * HTTP request made by any test between this call and the bind could take
 * it (EADDRINUSE). Outside that range only another listener can.
 *
 * This process does not draw it again for a minute (two draws made close
 * together could otherwise both find it free); another process may still
 * take it before its use, so pass it on promptly.
 *
 * @example
 * const port = await findFreePort()
 * const anvil = await startAnvil({ port })
 *
 * @throws {Error} When no free port is found in 50 draws.
 */
export async function findFreePort(
  options: { random?: () => number } = {},
): Promise<number> {
  return draw(1, regions.single, options.random)
}

/**
 * Tells whether a TCP port can be listened on at `host` right now, by
 * listening on it and closing again. Only `EADDRINUSE` answers `false`; any
 * other error (for example a host that is not local) is thrown.
 *
 * @example
 * if (!(await isPortFree({ port: 8545 }))) throw new Error('8545 is taken')
 */
export async function isPortFree(
  options: isPortFree.Options,
): Promise<boolean> {
  const { port, host = '127.0.0.1' } = options
  const server = createServer()
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen({ port, host, exclusive: true }, () => resolve())
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return false
    throw error
  }
  await new Promise<void>((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  )
  return true
}

export declare namespace isPortFree {
  type Options = {
    /** The TCP port to probe. */
    port: number
    /** The interface to probe. @default '127.0.0.1' */
    host?: string | undefined
  }
}

/**
 * Finds `count` consecutive free ports (the emulator's services take
 * consecutive ports from `--port-base`) and returns the first. It draws
 * from 20000–27999, below Linux's ephemeral range (32768–60999): ports
 * the system hands to outgoing connections and to `listen(0)` elsewhere
 * then cannot land inside the block between this check and the bind.
 *
 * @example
 * const portBase = await findFreePortRange(services.length)
 *
 * @throws {Error} When no free block is found in 50 draws.
 */
export async function findFreePortRange(
  count: number,
  options: { random?: () => number } = {},
): Promise<number> {
  return draw(count, regions.blocks, options.random)
}

/**
 * Ports this process drew lately, each with the time its hold ends: a port
 * is not drawn again here for {@link holdMs}, so that two draws one after
 * the other, or at once, cannot hand out the same port before either is
 * bound (a port just handed out is still free). Another process can still
 * draw it, as it can take any port.
 */
const held = new Map<number, number>()

/** How long a drawn port is held: 60 s, past any service's start-up. */
const holdMs = 60_000

/** Whether any of `count` ports from `base` is held at `now`. */
function isHeld(base: number, count: number, now: number): boolean {
  for (let port = base; port < base + count; port++)
    if ((held.get(port) ?? 0) > now) return true
  return false
}

/** Holds (or, with `until` undefined, lets go of) `count` ports from `base`. */
function setHeld(base: number, count: number, until: number | undefined) {
  for (let port = base; port < base + count; port++)
    if (until === undefined) held.delete(port)
    else held.set(port, until)
}

/** The first of `count` free consecutive ports drawn inside `region`. */
async function draw(
  count: number,
  region: { low: number; high: number },
  random: () => number = Math.random,
): Promise<number> {
  const { low } = region
  const high = region.high - count
  const now = Date.now()
  if (held.size > 1_000)
    for (const [port, until] of held) if (until <= now) held.delete(port)
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = low + Math.floor(random() * (high - low))
    if (isHeld(base, count, Date.now())) continue
    // Held before the probe, which awaits: a draw made meanwhile skips it.
    setHeld(base, count, Date.now() + holdMs)
    let free = true
    for (let port = base; free && port < base + count; port++)
      free = await isPortFree({ port })
    if (free) return base
    setHeld(base, count, undefined)
  }
  throw new Error(
    count === 1
      ? 'findFreePort: no free port'
      : `findFreePortRange: no ${count} free consecutive ports`,
  )
}
