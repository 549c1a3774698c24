import { useState } from 'react'
import { type Address, encodeFunctionData, formatEther, parseEther } from 'viem'
import type { Info } from '../../emulator.js'
import { addBalance } from '../../passport/devControls.js'
import type { GameWallet } from '../../passport/useGameWallet.js'
import { useFailures } from '../../ui/errors.js'
import { trimDecimals } from '../../ui/format.js'
import { faucetAmount, testTokenAbi } from '../../wallet/tokens.js'

/** What "Add 1 test ETH" adds to the wallet's balance. */
const fundAmount = parseEther('1')

/**
 * The wallet's account: Connect (`eth_requestAccounts`, which registers the
 * player's wallet on first use), then its address, native and test-token
 * balances, whether the contract is deployed, and a dev faucet.
 */
export function GameWalletAccount(props: { info: Info; wallet: GameWallet }) {
  const { info, wallet } = props
  const { address, reading } = wallet
  const [funding, setFunding] = useState(false)
  const [minting, setMinting] = useState(false)
  const { report, clear } = useFailures('passport')

  const fund = async () => {
    if (!address) return
    setFunding(true)
    clear()
    try {
      await addBalance(info.rpcUrl, address, fundAmount)
      await wallet.refresh()
    } catch (error) {
      report('Adding test ETH', error)
    } finally {
      setFunding(false)
    }
  }

  /**
   * Mints 100 TEST to the wallet with a transaction of the wallet itself
   * (the test token's `mint` is open), then reads the balances again.
   */
  const mint = () => {
    const { provider } = wallet
    if (!address || !provider) return
    setMinting(true)
    clear()
    // In the click's turn: the wallet opens its popup before any await.
    const sending = provider.request({
      method: 'eth_sendTransaction',
      params: [
        {
          from: address,
          to: info.contracts.erc20 as Address,
          data: encodeFunctionData({
            abi: testTokenAbi,
            functionName: 'mint',
            args: [address, faucetAmount],
          }),
        },
      ],
    })
    void (async () => {
      try {
        const hash = await sending
        const receipt = await wallet.client.waitForTransactionReceipt({ hash })
        if (receipt.status !== 'success')
          throw new Error(`The mint ${hash} reverted.`)
      } catch (error) {
        report('Minting test tokens', error)
      } finally {
        setMinting(false)
        await wallet.refresh()
      }
    })()
  }

  if (!address)
    return (
      <div className="stack">
        <p className="hint">
          Connecting asks the wallet for its account (
          <code>eth_requestAccounts</code>); the first time, the platform API
          registers the player’s smart-contract wallet.
        </p>
        <div>
          <button
            type="button"
            disabled={!wallet.provider || wallet.connecting}
            data-testid="game-connect"
            onClick={() => void wallet.connect()}
          >
            {!wallet.provider
              ? 'Loading the wallet…'
              : wallet.connecting
                ? 'Connecting…'
                : 'Connect'}
          </button>
        </div>
      </div>
    )

  return (
    <div className="stack">
      <dl className="facts" data-testid="game-account">
        <dt>Address</dt>
        <dd>
          <code data-testid="game-address">{address}</code>
        </dd>
        <dt>ETH</dt>
        <dd data-testid="game-eth">
          {reading ? trimDecimals(formatEther(reading.eth)) : '…'}
        </dd>
        <dt>TEST (ERC-20)</dt>
        <dd data-testid="game-token">
          {reading ? trimDecimals(formatEther(reading.token)) : '…'}
        </dd>
        <dt>Deployed</dt>
        <dd data-testid="game-deployed">
          {reading
            ? reading.deployed
              ? 'yes'
              : 'not yet (the first transaction deploys it)'
            : '…'}
        </dd>
      </dl>
      <div className="row">
        <button
          type="button"
          data-testid="game-refresh"
          onClick={() => void wallet.refresh()}
        >
          Refresh balances
        </button>
        <button
          type="button"
          disabled={funding}
          data-testid="game-fund"
          onClick={() => void fund()}
        >
          {funding ? 'Adding…' : 'Add 1 test ETH'}
        </button>
        <button
          type="button"
          disabled={minting || !wallet.provider}
          data-testid="game-mint"
          onClick={mint}
        >
          {minting ? 'Minting…' : 'Mint 100 TEST'}
        </button>
      </div>
      <p className="hint">
        The wallet is a contract: it needs ETH of its own to send value. “Add 1
        test ETH” sets its balance on Anvil (a dev-only method); “Mint 100 TEST”
        is a transaction of the wallet calling the test token’s open mint.
      </p>
    </div>
  )
}
