import { useEffect, useState } from 'react'
import { type Address, encodeFunctionData, type Hash } from 'viem'
import { useCallsStatus, useSendCalls } from 'wagmi'
import type { Info } from '../../emulator.js'
import {
  type RelayerOutcome,
  relayerNext,
  relayerReset,
} from '../../passport/devControls.js'
import { useFailures } from '../../ui/errors.js'
import { messageOf } from '../../ui/format.js'
import { LongValue } from '../../ui/LongValue.js'
import { useActivity } from '../../wallet/activity.js'
import { testNftAbi, testTokenAbi } from '../../wallet/tokens.js'
import { isCancel } from '../ConnectPanel.js'
import { NeedsGameWallet } from './NeedsGameWallet.js'

type NextSend = 'normal' | RelayerOutcome

/** A batch the panel sent, by the relayer's id. */
type Batch = { id: string; label: string; at: Date }

/** What the batch mints: 1 TEST and one test NFT, to the wallet itself. */
const batchLabel = 'Batch: mint 1 TEST and a test NFT'

/**
 * The relayer's outcomes: a batch sent with EIP-5792 `wallet_sendCalls`
 * (one meta-transaction of the wallet, relayed) is followed by its id
 * through `wallet_getCallsStatus`, which the wallet answers from the
 * relayer's status of it; a dev switch makes the relayer's next send fail,
 * revert on chain or be cancelled, to show how each reads.
 */
export function RelayerOutcomes(props: {
  info: Info
  address: Address | undefined
}) {
  const { info, address } = props
  const [next, setNext] = useState<NextSend>('normal')
  const [nextProblem, setNextProblem] = useState<string>()
  const [batches, setBatches] = useState<readonly Batch[]>([])
  const sendCalls = useSendCalls()
  const { report, clear } = useFailures('passport')

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

  const send = async () => {
    if (!address) return
    clear()
    try {
      const { id } = await sendCalls.mutateAsync({
        calls: [
          {
            to: info.contracts.erc20 as Address,
            data: encodeFunctionData({
              abi: testTokenAbi,
              functionName: 'mint',
              args: [address, 10n ** 18n],
            }),
          },
          {
            to: info.contracts.testErc721 as Address,
            data: encodeFunctionData({
              abi: testNftAbi,
              functionName: 'mint',
              args: [address],
            }),
          },
        ],
      })
      setBatches((current) => [
        { id, label: batchLabel, at: new Date() },
        ...current,
      ])
    } catch (error) {
      if (!isCancel(error)) report('Sending the batch', error)
    } finally {
      // The planned outcome applies to one send: this one, if it reached
      // the relayer.
      setNext('normal')
    }
  }

  return (
    <div className="stack">
      <div className="field">
        <label htmlFor="game-relayer-next">The relayer’s next send (dev)</label>
        <select
          id="game-relayer-next"
          data-testid="game-relayer-next"
          value={next}
          onChange={(event) => void chooseNext(event.target.value as NextSend)}
        >
          <option value="normal">goes through</option>
          <option value="fail">fails (FAILED)</option>
          <option value="revert">reverts on chain (REVERTED)</option>
          <option value="cancel">is cancelled (CANCELLED)</option>
        </select>
        <span className="hint">
          Applies once, to the wallet’s next send from any form.
        </span>
        {nextProblem && (
          <span className="error" data-testid="game-relayer-next-error">
            {nextProblem}
          </span>
        )}
      </div>
      {address ? (
        <div className="row">
          <button
            type="button"
            disabled={sendCalls.isPending}
            data-testid="game-batch-send"
            onClick={() => void send()}
          >
            {sendCalls.isPending ? 'Sending…' : 'Send a test batch'}
          </button>
          <span className="hint">Mints 1 TEST and a test NFT in one go.</span>
        </div>
      ) : (
        <NeedsGameWallet what="send a batch through the relayer" />
      )}
      {batches.length > 0 && (
        <ol className="batches" data-testid="game-batches">
          {batches.map((batch) => (
            <BatchRow key={batch.id} batch={batch} from={address} />
          ))}
        </ol>
      )}
    </div>
  )
}

/** What each EIP-5792 status code means here. */
function statusOf(code: number | undefined): {
  state: string
  words: string
} {
  if (code === undefined || code < 200)
    return { state: 'pending', words: 'pending at the relayer' }
  if (code < 300) return { state: 'confirmed', words: 'confirmed on chain' }
  if (code < 500)
    return {
      state: 'failed',
      words: 'not sent: the relayer failed or cancelled it',
    }
  return { state: 'reverted', words: 'reverted on chain' }
}

function BatchRow(props: { batch: Batch; from: Address | undefined }) {
  const { batch, from } = props
  const { track } = useActivity()
  const status = useCallsStatus({
    id: batch.id,
    query: {
      refetchInterval: (query) =>
        (query.state.data?.statusCode ?? 100) < 200 ? 1_000 : false,
    },
  })
  const { state, words } = statusOf(status.data?.statusCode)
  const hash = status.data?.receipts?.[0]?.transactionHash as Hash | undefined
  useEffect(() => {
    if (hash && from) track({ hash, label: batch.label, from })
  }, [hash, from, batch.label, track])
  return (
    <li data-testid="game-batch" data-state={state}>
      <span>{batch.label}</span>{' '}
      <span
        className={`status ${state === 'confirmed' ? 'success' : state}`}
        data-testid="game-batch-status"
      >
        {words}
      </span>
      <div className="batch-ids">
        <span className="muted">id</span>{' '}
        <LongValue value={batch.id} testId="game-batch-id" />
        {hash && (
          <>
            {' '}
            <span className="muted">tx</span>{' '}
            <LongValue value={hash} testId="game-batch-hash" />
          </>
        )}
      </div>
      {status.error && (
        <p className="error" data-testid="game-batch-error">
          {messageOf(status.error)}
        </p>
      )}
    </li>
  )
}
