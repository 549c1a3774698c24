import { existsSync, readFileSync } from 'node:fs'
import { getAddress, isAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { predictContracts } from '../../src/emulator/chain/deploy.js'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { slots } from '../../src/emulator/ports.js'
import { expectedInfo } from './info.js'
import { canConnect, type Spawned, start, tsx } from './process.js'

/** The file the package's `bin` maps `embedded-wallets` to (built). */
const bin: string = JSON.parse(readFileSync('package.json', 'utf8')).bin[
  'embedded-wallets'
]

/**
 * Two ways in: the source as `npm run emulator` runs it (`node --import
 * tsx`, minus npm's wrapper process: `npm exec` exits on SIGTERM without
 * passing the signal on, so a test could not check the emulator's own
 * shutdown through it), and the built `embedded-wallets` command of the
 * package, executed through its shebang as an installed package runs it
 * (`npm test` builds before Vitest).
 */
const launchers = [
  {
    name: 'npm run emulator',
    command: process.execPath,
    args: [...tsx, 'src/emulator/bin.ts'],
  },
  { name: 'the built embedded-wallets bin', command: bin, args: [] },
]

describe.each(launchers)('$name emulator', ({ command, args }) => {
  let emulator: Spawned | undefined
  let portBase: number
  let anvilPort: number
  let line: string

  beforeAll(async () => {
    portBase = await findFreePortRange(slots.length)
    anvilPort = await findFreePort()
    if (!existsSync(command))
      throw new Error(`${command} is missing: run \`npm run build\` first`)
    emulator = start(command, [
      ...args,
      'emulator',
      '--port-base',
      String(portBase),
      '--anvil-port',
      String(anvilPort),
    ])
    line = await emulator.nextLine({ timeout: 30_000 })
  })

  afterAll(() => emulator?.kill())

  test('default: prints the emulator info as one JSON line', () => {
    const info = JSON.parse(line)
    expect(info).toEqual(expectedInfo({ portBase, anvilPort, chainId: 31337 }))
    expect(Object.keys(info.contracts)).toEqual([
      'factory',
      'mainModule',
      'mainModuleUpgradable',
      'guestModule',
      'sequenceUtils',
      'erc20',
      'testErc721',
      'testErc1155',
      'sponsoredCallDelegate',
      'coSigner',
      'conduitController',
      'seaport',
      'signedZone',
      'operatorAllowlist',
      'erc721',
      'erc1155',
    ])
    for (const address of Object.values<string>(info.contracts)) {
      expect(isAddress(address, { strict: true })).toBe(true)
      expect(address).toBe(getAddress(address))
    }
  })

  test('behavior: the RPC URL answers with chain id 31337', async () => {
    const response = await fetch(`http://127.0.0.1:${anvilPort}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }),
    })
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: '0x7a69',
    })
  })

  test('behavior: the deployed factory has code', async () => {
    const response = await fetch(`http://127.0.0.1:${anvilPort}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getCode',
        params: [predictContracts().factory, 'latest'],
      }),
    })
    const { result } = (await response.json()) as { result: string }
    expect(result).toMatch(/^0x[0-9a-f]{2,}$/)
  })

  test('behavior: the mailbox answers an empty list', async () => {
    const response = await fetch(`http://127.0.0.1:${portBase}/mailbox`)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('[]')
  })

  test("behavior: names the UI's page on stderr, and serves it with its script", async () => {
    const { ui } = JSON.parse(line) as { ui: string }
    expect(ui).toBe(`http://127.0.0.1:${portBase}/ui`)
    // Written right after the JSON line.
    await expect
      .poll(() => emulator!.stderr(), { timeout: 5_000 })
      .toContain(`Emulator UI: ${ui}\n`)
    const page = await fetch(ui)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('src="/ui/app.js"')
    const script = await fetch(`${ui}/app.js`)
    expect(script.headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    )
    const code = await script.text()
    // The built command serves the bundle built with the package; the
    // source bundles it on this first request.
    if (command === bin)
      expect(code).toBe(readFileSync('dist/emulator/app/ui.js', 'utf8'))
    else expect(code).toContain('emulator-ui-token')
  })

  test('behavior: SIGTERM stops everything and exits 0', async () => {
    emulator!.child.kill('SIGTERM')
    expect(await emulator!.exited({ timeout: 20_000 })).toEqual({
      code: 0,
      signal: null,
    })
    expect(emulator!.lines).toEqual([line])
    expect(await canConnect(anvilPort)).toBe(false)
    expect(await canConnect(portBase)).toBe(false)
  })
})

describe('npm run emulator with the game wallet pages of a dApp', () => {
  let emulator: Spawned | undefined
  afterAll(() => emulator?.kill())

  test('param: --redirect-uri and --logout-redirect-uri reach the JSON line', async () => {
    const portBase = await findFreePortRange(slots.length)
    const anvilPort = await findFreePort()
    emulator = start(process.execPath, [
      ...tsx,
      'src/emulator/bin.ts',
      'emulator',
      `--port-base=${portBase}`,
      `--anvil-port=${anvilPort}`,
      '--redirect-uri',
      'http://localhost:3000/auth/callback',
      '--logout-redirect-uri=http://127.0.0.1:3000/',
    ])
    const info = JSON.parse(await emulator.nextLine({ timeout: 30_000 }))
    expect(info.passport).toMatchObject({
      redirectUri: 'http://localhost:3000/auth/callback',
      logoutRedirectUri: 'http://127.0.0.1:3000/',
    })
    expect(info.passport.overrides).toBeDefined()
  })
})
