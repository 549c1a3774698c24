import { createServer } from 'node:net'

/**
 * Finds a TCP port that is free right now on `127.0.0.1`, drawn at random
 * from 20000–32767, below Linux's ephemeral range (32768–60999). A port the
 * system handed out with `listen(0)` is an ephemeral one, and the system
 * hands the same ports to outgoing connections as their source port: an
 * HTTP request made by any test between this call and the bind could take
 * it (EADDRINUSE). Outside that range only another listener can.
 *
 * Another process may still take the port before its use, so pass it on
 * promptly.
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
  return findFreePortRange(1, options)
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
 * from 20000–32767, below Linux's ephemeral range (32768–60999): ports
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
  const { random = Math.random } = options
  const low = 20_000
  const high = 32_767 - count
  for (let draw = 0; draw < 50; draw++) {
    const base = low + Math.floor(random() * (high - low))
    let free = true
    for (let port = base; free && port < base + count; port++)
      free = await isPortFree({ port })
    if (free) return base
  }
  throw new Error(`findFreePortRange: no ${count} free consecutive ports`)
}
