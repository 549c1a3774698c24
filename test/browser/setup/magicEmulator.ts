import type { TestProject } from 'vitest/node'
import {
  type Emulator,
  type Info,
  startEmulator,
} from '../../../src/emulator/index.js'
import { findFreePort, findFreePortRange } from '../../../src/emulator/net.js'
import { slots } from '../../../src/emulator/ports.js'
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
  /** The emulated passport domain (`overrides.passportDomain`): the confirmation pages. */
  passportDomain: string
}

/** The chain id of the emulator's second chain (its main one is 31337). */
export const secondChainId = 31338

/** The emulator's second chain, for switching chains. */
export type SecondChainContext = {
  /** Its public JSON-RPC endpoint. */
  rpcUrl: string
  /** Its chain id ({@link secondChainId}). */
  chainId: number
}

declare module 'vitest' {
  interface ProvidedContext {
    /** The emulator's second chain (same contracts, another chain id). */
    secondChain: SecondChainContext
    /** The emulator the iframe wallet's browser tests run against. */
    magicEmulator: MagicEmulatorContext
    /** The same emulator, as the game wallet's browser tests use it. */
    passportEmulator: PassportEmulatorContext
    /**
     * The same emulator's JSON line, whole: what a dApp reads to configure
     * a published SDK against it (test/browser/passport-compat.test.ts).
     */
    emulatorInfo: Info
  }
}

/**
 * Starts the emulator (two chains, dev mailbox, the iframe wallet's
 * provider, the identity provider) on free ports and provides
 * `magicEmulator`, `passportEmulator` (with the login-page driver) and
 * `secondChain`; returns its teardown.
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
  const second = info.chains[1]
  if (second === undefined) throw new Error('The emulator has no second chain.')
  project.provide('secondChain', second)
  const driver = await startPassportDriver(emulator)
  project.provide('passportEmulator', {
    authenticationDomain: info.passport.authenticationDomain,
    clientId: info.passport.clientId,
    mailbox: info.mailbox,
    rpcUrl: info.rpcUrl,
    driver: driver.url,
    passportDomain: info.passport.passportDomain,
  })
  project.provide('emulatorInfo', info)
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
    const portBase = await findFreePortRange(slots.length)
    try {
      return await startEmulator({
        portBase,
        anvilPort: await findFreePort(),
        extraChains: [{ chainId: secondChainId, port: await findFreePort() }],
      })
    } catch (error) {
      failure = error
    }
  }
  throw failure
}
