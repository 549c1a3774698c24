import { useEffect, useState } from 'react'
import { type Address, formatEther, parseEther } from 'viem'
import { useBalance, useBlockNumber, useBytecode } from 'wagmi'
import type { Info } from '../../emulator.js'
import { addBalance } from '../../passport/devControls.js'
import { useFailures } from '../../ui/errors.js'
import { trimDecimals } from '../../ui/format.js'
import { LongValue } from '../../ui/LongValue.js'

/** What the faucet adds to the wallet contract's balance. */
const fundAmount = parseEther('1')

/**
 * The game wallet's contract: its address, whether it is deployed yet (its
 * code on the chain, read again on every block), its own ETH, and the dev
 * chain's faucet for it.
 */
export function WalletContract(props: { info: Info; address: Address }) {
  const { info, address } = props
  const code = useBytecode({ address })
  const balance = useBalance({ address })
  const block = useBlockNumber({ watch: true })
  const [funding, setFunding] = useState(false)
  const { report, clear } = useFailures('passport')
  const { refetch: refetchCode } = code
  const { refetch: refetchBalance } = balance
  useEffect(() => {
    if (block.data === undefined) return
    void refetchCode()
    void refetchBalance()
  }, [block.data, refetchCode, refetchBalance])

  const fund = async () => {
    setFunding(true)
    clear()
    try {
      await addBalance(info.rpcUrl, address, fundAmount)
      await refetchBalance()
    } catch (error) {
      report('Adding test ETH', error)
    } finally {
      setFunding(false)
    }
  }

  // wagmi answers `null` for an address without code.
  const deployed = typeof code.data === 'string' && code.data !== '0x'
  return (
    <div className="stack">
      <dl className="facts" data-testid="game-account">
        <dt>Contract</dt>
        <dd>
          <LongValue value={address} testId="game-address" />
        </dd>
        <dt>Deployed</dt>
        <dd data-testid="game-deployed">
          {code.isPending
            ? '…'
            : deployed
              ? 'yes'
              : 'not yet (the first transaction deploys it)'}
        </dd>
        <dt>Its ETH</dt>
        <dd data-testid="game-eth">
          {balance.data ? trimDecimals(formatEther(balance.data.value)) : '…'}
        </dd>
      </dl>
      <div className="row">
        <button
          type="button"
          disabled={funding}
          data-testid="game-fund"
          onClick={() => void fund()}
        >
          {funding ? 'Adding…' : 'Add 1 test ETH (dev faucet)'}
        </button>
      </div>
    </div>
  )
}
