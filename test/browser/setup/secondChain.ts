import type { TestProject } from 'vitest/node'
import { startAnvil } from '../../../src/emulator/chain/anvil.js'
import { findFreePort } from '../../../src/emulator/net.js'

/** The chain id of the second Anvil (the emulator's own one is 31337). */
export const secondChainId = 31338

/** A bare Anvil beside the emulator's, for switching chains. */
export type SecondChainContext = {
  /** Its JSON-RPC endpoint, on the loopback interface. */
  rpcUrl: string
  /** Its chain id ({@link secondChainId}). */
  chainId: number
}

declare module 'vitest' {
  interface ProvidedContext {
    /** A second Anvil (no contracts) on another chain id. */
    secondChain: SecondChainContext
  }
}

/**
 * Starts a second, bare Anvil (no contracts, nothing deployed: only what a
 * chain switch needs) on a free port and provides `secondChain`; returns
 * its teardown. Another process may take the port between the probe and
 * Anvil's start, so a few attempts are made.
 */
export default async function setup(
  project: TestProject,
): Promise<() => Promise<void>> {
  let failure: unknown
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const anvil = await startAnvil({
        port: await findFreePort(),
        chainId: secondChainId,
      })
      project.provide('secondChain', {
        rpcUrl: anvil.rpcUrl,
        chainId: anvil.chainId,
      })
      return () => anvil.stop()
    } catch (error) {
      failure = error
    }
  }
  throw failure
}
