/**
 * Playwright fixtures for a dApp's end-to-end tests, offline: an emulator
 * of both wallets' backends per worker (on ports no other worker draws),
 * the kit over it, the main chain snapshotted before each test and reverted
 * after, and `wallets`, the helpers that play the person at the wallets'
 * pages (codes typed, confirmations approved, popups blocked or closed).
 *
 * Point the dApp at `emulator` (its JSON line): `magic.endpoint` and
 * `magic.apiKey` for the iframe wallet, `passport.overrides` and
 * `passport.clientId` for the game wallet.
 *
 * Chromium from the system (no browser download), in playwright.config.ts:
 * `use: { launchOptions: { executablePath: '/usr/bin/chromium' } }`.
 *
 * @example
 * ```ts
 * import { expect, test } from 'embedded-wallets/testing/playwright'
 *
 * test('logs in with the iframe wallet', async ({ page, emulator, wallets }) => {
 *   const user = wallets.newUser()
 *   await page.goto(`/?endpoint=${encodeURIComponent(emulator.magic.endpoint)}`)
 *   await page.getByLabel('Email').fill(user.email)
 *   await page.getByRole('button', { name: 'Log in' }).click()
 *   await wallets.magic.completeLogin(page, { email: user.email })
 *   await expect(page.getByTestId('address')).toHaveText(/^0x/)
 * })
 * ```
 *
 * @packageDocumentation
 */
import { test as base } from '@playwright/test'
import type { Info } from '../emulator/index.js'
import type { TestKit } from './kit.js'
import { createWallets, type Wallets } from './wallets.js'
import { startWorkerEmulator } from './worker.js'

export { expect } from '@playwright/test'
export { totp } from './totp.js'
export type { TestUser, WaitOptions, Wallets } from './wallets.js'

/** The fixtures' options, set with `test.use({ … })` or in the config's `use`. */
export type Options = {
  /**
   * Snapshot the main chain before each test and revert it after, so every
   * test starts from the same balances, nonces and contracts.
   *
   * @default true
   */
  resetChain: boolean
  /**
   * After each test, put the guardian's rules, the relayer's planned
   * outcomes and fee, and the scenario switches back to their defaults, so
   * a rule one test sets never decides another's request.
   *
   * @default true
   */
  resetServices: boolean
  /**
   * How the worker's emulator starts (its chain id, its game wallet's
   * redirect URIs, …); the ports are the worker's own.
   *
   * @default {}
   */
  emulatorOptions: Omit<startWorkerEmulator.Options, 'workerIndex'>
}

/** The fixtures a test receives. */
export type Fixtures = {
  /** The worker's emulator: its JSON line. */
  emulator: Info
  /** The kit's helpers over the worker's emulator. */
  kit: TestKit
  /** The person at the wallets' pages. */
  wallets: Wallets
}

type TestScoped = Pick<Options, 'resetChain' | 'resetServices'> & {
  wallets: Wallets
  /** Runs around every test: the snapshot and the revert, the services' reset. */
  resetAround: undefined
}

type WorkerScoped = Pick<Options, 'emulatorOptions'> & {
  emulator: Info
  kit: TestKit
  /** The worker's running emulator and kit, started once. */
  workerEmulator: startWorkerEmulator.ReturnType
}

/**
 * Playwright's `test` with the fixtures `emulator`, `kit` and `wallets`
 * and the options `resetChain`, `resetServices` and `emulatorOptions`.
 *
 * @example
 * ```ts
 * import { test } from 'embedded-wallets/testing/playwright'
 *
 * test.use({ resetChain: false })
 * test('funds the user', async ({ kit }) => {
 *   await kit.fund('0x70997970C51812dc3A010C7d01b50e0d17dc79C8', { eth: '1' })
 * })
 * ```
 */
export const test = base.extend<TestScoped, WorkerScoped>({
  emulatorOptions: [{}, { option: true, scope: 'worker' }],
  resetChain: [true, { option: true }],
  resetServices: [true, { option: true }],

  workerEmulator: [
    async ({ emulatorOptions }, use, workerInfo) => {
      // The parallel index, not the worker index: it stays below the
      // number of workers (a worker started after a failure takes over
      // the failed one's), so the workers running at once always have
      // stripes of their own.
      const running = await startWorkerEmulator({
        ...emulatorOptions,
        workerIndex: workerInfo.parallelIndex,
      })
      try {
        await use(running)
      } finally {
        await running.stop()
      }
    },
    // Anvil's start and the contracts' deployment take seconds.
    { scope: 'worker', timeout: 120_000 },
  ],
  emulator: [
    async ({ workerEmulator }, use) => use(workerEmulator.info),
    { scope: 'worker' },
  ],
  kit: [
    async ({ workerEmulator }, use) => use(workerEmulator.kit),
    { scope: 'worker' },
  ],

  resetAround: [
    async ({ kit, resetChain, resetServices }, use) => {
      const snapshot = resetChain ? await kit.snapshot() : undefined
      try {
        await use(undefined)
      } finally {
        if (resetServices)
          await Promise.all([
            kit.guardian.setRules({}),
            kit.relayer.reset(),
            kit.scenarios.reset(),
          ])
        if (snapshot !== undefined) await kit.revert(snapshot)
      }
    },
    { auto: true },
  ],

  wallets: async ({ kit }, use, testInfo) => {
    await use(createWallets({ kit, worker: testInfo.parallelIndex }))
  },
})
