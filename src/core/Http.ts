/**
 * Helpers for the wallets' HTTP calls to their backends.
 */

/**
 * Calls `fn` until it resolves: after a rejection it waits `interval` ms and
 * tries again, up to `retries` more times (so at most `retries + 1` calls),
 * and only while `shouldRetry(error, attempt)` allows it. The last error is
 * thrown. `interval` may be a function of the attempt that failed, for a
 * growing or jittered wait.
 *
 * @example
 * ```ts
 * import { Http } from 'embedded-wallets/core'
 *
 * const user = await Http.retry(() => refreshUser(), { retries: 3 })
 * // Waits of 500–1500 ms, spread so that clients do not retry in step:
 * await Http.retry(() => refreshUser(), {
 *   interval: () => 500 + Math.random() * 1000,
 * })
 * ```
 */
export async function retry<result>(
  fn: () => Promise<result>,
  options: retry.Options = {},
): Promise<result> {
  const { interval = 1000, retries = 3, shouldRetry = () => true } = options
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn()
    } catch (error) {
      if (attempt > retries || !shouldRetry(error, attempt)) throw error
      await sleep(typeof interval === 'function' ? interval(attempt) : interval)
    }
  }
}

export declare namespace retry {
  type Options = {
    /**
     * Wait between calls, in ms; or a function of the attempt that just
     * failed (1-based) returning that wait. @default 1000
     */
    interval?: number | ((attempt: number) => number) | undefined
    /** Calls made after the first one fails. @default 3 */
    retries?: number | undefined
    /**
     * Whether to retry after `error` from call number `attempt` (1-based).
     * @default always
     */
    shouldRetry?: ((error: unknown, attempt: number) => boolean) | undefined
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))
}
