import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import type { Address } from 'viem'
import { useFailures } from '../ui/errors.js'
import { isCancel } from './actions.js'

/** The flow under way: which row started it and what it is doing. */
export type Running = { readonly key: string; readonly step: string }

/** What the last flow of a row ended with, in words. */
export type Outcome = { readonly key: string; readonly text: string }

/**
 * Runs the marketplace's flows one at a time (a wallet answers one request
 * at a time): the row that started one shows its steps, a failure goes to
 * the page's banner (a person cancelling is not one), and the book's
 * queries are read again when it ends, whatever the outcome. What the last
 * flow ended with is forgotten when another account connects.
 */
export function useRunner(account: Address | undefined) {
  const [running, setRunning] = useState<Running | undefined>()
  const [outcome, setOutcome] = useState<Outcome | undefined>()
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a new account
  useEffect(() => setOutcome(undefined), [account])
  const failures = useFailures('market')
  const queries = useQueryClient()

  const run = useCallback(
    async (
      key: string,
      what: string,
      flow: (step: (text: string) => void) => Promise<string>,
    ) => {
      failures.clear()
      setOutcome(undefined)
      setRunning({ key, step: `${what}…` })
      try {
        const done = await flow((step) => setRunning({ key, step }))
        setOutcome({ key, text: done })
      } catch (error) {
        if (isCancel(error)) setOutcome({ key, text: 'Cancelled.' })
        else failures.report(what, error)
      } finally {
        setRunning(undefined)
        await queries.invalidateQueries({ queryKey: ['market'] })
      }
    },
    [failures, queries],
  )
  return { running, outcome, run }
}
