import type { IMXProvider } from 'embedded-wallets/passport'
import { useState } from 'react'
import type { Info } from '../emulator.js'
import { useFailures } from '../ui/errors.js'
import { formatDateTime } from '../ui/format.js'
import { LongValue } from '../ui/LongValue.js'
import {
  declined,
  ethBalance,
  ethText,
  listingOf,
  nftName,
  type Outcome,
  tradeFor,
} from './exchange.js'
import type { Reads } from './useStarkEx.js'

/** The player's balances (ETH, tokens) and NFTs on StarkEx. */
export function Holdings(props: { info: Info; reads: Reads | undefined }) {
  const { info, reads } = props
  const listed = new Set(
    (reads?.active ?? []).flatMap((order) => {
      const listing = reads?.mine.has(order.order_id) && listingOf(order)
      return listing
        ? [`${listing.tokenAddress.toLowerCase()}:${listing.tokenId}`]
        : []
    }),
  )
  const fungibles = reads?.balances ?? []
  return (
    <section className="panel starkex-card" data-testid="starkex-holdings">
      <h3>Balances</h3>
      {!reads ? (
        <p className="muted">Reading…</p>
      ) : (
        <dl className="facts starkex-balances">
          <dt>ETH</dt>
          <dd>
            <span
              className="value"
              data-testid="starkex-balance-eth"
              data-wei={ethBalance(fungibles).toString()}
            >
              {ethText(ethBalance(fungibles))}
            </span>
          </dd>
          {fungibles
            .filter((balance) => balance.symbol !== 'ETH')
            .map((balance) => (
              <div className="starkex-fact" key={balance.token_address}>
                <dt>
                  {balance.symbol || (
                    <LongValue value={balance.token_address} keep={4} />
                  )}
                </dt>
                <dd>
                  <span
                    data-testid="starkex-balance-token"
                    data-token={balance.token_address}
                  >
                    {balance.balance} (base units)
                  </span>
                </dd>
              </div>
            ))}
        </dl>
      )}
      <h3>NFTs</h3>
      {reads && reads.assets.length === 0 && (
        <p className="muted" data-testid="starkex-no-nfts">
          You hold no NFTs on StarkEx: mint test assets to get one.
        </p>
      )}
      {reads && reads.assets.length > 0 && (
        <ul className="starkex-nfts">
          {reads.assets.map((asset) => {
            const isListed = listed.has(
              `${asset.token_address.toLowerCase()}:${asset.token_id}`,
            )
            return (
              <li
                key={`${asset.token_address}:${asset.token_id}`}
                data-testid="starkex-nft"
                data-token-address={asset.token_address}
                data-token-id={asset.token_id}
                data-listed={isListed}
              >
                <span className="starkex-nft-name">{nftName(info, asset)}</span>
                <LongValue value={asset.token_address} keep={4} />
                {isListed && <span className="status">listed</span>}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}

/**
 * The active orders: the player's own, which they can cancel, and the
 * others', which they can buy when their ETH covers the price.
 */
export function Orders(props: {
  info: Info
  imx: IMXProvider
  address: string
  reads: Reads | undefined
  onDone(): Promise<void>
}) {
  const { info, imx, address, reads, onDone } = props
  const { report, clear } = useFailures('starkex')
  const [busy, setBusy] = useState<number>()
  const [done, setDone] = useState<Outcome>()
  const eth = reads ? ethBalance(reads.balances) : undefined
  const orders = (reads?.active ?? []).flatMap((order) => {
    const listing = listingOf(order)
    return listing ? [{ order, listing }] : []
  })

  const act = async (
    orderId: number,
    what: string,
    task: () => Promise<string>,
  ) => {
    clear()
    setDone(undefined)
    setBusy(orderId)
    try {
      setDone({ text: await task(), declined: false })
      await onDone()
    } catch (error) {
      if (declined(error))
        setDone({
          text: `You declined it in the wallet: order ${orderId} is as it was.`,
          declined: true,
        })
      else report(what, error)
    } finally {
      setBusy(undefined)
    }
  }

  return (
    <section className="panel starkex-card" data-testid="starkex-orders">
      <h3>Orders</h3>
      {done && (
        <p
          className={done.declined ? 'muted' : 'ok'}
          data-testid="starkex-order-result"
          data-declined={done.declined}
        >
          {done.text}
        </p>
      )}
      {reads && orders.length === 0 && (
        <p className="muted" data-testid="starkex-no-orders">
          No active orders: list an NFT above, or wait for another player to.
        </p>
      )}
      {orders.length > 0 && (
        <div className="starkex-table-wrap">
          <table className="starkex-table">
            <thead>
              <tr>
                <th>Order</th>
                <th>NFT</th>
                <th>Price</th>
                <th>Seller</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {orders.map(({ order, listing }) => {
                const mine = order.user.toLowerCase() === address.toLowerCase()
                const price = BigInt(listing.price)
                const short = eth !== undefined && eth < price
                const name = nftName(info, {
                  token_address: listing.tokenAddress,
                  token_id: listing.tokenId,
                })
                return (
                  <tr
                    key={order.order_id}
                    data-testid="starkex-order"
                    data-order-id={order.order_id}
                    data-mine={mine}
                  >
                    <td>{order.order_id}</td>
                    <td data-testid="starkex-order-nft">{name}</td>
                    <td data-testid="starkex-order-price">
                      {ethText(listing.price)}
                    </td>
                    <td>
                      {mine ? 'you' : <LongValue value={order.user} keep={4} />}
                    </td>
                    <td>
                      <div className="starkex-actions">
                        {mine ? (
                          <button
                            type="button"
                            disabled={busy !== undefined}
                            data-testid="starkex-order-cancel"
                            onClick={() =>
                              act(
                                order.order_id,
                                'Cancelling the order',
                                async () => {
                                  await imx.cancelOrder({
                                    order_id: order.order_id,
                                  })
                                  return `Order ${order.order_id} (${name}) cancelled.`
                                },
                              )
                            }
                          >
                            {busy === order.order_id ? 'Cancelling…' : 'Cancel'}
                          </button>
                        ) : (
                          <>
                            <button
                              type="submit"
                              disabled={busy !== undefined || short}
                              data-testid="starkex-order-buy"
                              onClick={() =>
                                act(order.order_id, 'Buying', async () => {
                                  const trade = await imx.createTrade({
                                    order_id: order.order_id,
                                    user: address,
                                  })
                                  return `Bought ${name} for ${ethText(listing.price)} (trade ${trade.trade_id}).`
                                })
                              }
                            >
                              {busy === order.order_id ? 'Buying…' : 'Buy'}
                            </button>
                            {short && (
                              <span
                                className="hint"
                                data-testid="starkex-order-short"
                              >
                                needs {ethText(price - (eth ?? 0n))} more
                              </span>
                            )}
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

/** The player's trades: what they bought and sold, newest first. */
export function Trades(props: { info: Info; reads: Reads | undefined }) {
  const { info, reads } = props
  const trades = (reads?.trades ?? [])
    .flatMap((trade) => {
      const mine = reads && tradeFor(trade, reads.mine)
      return mine ? [mine] : []
    })
    .sort((a, b) => b.id - a.id)
  return (
    <section className="panel starkex-card" data-testid="starkex-trades">
      <h3>Your trades</h3>
      {reads && trades.length === 0 && (
        <p className="muted" data-testid="starkex-no-trades">
          No trades yet: buy an order, or sell an NFT and wait for a buyer.
        </p>
      )}
      {trades.length > 0 && (
        <div className="starkex-table-wrap">
          <table className="starkex-table">
            <thead>
              <tr>
                <th>Trade</th>
                <th>You</th>
                <th>NFT</th>
                <th>Price</th>
                <th>With</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {trades.map((trade) => {
                const other = reads?.orderUsers.get(trade.counterOrder)
                return (
                  <tr
                    key={trade.id}
                    data-testid="starkex-trade"
                    data-trade-id={trade.id}
                    data-role={trade.role}
                  >
                    <td>{trade.id}</td>
                    <td data-testid="starkex-trade-role">{trade.role}</td>
                    <td data-testid="starkex-trade-nft">
                      {nftName(info, trade.token)}
                    </td>
                    <td data-testid="starkex-trade-price">
                      {ethText(trade.price)}
                    </td>
                    <td>
                      {other ? (
                        <LongValue
                          value={other}
                          keep={4}
                          testId="starkex-trade-with"
                        />
                      ) : (
                        '…'
                      )}
                    </td>
                    <td>
                      {trade.at ? formatDateTime(new Date(trade.at)) : ''}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

/** The transfers the player sent and received, newest first. */
export function Transfers(props: {
  info: Info
  address: string
  reads: Reads | undefined
}) {
  const { info, address, reads } = props
  const transfers = reads?.transfers ?? []
  return (
    <section className="panel starkex-card" data-testid="starkex-transfers">
      <h3>Your transfers</h3>
      {reads && transfers.length === 0 && (
        <p className="muted" data-testid="starkex-no-transfers">
          No transfers yet.
        </p>
      )}
      {transfers.length > 0 && (
        <div className="starkex-table-wrap">
          <table className="starkex-table">
            <thead>
              <tr>
                <th>Transfer</th>
                <th>What</th>
                <th>From / to</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {transfers.map((transfer) => {
                const sent =
                  transfer.user.toLowerCase() === address.toLowerCase()
                const { token } = transfer
                const what =
                  token.type === 'ERC721'
                    ? nftName(info, token.data)
                    : token.type === 'ETH'
                      ? ethText(token.data.quantity)
                      : `${token.data.quantity} (base units)`
                return (
                  <tr
                    key={transfer.transaction_id}
                    data-testid="starkex-transfer-row"
                    data-transfer-id={transfer.transaction_id}
                    data-direction={sent ? 'sent' : 'received'}
                  >
                    <td>{transfer.transaction_id}</td>
                    <td data-testid="starkex-transfer-what">{what}</td>
                    <td>
                      {sent ? 'to' : 'from'}{' '}
                      <LongValue
                        value={sent ? transfer.receiver : transfer.user}
                        keep={4}
                        testId="starkex-transfer-party"
                      />
                    </td>
                    <td>
                      {transfer.timestamp
                        ? formatDateTime(new Date(transfer.timestamp))
                        : ''}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
