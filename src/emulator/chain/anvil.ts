import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { createAnvil } from '@viem/anvil'
import { BaseError } from '../../core/Errors.js'
import { isPortFree } from '../net.js'

/** How long `@viem/anvil`'s `stop()` waits for Anvil to exit, in ms. */
const stopTimeout = 5_000

/** The npm platform packages of Foundry, by `${process.platform}-${process.arch}`. */
const platformSuffixes: Record<string, string> = {
  'darwin-arm64': 'darwin-arm64',
  'darwin-x64': 'darwin-amd64',
  'linux-arm64': 'linux-arm64',
  'linux-x64': 'linux-amd64',
}

/**
 * Path of a Foundry binary installed from npm (`@foundry-rs/anvil` and
 * `@foundry-rs/forge` install it as `@foundry-rs/<tool>-<platform>`).
 *
 * @throws {Error} on a platform Foundry publishes no npm binary for, or when
 *   the platform package is not installed.
 */
export function foundryBinaryPath(tool: 'anvil' | 'forge'): string {
  const key = `${process.platform}-${process.arch}`
  const suffix = platformSuffixes[key]
  if (suffix === undefined)
    throw new Error(
      `No npm ${tool} binary for platform ${key}; supported: ${Object.keys(platformSuffixes).join(', ')}`,
    )
  const name = `@foundry-rs/${tool}-${suffix}`
  const require = createRequire(import.meta.url)
  let manifest: string
  try {
    manifest = require.resolve(`${name}/package.json`)
  } catch {
    throw new Error(
      `${name} is not installed; it comes with the @foundry-rs/${tool} package`,
    )
  }
  return join(dirname(manifest), 'bin', tool)
}

/** Anvil could not start: its port is taken, or the process exited early. */
export class AnvilStartError extends BaseError<Error | undefined> {
  override readonly name = 'Anvil.StartError'
  /** The port Anvil was asked to listen on. */
  readonly port: number

  constructor(
    shortMessage: string,
    options: { port: number; details?: string; cause?: Error | undefined },
  ) {
    super(shortMessage, { cause: options.cause, details: options.details })
    this.port = options.port
  }
}

/**
 * Starts a local Anvil node (the npm Foundry binary) and resolves once it
 * listens. Fails fast with {@link AnvilStartError} when the port is taken.
 *
 * @example
 * const anvil = await startAnvil({ port: await findFreePort() })
 * // ... use anvil.rpcUrl ...
 * await anvil.stop()
 */
export async function startAnvil(
  options: startAnvil.Options = {},
): Promise<startAnvil.ReturnType> {
  const { port = 8545, chainId = 31337, host = '127.0.0.1' } = options
  const taken = () =>
    new AnvilStartError(
      `Cannot start Anvil: port ${port} on ${host} is already in use.`,
      {
        port,
        details:
          'Stop what listens there or pass another port (findFreePort() in src/emulator/net.ts picks a free one).',
      },
    )
  if (!(await isPortFree({ port, host }))) throw taken()

  const anvil = createAnvil({
    anvilBinary: foundryBinaryPath('anvil'),
    port,
    host,
    chainId,
    // Only the emulator's own services and its gateway talk to the node;
    // with CORS off, no page can (see gateway.ts).
    noCors: true,
    startTimeout: 15_000,
    stopTimeout,
  })
  let exited = false
  const exit = new Promise<void>((resolve) => {
    anvil.on('exit', () => {
      exited = true
      resolve()
    })
  })

  try {
    await anvil.start()
  } catch (error) {
    // Another process may have taken the port after the check above.
    const message = error instanceof Error ? error.message : String(error)
    if (/address already in use/i.test(message)) throw taken()
    throw new AnvilStartError(`Anvil failed to start on ${host}:${port}.`, {
      port,
      details: `${message}\n${anvil.logs.join('')}`,
      cause: error instanceof Error ? error : undefined,
    })
  }

  return {
    rpcUrl: `http://${host}:${port}`,
    chainId,
    port,
    host,
    async stop() {
      if (exited) return
      await withUnrefTimers(() => anvil.stop())
      await exit
    },
  }
}

/**
 * Runs `start` with `setTimeout` unref'ing the timers created synchronously
 * inside it. `@viem/anvil`'s `stop()` races the process exit against a
 * `stopTimeout` timer it never clears, which would keep Node running for that
 * long after Anvil is gone.
 */
function withUnrefTimers<value>(start: () => Promise<value>): Promise<value> {
  const original = globalThis.setTimeout
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) =>
    original(...args).unref()) as typeof setTimeout
  try {
    return start()
  } finally {
    globalThis.setTimeout = original
  }
}

export declare namespace startAnvil {
  type Options = {
    /** TCP port to listen on. @default 8545 */
    port?: number | undefined
    /** Chain id of the node. @default 31337 */
    chainId?: number | undefined
    /** Interface to listen on. @default '127.0.0.1' */
    host?: string | undefined
  }
  type ReturnType = {
    /** HTTP JSON-RPC endpoint, e.g. `http://127.0.0.1:8545`. */
    rpcUrl: string
    chainId: number
    port: number
    host: string
    /** Terminates the Anvil process and resolves once it has exited. */
    stop(): Promise<void>
  }
}
