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

test('findFreePort returns a port below the ephemeral range that can be listened on', async () => {
  const port = await findFreePort()
  // Outgoing connections take their source ports from 32768–60999: one
  // made before the bind cannot take this one.
  expect(port).toBeGreaterThanOrEqual(20_000)
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
  expect(base + 8).toBeLessThanOrEqual(32_767)
  const taken = await listen(base + 5)
  try {
    // The first draw lands on `base` (port base+5 is taken), the second on
    // another block found free just now (a fixed one could be taken by a
    // test running alongside).
    let other = await findFreePortRange(8)
    while (Math.abs(other - base) < 8) other = await findFreePortRange(8)
    const draws = [base, other].map(
      (port) => (port - 20_000 + 0.5) / (32_767 - 8 - 20_000),
    )
    const next = await findFreePortRange(8, {
      random: () => draws.shift() ?? 0,
    })
    expect(next).toBe(other)
  } finally {
    await close(taken)
  }
})
