/**
 * Test helper: the magic service on a real chain (Anvil on a free port, the
 * test contracts deployed, users funded), for the tests of the chain-backed
 * methods. The device and flow helpers it uses are in `../testkit.ts`.
 */
import type { Address } from 'viem'
import { startAnvil } from '../../chain/anvil.js'
import { type Contracts, deployContracts } from '../../chain/deploy.js'
import * as Mailbox from '../../mailbox/store.js'
import { findFreePort } from '../../net.js'
import { createRegistry, type Registry } from '../../registry/index.js'
import { createMagicService } from '../service.js'
import { createDevice, type Device, loginByEmail } from '../testkit.js'

/** A magic service on a real chain, from {@link startChainService}. */
export type ChainService = {
  /** Anvil, on a free port. */
  anvil: Awaited<ReturnType<typeof startAnvil>>
  /** The test contracts, deployed on `anvil`. */
  contracts: Contracts
  app: ReturnType<typeof createMagicService>
  mailbox: Mailbox.Store
  /** The registry, funding new users on `anvil`. */
  registry: Registry
  /**
   * A new device logged in (headless email OTP) as a new user
   * `user<n>@example.com`, with that user's address.
   */
  loggedIn(): Promise<{ device: Device; address: Address }>
  /** Stops Anvil. */
  stop(): Promise<void>
}

/**
 * Starts Anvil on a free port, deploys the test contracts and creates a
 * magic service on that chain (real clock, users funded), for the tests of
 * the chain-backed methods. Call `stop()` when done.
 *
 * @example
 * ```ts
 * let service: ChainService
 * beforeAll(async () => {
 *   service = await startChainService()
 * }, 60_000)
 * afterAll(() => service?.stop())
 * ```
 */
export async function startChainService(): Promise<ChainService> {
  const anvil = await startAnvil({ port: await findFreePort() })
  let contracts: Contracts
  try {
    contracts = await deployContracts({ rpcUrl: anvil.rpcUrl })
  } catch (error) {
    await anvil.stop()
    throw error
  }
  const mailbox = Mailbox.create()
  const registry = createRegistry({ rpcUrl: anvil.rpcUrl })
  const app = createMagicService({
    mailbox,
    registry,
    chain: { rpcUrl: anvil.rpcUrl, chainId: anvil.chainId },
    tokens: contracts,
  })
  let users = 0
  const loggedIn = async () => {
    const device = await createDevice()
    const email = `user${++users}@example.com`
    await loginByEmail(app, mailbox, email, device)
    return { device, address: registry.find({ email })!.address }
  }
  return {
    anvil,
    contracts,
    app,
    mailbox,
    registry,
    loggedIn,
    stop: () => anvil.stop(),
  }
}
