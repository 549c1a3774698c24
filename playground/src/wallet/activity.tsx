import { useQuery } from '@tanstack/react-query'
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useState,
} from 'react'
import type { Address, Hash, TransactionReceipt } from 'viem'
import { usePublicClient } from 'wagmi'
import { explain } from '../ui/explain.js'

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

/** Where a tracked transaction stands. */
export type Outcome =
  | { status: 'pending' }
  | { status: 'success'; receipt: TransactionReceipt }
  | { status: 'reverted'; receipt: TransactionReceipt; reason: string }
  | { status: 'failed'; reason: string }

/**
 * A tracked transaction's outcome: pending until its receipt, then
 * confirmed or reverted; a revert's reason is found by replaying the call
 * on the state before its block (Anvil mines one transaction a block) and
 * decoding what it reverts with. `failed` when no receipt can be had.
 */
export function useOutcome(hash: Hash): Outcome {
  const client = usePublicClient()
  // viem's wait, not wagmi's hook: wagmi's throws on a reverted receipt,
  // which would leave no receipt to show.
  const receipt = useQuery({
    queryKey: ['tracked-receipt', client?.chain?.id, hash],
    enabled: client !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    queryFn: () => {
      if (!client) throw new Error('No chain client.')
      return client.waitForTransactionReceipt({ hash })
    },
  })
  const reverted =
    receipt.data?.status === 'reverted' ? receipt.data : undefined
  const reason = useQuery({
    queryKey: ['revert-reason', hash],
    enabled: reverted !== undefined && client !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<string> => {
      if (!client || !reverted) return ''
      const sent = await client.getTransaction({ hash })
      try {
        await client.call({
          account: sent.from,
          to: sent.to,
          data: sent.input,
          value: sent.value,
          gas: sent.gas,
          blockNumber: reverted.blockNumber - 1n,
        })
      } catch (error) {
        return explain(error).message
      }
      return 'The transaction reverted on chain.'
    },
  })
  if (receipt.data?.status === 'success')
    return { status: 'success', receipt: receipt.data }
  if (receipt.data)
    return {
      status: 'reverted',
      receipt: receipt.data,
      reason: reason.data ?? 'The transaction reverted on chain.',
    }
  if (receipt.error)
    return { status: 'failed', reason: explain(receipt.error).message }
  return { status: 'pending' }
}
