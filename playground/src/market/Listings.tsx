import type { mr } from 'embedded-wallets/api'
import type { Address } from 'viem'
import { LongValue } from '../ui/LongValue.js'
import { eth, nftLabel, nftOfOrder, priceOf } from './actions.js'
import { live, type StatusFilter } from './book.js'
import type { Outcome, Running } from './runner.js'

const filters: readonly StatusFilter[] = [
  'ALL',
  'PENDING',
  'ACTIVE',
  'INACTIVE',
  'FILLED',
  'CANCELLED',
  'EXPIRED',
]

/**
 * The order book's newest listings (all, or of one status), each with its
 * NFT, price, seller and status: Buy on an active listing of someone else,
 * Cancel on one's own that can still change.
 */
export function Listings(props: {
  account: Address | undefined
  listings: readonly mr.Order[] | undefined
  loading: boolean
  status: StatusFilter
  onStatus: (status: StatusFilter) => void
  nameOf: (contract: string) => string
  running: Running | undefined
  outcome: Outcome | undefined
  ready: boolean
  onBuy: (order: mr.Order) => void
  onCancel: (order: mr.Order) => void
}) {
  const { account, listings, nameOf, running, outcome, ready } = props
  const mine = (order: mr.Order) =>
    account !== undefined && order.account_address === account.toLowerCase()
  return (
    <>
      <div className="market-heading">
        <h3>Listings</h3>
        <label className="market-filter">
          <span>Status</span>
          <select
            value={props.status}
            onChange={(event) =>
              props.onStatus(event.target.value as StatusFilter)
            }
            data-testid="market-status-filter"
          >
            {filters.map((filter) => (
              <option key={filter} value={filter}>
                {filter === 'ALL' ? 'All' : filter}
              </option>
            ))}
          </select>
        </label>
      </div>
      {props.loading ? (
        <p className="muted">Reading the order book…</p>
      ) : !listings || listings.length === 0 ? (
        <p className="muted" data-testid="market-listings-empty">
          No listings{props.status === 'ALL' ? '' : ` ${props.status}`} on the
          order book.
        </p>
      ) : (
        <table className="market-table">
          <thead>
            <tr>
              <th>NFT</th>
              <th>Price</th>
              <th>Seller</th>
              <th>Status</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {listings.map((order) => {
              const nft = nftOfOrder(order, nameOf)
              const step =
                running?.key === order.id
                  ? running.step
                  : outcome?.key === order.id
                    ? outcome.text
                    : undefined
              const fees = order.fees.reduce(
                (sum, fee) => sum + BigInt(fee.amount),
                0n,
              )
              return (
                <tr
                  key={order.id}
                  data-testid="market-listing"
                  data-listing-id={order.id}
                  data-contract={nft?.contract}
                  data-token-id={nft?.tokenId.toString()}
                >
                  <td data-testid="market-listing-nft">
                    {nft ? nftLabel(nft) : order.sell[0]?.type}
                  </td>
                  <td>
                    <span data-testid="market-listing-price">
                      {eth(priceOf(order))}
                    </span>
                    {fees > 0n && (
                      <span className="muted market-fees">
                        + {eth(fees)} fees
                      </span>
                    )}
                  </td>
                  <td>
                    <LongValue
                      value={order.account_address}
                      testId="market-listing-seller"
                    />
                    {mine(order) && <span className="market-you">you</span>}
                  </td>
                  <td>
                    <span
                      className={`market-status ${order.status.name}`}
                      data-testid="market-listing-status"
                    >
                      {order.status.name}
                    </span>
                  </td>
                  <td className="market-actions">
                    {order.status.name === 'ACTIVE' &&
                      account &&
                      !mine(order) && (
                        <button
                          type="button"
                          disabled={!ready}
                          onClick={() => props.onBuy(order)}
                          data-testid="market-buy"
                        >
                          {running?.key === order.id
                            ? 'Buying…'
                            : `Buy for ${eth(priceOf(order) + fees)}`}
                        </button>
                      )}
                    {mine(order) && live.has(order.status.name) && (
                      <button
                        type="button"
                        className="secondary"
                        disabled={!ready}
                        onClick={() => props.onCancel(order)}
                        data-testid="market-cancel"
                      >
                        {running?.key === order.id ? 'Cancelling…' : 'Cancel'}
                      </button>
                    )}
                    {step && (
                      <p
                        className="muted market-step"
                        data-testid="market-listing-step"
                      >
                        {step}
                      </p>
                    )}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
    </>
  )
}
