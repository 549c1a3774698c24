/**
 * Waiting on what a browser shows: a probe is asked again and again until
 * it finds what it looks for, and a time-out names what was awaited and
 * what the probe saw last, so a failed test says where the flow stopped.
 *
 * @packageDocumentation
 */
import { TestKitError, WaitTimeoutError } from './kit.js'

/** What a probe answers: found (`value`), or not yet (what it `saw`). */
export type Probe<value> = { value: value } | { saw: string }

/** How often a probe is asked again. */
const intervalMs = 100

/**
 * Asks `probe` until it answers `{ value }`, and resolves with that value.
 * A probe that throws a {@link TestKitError} ends the wait with it (what
 * it saw cannot turn out well, e.g. a refused code); any other error counts
 * as not yet (its message is what it saw): a page may be navigating, or a
 * frame going away, between two looks.
 *
 * @example
 * ```ts
 * const frame = await waitFor("the iframe wallet's email-otp screen", 5000, async () =>
 *   found ? { value: found } : { saw: 'no wallet iframe on the page' })
 * ```
 *
 * @throws {WaitTimeoutError} After `timeoutMs`: "No <what> within <n> ms;
 *   last seen: <what the probe saw>."
 */
export async function waitFor<value>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<Probe<value>>,
): Promise<value> {
  const deadline = Date.now() + timeoutMs
  let saw = 'nothing yet'
  for (;;) {
    try {
      const answer = await probe()
      if ('value' in answer) return answer.value
      saw = answer.saw
    } catch (error) {
      if (error instanceof TestKitError) throw error
      saw = error instanceof Error ? firstLine(error.message) : String(error)
    }
    if (Date.now() >= deadline) break
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
  throw new WaitTimeoutError(
    `No ${what} within ${timeoutMs} ms; last seen: ${saw}.`,
  )
}

/** An error's first line (Playwright's messages carry a call log below). */
function firstLine(text: string): string {
  return text.split('\n', 1)[0]?.trim() ?? ''
}
