/**
 * Session activity: a game can ask, through the platform API, that its
 * players' wallets send a small background transaction now and then (a
 * `ping()` to one of its contracts). The wallet asks the API whether and
 * when, sends what it is told through the provider's background path (nonce
 * space 1, no popup), and asks again after the delay the API gives, as the
 * published @imtbl/passport 2.x does.
 *
 * Nothing here is ever thrown to the caller: these runs happen behind the
 * player's back, so a failure is reported to `onError` (the published SDK
 * sends it to its error monitoring) and the run stops.
 */
import { toFunctionSelector } from 'viem'
import { BaseError } from '../../core/Errors.js'
import * as Http from '../../core/Http.js'
import type * as Storage from '../../core/Storage.js'
import {
  type SessionActivityResponse,
  sessionActivityCheckPath,
  sessionActivityParams,
} from '../wire/api.js'

/** The environments session activity runs in (published). */
const supportedEnvironments: readonly string[] = ['sandbox', 'production']

/** The hosted API of the published environments, by chain id. */
export const hostedApis: Readonly<Record<number, string>> = {
  13371: 'https://api.immutable.com',
  13473: 'https://api.sandbox.immutable.com',
}

/** localStorage keys, as the published SDK names them (shared across tabs). */
export const storageKeys = {
  /** JSON map: client id → background transactions sent today. */
  sendCount: '__IMX-sessionActivitySendCount',
  /** The local date (`YYYY-MM-DD`) the counts belong to. */
  date: '__IMX-sessionActivityDate',
} as const

/** Runs session activity for one wallet configuration. */
export type SessionActivity = {
  /**
   * Starts a run for `wallet` unless one is already going for this client
   * id (on any instance). Never throws; the promise (which callers may
   * leave alone) resolves when this run ends, at once when it does not
   * start, and never rejects.
   */
  run(args: {
    wallet: string
    sendTransaction(tx: { to: string; data: string }): Promise<string>
  }): Promise<void>
  /** Stops this instance's runs (a waiting one stops at once). */
  stop(): void
}

/*
 * Per client id, as in the published SDK: whether a run is going, and how
 * many checks were made since the last send. Module-wide, so that two
 * wallets of one game on a page do not both run.
 */
const running = new Set<string>()
const checkCounts = new Map<string, number>()

/**
 * Creates the session-activity runner of a wallet.
 *
 * @example
 * ```ts
 * const activity = create({
 *   clientId,
 *   chainId: 13473,
 *   apiBase: config.indexerMrBasePath,
 *   storage: Storage.localOrMemory({ prefix: '', format: 'text' }),
 * })
 * activity.run({ wallet, sendTransaction: (tx) => sendInBackground(tx) })
 * ```
 */
export function create(options: create.Options): SessionActivity {
  const {
    clientId,
    environment,
    chainId,
    apiBase,
    storage,
    fetch: fetchFn,
    onError = () => undefined,
    sleep = defaultSleep,
    now = () => new Date(),
  } = options
  const controller = new AbortController()

  const report = (reason: SessionActivityErrorReason, cause?: unknown) => {
    try {
      onError(new SessionActivityError(reason, { cause }))
    } catch {
      // A failing monitor must not break the run's caller either.
    }
  }

  /** The check URL, or undefined for an unsupported environment. */
  const checkUrl = (): URL | undefined => {
    const hosted = chainId === undefined ? undefined : hostedApis[chainId]
    try {
      // The path replaces any path of the base, as the published SDK's
      // `new URL(path, base)` does.
      return new URL(sessionActivityCheckPath, hosted ?? apiBase)
    } catch {
      return undefined
    }
  }

  const loop = async (
    id: string,
    url: URL,
    args: Parameters<SessionActivity['run']>[0],
  ) => {
    const { signal } = controller
    while (!signal.aborted) {
      const counts = await readSendCounts(storage, now())
      const checkCount = checkCounts.get(id) ?? 0
      const query = new URL(url)
      query.search = new URLSearchParams({
        [sessionActivityParams.clientId]: id,
        [sessionActivityParams.wallet]: args.wallet,
        [sessionActivityParams.checkCount]: String(checkCount),
        [sessionActivityParams.sendCount]: String(counts[id] ?? 0),
      }).toString()
      let details: SessionActivityResponse | null
      try {
        details = await getDetails(fetchFn, query, signal)
      } catch (error) {
        if (!signal.aborted) report('getDetails', error)
        return
      } finally {
        checkCounts.set(id, checkCount + 1)
      }
      // 404: the game wants nothing from this player.
      if (details === null) return

      const { contractAddress, functionName, delay } = details
      if (contractAddress && functionName) {
        try {
          await args.sendTransaction({
            to: contractAddress,
            data: selectorOf(functionName),
          })
          const today = await readSendCounts(storage, now())
          today[id] = (today[id] ?? 0) + 1
          await storage.setItem(storageKeys.sendCount, JSON.stringify(today))
          checkCounts.set(id, 0)
        } catch (error) {
          report('sendTransaction', error)
        }
      }
      if (typeof delay !== 'number' || !(delay > 0)) return
      try {
        await sleep(delay * 1000, signal)
      } catch {
        return
      }
    }
  }

  return {
    async run(args) {
      if (!clientId) return report('noClientId')
      if (!supportedEnvironments.includes(environment))
        return report('environment')
      const url = checkUrl()
      if (!url) return report('environment')
      if (typeof args?.sendTransaction !== 'function')
        return report('noSendTransaction')
      if (!args.wallet) return report('noWallet')
      if (running.has(clientId) || controller.signal.aborted) return
      running.add(clientId)
      try {
        await loop(clientId, url, args)
      } catch (error) {
        // The storage failed: report it as the check it stopped.
        report('getDetails', error)
      } finally {
        running.delete(clientId)
      }
    },
    stop() {
      controller.abort()
    },
  }
}

export declare namespace create {
  type Options = {
    /** The game's OIDC client id. */
    clientId: string
    /**
     * The configuration's environment (`baseConfig.environment`): session
     * activity runs in `sandbox` and `production` only.
     */
    environment: string
    /**
     * The wallet's chain: 13371 and 13473 (the published production and
     * sandbox chains) use the hosted API, any other `apiBase`.
     */
    chainId?: number | undefined
    /** The API for other chains (the published `indexerMrBasePath`). */
    apiBase?: string | undefined
    /** Where the daily send counts are kept (localStorage in browsers). */
    storage: Storage.Storage
    /** @default globalThis.fetch */
    fetch?: typeof fetch | undefined
    /** Receives every failure; @default ignore */
    onError?: ((error: SessionActivityError) => void) | undefined
    /**
     * Waits `ms`, rejecting when `signal` aborts; @default a timer.
     * Tests pass their own to run the loop without waiting.
     */
    sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined
    /** The clock of the daily reset; @default `new Date()` */
    now?: (() => Date) | undefined
  }
}

/**
 * `GET` the check through the core fetch helper (a throttled API's 429 is
 * retried in its slots; the route is in no OpenAPI spec, so no generated
 * class has it); null on 404. @throws on any other failure.
 */
async function getDetails(
  fetchFn: typeof fetch | undefined,
  url: URL,
  signal: AbortSignal,
): Promise<SessionActivityResponse | null> {
  const response = await Http.request(url, { signal }, { fetch: fetchFn })
  if (response.status === 404) return null
  if (!response.ok)
    throw new Error(`The check answered HTTP ${response.status}.`)
  const body: unknown = await response.json()
  if (typeof body !== 'object' || body === null)
    throw new Error('The check answered no object.')
  const { contractAddress, functionName, delay } = body as Record<
    string,
    unknown
  >
  return {
    contractAddress:
      typeof contractAddress === 'string' ? contractAddress : undefined,
    functionName: typeof functionName === 'string' ? functionName : undefined,
    delay: typeof delay === 'number' ? delay : undefined,
  }
}

/**
 * The 4-byte selector of a function taking no arguments: the API may name
 * it `ping` or `ping()`.
 *
 * @example
 * ```ts
 * selectorOf('ping') // '0x5c36b186'
 * ```
 */
export function selectorOf(functionName: string): `0x${string}` {
  const signature = functionName.includes('(')
    ? functionName
    : `${functionName}()`
  return toFunctionSelector(signature)
}

/**
 * Today's send counts: those stored, or none when they belong to another
 * local date (then today's date is stored).
 */
async function readSendCounts(
  storage: Storage.Storage,
  now: Date,
): Promise<Record<string, number>> {
  const today = localDate(now)
  const stored = unquote(await storage.getItem(storageKeys.date))
  if (stored !== today) {
    await storage.setItem(storageKeys.date, today)
    await storage.removeItem(storageKeys.sendCount)
    return {}
  }
  const raw = await storage.getItem(storageKeys.sendCount)
  let value: unknown = raw
  if (typeof raw === 'string')
    try {
      value = JSON.parse(raw)
    } catch {
      return {}
    }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {}
  const counts: Record<string, number> = {}
  for (const [key, count] of Object.entries(value))
    if (Number.isSafeInteger(count) && (count as number) >= 0)
      counts[key] = count as number
  return counts
}

/** A date stored as text or as a JSON string. */
function unquote(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  return value.startsWith('"') ? value.slice(1, -1) : value
}

/**
 * `YYYY-MM-DD` of the local calendar: counts restart at the player's
 * midnight.
 */
export function localDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** Why a session-activity run stopped or skipped a step. */
export type SessionActivityErrorReason =
  | 'noClientId'
  | 'environment'
  | 'noSendTransaction'
  | 'noWallet'
  | 'getDetails'
  | 'sendTransaction'

/** The published texts. */
export const sessionActivityErrorMessages = {
  noClientId: 'No Passport Client ID provided',
  environment: 'Environment not supported',
  noSendTransaction: 'No sendTransaction function provided',
  noWallet: 'No wallet address',
  getDetails: 'Failed to get details',
  sendTransaction: 'Failed to send transaction',
} as const satisfies Record<SessionActivityErrorReason, string>

/** A session-activity failure, as reported to `onError` (never thrown). */
export class SessionActivityError extends BaseError<Error | undefined> {
  override readonly name = 'SessionActivity.SessionActivityError'
  /** Which failure this is. */
  readonly reason: SessionActivityErrorReason
  constructor(
    reason: SessionActivityErrorReason,
    options: { cause?: unknown } = {},
  ) {
    const { cause } = options
    super(sessionActivityErrorMessages[reason], {
      cause: cause instanceof Error ? cause : undefined,
      details: '',
    })
    this.reason = reason
  }
}
