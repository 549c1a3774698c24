/**
 * embedded-wallets/testing/vitest as a dApp's suite uses it: Vitest runs
 * test/vitest-kit/vitest.config.ts in a child process (a Node project with
 * an emulator per worker, a browser project calling the kit through
 * commands), and every one of its tests must pass by name.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { start, userEnv } from './process.js'

const dir = mkdtempSync(join(tmpdir(), 'vitest-kit-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Report = {
  success: boolean
  testResults: {
    name: string
    assertionResults: { fullName: string; status: string }[]
  }[]
}

test('behavior: the Vitest helpers run a Node and a browser-mode suite against the emulator', async () => {
  const output = join(dir, 'report.json')
  const vitest = start(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '-c',
      'test/vitest-kit/vitest.config.ts',
      '--reporter=json',
      `--outputFile=${output}`,
    ],
    { env: userEnv() },
  )
  try {
    const exit = await vitest.exited({ timeout: 170_000 })
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report
    const results = Object.fromEntries(
      report.testResults.flatMap((file) =>
        file.assertionResults.map((result) => [
          `${file.name.slice(file.name.indexOf('test/vitest-kit/'))} > ${result.fullName}`,
          result.status,
        ]),
      ),
    )
    expect(results).toEqual(
      Object.fromEntries(
        [
          'browser/commands.test.ts > behavior: a headless login and the mailbox code it used',
          'browser/commands.test.ts > behavior: fund and mintNft from the page, bigints as strings',
          'browser/commands.test.ts > behavior: the commands reach the emulator the setup provided',
          'browser/commands.test.ts > error: an unknown helper is refused by name',
          "node/backend.test.ts > withEmulator behavior: a headless login's DID token passes @magic-sdk/admin",
          'node/backend.test.ts > withEmulator behavior: a test funds an address (1 of 2)',
          "node/backend.test.ts > withEmulator behavior: the file gets its worker's emulator from the global setup",
          "node/backend.test.ts > withEmulator behavior: the game wallet's id token verifies against the JWKS",
          'node/backend.test.ts > withEmulator behavior: the next test finds the chain as it was before (2 of 2)',
          'node/second.test.ts > behavior: the chosen id is gone after the revert',
          'own/own.test.ts > behavior: without a global setup the file starts its own emulator',
          'own/own.test.ts > behavior: its chain is reverted after each test too',
          'shared/shared.test.ts > behavior: the one emulator of the run is provided as shared',
          'shared/shared.test.ts > behavior: the next test still sees what the last one did',
          "node/second.test.ts > behavior: the worker's emulator is one of the setup's, and a chosen NFT id is minted on it",
        ].map((name) => [`test/vitest-kit/${name}`, 'passed']),
      ),
    )
    expect(exit).toEqual({ code: 0, signal: null })
  } finally {
    vitest.kill()
  }
})
