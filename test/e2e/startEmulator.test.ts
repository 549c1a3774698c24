import { execFileSync } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { type Address, createPublicClient, http, parseEther } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import {
  type Emulator,
  StartError,
  startEmulator,
} from '../../src/emulator/index.js'
import {
  call,
  createDevice,
  loginByEmail,
} from '../../src/emulator/magic/provider/testkit.js'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { slots } from '../../src/emulator/ports.js'
import { expectedInfo } from './info.js'
import { canConnect } from './process.js'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => {})
})

async function start(options: startEmulator.Options): Promise<Emulator> {
  const emulator = await startEmulator(options)
  cleanups.push(() => emulator.stop())
  return emulator
}

async function hold(port: number): Promise<Server> {
  const server = createServer()
  await new Promise<void>((resolve) =>
    server.listen(port, '127.0.0.1', resolve),
  )
  cleanups.push(
    () => new Promise<void>((resolve) => server.close(() => resolve())),
  )
  return server
}

/** The pids of the Anvil processes this test process started that still run. */
function anvilChildren(): number[] {
  let out = ''
  try {
    out = execFileSync(
      'ps',
      ['-o', 'pid=,comm=', '--ppid', String(process.pid)],
      {
        encoding: 'utf8',
      },
    )
  } catch {
    // ps exits 1 when no process matches.
  }
  return out
    .split('\n')
    .filter((line) => /\banvil\b/.test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
}

describe('startEmulator', () => {
  test('default: serves the info it returns; stop is idempotent', async () => {
    const portBase = await findFreePortRange(slots.length)
    const anvilPort = await findFreePort()
    const emulator = await start({ portBase, anvilPort, chainId: 1337 })
    expect(emulator.info).toEqual(
      expectedInfo({ portBase, anvilPort, chainId: 1337 }),
    )

    const delivered = emulator.mailbox.deliver({
      to: 'Ada@Example.com',
      kind: 'email-otp',
      code: '654321',
    })
    const response = await fetch(
      `${emulator.info.mailbox}?to=ada@example.com`,
      { headers: { origin: 'http://127.0.0.1:5173' } },
    )
    expect(response.headers.get('access-control-allow-origin')).toBe(
      'http://127.0.0.1:5173',
    )
    expect(await response.json()).toEqual([
      {
        to: 'ada@example.com',
        kind: 'email-otp',
        code: '654321',
        at: delivered.at,
      },
    ])

    await Promise.all([emulator.stop(), emulator.stop()])
    await emulator.stop()
    expect(await canConnect(anvilPort)).toBe(false)
    expect(await canConnect(portBase)).toBe(false)
  })

  test('behavior: the magic service logs a user in by email OTP and funds them on Anvil', async () => {
    const portBase = await findFreePortRange(slots.length)
    const anvilPort = await findFreePort()
    const emulator = await start({ portBase, anvilPort })
    const target = {
      request: (path: string, init?: RequestInit) =>
        fetch(`${emulator.info.magic.endpoint}${path}`, init),
    }
    const device = await createDevice()
    expect(
      (await call(target, 'magic_is_logged_in', [], { device })).result,
    ).toBe(false)
    await loginByEmail(target, emulator.mailbox, 'ada@example.com', device)
    const info = (await call(target, 'magic_get_info', [], { device }))
      .result as { publicAddress: Address }
    const balance = await createPublicClient({
      transport: http(emulator.info.rpcUrl),
    }).getBalance({ address: info.publicAddress })
    expect(balance).toBe(parseEther('100'))
    expect(emulator.registry.find({ email: 'ada@example.com' })?.address).toBe(
      info.publicAddress,
    )
  })

  test('error: a taken dev port is named, and Anvil is not left running', async () => {
    const portBase = await findFreePortRange(slots.length)
    const anvilPort = await findFreePort()
    await hold(portBase)
    const error = await startEmulator({ portBase, anvilPort }).then(
      () => expect.unreachable(),
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(StartError)
    expect((error as StartError).message).toBe(
      `The emulator could not start the dev service on 127.0.0.1:${portBase}.\n\nDetails: Cannot start the dev service: port ${portBase} on 127.0.0.1 is already in use. Free it or choose other ports (--port-base).`,
    )
    expect(await canConnect(anvilPort)).toBe(false)
  })

  test('error: a failure after a chain started stops it, Anvil included', async () => {
    const portBase = await findFreePortRange(slots.length)
    const anvilPort = await findFreePort()
    const extraPort = await findFreePort()
    const before = anvilChildren()
    const starting = startEmulator({
      portBase,
      anvilPort,
      extraChains: [{ chainId: 31338, port: extraPort }],
    }).then(
      () => expect.unreachable(),
      (error: unknown) => error,
    )
    // Take the second chain's port once the first chain serves, while the
    // second one's Anvil starts and its contracts deploy.
    while (!(await canConnect(anvilPort)))
      await new Promise((resolve) => setTimeout(resolve, 5))
    await hold(extraPort)
    const error = await starting
    expect(error).toBeInstanceOf(StartError)
    expect((error as StartError).shortMessage).toBe(
      `The emulator could not start chain 31338 (Anvil, contracts, gateway on 127.0.0.1:${extraPort}).`,
    )
    expect((error as StartError).walk()).toMatchObject({ code: 'EADDRINUSE' })
    expect(await canConnect(anvilPort)).toBe(false)
    expect(anvilChildren()).toEqual(before)
  })

  test('error: a taken Anvil port is named, and nothing is left running', async () => {
    const portBase = await findFreePortRange(slots.length)
    const anvilPort = await findFreePort()
    await hold(anvilPort)
    const error = await startEmulator({ portBase, anvilPort }).then(
      () => expect.unreachable(),
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(StartError)
    expect((error as StartError).shortMessage).toBe(
      `The emulator could not start chain 31337 on 127.0.0.1:${anvilPort}.`,
    )
    expect((error as StartError).details).toContain(`port ${anvilPort}`)
    expect(await canConnect(portBase)).toBe(false)
  })

  test('error: an invalid port base starts nothing', async () => {
    await expect(startEmulator({ portBase: 65_530 })).rejects.toThrowError(
      'The emulator could not use the port base 65530.',
    )
  })
})
