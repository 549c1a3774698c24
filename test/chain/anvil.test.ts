import { execFileSync } from 'node:child_process'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { AnvilStartError, startAnvil } from '../../src/emulator/chain/anvil.js'
import {
  deployContracts,
  predictContracts,
} from '../../src/emulator/chain/deploy.js'
import { findFreePort, isPortFree } from '../../src/emulator/net.js'

// This file's own Anvil (the others share the globalSetup one).
let anvil: Awaited<ReturnType<typeof startAnvil>>

beforeAll(async () => {
  anvil = await startAnvil({ port: await findFreePort(), chainId: 1337 })
})

afterAll(async () => {
  await anvil?.stop()
})

/** Command lines of running processes that mention `--port <port>`. */
function anvilProcesses(port: number): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => /anvil/.test(line) && line.includes(`--port ${port} `))
}

test('serves JSON-RPC with the requested chain id', async () => {
  expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${anvil.port}`)
  expect(anvil.chainId).toBe(1337)
  const client = createPublicClient({ transport: http(anvil.rpcUrl) })
  expect(await client.getChainId()).toBe(1337)
  expect(anvilProcesses(anvil.port)).toHaveLength(1)
})

test('a second fresh Anvil gets the same contract addresses', async () => {
  const contracts = await deployContracts({ rpcUrl: anvil.rpcUrl })
  expect(contracts).toEqual(inject('contracts'))
  expect(contracts).toEqual(predictContracts())
})

test('fails at once, naming the port, when the port is taken', async () => {
  const rpcUrl = inject('rpcUrl')
  const port = Number(new URL(rpcUrl).port)
  const started = Date.now()
  const error = await startAnvil({ port }).catch((error: unknown) => error)
  expect(error).toBeInstanceOf(AnvilStartError)
  expect((error as AnvilStartError).port).toBe(port)
  expect((error as AnvilStartError).shortMessage).toBe(
    `Cannot start Anvil: port ${port} on 127.0.0.1 is already in use.`,
  )
  expect(Date.now() - started).toBeLessThan(2_000)
})

test('stop() ends the process and frees the port', async () => {
  const port = await findFreePort()
  const node = await startAnvil({ port })
  expect(anvilProcesses(port)).toHaveLength(1)
  expect(await isPortFree({ port })).toBe(false)
  await node.stop()
  expect(anvilProcesses(port)).toEqual([])
  expect(await isPortFree({ port })).toBe(true)
  await node.stop() // idempotent
})
