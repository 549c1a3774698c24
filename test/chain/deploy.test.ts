import { createPublicClient, createTestClient, http } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { deployer } from '../../src/emulator/chain/accounts.js'
import { startAnvil } from '../../src/emulator/chain/anvil.js'
import {
  DeployError,
  deployContracts,
  predictContracts,
} from '../../src/emulator/chain/deploy.js'
import { findFreePort } from '../../src/emulator/net.js'

// Each test spoils a chain of its own.
const nodes: Awaited<ReturnType<typeof startAnvil>>[] = []
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.stop()))
})

async function freshChain() {
  const node = await startAnvil({ port: await findFreePort() })
  nodes.push(node)
  const client = createTestClient({
    mode: 'anvil',
    transport: http(node.rpcUrl),
  })
  return { node, client }
}

test('error: a node that does not answer is named', async () => {
  const port = await findFreePort()
  const error = await deployContracts({
    rpcUrl: `http://127.0.0.1:${port}`,
  }).catch((error: unknown) => error)
  expect(error).toBeInstanceOf(DeployError)
  expect((error as DeployError).shortMessage).toBe(
    `Cannot reach http://127.0.0.1:${port}.`,
  )
})

test('error: a deployer that cannot pay is refused at the first transaction, which is named', async () => {
  const { node, client } = await freshChain()
  await client.setBalance({ address: deployer.address, value: 0n })
  const error = await deployContracts({ rpcUrl: node.rpcUrl }).catch(
    (error: unknown) => error,
  )
  expect(error).toBeInstanceOf(DeployError)
  expect((error as DeployError).shortMessage).toBe(
    `Cannot send factory to ${node.rpcUrl}.`,
  )
})

test('error: a step that fails on chain is named, the steps before it stand', async () => {
  const { node, client } = await freshChain()
  const predicted = predictContracts()
  // Code where the seaport is to be created: its creation fails.
  await client.setCode({ address: predicted.seaport, bytecode: '0x00' })
  const error = await deployContracts({ rpcUrl: node.rpcUrl }).catch(
    (error: unknown) => error,
  )
  expect(error).toBeInstanceOf(DeployError)
  expect((error as DeployError).shortMessage).toBe(
    `Cannot deploy seaport to ${node.rpcUrl}.`,
  )
  const code = await createPublicClient({
    transport: http(node.rpcUrl),
  }).getCode({ address: predicted.conduitController })
  expect(code).toMatch(/^0x[0-9a-f]{100,}$/)
})
