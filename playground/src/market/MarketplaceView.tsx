import type { mr } from 'embedded-wallets/api'
import { useEffect, useMemo, useState } from 'react'
import type { Address } from 'viem'
import { useConfig, useConnection } from 'wagmi'
import type { Info } from '../emulator.js'
import { useFailures } from '../ui/errors.js'
import { useActivity } from '../wallet/activity.js'
import {
  buyListing,
  cancelListing,
  eth,
  listNft,
  type MarketContext,
  mintTestNft,
  type Nft,
  nftKey,
  nftLabel,
  nftOfOrder,
  priceOf,
} from './actions.js'
import {
  createBook,
  type StatusFilter,
  useChainName,
  useListings,
  useOnScreen,
  useOwnedNfts,
  useOwnListings,
  useTrades,
} from './book.js'
import { Listings } from './Listings.js'
import { useCollectionNames } from './names.js'
import { OwnedNfts } from './OwnedNfts.js'
import { useRunner } from './runner.js'
import { Trades } from './Trades.js'
import './market.css'

/**
 * The marketplace: list an NFT the connected account owns on the emulated
 * order book, buy a listing, and see the trades. Everything goes through
 * the package's public API: the platform's generated clients (indexer and
 * order book) and the connected wallet through wagmi, whichever wallet it
 * is; the dApp builds and signs the Seaport orders itself.
 */
export function MarketplaceView(props: { info: Info }) {
  const { info } = props
  const { seaport, signedZone, testErc721 } = info.contracts
  const book = useMemo(() => createBook(info), [info])
  const config = useConfig()
  const { track } = useActivity()
  const connection = useConnection()
  const account =
    connection.status === 'connected' ? connection.address : undefined
  const [element, setElement] = useState<HTMLDivElement | null>(null)
  const poll = useOnScreen(element)
  const [status, setStatus] = useState<StatusFilter>('ALL')

  const chainName = useChainName(book, info.chainId)
  const name = chainName.data
  const nfts = useOwnedNfts({ book, chainName: name, owner: account, poll })
  const listings = useListings({ book, chainName: name, status, poll })
  const trades = useTrades({ book, chainName: name, poll })
  const own = useOwnListings({ book, chainName: name, owner: account, poll })
  const nameOf = useCollectionNames([
    testErc721,
    ...(nfts.data ?? []).map((nft) => nft.contract_address),
    ...(listings.data ?? []).flatMap((order) =>
      order.sell.flatMap((item) =>
        item.type === 'ERC721' ? [item.contract_address] : [],
      ),
    ),
    ...(trades.data ?? []).flatMap((trade) =>
      trade.sell.flatMap((item) =>
        item.type === 'ERC721' ? [item.contract_address] : [],
      ),
    ),
  ])
  const { running, outcome, run } = useRunner(account)
  const readError =
    chainName.error ?? nfts.error ?? listings.error ?? trades.error ?? own.error
  const { report } = useFailures('market')
  useEffect(() => {
    if (readError) report('Reading the order book and the indexer', readError)
  }, [readError, report])

  /** The account's live listings, by NFT, to show what is listed already. */
  const listed = useMemo(() => {
    const byNft = new Map<string, mr.Order>()
    for (const order of own.data ?? []) {
      const [item] = order.sell
      if (item?.type === 'ERC721')
        byNft.set(nftKey(item.contract_address, item.token_id), order)
    }
    return byNft
  }, [own.data])

  const contextFor = (
    from: Address,
    step: (text: string) => void,
  ): MarketContext => ({
    config,
    book,
    chainId: info.chainId,
    chainName: name as string,
    seaport: seaport as Address,
    zone: signedZone as Address,
    account: from,
    track,
    step,
  })
  const ready = account !== undefined && name !== undefined && !running

  const list = (nft: Nft, price: bigint) => {
    if (!account || !name) return
    const label = `List ${nftLabel(nft)} for ${eth(price)}`
    void run(nftKey(nft.contract, nft.tokenId), label, async (step) => {
      await listNft(contextFor(account, step), nft, price)
      // What the book makes of it (PENDING, then ACTIVE) shows beside it.
      return 'Listed on the order book.'
    })
  }
  const buy = (order: mr.Order) => {
    const nft = nftOfOrder(order, nameOf)
    if (!account || !name || !nft) return
    void run(
      order.id,
      `Buy ${nftLabel(nft)} for ${eth(priceOf(order))}`,
      async (step) => {
        await buyListing(contextFor(account, step), order, nft)
        return 'Bought: it is yours.'
      },
    )
  }
  const cancel = (order: mr.Order) => {
    const nft = nftOfOrder(order, nameOf)
    if (!account || !name || !nft) return
    void run(
      order.id,
      `Cancel the listing of ${nftLabel(nft)}`,
      async (step) =>
        (await cancelListing(contextFor(account, step), order)) === 'pending'
          ? 'Cancelled: final once fulfilment data the book gave out expires.'
          : 'Cancelled.',
    )
  }
  const mint = () => {
    if (!account || !name) return
    void run('mint', 'Mint a test NFT', async (step) => {
      const id = await mintTestNft(
        contextFor(account, step),
        testErc721 as Address,
      )
      return id === undefined
        ? 'Minted.'
        : `Minted ${nameOf(testErc721)} #${id}.`
    })
  }

  return (
    <div className="market" ref={setElement} data-testid="market">
      <p className="market-lead">
        List an NFT you own, buy someone else’s, and see the trades: the page
        builds each Seaport 1.5 order itself, your wallet signs it, and the
        platform’s order book and indexer, through the package’s generated
        clients, do the rest. Any ERC-721 you hold can be listed, but the
        platform’s own collection is minted only by a game’s backend with its
        secret key, so the dev button mints the chain’s test NFT, which anyone
        may mint and which the order book and the seaport take like any other.
      </p>
      <div className="market-columns">
        <section className="panel market-section" data-testid="market-nfts">
          <h3>Your NFTs</h3>
          <OwnedNfts
            key={account ?? 'none'}
            account={account}
            nfts={nfts.data}
            loading={nfts.isPending && account !== undefined}
            listed={listed}
            nameOf={nameOf}
            running={running}
            outcome={outcome}
            ready={ready}
            onList={list}
            onMint={mint}
          />
        </section>
        <section className="panel market-section" data-testid="market-listings">
          <Listings
            account={account}
            listings={listings.data}
            loading={listings.isPending}
            status={status}
            onStatus={setStatus}
            nameOf={nameOf}
            running={running}
            outcome={outcome}
            ready={ready}
            onBuy={buy}
            onCancel={cancel}
          />
        </section>
      </div>
      <section className="panel market-section" data-testid="market-trades">
        <h3>Trades</h3>
        <Trades
          trades={trades.data}
          loading={trades.isPending}
          account={account}
          nameOf={nameOf}
        />
      </section>
    </div>
  )
}
