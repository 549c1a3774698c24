import type { mr } from 'embedded-wallets/api'
import { useState } from 'react'
import { type Address, getAddress, parseEther } from 'viem'
import { LongValue } from '../ui/LongValue.js'
import { eth, type Nft, nftKey, priceOf } from './actions.js'
import type { Outcome, Running } from './runner.js'

/** The price a new listing starts with, in ETH. */
const defaultPrice = '0.5'

/**
 * A price typed in ETH as wei, or why it is not one: positive, at most 18
 * decimals.
 */
export function readPrice(text: string): bigint | string {
  const trimmed = text.trim()
  if (!/^(\d+(\.\d{0,18})?|\.\d{1,18})$/.test(trimmed))
    return 'Enter a price in ETH, e.g. 0.5 (at most 18 decimals).'
  const wei = parseEther(trimmed)
  return wei > 0n ? wei : 'The price must be more than 0.'
}

/**
 * The connected account's NFTs, as the platform's indexer has them, each
 * with a price field and its List button, or the listing it already has;
 * and the dev chain's mint of a test NFT.
 */
export function OwnedNfts(props: {
  account: Address | undefined
  nfts: readonly mr.NFTWithBalance[] | undefined
  loading: boolean
  /** The account's live listings, by {@link nftKey}. */
  listed: ReadonlyMap<string, mr.Order>
  nameOf: (contract: string) => string
  running: Running | undefined
  outcome: Outcome | undefined
  ready: boolean
  onList: (nft: Nft, price: bigint) => void
  onMint: () => void
}) {
  const { account, nfts, listed, nameOf, running, outcome, ready } = props
  const [prices, setPrices] = useState<Readonly<Record<string, string>>>({})
  if (!account)
    return (
      <p className="muted" data-testid="market-nfts-empty">
        Connect a wallet to see and list your NFTs.
      </p>
    )
  const busy = (key: string) => running?.key === key
  const said = (key: string) =>
    busy(key) ? running?.step : outcome?.key === key ? outcome.text : undefined
  return (
    <>
      <div className="market-mint">
        <button
          type="button"
          onClick={props.onMint}
          disabled={!ready}
          data-testid="market-mint"
        >
          {busy('mint') ? 'Minting…' : 'Mint a test NFT'}
        </button>
        <span className="market-dev">dev chain</span>
        <span className="muted market-step" data-testid="market-mint-step">
          {said('mint') ??
            'The test NFT’s mint is open to anyone: a transaction you sign.'}
        </span>
      </div>
      {props.loading ? (
        <p className="muted">Reading the indexer…</p>
      ) : !nfts || nfts.length === 0 ? (
        <p className="muted" data-testid="market-nfts-empty">
          This account holds no NFT yet. Mint a test NFT to list one.
        </p>
      ) : (
        <ul className="market-items">
          {nfts.map((record) => {
            const nft: Nft = {
              contract: getAddress(record.contract_address),
              tokenId: BigInt(record.token_id),
              collection: nameOf(record.contract_address),
            }
            const key = nftKey(nft.contract, nft.tokenId)
            const text = prices[key] ?? defaultPrice
            const price = readPrice(text)
            const listing = listed.get(key)
            const step = said(key)
            return (
              <li
                key={key}
                className="market-item"
                data-testid="market-nft"
                data-contract={nft.contract}
                data-token-id={record.token_id}
              >
                <div className="market-item-head">
                  <strong data-testid="market-nft-name">
                    {nft.collection} #{record.token_id}
                  </strong>
                  {record.name &&
                    record.name !== `${nft.collection} ${record.token_id}` && (
                      <span className="muted">{record.name}</span>
                    )}
                </div>
                <div className="market-item-contract muted">
                  Contract <LongValue value={nft.contract} keep={6} />
                </div>
                {listing ? (
                  <p className="market-listed" data-testid="market-nft-listed">
                    Listed for {eth(priceOf(listing))},{' '}
                    <span className={`market-status ${listing.status.name}`}>
                      {listing.status.name}
                    </span>
                  </p>
                ) : (
                  <div className="market-list-form">
                    <label className="market-price">
                      <span>Price (ETH)</span>
                      <input
                        inputMode="decimal"
                        value={text}
                        aria-invalid={typeof price === 'string'}
                        onChange={(event) =>
                          setPrices({ ...prices, [key]: event.target.value })
                        }
                        data-testid="market-price"
                      />
                    </label>
                    <button
                      type="button"
                      disabled={!ready || typeof price === 'string'}
                      onClick={() =>
                        typeof price === 'bigint' && props.onList(nft, price)
                      }
                      data-testid="market-list"
                    >
                      {typeof price === 'bigint'
                        ? `List for ${eth(price)}`
                        : 'List'}
                    </button>
                  </div>
                )}
                {typeof price === 'string' && !listing && (
                  <span className="error" data-testid="market-price-problem">
                    {price}
                  </span>
                )}
                {step && (
                  <p className="muted market-step" data-testid="market-step">
                    {step}
                  </p>
                )}
              </li>
            )
          })}
        </ul>
      )}
    </>
  )
}
