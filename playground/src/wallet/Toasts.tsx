import { useEffect, useRef, useState } from 'react'
import type { Hash } from 'viem'
import { LongValue } from '../ui/LongValue.js'
import './wallet.css'
import { type SentTransaction, useActivity, useOutcome } from './activity.js'

/** How long a settled toast stays before it hides itself. */
const settledFor = 6_000

/** At most this many toasts at once: the newest. */
const most = 3

/**
 * One toast per transaction the page tracks, newest on top: pending, then
 * confirmed (with its block) or failed (the reason in words). Each can be
 * dismissed; once settled it hides itself after a few seconds.
 */
export function Toasts() {
  const { transactions } = useActivity()
  const [hidden, setHidden] = useState<ReadonlySet<Hash>>(new Set())
  const shown = transactions
    .filter((transaction) => !hidden.has(transaction.hash))
    .slice(0, most)
  const hide = (hash: Hash) =>
    setHidden((current) => new Set(current).add(hash))
  return (
    <section className="toasts" aria-live="polite" data-testid="toasts">
      {shown.map((transaction) => (
        <Toast
          key={transaction.hash}
          transaction={transaction}
          onHide={() => hide(transaction.hash)}
        />
      ))}
    </section>
  )
}

function Toast(props: { transaction: SentTransaction; onHide: () => void }) {
  const { transaction, onHide } = props
  const outcome = useOutcome(transaction.hash)
  const settled = outcome.status !== 'pending'

  // The latest onHide, without restarting the timer on every render.
  const hideNow = useRef(onHide)
  hideNow.current = onHide
  useEffect(() => {
    if (!settled) return
    const timer = setTimeout(() => hideNow.current(), settledFor)
    return () => clearTimeout(timer)
  }, [settled])

  const state =
    outcome.status === 'success'
      ? 'confirmed'
      : outcome.status === 'pending'
        ? 'pending'
        : 'failed'
  return (
    <div
      className={`toast ${state}`}
      role="status"
      data-testid="toast"
      data-state={state}
      data-hash={transaction.hash}
    >
      <div className="toast-head">
        <strong data-testid="toast-label">{transaction.label}</strong>
        <button
          type="button"
          className="link small"
          aria-label="Dismiss"
          onClick={onHide}
          data-testid="toast-dismiss"
        >
          ✕
        </button>
      </div>
      <p data-testid="toast-status">
        {outcome.status === 'pending'
          ? 'Pending: waiting for the chain…'
          : outcome.status === 'success'
            ? `Confirmed in block ${outcome.receipt.blockNumber}`
            : `Failed: ${outcome.reason}`}
      </p>
      <LongValue value={transaction.hash} testId="toast-hash" />
    </div>
  )
}
