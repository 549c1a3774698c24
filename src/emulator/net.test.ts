import { createServer, type Server } from 'node:net'
import { expect, test } from 'vitest'
import { findFreePort, isPortFree } from './net.js'

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
const close = (server: Server) =>
  new Promise<void>((resolve) => server.close(() => resolve()))

test('findFreePort returns a port that can be listened on', async () => {
  const port = await findFreePort()
  expect(port).toBeGreaterThan(0)
  expect(port).toBeLessThan(65_536)
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
