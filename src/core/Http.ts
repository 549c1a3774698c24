import * as Errors from './Errors.js'

/**
 * `fetch` that waits and retries while the server answers HTTP 429.
 *
 * - Each retry waits one throttle slot (`interval`, 250 ms), or the
 *   `Retry-After` header (seconds or an HTTP date) rounded up to whole slots,
 *   capped by the time left before the overall time-out.
 * - At most `attempts` (12) requests are made. If the last one is still a 429,
 *   that response is returned: like `fetch`, an HTTP status is not an
 *   exception, and the caller reads it as it reads any other status.
 * - The overall time-out (300 000 ms) covers every attempt and wait; when it
 *   expires the request in flight is aborted and {@link TimeoutError} is
 *   thrown. Aborting `init.signal` rejects with the caller's reason.
 *
 * @example
 * ```ts
 * import { Http } from 'embedded-wallets/core'
 *
 * const response = await Http.fetchWithRetry('https://api.example/v1/chains')
 * ```
 */
export async function fetchWithRetry(
  input: string | URL | Request,
  init: RequestInit = {},
  options: fetchWithRetry.Options = {},
): Promise<Response> {
  const {
    attempts = 12,
    fetch = globalThis.fetch,
    interval = 250,
    timeout = 300_000,
  } = options
  const controller = new AbortController()
  const deadline = Date.now() + timeout
  const timer = setTimeout(
    () => controller.abort(new TimeoutError({ timeout })),
    timeout,
  )
  const forward = () => controller.abort(init.signal?.reason)
  if (init.signal?.aborted) forward()
  init.signal?.addEventListener('abort', forward)
  const { signal } = controller
  try {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(input, { ...init, signal })
      if (response.status !== 429 || attempt >= attempts) return response
      response.body?.cancel().catch(() => {})
      const wanted = retryAfter(response.headers.get('Retry-After'))
      const slots = Math.max(1, Math.ceil(wanted / interval))
      await sleep(Math.min(slots * interval, deadline - Date.now()), signal)
    }
  } catch (error) {
    throw signal.aborted ? signal.reason : error
  } finally {
    clearTimeout(timer)
    init.signal?.removeEventListener('abort', forward)
  }
}

export declare namespace fetchWithRetry {
  type Options = {
    /** Most requests made, the first included. @default 12 */
    attempts?: number | undefined
    /** The fetch to call. @default globalThis.fetch */
    fetch?: typeof globalThis.fetch | undefined
    /** Throttle slot: every wait is a multiple of it, in ms. @default 250 */
    interval?: number | undefined
    /** Overall time-out in ms, waits included. @default 300000 */
    timeout?: number | undefined
  }
  type ErrorType = TimeoutError | Error
}

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

/** Milliseconds asked for by a `Retry-After` value, 0 when absent. */
function retryAfter(value: string | null): number {
  if (!value) return 0
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? 0 : Math.max(0, date - Date.now())
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      signal?.removeEventListener('abort', abort)
      resolve()
    }
    const abort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(done, Math.max(0, ms))
    signal?.addEventListener('abort', abort, { once: true })
  })
}

/** Thrown when {@link fetchWithRetry} runs out of time. */
export class TimeoutError extends Errors.BaseError {
  override readonly name = 'Http.TimeoutError'
  constructor({ timeout }: { timeout: number }) {
    super(`The request timed out after ${timeout} ms.`)
  }
}
