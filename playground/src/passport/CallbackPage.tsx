import { StrictMode, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import type { PassportInfo } from '../emulator.js'
import { type CallbackOutcome, runCallback } from './callback.js'
import { createPassports, type PassportRoute } from './config.js'

/**
 * Renders one of the game wallet's callback pages (`/passport/redirect`,
 * `/passport/logout`) into `root`. The page's work starts here, once,
 * outside React (StrictMode runs effects twice; a callback must run once).
 */
export function renderCallback(
  root: HTMLElement,
  passport: PassportInfo,
  route: PassportRoute,
): void {
  const work = runCallback(route, createPassports(passport))
  createRoot(root).render(
    <StrictMode>
      <CallbackPage route={route} work={work} />
    </StrictMode>,
  )
}

/** The status of a callback page: working, done, or why it failed. */
function CallbackPage(props: {
  route: PassportRoute
  work: Promise<CallbackOutcome>
}) {
  const { route, work } = props
  const [outcome, setOutcome] = useState<CallbackOutcome>()
  useEffect(() => {
    let current = true
    work.then((value) => {
      if (current) setOutcome(value)
    })
    return () => {
      current = false
    }
  }, [work])

  return (
    <main className="page">
      <section className="panel" data-testid="passport-callback">
        <h2>
          Game wallet: {route === 'redirect' ? 'signing in' : 'signing out'}
        </h2>
        {outcome === undefined ? (
          <p data-testid="passport-callback-working">Working…</p>
        ) : (
          <p
            className={outcome.kind === 'failed' ? 'error' : undefined}
            data-testid={`passport-callback-${outcome.kind}`}
          >
            {outcome.message}
          </p>
        )}
        {outcome?.kind === 'failed' && (
          <p>
            <a href="/" data-testid="passport-callback-back">
              Back to the playground
            </a>
          </p>
        )}
      </section>
    </main>
  )
}
