/**
 * The Vitest helpers of embedded-wallets/testing/vitest, used as a dApp's
 * suite uses them: a Node project with one emulator per worker
 * (`perWorker`), one sharing one emulator between two workers, one whose
 * file starts its own (no global setup), and a
 * browser project whose test calls the kit through Vitest's commands. Run
 * by test/e2e/vitest-kit.test.ts.
 */
import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'
import { emulatorCommands } from '../../src/testing/vitest.js'
import { chromiumArgs } from '../../vitest.config.js'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'kit-node',
          root: import.meta.dirname,
          include: ['node/**/*.test.ts'],
          globalSetup: ['./node/globalSetup.ts'],
          // Two workers, two emulators: each file sees its worker's.
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'kit-shared',
          root: import.meta.dirname,
          include: ['shared/**/*.test.ts'],
          globalSetup: ['./shared/globalSetup.ts'],
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'kit-own',
          root: import.meta.dirname,
          include: ['own/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'kit-browser',
          root: import.meta.dirname,
          include: ['browser/**/*.test.ts'],
          globalSetup: ['./browser/globalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: '/usr/bin/chromium',
                args: chromiumArgs,
              },
            }),
            instances: [{ browser: 'chromium' }],
            commands: { ...emulatorCommands },
          },
        },
      },
    ],
  },
})
