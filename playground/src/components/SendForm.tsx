import { type FormEvent, useState } from 'react'
import { type Address, isAddress, parseUnits } from 'viem'
import { useSendTransaction, useWriteContract } from 'wagmi'
import type { Info } from '../emulator.js'
import { useFailures } from '../ui/errors.js'
import { shortHex } from '../ui/format.js'
import { useWalletLog } from '../wallet/log.js'
import { testTokenAbi } from '../wallet/tokens.js'
import type { NewTransaction } from './Transactions.js'

type Asset = 'ETH' | 'TEST'

/** Anvil's second test account: a recipient that exists on every fresh chain. */
const sampleRecipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/**
 * Sends ETH or the test ERC-20 to a recipient. The form checks the address
 * and the amount itself; what the wallet or the chain refuses shows in the
 * error banner.
 */
export function SendForm(props: {
  info: Info
  onTransaction: (transaction: NewTransaction) => void
}) {
  const { info, onTransaction } = props
  const [asset, setAsset] = useState<Asset>('ETH')
  const [to, setTo] = useState(sampleRecipient)
  const [amount, setAmount] = useState('0.01')
  const [touched, setTouched] = useState(false)
  const send = useSendTransaction()
  const write = useWriteContract()
  const failures = useFailures('wallet')
  const { record } = useWalletLog()

  const toProblem = isAddress(to.trim(), { strict: false })
    ? undefined
    : 'Enter an address: 0x and 40 hex digits.'
  const value = parseAmount(amount)
  const amountProblem =
    value === undefined
      ? 'Enter a positive amount, e.g. 0.01 (at most 18 decimals).'
      : undefined
  const pending = send.isPending || write.isPending

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (toProblem || value === undefined) return
    const recipient = to.trim() as Address
    const label = `Send ${amount.trim()} ${asset} to ${shortHex(recipient)}`
    failures.clear()
    try {
      const hash =
        asset === 'ETH'
          ? await send.mutateAsync({ to: recipient, value })
          : await write.mutateAsync({
              address: info.contracts.erc20 as Address,
              abi: testTokenAbi,
              functionName: 'transfer',
              args: [recipient, value],
            })
      record('dapp', 'sent', label, { hash })
      onTransaction({ hash, label })
    } catch (error) {
      failures.report(label, error)
    }
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="send-asset">Asset</label>
        <select
          id="send-asset"
          data-testid="send-asset"
          value={asset}
          onChange={(event) => setAsset(event.target.value as Asset)}
        >
          <option value="ETH">ETH</option>
          <option value="TEST">TEST (the test ERC-20)</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="send-to">Recipient</label>
        <input
          id="send-to"
          data-testid="send-to"
          spellCheck={false}
          value={to}
          aria-invalid={touched && toProblem !== undefined}
          aria-describedby="send-to-problem"
          onChange={(event) => setTo(event.target.value)}
        />
        {touched && toProblem && (
          <span className="error" id="send-to-problem">
            {toProblem}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="send-amount">Amount</label>
        <input
          id="send-amount"
          data-testid="send-amount"
          inputMode="decimal"
          value={amount}
          aria-invalid={touched && amountProblem !== undefined}
          aria-describedby="send-amount-problem"
          onChange={(event) => setAmount(event.target.value)}
        />
        {touched && amountProblem && (
          <span className="error" id="send-amount-problem">
            {amountProblem}
          </span>
        )}
      </div>
      <p className="hint">
        The recipient is filled in with Anvil’s second test account; any address
        works.
      </p>
      <div>
        <button type="submit" disabled={pending} data-testid="send-submit">
          {pending ? 'Sending…' : `Send ${asset}`}
        </button>
      </div>
    </form>
  )
}

/** A positive amount of an 18-decimal asset in base units, if it is one. */
function parseAmount(text: string): bigint | undefined {
  const trimmed = text.trim()
  if (!/^\d+(\.\d{1,18})?$|^\.\d{1,18}$/.test(trimmed)) return undefined
  const value = parseUnits(trimmed, 18)
  return value > 0n ? value : undefined
}
