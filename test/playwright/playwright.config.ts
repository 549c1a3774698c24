import { defineConfig } from '@playwright/test'
import { chromiumArgs } from '../../vitest.config.js'

/**
 * The Playwright fixtures' own suite (`npm run test:playwright`): small
 * test pages on both wallets' SDKs (ours and the published ones), two
 * workers side by side, each with its own emulator.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  globalSetup: './globalSetup.ts',
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  timeout: 45_000,
  reporter: [['list']],
  // Traces and failure screenshots, with the other test artifacts (ignored).
  outputDir: '../artifacts/playwright',
  use: {
    // Debian's Chromium: no browser download on this machine.
    launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs },
  },
})
