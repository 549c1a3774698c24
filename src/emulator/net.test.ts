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

/** A block of `count` ports this process has not drawn, free right now. */
async function freeBlock(count: number, avoid: number[]): Promise<number> {
  for (let base = 20_000; base + count <= 28_000; base += count) {
    if (avoid.some((other) => Math.abs(other - base) < count)) continue
    let free = true
    for (let port = base; free && port < base + count; port++)
      free = await isPortFree({ port })
    if (free) return base
  }
  throw new Error('no free block')
}

/** The draw that lands on `port` in a region of `count`-port blocks. */
const drawOf = (port: number, count: number) =>
  (port - 20_000 + 0.5) / (28_000 - count - 20_000)

test('findFreePortRange returns a block of free ports below the ephemeral range, skipping a block with a taken port', async () => {
  const base = await findFreePortRange(8)
  expect(base).toBeGreaterThanOrEqual(20_000)
  expect(base + 8).toBeLessThanOrEqual(28_000)
  // Blocks this process has not drawn (a drawn one is held, see below).
  const taken = await freeBlock(8, [base])
  const other = await freeBlock(8, [base, taken])
  const server = await listen(taken + 5)
  try {
    const draws = [taken, other].map((port) => drawOf(port, 8))
    const next = await findFreePortRange(8, {
      random: () => draws.shift() ?? 0,
    })
    expect(next).toBe(other)
  } finally {
    await close(server)
  }
})

test('behavior: a port drawn is not drawn again by this process while held, after each other or at once', async () => {
  const first = await findFreePort()
  const same = (first - 28_000 + 0.5) / (32_767 - 28_000)
  // Then a port far from the first.
  const far = first < 30_000 ? 0.9 : 0.1
  const draws = [same, same, same]
  const second = await findFreePort({ random: () => draws.shift() ?? far })
  expect(second).not.toBe(first)
  // At once: every draw lands on one port first; each takes another.
  const at = [...new Array(4)].map(() => [same, ...[0.1, 0.3, 0.6, 0.9]])
  const ports = await Promise.all(
    at.map((draws) => findFreePort({ random: () => draws.shift() ?? 0.5 })),
  )
  expect(new Set([first, second, ...ports]).size).toBe(6)
  // A block over a drawn port is skipped too.
  const block = await findFreePortRange(16)
  const inside = drawOf(block + 3, 16)
  const away = block < 24_000 ? 0.9 : 0.1
  const after = [inside, inside]
  expect(
    Math.abs(
      (await findFreePortRange(16, { random: () => after.shift() ?? away })) -
        block,
    ),
  ).toBeGreaterThanOrEqual(16)
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
