import type { TestProject } from 'vitest/node'
import setupMagicEmulator from './setup/magicEmulator.js'
import setupOidcIssuer from './setup/oidcIssuer.js'
import setupTransportFixture from './setup/transportFixture.js'

/**
 * Starts the servers the browser tests talk to, each on its own origin (the
 * test page is served by Vitest on another one), and provides their URLs.
 */
export default async function setup(project: TestProject) {
  const teardowns = [
    await setupTransportFixture(project),
    await setupMagicEmulator(project),
    await setupOidcIssuer(project),
  ]
  return async () => {
    for (const teardown of teardowns.reverse()) await teardown()
  }
}
