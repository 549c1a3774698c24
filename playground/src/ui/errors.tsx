import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useState,
} from 'react'
import '../wallet/wallet.css'
import { type Explanation, explain } from './explain.js'
import { formatDateTime } from './format.js'

/**
 * Where on the page a failure happened. Each area shows its latest failure
 * in the banner; starting something new in the area clears it, so that the
 * banner never describes an attempt that has been replaced.
 */
export type Area = 'wallet' | 'passport' | 'market' | 'starkex'

/** One failure the banner shows: what was tried, and the failure in words. */
export type Failure = { what: string; explanation: Explanation; at: Date }

const areaNames: Record<Area, string> = {
  wallet: 'Wallet',
  passport: 'Game wallet',
  market: 'Marketplace',
  starkex: 'StarkEx',
}

type Failures = Readonly<Partial<Record<Area, Failure>>>

type Context = {
  failures: Failures
  report(area: Area, what: string, error: unknown): void
  clear(area: Area): void
}

const FailuresContext = createContext<Context | undefined>(undefined)

/** Holds the page's failures for {@link ErrorBanner} and {@link useFailures}. */
export function FailuresProvider(props: { children: ReactNode }) {
  const [failures, setFailures] = useState<Failures>({})
  const report = useCallback((area: Area, what: string, error: unknown) => {
    const failure = { what, explanation: explain(error), at: new Date() }
    setFailures((current) => ({ ...current, [area]: failure }))
  }, [])
  const clear = useCallback((area: Area) => {
    setFailures((current) => {
      if (!current[area]) return current
      const { [area]: _, ...rest } = current
      return rest
    })
  }, [])
  const value = useMemo(
    () => ({ failures, report, clear }),
    [failures, report, clear],
  )
  return (
    <FailuresContext.Provider value={value}>
      {props.children}
    </FailuresContext.Provider>
  )
}

function useFailuresContext(): Context {
  const context = useContext(FailuresContext)
  if (!context) throw new Error('FailuresProvider is missing.')
  return context
}

/**
 * Reports and clears the failure of one area: `report(what, error)` shows
 * the failure in words (see `explain`): its title, `<what> failed:
 * <message>`, what to do next and the raw detail; `clear()` removes it.
 */
export function useFailures(area: Area) {
  const { report, clear } = useFailuresContext()
  // Stable across renders, so that effects may depend on them.
  return useMemo(
    () => ({
      report: (what: string, error: unknown) => report(area, what, error),
      clear: () => clear(area),
    }),
    [area, report, clear],
  )
}

/**
 * The failures of every area, above everything else and kept in view while
 * the page scrolls: each with its title, the attempt and the wallet's own
 * message, one sentence on what to do next, the raw detail behind an
 * expander, and a button to dismiss it.
 */
export function ErrorBanner() {
  const { failures, clear } = useFailuresContext()
  const shown = (Object.keys(areaNames) as Area[]).flatMap((area) => {
    const failure = failures[area]
    return failure ? [{ area, failure }] : []
  })
  return (
    <div className="error-banner" role="alert" data-testid="error-banner">
      {shown.map(({ area, failure }) => {
        const { explanation } = failure
        return (
          <div
            className="failure explained"
            key={area}
            data-kind={explanation.kind}
            data-testid={`${area}-failure`}
          >
            <div className="failure-head">
              <span className="failure-area">{areaNames[area]}</span>
              <strong data-testid={`${area}-error-title`}>
                {explanation.title}
              </strong>
              <time className="muted" dateTime={failure.at.toISOString()}>
                {formatDateTime(failure.at)}
              </time>
              <button
                type="button"
                onClick={() => clear(area)}
                data-testid={`${area}-error-dismiss`}
              >
                Dismiss
              </button>
            </div>
            <p data-testid={`${area}-error`}>
              {failure.what} failed: {explanation.message}
            </p>
            <p className="failure-next" data-testid={`${area}-error-next`}>
              {explanation.next}
            </p>
            <details className="failure-detail">
              <summary data-testid={`${area}-error-detail-toggle`}>
                Details
              </summary>
              <pre data-testid={`${area}-error-detail`}>
                {explanation.detail}
              </pre>
            </details>
          </div>
        )
      })}
    </div>
  )
}
