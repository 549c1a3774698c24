#!/usr/bin/env node
/**
 * The `embedded-wallets` command. `embedded-wallets emulator [options]`
 * starts the emulator, prints exactly one JSON line describing it on stdout
 * (logs go to stderr, among them `Emulator UI: <url>`, the page to watch it
 * in), and runs until SIGINT or SIGTERM, which stop everything and exit 0.
 *
 * @packageDocumentation
 */
import { emulatorCommand, emulatorFlags, parseCommandLine } from './cli.js'
import type { Emulator } from './index.js'

/** The emulator's optional peer dependencies (see package.json). */
const peers = [
  '@foundry-rs/anvil',
  '@viem/anvil',
  'hono',
  '@hono/node-server',
  'oidc-provider',
]

/**
 * Loads the emulator. Its packages are optional peer dependencies, so that a
 * dApp using only the client does not download Anvil; when one is missing,
 * say which command installs them instead of a bare module-not-found error.
 */
async function loadEmulator() {
  try {
    return await import('./index.js')
  } catch (error) {
    const missing = peers.find(
      (name) =>
        error instanceof Error &&
        (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' &&
        error.message.includes(`'${name}'`),
    )
    if (!missing) throw error
    throw new Error(
      `The emulator needs ${missing}, an optional peer dependency of embedded-wallets.\nInstall them with: npm install --save-dev ${peers.join(' ')}`,
    )
  }
}

const commands = `Usage: embedded-wallets <command> [options]

Commands:
  emulator  ${emulatorCommand.summary}

Run "embedded-wallets emulator --help" for its options.
`

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv
  if (command === '--help' || command === '-h') {
    process.stdout.write(commands)
    return
  }
  if (command !== 'emulator') {
    const what =
      command === undefined ? 'No command' : `Unknown command ${command}`
    process.stderr.write(`${what}.\n\n${commands}`)
    process.exitCode = 2
    return
  }

  const args = parseCommandLine(rest, {
    flags: emulatorFlags,
    command: emulatorCommand,
  })
  if (!args) return

  // Listen for signals before starting, so that a signal during the start
  // still stops what started (Anvil is a child process).
  let emulator: Emulator | undefined
  let signalled: NodeJS.Signals | undefined
  const shutdown = async (signal: NodeJS.Signals) => {
    if (signalled) return
    signalled = signal
    if (!emulator) return // main() stops it once started.
    process.stderr.write(`Received ${signal}, stopping the emulator…\n`)
    try {
      await emulator.stop()
      process.exit(0)
    } catch (error) {
      process.stderr.write(`${String(error)}\n`)
      process.exit(1)
    }
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)

  const { portBase, anvilPort, chainId, redirectUri, logoutRedirectUri } = args
  const { startEmulator } = await loadEmulator()
  emulator = await startEmulator({
    portBase,
    anvilPort,
    chainId,
    passportRedirectUri: redirectUri,
    passportLogoutRedirectUri: logoutRedirectUri,
  })
  if (signalled) {
    const signal = signalled
    signalled = undefined
    await shutdown(signal)
    return
  }
  process.stdout.write(`${JSON.stringify(emulator.info)}\n`)
  // For the person at the terminal; programs read the JSON line.
  process.stderr.write(`Emulator UI: ${emulator.info.ui}\n`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? error.message : String(error)}\n`,
  )
  process.exit(1)
})
