import type { mr } from 'embedded-wallets/api'
import type { Address } from 'viem'
import { formatDateTime } from '../ui/format.js'
import { LongValue } from '../ui/LongValue.js'
import { eth, nftLabel, nftOfOrder, priceOf } from './actions.js'

/**
 * The order book's newest trades: the NFT, its price (and the fees the
 * buyer paid on top), seller, buyer, the transaction that filled the order,
 * and when the book saw it.
 */
export function Trades(props: {
  trades: readonly mr.Trade[] | undefined
  loading: boolean
  account: Address | undefined
  nameOf: (contract: string) => string
}) {
  const { trades, account, nameOf } = props
  if (props.loading) return <p className="muted">Reading the order book…</p>
  if (!trades || trades.length === 0)
    return (
      <p className="muted" data-testid="market-trades-empty">
        No trades yet: buy a listing and its trade shows here.
      </p>
    )
  const you = (address: string) =>
    account !== undefined && address === account.toLowerCase() ? (
      <span className="market-you">you</span>
    ) : null
  return (
    <table className="market-table">
      <thead>
        <tr>
          <th>NFT</th>
          <th>Price</th>
          <th>Seller</th>
          <th>Buyer</th>
          <th>Transaction</th>
          <th>When</th>
        </tr>
      </thead>
      <tbody>
        {trades.map((trade) => {
          const nft = nftOfOrder(trade, nameOf)
          const fees = trade.fees.reduce(
            (sum, fee) => sum + BigInt(fee.amount),
            0n,
          )
          return (
            <tr
              key={trade.id}
              data-testid="market-trade"
              data-trade-id={trade.id}
              data-order-id={trade.order_id}
              data-contract={nft?.contract}
              data-token-id={nft?.tokenId.toString()}
            >
              <td data-testid="market-trade-nft">
                {nft ? nftLabel(nft) : trade.sell[0]?.type}
              </td>
              <td>
                <span data-testid="market-trade-price">
                  {eth(priceOf(trade))}
                </span>
                {fees > 0n && (
                  <span
                    className="muted market-fees"
                    data-testid="market-trade-fees"
                  >
                    + {eth(fees)} fees
                  </span>
                )}
              </td>
              <td>
                <LongValue
                  value={trade.seller_address}
                  testId="market-trade-seller"
                />
                {you(trade.seller_address)}
              </td>
              <td>
                <LongValue
                  value={trade.buyer_address}
                  testId="market-trade-buyer"
                />
                {you(trade.buyer_address)}
              </td>
              <td>
                {trade.blockchain_metadata ? (
                  <LongValue
                    value={trade.blockchain_metadata.transaction_hash}
                    testId="market-trade-tx"
                  />
                ) : (
                  <span className="muted">not indexed yet</span>
                )}
              </td>
              <td className="muted">
                {formatDateTime(new Date(trade.indexed_at))}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
