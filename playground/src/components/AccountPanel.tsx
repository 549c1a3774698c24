import { useQuery } from '@tanstack/react-query'
import type { Magic } from 'embedded-wallets/magic'
import { useEffect, useState } from 'react'
import { type Address, formatUnits } from 'viem'
import {
  useBalance,
  useBlockNumber,
  useConnection,
  useReadContracts,
  useWriteContract,
} from 'wagmi'
import type { Info } from '../emulator.js'
import { useFailures } from '../ui/errors.js'
import { trimDecimals } from '../ui/format.js'
import { LongValue } from '../ui/LongValue.js'
import { useActivity } from '../wallet/activity.js'
import { useWalletLog } from '../wallet/log.js'
import {
  addTestEth,
  faucetAmount,
  faucetEth,
  testNftAbi,
  testTokenAbi,
} from '../wallet/tokens.js'
import { Nfts } from './Nfts.js'

/** What the account view is doing: which dev helper is running. */
type Busy = 'eth' | 'tokens' | 'nft' | undefined

/**
 * The connected account, whichever wallet it is: its address, how it is
 * connected, the user's email (for the iframe wallet), its balances (ETH,
 * the test ERC-20; read again on every block), the NFTs it owns as items
 * (from the platform's indexer), and the dev chain's faucet and mints. Its
 * disconnect is the account chip's, one for the page.
 */
export function AccountPanel(props: {
  info: Info
  address: Address
  pageMagic: Magic
}) {
  const { info, address, pageMagic } = props
  const { connector, chain } = useConnection()
  const failures = useFailures('wallet')
  const { record } = useWalletLog()
  const { track } = useActivity()
  const write = useWriteContract()
  const [busy, setBusy] = useState<Busy>()
  const erc20 = info.contracts.erc20 as Address
  const erc721 = info.contracts.testErc721 as Address

  const eth = useBalance({ address })
  const tokens = useReadContracts({
    allowFailure: false,
    contracts: [
      {
        address: erc20,
        abi: testTokenAbi,
        functionName: 'balanceOf',
        args: [address],
      },
      { address: erc20, abi: testTokenAbi, functionName: 'symbol' },
      { address: erc20, abi: testTokenAbi, functionName: 'decimals' },
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
  const isGameWallet = connector?.id === 'com.immutable.passport'
  const user = useQuery({
    queryKey: ['iframe-wallet-user', address],
    queryFn: () => pageMagic.user.getInfo(),
    enabled: isIframeWallet,
    retry: false,
  })

  /** Runs one dev helper, reporting its failure in words. */
  const run = async (
    which: Busy,
    what: string,
    action: () => Promise<void>,
  ) => {
    setBusy(which)
    failures.clear()
    try {
      await action()
    } catch (error) {
      failures.report(what, error)
    } finally {
      setBusy(undefined)
    }
  }

  const addEth = () =>
    run('eth', 'Adding test ETH', async () => {
      await addTestEth(info.rpcUrl, address, faucetEth)
      record('dapp', 'faucet', 'Added 1 test ETH (dev chain)')
      await refetchEth()
    })

  /** The NFT's mint, tracked as one transaction. */
  const sendNftMint = async () => {
    const hash = await write.mutateAsync({
      address: erc721,
      abi: testNftAbi,
      functionName: 'mint',
      args: [address],
    })
    track({ hash, label: 'Mint 1 test NFT', from: address })
  }

  /** 100 TEST and a test NFT: two transactions the wallet sends. */
  const getTestTokens = () =>
    run('tokens', 'Getting test tokens', async () => {
      const hash = await write.mutateAsync({
        address: erc20,
        abi: testTokenAbi,
        functionName: 'mint',
        args: [address, faucetAmount],
      })
      track({ hash, label: 'Mint 100 TEST', from: address })
      await sendNftMint()
    })

  const mintNft = () => run('nft', 'Minting a test NFT', sendNftMint)

  const [tokenBalance, symbol, decimals] = tokens.data ?? []
  return (
    <div className="account">
      <dl className="facts">
        <dt>Address</dt>
        <dd className="account-address">
          {/* The account's own address, whole, on a line of its own. */}
          <LongValue value={address} keep={21} testId="account-address" />
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
      </dl>
      <div className="row">
        <button
          type="button"
          disabled={busy !== undefined}
          onClick={addEth}
          data-testid="faucet-eth"
        >
          {busy === 'eth' ? 'Adding…' : 'Add 1 test ETH (dev-chain faucet)'}
        </button>
        <button
          type="button"
          disabled={busy !== undefined}
          onClick={getTestTokens}
          data-testid="get-tokens"
        >
          {busy === 'tokens' ? 'Minting…' : 'Get test tokens'}
        </button>
        <button
          type="button"
          disabled={busy !== undefined}
          onClick={mintNft}
          data-testid="mint-nft"
        >
          {busy === 'nft' ? 'Minting…' : 'Mint a test NFT'}
        </button>
      </div>
      <p className="hint">
        {isGameWallet
          ? 'The game wallet is a contract: it needs ETH of its own to send value, which the dev chain’s faucet adds (Anvil’s anvil_setBalance; a hosted chain has none). '
          : 'Every new user of the emulated iframe wallet starts with 100 test ETH; the dev chain’s faucet adds more (Anvil’s anvil_setBalance; a hosted chain has none). '}
        The test token and NFT let anyone mint: “Get test tokens” mints 100 TEST
        and an NFT, each a transaction your wallet sends.
      </p>
      <h3>Your NFTs</h3>
      <Nfts info={info} address={address} />
      <p className="hint">
        {connector?.type === 'injected'
          ? 'Disconnect (on the account chip at the top) only makes this page forget an announced wallet; the wallet keeps its session.'
          : 'Disconnect (on the account chip at the top) logs you out of the wallet.'}
      </p>
    </div>
  )
}
