import { useEffect, useId, useRef, useState } from 'react'
import {
  type Address,
  formatEther,
  formatUnits,
  type Hex,
  isAddress,
  isAddressEqual,
  type TransactionReceipt,
} from 'viem'
import type { Info } from '../emulator.js'
import { decodeRevert, valueText } from '../ui/explain.js'
import { formatDateTime, toJson, trimDecimals } from '../ui/format.js'
import { LongValue } from '../ui/LongValue.js'
import {
  type SentTransaction,
  useActivity,
  useOutcome,
} from '../wallet/activity.js'
import { useWalletLog } from '../wallet/log.js'
import { type DecodedLog, decodeLog, type LogArg } from '../wallet/logs.js'
import '../wallet/wallet.css'

/** The page's names of the emulator's contracts, by lowercase address. */
type Names = ReadonlyMap<string, string>

/** The 18-decimal ERC-20s whose amounts a log also shows in tokens. */
type Tokens = ReadonlyMap<string, string>

/** Names for the contracts of `info` a receipt's logs may come from. */
function contractNames(info: Info, account: Address): Names {
  const { contracts } = info
  return new Map([
    [contracts.erc20.toLowerCase(), 'TestERC20 (TEST)'],
    [contracts.testErc721.toLowerCase(), 'TestERC721 (TNFT)'],
    [contracts.testErc1155.toLowerCase(), 'TestERC1155'],
    [contracts.erc721.toLowerCase(), 'Platform ERC-721'],
    [contracts.erc1155.toLowerCase(), 'Platform ERC-1155'],
    [contracts.seaport.toLowerCase(), 'Seaport'],
    [contracts.factory.toLowerCase(), 'Sequence wallet factory'],
    [contracts.mainModule.toLowerCase(), 'Sequence main module'],
    [
      contracts.mainModuleUpgradable.toLowerCase(),
      'Sequence upgradable module',
    ],
    [contracts.guestModule.toLowerCase(), 'Sequence guest module'],
    [contracts.sequenceUtils.toLowerCase(), 'Sequence utils'],
    [contracts.sponsoredCallDelegate.toLowerCase(), 'Gas sponsor delegate'],
    [account.toLowerCase(), 'your wallet'],
  ])
}

/**
 * The connected account's transactions, as every view of the page tracked
 * them (`useActivity`), newest first: what each does, where it stands, and
 * a button that opens its receipt with its logs decoded.
 */
export function Transactions(props: { info: Info; address: Address }) {
  const { info, address } = props
  const { transactions } = useActivity()
  const mine = transactions.filter((transaction) =>
    isAddressEqual(transaction.from, address),
  )
  if (mine.length === 0)
    return (
      <p className="muted" data-testid="transactions-empty">
        Nothing sent yet. Mint test tokens or send something: each transaction
        shows up here.
      </p>
    )
  const names = contractNames(info, address)
  const tokens: Tokens = new Map([[info.contracts.erc20.toLowerCase(), 'TEST']])
  return (
    <ol className="transactions" data-testid="transactions">
      {mine.map((transaction) => (
        <TransactionRow
          key={transaction.hash}
          transaction={transaction}
          names={names}
          tokens={tokens}
        />
      ))}
    </ol>
  )
}

function TransactionRow(props: {
  transaction: SentTransaction
  names: Names
  tokens: Tokens
}) {
  const { transaction, names, tokens } = props
  const [open, setOpen] = useState(false)
  const receiptId = useId()
  const outcome = useOutcome(transaction.hash)
  const { record } = useWalletLog()

  // Its failure shows here and in its toast, in words.
  const failed = outcome.status === 'failed' ? outcome.reason : undefined
  // Logged once (StrictMode runs effects twice in development).
  const logged = useRef(false)
  const receipt = 'receipt' in outcome ? outcome.receipt : undefined
  useEffect(() => {
    if (!receipt || logged.current) return
    logged.current = true
    record(
      'chain',
      'receipt',
      `${transaction.label}: ${receipt.status} in block ${receipt.blockNumber}`,
      receipt,
    )
  }, [receipt, record, transaction.label])

  return (
    <li data-testid="transaction" data-status={outcome.status}>
      <div className="transaction-line">
        <span data-testid="transaction-label">{transaction.label}</span>
        <span
          className={`status ${outcome.status}`}
          data-testid="transaction-status"
        >
          {outcome.status}
        </span>
        <time className="muted" dateTime={transaction.at.toISOString()}>
          {formatDateTime(transaction.at)}
        </time>
        <LongValue value={transaction.hash} testId="tx-hash" />
        <button
          type="button"
          className="link"
          aria-expanded={open}
          aria-controls={receiptId}
          onClick={() => setOpen(!open)}
          data-testid="tx-open"
        >
          {open ? 'Hide the receipt' : 'Receipt'}
        </button>
      </div>
      {open && (
        <div id={receiptId} className="receipt" data-testid="tx-receipt">
          {receipt ? (
            <Receipt receipt={receipt} names={names} tokens={tokens} />
          ) : (
            <p className="muted">
              {failed ? `No receipt: ${failed}` : 'Waiting for the receipt…'}
            </p>
          )}
          {outcome.status === 'reverted' && (
            <p className="error" data-testid="receipt-reason">
              {outcome.reason}
            </p>
          )}
        </div>
      )}
    </li>
  )
}

/** The receipt's main fields, its logs decoded, and the whole of it as JSON on demand. */
function Receipt(props: {
  receipt: TransactionReceipt
  names: Names
  tokens: Tokens
}) {
  const { receipt, names, tokens } = props
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
          <LongValue value={receipt.from} testId="receipt-from" />
        </dd>
        <dt>To</dt>
        <dd>
          {receipt.to ? (
            <LongValue value={receipt.to} testId="receipt-to" />
          ) : (
            '—'
          )}
        </dd>
        <dt>Gas used</dt>
        <dd>{receipt.gasUsed.toString()}</dd>
        <dt>Fee</dt>
        <dd>{formatEther(fee)} ETH</dd>
      </dl>
      <h4>Logs</h4>
      {receipt.logs.length === 0 ? (
        <p className="muted" data-testid="receipt-no-logs">
          No logs.
        </p>
      ) : (
        <ol className="receipt-logs">
          {receipt.logs.map((log) => (
            <LogEntry
              key={`${log.logIndex}`}
              log={decodeLog(log)}
              names={names}
              symbol={tokens.get(log.address.toLowerCase())}
            />
          ))}
        </ol>
      )}
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

/** One decoded log: event name, emitter and named arguments; an unknown one with its topics on demand. */
function LogEntry(props: {
  log: DecodedLog
  names: Names
  /** The emitter's symbol when it is an 18-decimal ERC-20 the page knows. */
  symbol: string | undefined
}) {
  const { log, names, symbol } = props
  const emitter = names.get(log.address.toLowerCase())
  return (
    <li
      className="receipt-log"
      data-testid="receipt-log"
      data-event={log.name ?? ''}
      data-address={log.address}
    >
      <div className="log-head">
        {log.name ? (
          <strong data-testid="log-event">{log.name}</strong>
        ) : (
          <span data-testid="log-event">unknown event</span>
        )}
        <span className="muted">from</span>
        {emitter && <span data-testid="log-emitter">{emitter}</span>}
        <LongValue value={log.address} testId="log-address" />
      </div>
      {log.name ? (
        <dl className="facts log-args">
          {log.args.map((arg) => (
            <LogArgument
              key={arg.name}
              arg={arg}
              symbol={arg.name === 'value' ? symbol : undefined}
            />
          ))}
        </dl>
      ) : (
        <details>
          <summary>Topics and data</summary>
          <ol className="log-topics">
            {log.topics.map((topic, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a log's topics are positional and never reordered.
              <li key={index}>
                <LongValue value={topic} testId="log-topic" />
              </li>
            ))}
          </ol>
          <LongValue value={log.data} testId="log-data" />
        </details>
      )}
    </li>
  )
}

function LogArgument(props: { arg: LogArg; symbol: string | undefined }) {
  const { name, value } = props.arg
  const { symbol } = props
  // The game wallet's TxFailed carries the inner call's revert data.
  const revert =
    name === '_reason' && typeof value === 'string' && value.length >= 10
      ? decodeRevert(value as Hex)
      : undefined
  const text = revert?.text ?? valueText(value)
  return (
    <>
      <dt>{name}</dt>
      <dd data-testid="log-arg" data-name={name} data-value={text}>
        {revert ? (
          <code>{text}</code>
        ) : typeof value === 'string' &&
          (isAddress(value, { strict: false }) || value.length > 20) ? (
          <LongValue value={value} />
        ) : (
          <code>{text}</code>
        )}
        {symbol && typeof value === 'bigint' && (
          <span className="muted" data-testid="log-arg-tokens">
            {' '}
            ({trimDecimals(formatUnits(value, 18))} {symbol})
          </span>
        )}
      </dd>
    </>
  )
}
