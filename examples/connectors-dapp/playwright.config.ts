import { defineConfig } from '@playwright/test'

/**
 * The suite runs the built dApp (`vite build` once, in the global setup)
 * from a `vite preview` server per worker, against that worker's emulator
 * (the fixtures of `embedded-wallets/testing/playwright`).
 */
export default defineConfig({
  testDir: 'tests',
  globalSetup: './tests/globalSetup.ts',
  // One worker: each worker runs an emulator and a browser of its own, and
  // CI has two cores.
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: 'list',
  use: {
    browserName: 'chromium',
    launchOptions: {
      // Debian's Chromium; Playwright downloads no browser here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Offline: every host but the loopback fails to resolve, so nothing
      // the dApp or the SDKs load can reach a hosted service.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
      ],
    },
    trace: 'retain-on-failure',
  },
})
