/**
 * `npm start`: starts the emulator and serves the playground with Vite, until
 * Ctrl-C (SIGINT) or SIGTERM, which stop both and exit 0.
 *
 * Prints on stdout `Playground: <url>`, then the emulator's JSON line, then
 * `Emulator UI: <url>` (the emulator's UI page), and nothing else (Vite logs
 * to stderr). The playground gets that line in the
 * `VITE_EMULATOR_INFO` environment variable.
 *
 * Flags: --port-base, --anvil-port, --chain-id, --redirect-uri,
 * --logout-redirect-uri (as the emulator) and --playground-port (default
 * 5173).
 *
 * Unless told other pages, the emulator is told the playground's game-wallet
 * callback pages (`/passport/redirect`, `/passport/logout` on the
 * playground's origin), so its JSON line names the URIs the playground
 * really serves.
 */
import { Console } from 'node:console'
import { fileURLToPath } from 'node:url'
import { createLogger, createServer, type ViteDevServer } from 'vite'
import {
  type Command,
  emulatorFlags,
  parseCommandLine,
} from '../src/emulator/cli.js'
import { type Emulator, startEmulator } from '../src/emulator/index.js'

const flags = {
  ...emulatorFlags,
  // Their default follows --playground-port, so it is chosen in main().
  redirectUri: {
    ...emulatorFlags.redirectUri,
    default: undefined,
    description: `${emulatorFlags.redirectUri.description} (default the playground's /passport/redirect)`,
  },
  logoutRedirectUri: {
    ...emulatorFlags.logoutRedirectUri,
    default: undefined,
    description: `${emulatorFlags.logoutRedirectUri.description} (default the playground's /passport/logout)`,
  },
  playgroundPort: {
    name: '--playground-port',
    default: 5173,
    kind: 'port',
    description: 'Port of the playground (Vite dev server)',
  },
} as const

const command: Command = {
  usage: 'npm start -- [options]',
  summary:
    'Starts the emulator and the playground, prints the playground URL and the emulator JSON line, and runs until Ctrl-C.',
}

const playgroundRoot = fileURLToPath(new URL('../playground/', import.meta.url))

/** The modules `Passport.connectEvm` imports dynamically (src/passport/Passport.ts). */
const zkEvmModules = [
  'provider',
  'custodySigner',
  'confirmation',
  'sessionActivity',
] as const

/** The file path of a zkEVM module of the package's sources. */
function sourcePath(name: string): string {
  return fileURLToPath(
    new URL(`../src/passport/zkevm/${name}.ts`, import.meta.url),
  )
}
const host = '127.0.0.1'

async function main(argv: readonly string[]): Promise<void> {
  const args = parseCommandLine(argv, { flags, command })
  if (!args) return

  let emulator: Emulator | undefined
  let vite: ViteDevServer | undefined
  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      const failures: unknown[] = []
      await vite?.close().catch((error: unknown) => failures.push(error))
      await emulator?.stop().catch((error: unknown) => failures.push(error))
      if (failures.length > 0)
        throw new AggregateError(failures, 'Stopping did not go cleanly.')
    })()
    return stopping
  }
  // Listen for signals before starting: a signal during the start is acted
  // on once the piece being started is up, so nothing is left running.
  let started = false
  let signalled: NodeJS.Signals | undefined
  const shutdown = (signal: NodeJS.Signals) => {
    process.stderr.write(`Received ${signal}, stopping…\n`)
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${describe(error)}\n`)
        process.exit(1)
      },
    )
  }
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return
    signalled = signal
    if (started) shutdown(signal)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)

  try {
    const { portBase, anvilPort, chainId, playgroundPort } = args
    // The game wallet's callback pages are the playground's own (its origin
    // holds the sign-in state), so the JSON line must name its real origin.
    const playground = `http://${host}:${playgroundPort}`
    emulator = await startEmulator({
      portBase,
      anvilPort,
      chainId,
      host,
      passportRedirectUri:
        args.redirectUri ?? `${playground}/passport/redirect`,
      passportLogoutRedirectUri:
        args.logoutRedirectUri ?? `${playground}/passport/logout`,
    })
    if (signalled) return shutdown(signalled)

    process.env.VITE_EMULATOR_INFO = JSON.stringify(emulator.info)
    vite = await createServer({
      root: playgroundRoot,
      configFile: fileURLToPath(
        new URL('../playground/vite.config.ts', import.meta.url),
      ),
      server: { host, port: playgroundPort, strictPort: true },
      // Vite's logs go to stderr: stdout carries only the lines below.
      customLogger: createLogger('info', {
        allowClearScreen: false,
        console: new Console({ stdout: process.stderr }),
      }),
    })
    await vite.listen()
    // Transform the page's modules before saying where it is, so that the
    // first visit does not wait for the dependency pre-bundling (which, on
    // a fresh clone, takes seconds).
    await Promise.all(
      [
        '/src/main.tsx',
        '/src/renderApp.tsx',
        '/src/passport/CallbackPage.tsx',
        // What `passport.connectEvm()` imports on first use (the game
        // wallet's panel calls it once signed in): dynamic imports, which
        // warming the page's entry does not reach.
        ...zkEvmModules.map((name) => `/@fs${sourcePath(name)}`),
      ].map((url) => vite?.warmupRequest(url)),
    )
    if (signalled) return shutdown(signalled)

    started = true
    process.stdout.write(
      `Playground: ${playground}/\n${JSON.stringify(emulator.info)}\nEmulator UI: ${emulator.info.ui}\n`,
    )
  } catch (error) {
    await stop().catch(() => {})
    throw error
  }
}

function describe(error: unknown): string {
  if (error instanceof AggregateError)
    return [error.message, ...error.errors.map(describe)].join('\n')
  return error instanceof Error ? error.message : String(error)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`npm start failed: ${describe(error)}\n`)
  process.exit(1)
})
