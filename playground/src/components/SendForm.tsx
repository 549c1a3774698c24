import { type FormEvent, useEffect, useState } from 'react'
import { type Address, formatUnits, isAddress, parseUnits } from 'viem'
import {
  useBalance,
  useBlockNumber,
  useConnection,
  useEstimateFeesPerGas,
  useReadContract,
  useSendTransaction,
  useWriteContract,
} from 'wagmi'
import type { Info } from '../emulator.js'
import { useFailures } from '../ui/errors.js'
import { tokenErrorsAbi } from '../ui/explain.js'
import { shortHex, trimDecimals } from '../ui/format.js'
import { useActivity } from '../wallet/activity.js'
import { useWalletLog } from '../wallet/log.js'
import { testTokenAbi } from '../wallet/tokens.js'

type Asset = 'ETH' | 'TEST'

/** Anvil's second test account: a recipient that exists on every fresh chain. */
const sampleRecipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** The gas of a plain ETH transfer (the yellow paper's G_transaction). */
const transferGas = 21_000n

/** The test token's ABI with OpenZeppelin's errors, so that viem can name a revert. */
const tokenAbi = [...testTokenAbi, ...tokenErrorsAbi] as const

/**
 * Sends ETH or the test ERC-20 from the connected account, whichever
 * wallet it is, through wagmi. The form checks the recipient, the amount
 * and the balance before anything is sent (the account's balance, read
 * again on every block; an account that pays its own gas must also keep
 * the network fee of an ETH transfer), says what is wrong next to the
 * field and keeps Send disabled until it is right. What the wallet or the
 * chain refuses then shows in the error banner, in words.
 */
export function SendForm(props: { info: Info; address: Address }) {
  const { info, address } = props
  const { connector } = useConnection()
  const [asset, setAsset] = useState<Asset>('ETH')
  const [to, setTo] = useState(sampleRecipient)
  const [amount, setAmount] = useState('0.01')
  const send = useSendTransaction()
  const write = useWriteContract()
  const failures = useFailures('wallet')
  const { track } = useActivity()
  const { record } = useWalletLog()

  const eth = useBalance({ address })
  const token = useReadContract({
    address: info.contracts.erc20 as Address,
    abi: testTokenAbi,
    functionName: 'balanceOf',
    args: [address],
  })
  const fees = useEstimateFeesPerGas()
  const block = useBlockNumber({ watch: true })
  const { refetch: refetchEth } = eth
  const { refetch: refetchToken } = token
  useEffect(() => {
    if (block.data === undefined) return
    void refetchEth()
    void refetchToken()
  }, [block.data, refetchEth, refetchToken])

  // The game wallet's relayer pays the gas of its transactions; any other
  // account pays its own, from its ETH.
  const paysGas = connector?.id !== 'com.immutable.passport'
  const fee =
    paysGas && asset === 'ETH' && fees.data?.maxFeePerGas !== undefined
      ? transferGas * fees.data.maxFeePerGas
      : 0n
  const balance = asset === 'ETH' ? eth.data?.value : token.data

  const toProblem = isAddress(to.trim(), { strict: false })
    ? undefined
    : 'Enter an address: 0x and 40 hex digits.'
  const value = parseAmount(amount)
  const amountProblem =
    value === undefined
      ? 'Enter a positive amount, e.g. 0.01 (at most 18 decimals).'
      : balance === undefined
        ? undefined
        : value > balance
          ? `More than your balance of ${format(balance)} ${asset}.`
          : value + fee > balance
            ? `That leaves too little for the network fee (about ${format(fee)} ETH): send at most ${format(balance - fee)} ETH.`
            : undefined
  const pending = send.isPending || write.isPending
  const blocked =
    toProblem !== undefined ||
    amountProblem !== undefined ||
    balance === undefined ||
    pending

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (blocked || value === undefined) return
    const recipient = to.trim() as Address
    const label = `Send ${amount.trim()} ${asset} to ${shortHex(recipient)}`
    failures.clear()
    try {
      const hash =
        asset === 'ETH'
          ? await send.mutateAsync({ to: recipient, value })
          : await write.mutateAsync({
              address: info.contracts.erc20 as Address,
              abi: tokenAbi,
              functionName: 'transfer',
              args: [recipient, value],
            })
      record('dapp', 'sent', label, { hash })
      track({ hash, label, from: address })
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
        <span className="hint" data-testid="send-balance">
          {balance === undefined
            ? 'Reading your balance…'
            : `Balance: ${format(balance)} ${asset}`}
        </span>
      </div>
      <div className="field">
        <label htmlFor="send-to">Recipient</label>
        <input
          id="send-to"
          data-testid="send-to"
          spellCheck={false}
          value={to}
          aria-invalid={toProblem !== undefined}
          aria-describedby="send-to-problem"
          onChange={(event) => setTo(event.target.value)}
        />
        {toProblem && (
          <span
            className="error"
            id="send-to-problem"
            data-testid="send-to-problem"
          >
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
          aria-invalid={amountProblem !== undefined}
          aria-describedby="send-amount-problem"
          onChange={(event) => setAmount(event.target.value)}
        />
        {amountProblem && (
          <span
            className="error"
            id="send-amount-problem"
            data-testid="send-amount-problem"
          >
            {amountProblem}
          </span>
        )}
      </div>
      <p className="hint">
        The recipient is filled in with Anvil’s second test account; any address
        works.
      </p>
      <div>
        <button type="submit" disabled={blocked} data-testid="send-submit">
          {pending ? 'Sending…' : `Send ${asset}`}
        </button>
      </div>
    </form>
  )
}

/** An 18-decimal amount as the form shows it: at most 6 decimals, cut. */
function format(value: bigint): string {
  return trimDecimals(formatUnits(value, 18))
}

/** A positive amount of an 18-decimal asset in base units, if it is one. */
function parseAmount(text: string): bigint | undefined {
  const trimmed = text.trim()
  if (!/^\d+(\.\d{1,18})?$|^\.\d{1,18}$/.test(trimmed)) return undefined
  const value = parseUnits(trimmed, 18)
  return value > 0n ? value : undefined
}
