import type { TestProject } from 'vitest/node'
import { startTransportFixture } from '../fixtures/transportPages.js'

declare module 'vitest' {
  interface ProvidedContext {
    /** Origin of the transport fixture's `/send` and `/forge` pages. */
    transportFixtureOrigin: string
    /** A second fixture server: same pages, another origin. */
    transportFixtureOtherOrigin: string
  }
}

/** Starts this setup's server and provides its URL; returns its teardown. */
export default async function setup(
  project: TestProject,
): Promise<() => Promise<void>> {
  const main = await startTransportFixture()
  const other = await startTransportFixture()
  project.provide('transportFixtureOrigin', main.origin)
  project.provide('transportFixtureOtherOrigin', other.origin)
  return async () => {
    await main.close()
    await other.close()
  }
}
