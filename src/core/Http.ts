/**
 * Helpers for the wallets' HTTP calls to their backends.
 */
import * as Errors from './Errors.js'

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

/**
 * Sends a JSON request and parses the JSON answer: `body` (when given) is
 * serialised with `Content-Type: application/json`; a non-2xx status throws
 * {@link HttpError} carrying the status and the answer's text, so callers
 * can branch on `status` (e.g. a 403 from an authorisation check).
 *
 * @example
 * ```ts
 * import { Http } from 'embedded-wallets/core'
 *
 * const chains = await Http.json<{ result: { id: string }[] }>(
 *   'https://api.example/v1/chains',
 *   { headers: { Authorization: `Bearer ${token}` } },
 * )
 * ```
 */
export async function json<result>(
  url: string | URL,
  options: json.Options = {},
): Promise<result> {
  const { body, headers = {}, method, signal } = options
  const response = await fetch(url, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal ? { signal } : {}),
  })
  const text = await response.text()
  if (!response.ok)
    throw new HttpError({ status: response.status, url: String(url), text })
  if (!text) return undefined as result
  try {
    return JSON.parse(text) as result
  } catch (cause) {
    throw new HttpError({
      status: response.status,
      url: String(url),
      text,
      cause: cause as Error,
    })
  }
}

export declare namespace json {
  type Options = {
    /** @default 'POST' with a body, else 'GET' */
    method?: string | undefined
    /** Serialised as JSON. */
    body?: unknown
    headers?: Record<string, string> | undefined
    signal?: AbortSignal | undefined
  }
  type ErrorType = HttpError
}

/** A non-2xx answer, or a 2xx answer that is not JSON. */
export class HttpError extends Errors.BaseError {
  override readonly name = 'Http.HttpError'
  /** The HTTP status. */
  readonly status: number
  /** The answer's body as text (possibly empty). */
  readonly text: string
  constructor(options: {
    status: number
    url: string
    text: string
    cause?: Error | undefined
  }) {
    const { status, url, text, cause } = options
    super(`HTTP ${status} from ${url}`, {
      details: text.length > 300 ? `${text.slice(0, 300)}…` : text,
      ...(cause ? { cause } : {}),
    })
    this.status = status
    this.text = text
  }
}
