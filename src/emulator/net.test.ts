import { createServer, type Server } from 'node:net'
import { expect, test } from 'vitest'
import { findFreePort, findFreePortRange, isPortFree } from './net.js'

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
const close = (server: Server) =>
  new Promise<void>((resolve) => server.close(() => resolve()))

test('findFreePort returns a port below the ephemeral range and apart from the blocks, that can be listened on', async () => {
  const port = await findFreePort()
  // Outgoing connections take their source ports from 32768–60999: one
  // made before the bind cannot take this one. Blocks end below 28000, so
  // a port drawn beside one never falls inside it.
  expect(port).toBeGreaterThanOrEqual(28_000)
  expect(port).toBeLessThanOrEqual(32_767)
  expect(await isPortFree({ port })).toBe(true)
  await close(await listen(port))
})

test('isPortFree answers false while something listens on the port', async () => {
  const server = await listen(0)
  const address = server.address()
  if (address === null || typeof address === 'string')
    throw new Error('no TCP address')
  try {
    expect(await isPortFree({ port: address.port })).toBe(false)
  } finally {
    await close(server)
  }
  expect(await isPortFree({ port: address.port })).toBe(true)
})

test('findFreePortRange returns a block of free ports below the ephemeral range, skipping a block with a taken port', async () => {
  const base = await findFreePortRange(8)
  expect(base).toBeGreaterThanOrEqual(20_000)
  expect(base + 8).toBeLessThanOrEqual(28_000)
  const taken = await listen(base + 5)
  try {
    // The first draw lands on `base` (port base+5 is taken), the second on
    // another block found free just now (a fixed one could be taken by a
    // test running alongside).
    let other = await findFreePortRange(8)
    while (Math.abs(other - base) < 8) other = await findFreePortRange(8)
    const draws = [base, other].map(
      (port) => (port - 20_000 + 0.5) / (28_000 - 8 - 20_000),
    )
    const next = await findFreePortRange(8, {
      random: () => draws.shift() ?? 0,
    })
    expect(next).toBe(other)
  } finally {
    await close(taken)
  }
})

test('behavior: a single port is never inside a block, over many draws', async () => {
  const singles = await Promise.all(
    Array.from({ length: 100 }, () => findFreePort()),
  )
  const blocks = await Promise.all(
    Array.from({ length: 100 }, () => findFreePortRange(16)),
  )
  expect(Math.min(...singles)).toBeGreaterThanOrEqual(28_000)
  expect(Math.max(...blocks) + 16).toBeLessThanOrEqual(28_000)
})
