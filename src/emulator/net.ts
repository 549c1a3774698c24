import { createServer } from 'node:net'

/**
 * Asks the operating system for a TCP port that is free right now on
 * `127.0.0.1`: listens on port 0, reads the port it was given and closes.
 *
 * Another process may take the port between this call and its use, so pass
 * the port on promptly.
 *
 * @example
 * const port = await findFreePort()
 * const anvil = await startAnvil({ port })
 */
export async function findFreePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  await new Promise<void>((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  )
  if (address === null || typeof address === 'string')
    throw new Error('findFreePort: the server has no TCP address')
  return address.port
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
