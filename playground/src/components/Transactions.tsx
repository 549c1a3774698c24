import { useEffect, useId, useRef, useState } from 'react'
import { formatEther, type Hash, type TransactionReceipt } from 'viem'
import { useWaitForTransactionReceipt } from 'wagmi'
import { useFailures } from '../ui/errors.js'
import { shortHex, toJson } from '../ui/format.js'
import { useWalletLog } from '../wallet/log.js'

/** A transaction the page sent, as its list shows it. */
export type NewTransaction = { hash: Hash; label: string }

/** A sent transaction with the moment it was sent. */
export type SentTransaction = NewTransaction & { at: Date }

/**
 * The transactions sent from this page for the connected account, newest
 * first: what each does, whether it is mined, and its hash, which opens its
 * receipt.
 */
export function Transactions(props: {
  transactions: readonly SentTransaction[]
}) {
  const { transactions } = props
  if (transactions.length === 0)
    return (
      <p className="muted" data-testid="transactions-empty">
        Nothing sent yet. Get test tokens or send something: each transaction
        shows up here.
      </p>
    )
  return (
    <ol className="transactions" data-testid="transactions">
      {transactions.map((transaction) => (
        <TransactionRow key={transaction.hash} transaction={transaction} />
      ))}
    </ol>
  )
}

function TransactionRow(props: { transaction: SentTransaction }) {
  const { transaction } = props
  const [open, setOpen] = useState(false)
  const receiptId = useId()
  const receipt = useWaitForTransactionReceipt({ hash: transaction.hash })
  const { report } = useFailures('wallet')
  const { record } = useWalletLog()

  useEffect(() => {
    if (receipt.error) report(`Waiting for ${transaction.label}`, receipt.error)
  }, [receipt.error, report, transaction.label])
  // Logged once (StrictMode runs effects twice in development).
  const logged = useRef(false)
  useEffect(() => {
    if (!receipt.data || logged.current) return
    logged.current = true
    record(
      'chain',
      'receipt',
      `${transaction.label}: ${receipt.data.status} in block ${receipt.data.blockNumber}`,
      receipt.data,
    )
  }, [receipt.data, record, transaction.label])

  const status = receipt.data?.status ?? (receipt.error ? 'failed' : 'pending')
  return (
    <li data-testid="transaction" data-status={status}>
      <div className="transaction-line">
        <span data-testid="transaction-label">{transaction.label}</span>
        <span className={`status ${status}`} data-testid="transaction-status">
          {status}
        </span>
        <button
          type="button"
          className="link hash"
          aria-expanded={open}
          aria-controls={receiptId}
          title={open ? 'Hide the receipt' : 'Show the receipt'}
          onClick={() => setOpen(!open)}
          data-testid="tx-hash"
        >
          {transaction.hash}
        </button>
      </div>
      {open && (
        <div id={receiptId} className="receipt" data-testid="tx-receipt">
          {receipt.data ? (
            <Receipt receipt={receipt.data} />
          ) : (
            <p className="muted">
              {receipt.error
                ? 'No receipt: see the error above.'
                : 'Waiting for the receipt…'}
            </p>
          )}
        </div>
      )}
    </li>
  )
}

/** The receipt's main fields, and the whole of it as JSON on demand. */
function Receipt(props: { receipt: TransactionReceipt }) {
  const { receipt } = props
  const [json, setJson] = useState(false)
  const fee = receipt.gasUsed * receipt.effectiveGasPrice
  return (
    <>
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="receipt-status">{receipt.status}</dd>
        <dt>Block</dt>
        <dd data-testid="receipt-block">{receipt.blockNumber.toString()}</dd>
        <dt>From</dt>
        <dd>
          <code data-testid="receipt-from">{receipt.from}</code>
        </dd>
        <dt>To</dt>
        <dd>
          <code data-testid="receipt-to">{receipt.to ?? '—'}</code>
        </dd>
        <dt>Gas used</dt>
        <dd>{receipt.gasUsed.toString()}</dd>
        <dt>Fee</dt>
        <dd>{formatEther(fee)} ETH</dd>
        <dt>Logs</dt>
        <dd>
          {receipt.logs.length === 0
            ? 'none'
            : receipt.logs
                .map((log) => `event from ${shortHex(log.address)}`)
                .join(', ')}
        </dd>
      </dl>
      <button
        type="button"
        className="link"
        aria-expanded={json}
        onClick={() => setJson(!json)}
      >
        {json ? 'Hide the JSON' : 'The whole receipt as JSON'}
      </button>
      {json && <pre>{toJson(receipt)}</pre>}
    </>
  )
}
