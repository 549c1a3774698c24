import type { TestProject } from 'vitest/node'
import { startPopupFixture } from '../fixtures/popupPages.js'
import { startTransportFixture } from '../fixtures/transportPages.js'

declare module 'vitest' {
  interface ProvidedContext {
    /** Origin of the transport fixture's `/send` and `/forge` pages. */
    transportFixtureOrigin: string
    /** A second fixture server: same pages, another origin. */
    transportFixtureOtherOrigin: string
    /** Origin of the login popup fixture's `/popup` page. */
    popupFixtureOrigin: string
    /** A second popup fixture server: same page, another origin. */
    popupFixtureOtherOrigin: string
  }
}

/** Starts this setup's server and provides its URL; returns its teardown. */
export default async function setup(
  project: TestProject,
): Promise<() => Promise<void>> {
  const main = await startTransportFixture()
  const other = await startTransportFixture()
  const popup = await startPopupFixture()
  const popupOther = await startPopupFixture()
  project.provide('transportFixtureOrigin', main.origin)
  project.provide('transportFixtureOtherOrigin', other.origin)
  project.provide('popupFixtureOrigin', popup.origin)
  project.provide('popupFixtureOtherOrigin', popupOther.origin)
  return async () => {
    for (const server of [main, other, popup, popupOther]) await server.close()
  }
}
