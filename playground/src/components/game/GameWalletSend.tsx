import { type FormEvent, useState } from 'react'
import { type Address, type Hash, isAddress, parseEther, toHex } from 'viem'
import type { Info } from '../../emulator.js'
import {
  type RelayerOutcome,
  relayerNext,
  relayerReset,
} from '../../passport/devControls.js'
import type { GameWallet } from '../../passport/useGameWallet.js'
import { messageOf } from '../../ui/format.js'

/** Anvil's second test account: a recipient that exists on every fresh chain. */
const sampleRecipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

type NextSend = 'normal' | RelayerOutcome

/** Where the last send stands. */
type Sent =
  | { state: 'sending' }
  | { state: 'mining'; hash: Hash }
  | { state: 'mined'; hash: Hash; status: 'success' | 'reverted' }
  | { state: 'failed'; hash?: Hash | undefined; message: string }

/**
 * Sends ETH from the game wallet (`eth_sendTransaction`: the wallet signs a
 * meta-transaction, the guardian evaluates it, the relayer submits it),
 * then waits for the receipt. A selector sets what the emulated relayer
 * does with the next send (fail, revert, cancel) to show how the wallet
 * reports each.
 */
export function GameWalletSend(props: {
  info: Info
  wallet: GameWallet
  address: Address
}) {
  const { info, wallet, address } = props
  const [to, setTo] = useState(sampleRecipient)
  const [amount, setAmount] = useState('0.001')
  const [next, setNext] = useState<NextSend>('normal')
  const [nextProblem, setNextProblem] = useState<string>()
  const [sent, setSent] = useState<Sent>()

  const toProblem = isAddress(to.trim(), { strict: false })
    ? undefined
    : 'Enter an address: 0x and 40 hex digits.'
  const value = parseAmount(amount)
  const busy = sent?.state === 'sending' || sent?.state === 'mining'

  const chooseNext = async (choice: NextSend) => {
    setNext(choice)
    setNextProblem(undefined)
    try {
      // Replaces whatever was planned: one outcome at a time.
      await relayerReset(info.passport.relayerUrl)
      if (choice !== 'normal')
        await relayerNext(info.passport.relayerUrl, choice)
    } catch (error) {
      setNextProblem(messageOf(error))
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const { provider } = wallet
    if (!provider || toProblem || value === undefined) return
    setSent({ state: 'sending' })
    // Called in the click's turn, before any await: the wallet opens its
    // confirmation popup at once, which popup blockers allow only then.
    const sending = provider.request({
      method: 'eth_sendTransaction',
      params: [
        { from: address, to: to.trim() as Address, value: toHex(value) },
      ],
    })
    void (async () => {
      let hash: Hash | undefined
      try {
        hash = await sending
        setSent({ state: 'mining', hash })
        const receipt = await wallet.client.waitForTransactionReceipt({ hash })
        setSent({ state: 'mined', hash, status: receipt.status })
      } catch (error) {
        setSent({ state: 'failed', hash, message: messageOf(error) })
      } finally {
        // The relayer's planned outcome was used by this send.
        setNext('normal')
        await wallet.refresh()
      }
    })()
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="game-send-to">Recipient</label>
        <input
          id="game-send-to"
          data-testid="game-send-to"
          spellCheck={false}
          value={to}
          aria-invalid={toProblem !== undefined}
          onChange={(event) => setTo(event.target.value)}
        />
        {toProblem && <span className="error">{toProblem}</span>}
      </div>
      <div className="field">
        <label htmlFor="game-send-value">Amount (ETH)</label>
        <input
          id="game-send-value"
          data-testid="game-send-value"
          inputMode="decimal"
          value={amount}
          aria-invalid={value === undefined}
          onChange={(event) => setAmount(event.target.value)}
        />
        {value === undefined && (
          <span className="error">
            Enter an amount, e.g. 0.001 (at most 18 decimals).
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="game-relayer-next">The relayer’s next send</label>
        <select
          id="game-relayer-next"
          data-testid="game-relayer-next"
          value={next}
          onChange={(event) => void chooseNext(event.target.value as NextSend)}
        >
          <option value="normal">goes through</option>
          <option value="fail">fails (FAILED)</option>
          <option value="revert">reverts on chain</option>
          <option value="cancel">is cancelled (CANCELLED)</option>
        </select>
        {nextProblem && (
          <span className="error" data-testid="game-relayer-next-error">
            {nextProblem}
          </span>
        )}
      </div>
      <div>
        <button
          type="submit"
          disabled={!wallet.provider || busy}
          data-testid="game-send-submit"
        >
          {busy ? 'Sending…' : 'Send ETH'}
        </button>
      </div>
      {sent && <SentResult sent={sent} />}
    </form>
  )
}

function SentResult(props: { sent: Sent }) {
  const { sent } = props
  const hash = 'hash' in sent ? sent.hash : undefined
  return (
    <div className="result" data-testid="game-send-result">
      <dl className="facts">
        <dt>Transaction</dt>
        <dd>
          <code data-testid="game-send-hash">{hash ?? '—'}</code>
        </dd>
        <dt>Status</dt>
        <dd
          data-testid="game-send-status"
          data-state={sent.state === 'mined' ? sent.status : sent.state}
          className={
            sent.state === 'mined' && sent.status === 'success'
              ? 'ok'
              : sent.state === 'failed' ||
                  (sent.state === 'mined' && sent.status === 'reverted')
                ? 'error'
                : undefined
          }
        >
          {sent.state === 'sending'
            ? 'Waiting for the wallet…'
            : sent.state === 'mining'
              ? 'Waiting for the receipt…'
              : sent.state === 'mined'
                ? sent.status
                : 'failed'}
        </dd>
      </dl>
      {sent.state === 'failed' && (
        <p className="error" data-testid="game-send-error">
          {sent.message}
        </p>
      )}
    </div>
  )
}

/** A non-negative amount of ETH in wei, if it is one. */
function parseAmount(text: string): bigint | undefined {
  const trimmed = text.trim()
  if (!/^\d+(\.\d{1,18})?$|^\.\d{1,18}$/.test(trimmed)) return undefined
  return parseEther(trimmed)
}
