import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'
import {
  originsRoute,
  originsRouted,
  originsUnroute,
} from './test/browser/setup/originRoutes.js'
import {
  popupClick,
  popupsClose,
  popupsGone,
  popupsHold,
  popupsRelease,
  popupText,
  popupTitle,
  popupUrl,
} from './test/browser/setup/popupCommands.js'

/** Flags Chromium needs on a machine with no network but loopback. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
]

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'src/**/*.test.ts',
            'connectors/**/*.test.ts',
            'test/unit/**/*.test.ts',
            'playground/src/**/*.test.ts',
          ],
          exclude: ['**/*.browser.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'chain',
          environment: 'node',
          include: ['test/chain/**/*.test.ts'],
          globalSetup: ['test/chain/globalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Pre-bundle every dependency the browser tests import: on a cold
        // cache (a fresh clone in CI) Vite would otherwise find them one by
        // one mid-run and reload the page under a running test.
        optimizeDeps: {
          include: [
            '@wagmi/core',
            'jose',
            'magic-sdk',
            'mipd',
            'oauth4webapi',
            'otpauth',
            'viem',
            'viem/accounts',
            'viem/chains',
          ],
        },
        test: {
          name: 'browser',
          // One file at a time: the files share one browser, and the game
          // wallet's confirmation popups are windows of that browser, named
          // alike; a file that waits for its popups to be gone would see
          // another file's.
          fileParallelism: false,
          include: ['src/**/*.browser.test.ts', 'test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
            // Act in popups on other origins, as the person would; answer
            // a hosted origin's requests from the emulator's.
            commands: {
              originsRoute,
              originsRouted,
              originsUnroute,
              popupClick,
              popupsClose,
              popupsGone,
              popupsHold,
              popupsRelease,
              popupText,
              popupTitle,
              popupUrl,
            },
          },
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
})
