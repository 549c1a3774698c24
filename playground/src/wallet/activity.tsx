import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useState,
} from 'react'
import type { Address, Hash } from 'viem'

/** A transaction a view sent, as the page tracks it. */
export type NewTransaction = {
  hash: Hash
  /** What it does, in words: "Send 0.01 ETH to 0x7099…79C8". */
  label: string
}

/** A tracked transaction: who sent it, and when. */
export type SentTransaction = NewTransaction & {
  /** The account that sent it (the list shows the connected account's). */
  from: Address
  at: Date
}

type Activity = {
  /** Every transaction the page sent, newest first. */
  transactions: readonly SentTransaction[]
  /** Adds a transaction the connected account just sent. */
  track(transaction: NewTransaction & { from: Address }): void
}

const ActivityContext = createContext<Activity | undefined>(undefined)

/**
 * The transactions every view of the page sends (send form, faucet,
 * marketplace), in one place, so that one list and one set of toasts
 * follow them whichever view sent them.
 */
export function ActivityProvider(props: { children: ReactNode }) {
  const [transactions, setTransactions] = useState<readonly SentTransaction[]>(
    [],
  )
  const track = useCallback(
    (transaction: NewTransaction & { from: Address }) => {
      setTransactions((current) =>
        current.some((item) => item.hash === transaction.hash)
          ? current
          : [{ ...transaction, at: new Date() }, ...current],
      )
    },
    [],
  )
  const value = useMemo(() => ({ transactions, track }), [transactions, track])
  return (
    <ActivityContext.Provider value={value}>
      {props.children}
    </ActivityContext.Provider>
  )
}

/** The page's transactions and `track`, for any view that sends one. */
export function useActivity(): Activity {
  const context = useContext(ActivityContext)
  if (!context) throw new Error('ActivityProvider is missing.')
  return context
}
