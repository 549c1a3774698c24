import { useQuery } from '@tanstack/react-query'
import type { Magic } from 'embedded-wallets/magic'
import { useEffect } from 'react'
import { type Address, formatUnits } from 'viem'
import {
  useBalance,
  useBlockNumber,
  useConnection,
  useDisconnect,
  useReadContracts,
  useWriteContract,
} from 'wagmi'
import type { Info } from '../emulator.js'
import { useFailures } from '../ui/errors.js'
import { trimDecimals } from '../ui/format.js'
import { useWalletLog } from '../wallet/log.js'
import { faucetAmount, testNftAbi, testTokenAbi } from '../wallet/tokens.js'
import type { NewTransaction } from './Transactions.js'

/**
 * The connected account: its address, how it is connected, the user's email
 * (for the iframe wallet), its balances (ETH, the test ERC-20, the number of
 * test NFTs; read again on every block), the faucet and the disconnect.
 */
export function AccountPanel(props: {
  info: Info
  address: Address
  pageMagic: Magic
  onTransaction: (transaction: NewTransaction) => void
}) {
  const { info, address, pageMagic, onTransaction } = props
  const { connector, chain } = useConnection()
  const failures = useFailures('wallet')
  const { record } = useWalletLog()
  const disconnect = useDisconnect()
  const write = useWriteContract()
  const { erc20, testErc721: erc721 } = info.contracts

  const eth = useBalance({ address })
  const tokens = useReadContracts({
    allowFailure: false,
    contracts: [
      {
        address: erc20 as Address,
        abi: testTokenAbi,
        functionName: 'balanceOf',
        args: [address],
      },
      { address: erc20 as Address, abi: testTokenAbi, functionName: 'symbol' },
      {
        address: erc20 as Address,
        abi: testTokenAbi,
        functionName: 'decimals',
      },
      {
        address: erc721 as Address,
        abi: testNftAbi,
        functionName: 'balanceOf',
        args: [address],
      },
    ],
  })
  // Balances follow the chain: read them again on every new block.
  const block = useBlockNumber({ watch: true })
  const { refetch: refetchEth } = eth
  const { refetch: refetchTokens } = tokens
  useEffect(() => {
    if (block.data === undefined) return
    void refetchEth()
    void refetchTokens()
  }, [block.data, refetchEth, refetchTokens])

  const readError = eth.error ?? tokens.error
  const { report } = failures
  useEffect(() => {
    if (readError) report('Reading the balances', readError)
  }, [readError, report])

  // Only the SDK knows the user's email: ask the page's client, which
  // shares the session, when the wallet is the iframe wallet.
  const isIframeWallet = connector?.id === 'link.magic'
  const user = useQuery({
    queryKey: ['iframe-wallet-user', address],
    queryFn: () => pageMagic.user.getInfo(),
    enabled: isIframeWallet,
    retry: false,
  })

  const getTestTokens = async () => {
    failures.clear()
    try {
      const token = await write.mutateAsync({
        address: erc20 as Address,
        abi: testTokenAbi,
        functionName: 'mint',
        args: [address, faucetAmount],
      })
      onTransaction({ hash: token, label: 'Mint 100 TEST' })
      const nft = await write.mutateAsync({
        address: erc721 as Address,
        abi: testNftAbi,
        functionName: 'mint',
        args: [address],
      })
      onTransaction({ hash: nft, label: 'Mint 1 test NFT' })
    } catch (error) {
      failures.report('Getting test tokens', error)
    }
  }

  const leave = async () => {
    failures.clear()
    try {
      await disconnect.mutateAsync({})
    } catch (error) {
      failures.report('Disconnecting', error)
      record('dapp', 'disconnect failed', String(error))
    }
  }

  const [tokenBalance, symbol, decimals, nfts] = tokens.data ?? []
  return (
    <div className="account">
      <dl className="facts">
        <dt>Address</dt>
        <dd>
          <code data-testid="account-address">{address}</code>
        </dd>
        {isIframeWallet && (
          <>
            <dt>Email</dt>
            <dd data-testid="magic-user-email">
              {user.data?.email ?? (user.isPending ? '…' : '—')}
            </dd>
          </>
        )}
        <dt>Connected through</dt>
        <dd data-testid="account-connector">
          {connector?.name}{' '}
          <span className="muted">
            {connector?.type === 'injected'
              ? '(its EIP-6963 provider, wagmi injected)'
              : `(wagmi connector ${connector?.type})`}
          </span>
        </dd>
        <dt>Chain</dt>
        <dd>
          {chain?.name ?? 'not configured'} ({chain?.id})
        </dd>
      </dl>
      <h3>Balances</h3>
      <dl className="facts balances">
        <dt>ETH</dt>
        <dd className="value" data-testid="balance-eth">
          {eth.data ? trimDecimals(formatUnits(eth.data.value, 18)) : '…'}
        </dd>
        <dt>{symbol ?? 'TEST'}</dt>
        <dd className="value" data-testid="balance-erc20">
          {tokenBalance === undefined || decimals === undefined
            ? '…'
            : trimDecimals(formatUnits(tokenBalance, decimals))}
        </dd>
        <dt>Test NFTs</dt>
        <dd className="value" data-testid="balance-erc721">
          {nfts === undefined ? '…' : nfts.toString()}
        </dd>
      </dl>
      <p className="hint">
        Every new user of the emulated wallet starts with 100 test ETH. The test
        token and NFT contracts let anyone mint: that is two transactions you
        sign.
      </p>
      <div className="row">
        <button
          type="button"
          disabled={write.isPending}
          onClick={getTestTokens}
          data-testid="get-tokens"
        >
          {write.isPending ? 'Minting…' : 'Get test tokens'}
        </button>
        <button
          type="button"
          disabled={disconnect.isPending}
          onClick={leave}
          data-testid="disconnect"
        >
          Disconnect
        </button>
      </div>
      <p className="hint">
        {connector?.type === 'magic'
          ? 'Disconnecting the connector logs you out of the wallet.'
          : 'Disconnecting an announced wallet only makes this page forget it; the wallet keeps its session.'}
      </p>
    </div>
  )
}
