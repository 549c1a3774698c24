import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import { createAdaptorServer } from '@hono/node-server'
import { BaseError } from '../core/Errors.js'

/** A running HTTP server. */
export type Running = {
  /** The server's origin, e.g. `http://127.0.0.1:4400`. */
  readonly url: string
  /** The port it listens on. */
  readonly port: number
  /** Closes the server and its open connections. Idempotent. */
  stop(): Promise<void>
}

/**
 * Serves a fetch handler (e.g. a Hono app's `fetch`) or a Node request
 * handler (e.g. a Koa app's `callback()`) on Node.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono'
 * import { startServer } from './server.js'
 *
 * const server = await startServer({ fetch: new Hono().fetch, port: 4400 })
 * await server.stop()
 * ```
 *
 * @param options.fetch - The request handler (or `options.handler`, a Node one).
 * @param options.port - The port to listen on.
 * @param options.host - The interface to bind. @default '127.0.0.1'
 * @param options.name - The service name used in error messages.
 * @returns The running server, once it listens.
 * @throws {PortInUseError} If the port is taken.
 * @throws {ListenError} If listening fails for another reason.
 */
export async function startServer(
  options: startServer.Options,
): Promise<startServer.ReturnType> {
  const { port, host = '127.0.0.1', name = 'server' } = options
  const server =
    'handler' in options
      ? createServer(options.handler)
      : (createAdaptorServer({
          fetch: options.fetch,
          hostname: host,
        }) as Server)

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening)
      if (error.code === 'EADDRINUSE')
        reject(new PortInUseError({ port, host, name, cause: error }))
      else reject(new ListenError({ port, host, name, cause: error }))
    }
    const onListening = () => {
      server.off('error', onError)
      resolve()
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(port, host)
  })

  let stopping: Promise<void> | undefined
  return {
    url: `http://${host}:${port}`,
    port,
    stop() {
      stopping ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      })
      return stopping
    },
  }
}

export declare namespace startServer {
  type Options = (
    | {
        /** The request handler, e.g. a Hono app's `fetch`. */
        fetch: (request: Request) => Response | Promise<Response>
      }
    | {
        /** A Node request handler, e.g. a Koa app's `callback()`. */
        handler: (req: IncomingMessage, res: ServerResponse) => void
      }
  ) & {
    /** The port to listen on. */
    port: number
    /** The interface to bind. @default '127.0.0.1' */
    host?: string | undefined
    /** The service name used in error messages. @default 'server' */
    name?: string | undefined
  }
  type ReturnType = Running
}

/** Thrown when a service's port is already taken. */
export class PortInUseError extends BaseError<Error | undefined> {
  override readonly name = 'Server.PortInUseError'
  /** The port that is taken. */
  readonly port: number
  constructor(options: PortInUseError.Options) {
    const { port, host, name, cause } = options
    super(
      `Cannot start the ${name} service: port ${port} on ${host} is already in use. Free it or choose other ports (--port-base).`,
      { cause, details: '' },
    )
    this.port = port
  }
}

export declare namespace PortInUseError {
  type Options = Omit<ErrorOptions, 'cause'> & { cause?: Error | undefined }
}

/** Thrown when a service cannot listen for another reason than a taken port. */
export class ListenError extends BaseError<Error> {
  override readonly name = 'Server.ListenError'
  /** The port the service was to listen on. */
  readonly port: number
  constructor(options: ErrorOptions) {
    const { port, host, name, cause } = options
    super(`Cannot start the ${name} service on ${host}:${port}.`, { cause })
    this.port = port
  }
}

type ErrorOptions = {
  port: number
  host: string
  name: string
  cause: Error
}
