/**
 * Helpers for the wallets' HTTP calls to their backends: {@link request},
 * the one fetch helper (429 throttling and a time-out), {@link json} and
 * {@link fetcher} (a `fetch` for libraries that take one) on top of it,
 * and {@link retry} for calls that may fail in transit.
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

/**
 * Sends a JSON request through {@link request} (so a 429 is retried in its
 * throttle slots, and the exchange has its time-out) and parses the JSON
 * answer: `body` (when given) is serialised with `Content-Type:
 * application/json`; a non-2xx status, a 429 still answered after the
 * last attempt included, throws {@link HttpError} carrying the status and
 * the answer's text, so callers can branch on `status` (e.g. a 403 from an
 * authorisation check).
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
  const { body, headers = {}, method, signal, maxAttempts, timeout } = options
  const response = await request(
    url,
    {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    },
    { maxAttempts, timeout },
  )
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
    /**
     * Calls in all while the answer is 429 (1: a 429 is thrown at once).
     * @default 12
     */
    maxAttempts?: number | undefined
    /** The whole exchange's limit, in ms, 429 waits included. @default 300000 */
    timeout?: number | undefined
  }
  type ErrorType = HttpError | request.ErrorType
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

/**
 * Sends one HTTP request with `fetch` and answers its `Response`, as a
 * fetch helper of the published SDKs does:
 *
 * - an answer of 429 (Too Many Requests) is retried, up to `maxAttempts`
 *   calls in all, after the wait its `Retry-After` header asks for (seconds
 *   or an HTTP date, RFC 9110), else after a random number of throttle
 *   slots that doubles with each attempt (binary exponential back-off: after
 *   the n-th 429, between 0 and 2^n − 1 slots of `slotInterval` ms). The
 *   answer of the last attempt is returned as it is, 429 included;
 * - the whole exchange (each answer's body is read before it is returned,
 *   and the waits count) is given up after `timeout` ms with a
 *   {@link TimeoutError}; a wait that would end after the time-out is not
 *   started: the 429 is returned then;
 * - a request that fetch cannot send throws {@link NetworkError}; the
 *   caller's `signal` aborts it (and any wait) with the signal's reason.
 *
 * Any other status, error statuses included, is the caller's to read. The
 * body must be replayable (a string, bytes, a Blob, form data), as each
 * attempt sends it again.
 *
 * @example
 * ```ts
 * import { Http } from 'embedded-wallets/core'
 *
 * const response = await Http.request('https://api.example/v1/chains', {
 *   headers: { Accept: 'application/json' },
 * })
 * if (response.ok) console.log(await response.json())
 * ```
 */
export async function request(
  url: string | URL,
  init: RequestInit = {},
  options: request.Options = {},
): Promise<Response> {
  const {
    fetch: fetchFn = (input, init) => globalThis.fetch(input, init),
    maxAttempts = defaults.maxAttempts,
    now = Date.now,
    random = Math.random,
    slotInterval = defaults.slotInterval,
    timeout = defaults.timeout,
  } = options
  const signal = init.signal ?? undefined
  const deadline = now() + timeout
  const timedOut = () =>
    new TimeoutError({ url: String(url), timeout: timeout })
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted()
    const remaining = deadline - now()
    if (remaining <= 0) throw timedOut()
    const response = await withDeadline(remaining, signal, (attemptSignal) =>
      fetchFn(url, { ...init, signal: attemptSignal }).then(buffered),
    ).catch((error: unknown) => {
      if (error === deadlineReached) throw timedOut()
      if (signal?.aborted) throw signal.reason
      throw new NetworkError({ url: String(url), cause: error })
    })
    if (response.status !== 429 || attempt >= maxAttempts) return response
    const wait =
      retryAfter(response.headers.get('retry-after'), now()) ??
      slotInterval * Math.floor(random() * 2 ** attempt)
    if (now() + wait >= deadline) return response
    await sleep(wait, signal)
  }
}

export declare namespace request {
  type Options = {
    /** The fetch to call. @default globalThis.fetch */
    fetch?:
      | ((input: string | URL, init: RequestInit) => Promise<Response>)
      | undefined
    /** Calls in all, the first one included, while the answer is 429. @default 12 */
    maxAttempts?: number | undefined
    /** The clock, in ms (for tests). @default Date.now */
    now?: (() => number) | undefined
    /** A number in [0, 1) (for tests). @default Math.random */
    random?: (() => number) | undefined
    /** The throttle slot, in ms. @default 250 */
    slotInterval?: number | undefined
    /** The whole exchange's limit, in ms, waits included. @default 300000 */
    timeout?: number | undefined
  }
  type ErrorType = TimeoutError | NetworkError
}

/**
 * A `fetch` that sends through {@link request}, for libraries that take a
 * custom fetch (oauth4webapi's `customFetch`, jose's remote JWKS): a 429 is
 * retried in the helper's throttle slots and the exchange has its time-out,
 * and every other answer is returned as fetch returns it. It rejects as
 * fetch does, so a library's own error handling still applies: with
 * fetch's own error when the request cannot be sent, with the signal's
 * reason on abort, and after the time-out with a `TimeoutError`
 * `DOMException` (what a fetch given `AbortSignal.timeout` rejects with).
 *
 * @example
 * ```ts
 * import { Http } from 'embedded-wallets/core'
 *
 * const fetch = Http.fetcher()
 * const response = await fetch('https://auth.example/.well-known/jwks.json')
 * ```
 */
export function fetcher(
  options: request.Options = {},
): (input: string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init = {}) => {
    try {
      return await request(input, init, options)
    } catch (error) {
      if (error instanceof NetworkError) throw error.cause
      if (error instanceof TimeoutError)
        throw new DOMException(error.shortMessage, 'TimeoutError')
      throw error
    }
  }
}

/** The fetch helper's defaults: a 300000 ms time-out, 250 ms throttle slots, 12 attempts. */
export const defaults = {
  timeout: 300_000,
  slotInterval: 250,
  maxAttempts: 12,
} as const

const deadlineReached = Symbol('deadline')

/** Statuses whose answers have no body (the Fetch standard's null body statuses). */
const nullBodyStatuses = [204, 205, 304]

/**
 * `response` with its body read, so that the time-out covers the body too
 * (a server may answer its headers and stall on the body).
 */
async function buffered(response: Response): Promise<Response> {
  // A redirect answered to `redirect: 'manual'` in a browser (status 0, no
  // body) cannot be rebuilt; it goes back as it came.
  if (response.type === 'opaqueredirect') return response
  const body = nullBodyStatuses.includes(response.status)
    ? null
    : await response.arrayBuffer()
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
}

/**
 * Runs `fn` with a signal that aborts when `signal` does or after `ms`;
 * rejects with {@link deadlineReached} in the second case.
 */
async function withDeadline<result>(
  ms: number,
  signal: AbortSignal | undefined,
  fn: (signal: AbortSignal) => Promise<result>,
): Promise<result> {
  const controller = new AbortController()
  const onAbort = () => controller.abort(signal?.reason)
  signal?.addEventListener('abort', onAbort, { once: true })
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(deadlineReached)
      reject(deadlineReached)
    }, ms)
  })
  try {
    return await Promise.race([fn(controller.signal), expired])
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}

/**
 * The wait a `Retry-After` value asks for, in ms (RFC 9110: a number of
 * seconds or an HTTP date), or `undefined` when it is absent or neither.
 */
function retryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** Waits `ms`, or rejects with the signal's reason when it aborts. */
function sleep(ms: number, signal?: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      },
      Math.max(0, ms),
    )
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** {@link request} gave up: the exchange took longer than its time-out. */
export class TimeoutError extends Errors.BaseError {
  override readonly name = 'Http.TimeoutError'
  /** The time-out, in ms. */
  readonly timeout: number
  constructor(options: { url: string; timeout: number }) {
    super(
      `The request to ${options.url} timed out after ${options.timeout} ms.`,
    )
    this.timeout = options.timeout
  }
}

/** {@link request} could not send the request (no connection, CORS, DNS). */
export class NetworkError extends Errors.BaseError {
  override readonly name = 'Http.NetworkError'
  constructor(options: { url: string; cause: unknown }) {
    const { url, cause } = options
    super(`The request to ${url} could not be sent.`, {
      cause: cause instanceof Error ? cause : new Error(String(cause)),
    })
  }
}
