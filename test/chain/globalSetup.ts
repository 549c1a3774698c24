import type { TestProject } from 'vitest/node'
import { startAnvil } from '../../src/emulator/chain/anvil.js'
import {
  type Contracts,
  deployContracts,
} from '../../src/emulator/chain/deploy.js'
import { findFreePort } from '../../src/emulator/net.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** JSON-RPC endpoint of the Anvil node shared by the chain tests. */
    rpcUrl: string
    /** Its chain id. */
    chainId: number
    /** The contracts deployed on it at start. */
    contracts: Contracts
  }
}

/**
 * Starts one Anvil on a free port for the whole `chain` project, deploys the
 * contracts and provides `rpcUrl`, `chainId` and `contracts` to the tests
 * (`inject('rpcUrl')`). Test files run in parallel against this one chain,
 * so each test sends from fresh accounts it funds itself, never from the
 * deployer or another shared account.
 */
export default async function setup(project: TestProject) {
  const anvil = await startAnvil({ port: await findFreePort() })
  try {
    const contracts = await deployContracts({
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
    })
    project.provide('rpcUrl', anvil.rpcUrl)
    project.provide('chainId', anvil.chainId)
    project.provide('contracts', contracts)
  } catch (error) {
    await anvil.stop()
    throw error
  }
  return () => anvil.stop()
}
