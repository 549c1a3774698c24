import type { TestProject } from 'vitest/node'
import { type Emulator, startEmulator } from '../../../src/emulator/index.js'
import { findFreePort, findFreePortRange } from '../../../src/emulator/net.js'
import { services } from '../../../src/emulator/ports.js'
import { startPassportDriver } from './passportDriver.js'

/** What the iframe wallet's browser tests need to reach the emulator. */
export type MagicEmulatorContext = {
  /** The emulated provider's origin (the client's `endpoint`). */
  endpoint: string
  /** An API key the emulated provider accepts. */
  apiKey: string
  /** The dev mailbox's JSON endpoint (CORS-enabled). */
  mailbox: string
  /** The Anvil JSON-RPC endpoint. */
  rpcUrl: string
  /** The local chain's id. */
  chainId: number
}

/** What the game wallet's browser tests need to reach the emulator. */
export type PassportEmulatorContext = {
  /** The emulated identity provider's origin (`overrides.authenticationDomain`). */
  authenticationDomain: string
  /** The client id it knows. */
  clientId: string
  /** The dev mailbox's JSON endpoint (CORS-enabled). */
  mailbox: string
  /** The Anvil JSON-RPC endpoint. */
  rpcUrl: string
  /** The login-page driver's origin (see passportDriver.ts). */
  driver: string
}

declare module 'vitest' {
  interface ProvidedContext {
    /** The emulator the iframe wallet's browser tests run against. */
    magicEmulator: MagicEmulatorContext
    /** The same emulator, as the game wallet's browser tests use it. */
    passportEmulator: PassportEmulatorContext
  }
}

/**
 * Starts the emulator (Anvil, contracts, dev mailbox, the iframe wallet's
 * provider, the identity provider) on free ports and provides
 * `magicEmulator` and `passportEmulator` (with the login-page driver);
 * returns its teardown.
 */
export default async function setup(
  project: TestProject,
): Promise<() => Promise<void>> {
  const emulator = await start()
  const { info } = emulator
  project.provide('magicEmulator', {
    endpoint: info.magic.endpoint,
    apiKey: info.magic.apiKey,
    mailbox: info.mailbox,
    rpcUrl: info.rpcUrl,
    chainId: info.chainId,
  })
  const driver = await startPassportDriver(emulator)
  project.provide('passportEmulator', {
    authenticationDomain: info.passport.authenticationDomain,
    clientId: info.passport.clientId,
    mailbox: info.mailbox,
    rpcUrl: info.rpcUrl,
    driver: driver.url,
  })
  return async () => {
    await driver.close()
    await emulator.stop()
  }
}

/**
 * Starts the emulator on free ports. The services take consecutive ports
 * from the port base, and another process may grab one meanwhile, so a few
 * attempts are made.
 */
async function start(): Promise<Emulator> {
  let failure: unknown
  for (let attempt = 0; attempt < 5; attempt++) {
    const portBase = await findFreePortRange(services.length)
    try {
      return await startEmulator({ portBase, anvilPort: await findFreePort() })
    } catch (error) {
      failure = error
    }
  }
  throw failure
}
