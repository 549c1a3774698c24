/**
 * Trades (v3): a taker fills a maker's active order with the opposite
 * limit order, StarkEx's settlement of two limit orders with fees (see
 * market.ts for the fee rules):
 *
 * - `POST /v3/signable-trade-details` [Bearer] `{ order_id, user, fees,
 *   expiration_timestamp }` → the taker's limit order (it sells what the
 *   order buys and buys what it sells, same amounts), its vaults, its
 *   `fee_info`, a fresh nonce and its `payload_hash`; registered with the
 *   guardian (type `trade`);
 * - `POST /v3/trades` [Bearer or wallet headers, see credentials.ts] →
 *   `{ trade_id, status: '' }` (the legacy
 *   API's `status` is an unused empty string) once the taker's order
 *   checks out as an order's create does, the maker's order is still
 *   active and unexpired, and the guardian approved it. Both sides move at
 *   once: the ERC721 to its buyer; the price from the buyer to the seller
 *   less the seller's fees; each side's fees to their recipients. The
 *   maker's order is then `filled`; the taker's side is recorded as a
 *   filled order too (side b of the trade);
 * - `GET /v3/trades/{id}` and `GET /v3/trades` (the legacy API lists trades
 *   at v3) with the party filters.
 *
 * @packageDocumentation
 */
import type { Hono, Context as HonoContext } from 'hono'
import type { components } from '../../../api/wire/imx/schema.generated.js'
import {
  accountOfCredential,
  requireCredential,
  walletSignatureRefusal,
} from './credentials.js'
import {
  addressOf,
  type Deps,
  decimalOf,
  directionOf,
  expirationOf,
  fail,
  isRecord,
  pageAnswer,
  pageOf,
  type Read,
  readJson,
  requirePlayer,
  type StarkExEnv,
  sortedBy,
  timeOf,
} from './http.js'
import {
  InvalidMovementError,
  LedgerError,
  LedgerFullError,
  type Movement,
} from './ledger.js'
import {
  addBounded,
  addOrder,
  feesOf,
  feeVaultOf,
  marketOf,
  maxTrades,
  type OrderRecord,
  statusOf,
  type TradeRecord,
  tradeAnswer,
} from './market.js'
import {
  checkSignedLimitOrder,
  findOrder,
  issueLimitOrder,
  type LimitOrderDetails,
  limitOrderDetails,
  orderRecord,
  prepareLimitOrder,
  type SignedLimitOrder,
  signerOf,
} from './orders.js'
import { guardianRefusal } from './transfers.js'

type Schemas = components['schemas']

/** Why the maker's order cannot be filled now (409), if it cannot. */
function unfillable(deps: Deps, order: OrderRecord): string | undefined {
  if (order.role !== 'maker')
    return `Order ${order.id} is the taker's side of a trade.`
  const status = statusOf(deps, order)
  if (status === 'active') return undefined
  if (status === 'inactive')
    return `Order ${order.id} is inactive: its maker no longer holds what it sells.`
  return `Order ${order.id} is ${status}: only an active order can be filled.`
}

/**
 * The movements of a trade: the ERC721 from its seller to its buyer; the
 * price from its buyer's vault to the seller's (less the seller's fees)
 * and to every fee's recipient (the seller's fees come out of the price,
 * the buyer's on top of it).
 */
function tradeMovements(
  deps: Deps,
  maker: OrderRecord,
  taker: SignedLimitOrder,
): Movement[] {
  const makerSells = maker.sell.type === 'ERC721'
  const seller = makerSells
    ? {
        tokenVault: maker.vaultSell,
        priceVault: maker.vaultBuy,
        fees: maker.fees,
      }
    : {
        tokenVault: taker.vaultSell,
        priceVault: taker.vaultBuy,
        fees: taker.fees,
      }
  const buyer = makerSells
    ? {
        tokenVault: taker.vaultBuy,
        priceVault: taker.vaultSell,
        fees: taker.fees,
      }
    : {
        tokenVault: maker.vaultBuy,
        priceVault: maker.vaultSell,
        fees: maker.fees,
      }
  const price = taker.sides.price
  const priceAmount = taker.sides.priceAmount
  const sellerFees = seller.fees.reduce((sum, fee) => sum + fee.amount, 0n)
  const movements: Movement[] = [
    { from: seller.tokenVault, to: buyer.tokenVault, amount: 1n },
  ]
  if (priceAmount - sellerFees > 0n)
    movements.push({
      from: buyer.priceVault,
      to: seller.priceVault,
      amount: priceAmount - sellerFees,
    })
  for (const fee of [...seller.fees, ...buyer.fees])
    if (fee.amount > 0n)
      movements.push({
        from: buyer.priceVault,
        to: feeVaultOf(deps.ledger, fee.address, price),
        amount: fee.amount,
      })
  return movements
}

/** Mounts the trade routes. */
export function tradeRoutes(app: Hono<StarkExEnv>, deps: Deps) {
  const player = requirePlayer(deps)
  const credential = requireCredential(deps)
  const market = marketOf(deps)

  app.post('/v3/signable-trade-details', player, async (c) => {
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(
        c,
        'validation',
        'Expected a JSON body { order_id, user, fees, expiration_timestamp }.',
      )
    const signer = signerOf(deps, c, { user: body.user })
    if (!signer.ok) return fail(c, signer.kind, signer.message)
    const found = findOrder(deps, body.order_id)
    if (!found.ok) return fail(c, found.kind, found.message)
    const maker = found.order
    const refusal = unfillable(deps, maker)
    if (refusal) return fail(c, 'conflict', refusal)
    if (maker.starkKey === signer.account.starkKey)
      return fail(c, 'validation', `Order ${maker.id} is the player's own.`)
    const fees = feesOf(body.fees)
    if (!fees.ok) return fail(c, 'validation', fees.message)
    const expiration = expirationOf(deps, body.expiration_timestamp)
    if (!expiration.ok) return fail(c, 'validation', expiration.message)
    const prepared = prepareLimitOrder(deps, signer.account, {
      sell: maker.buy,
      buy: maker.sell,
      amountSell: maker.amountBuy,
      amountBuy: maker.amountSell,
      fees: fees.value,
      expiration: expiration.value,
    })
    if (!prepared.ok) return fail(c, prepared.kind, prepared.message)
    const details: LimitOrderDetails = { fees: fees.value, orderId: maker.id }
    const answer = await issueLimitOrder(deps, prepared.issue, 'trade', details)
    deps.guardian.registerStarkEx({
      payloadHash: answer.payload_hash,
      wallet: signer.account.ethAddress,
      type: 'trade',
      details: limitOrderDetails(prepared.issue, maker.id),
    })
    return c.json(answer satisfies Schemas['GetSignableTradeResponse'])
  })

  app.post('/v3/trades', credential, async (c) => {
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(c, 'validation', 'Expected a JSON body of a signed trade.')
    const signer = accountOfCredential(
      deps,
      c.var.credential,
      body.stark_key,
      'stark_key',
    )
    if (!signer.ok) return fail(c, signer.kind, signer.message)
    const checked = checkSignedLimitOrder(deps, signer.account, body, 'trade')
    if (!checked.ok) return fail(c, checked.kind, checked.message)
    const taker = checked.order
    const unsigned = await walletSignatureRefusal(
      c.var.credential,
      signer.account,
      taker.pending,
    )
    if (unsigned) return fail(c, unsigned.kind, unsigned.message)
    if (body.order_id !== taker.pending.details.orderId)
      return fail(
        c,
        'validation',
        `order_id must be ${taker.pending.details.orderId}, the order the trade with payload_hash ${taker.payloadHash} was issued for.`,
      )
    const found = findOrder(deps, body.order_id)
    if (!found.ok) return fail(c, found.kind, found.message)
    const maker = found.order
    const refusal = unfillable(deps, maker)
    if (refusal) return fail(c, 'conflict', refusal)
    if (
      taker.sell.id !== maker.buy.id ||
      taker.buy.id !== maker.sell.id ||
      taker.amountSell !== maker.amountBuy ||
      taker.amountBuy !== maker.amountSell
    )
      return fail(
        c,
        'validation',
        `The trade does not match order ${maker.id}: it must sell what the order buys and buy what it sells, in the same amounts.`,
      )
    const refused = guardianRefusal(deps, signer.account, taker.payloadHash)
    if (refused) return fail(c, 'authentication', refused)
    let movements: Movement[]
    try {
      movements = tradeMovements(deps, maker, taker)
      deps.ledger.commit({
        starkKey: taker.signer.starkKey,
        nonces: [taker.nonce],
        movements,
      })
    } catch (error) {
      if (error instanceof LedgerFullError)
        return fail(c, 'conflict', error.shortMessage)
      if (error instanceof InvalidMovementError || error instanceof LedgerError)
        return fail(c, 'validation', error.shortMessage)
      throw error
    }
    deps.ledger.settle(taker.hash)
    const time = deps.now()
    maker.status = 'filled'
    maker.amountSold = maker.amountSell
    maker.updatedAt = time
    const takerOrder = orderRecord(deps, taker, 'taker')
    takerOrder.status = 'filled'
    takerOrder.amountSold = takerOrder.amountSell
    addOrder(market, takerOrder)
    const trade: TradeRecord = {
      id: deps.nextTransactionId(),
      maker,
      taker: takerOrder,
      time,
    }
    addBounded(market.trades, trade.id, trade, maxTrades)
    return c.json({
      trade_id: trade.id,
      status: '',
    } satisfies Schemas['CreateTradeResponse'])
  })

  app.get('/v3/trades/:id', (c) => {
    const text = c.req.param('id')
    const trade = /^[1-9][0-9]{0,14}$/.test(text)
      ? market.trades.get(Number(text))
      : undefined
    if (!trade) return fail(c, 'notFound', `No trade ${text}.`)
    return c.json(tradeAnswer(trade) satisfies Schemas['Trade'])
  })

  app.get('/v3/trades', (c) => {
    const page = pageOf(c)
    if (!page.ok) return fail(c, 'validation', page.message)
    const filter = tradeFilterOf(c)
    if (!filter.ok) return fail(c, 'validation', filter.message)
    const direction = directionOf(c)
    if (!direction.ok) return fail(c, 'validation', direction.message)
    const orderBy = c.req.query('order_by') ?? 'transaction_id'
    const sold = (order: OrderRecord) =>
      order.amountSold *
      (order.sell.type === 'ERC721' ? 1n : order.sell.quantum)
    const keys: Record<string, (t: TradeRecord) => bigint | number> = {
      transaction_id: (t) => t.id,
      created_at: (t) => t.time,
      timestamp: (t) => t.time,
      updated_timestamp: (t) => t.time,
      party_a_sold_quantity: (t) => sold(t.maker),
      party_b_sold_quantity: (t) => sold(t.taker),
    }
    const found = sortedBy(
      [...market.trades.values()].filter(filter.value),
      keys,
      orderBy,
      direction.value,
      (r) => r.id,
    )
    if (!found.ok) return fail(c, 'validation', found.message)
    return c.json(
      pageAnswer(
        found.value.map(tradeAnswer),
        page.value,
      ) satisfies Schemas['ListTradesResponse'],
    )
  })
}

/** Reads the trade list's filters (party a: the maker, b: the taker) into a predicate. */
function tradeFilterOf(c: HonoContext): Read<(trade: TradeRecord) => boolean> {
  const q = (name: string) => {
    const value = c.req.query(name)
    return value === '' ? undefined : value
  }
  const tests: ((trade: TradeRecord) => boolean)[] = []
  for (const party of ['a', 'b'] as const) {
    const sideOf = (t: TradeRecord) => (party === 'a' ? t.maker : t.taker).sell
    const type = q(`party_${party}_token_type`)
    if (type !== undefined) {
      if (!['ETH', 'ERC20', 'ERC721'].includes(type))
        return {
          ok: false,
          message: `party_${party}_token_type must be 'ETH', 'ERC20' or 'ERC721'.`,
        }
      tests.push((t) => sideOf(t).type === type)
    }
    const tokenAddress = q(`party_${party}_token_address`)
    if (tokenAddress !== undefined) {
      const address = addressOf(tokenAddress)
      if (!address)
        return {
          ok: false,
          message: `party_${party}_token_address must be an Ethereum address.`,
        }
      tests.push((t) => {
        const asset = sideOf(t)
        return (
          asset.type !== 'ETH' &&
          asset.tokenAddress.toLowerCase() === address.toLowerCase()
        )
      })
    }
    const tokenId = q(`party_${party}_token_id`)
    if (tokenId !== undefined) {
      const id = decimalOf(tokenId)
      if (id === undefined)
        return {
          ok: false,
          message: `party_${party}_token_id must be a decimal string.`,
        }
      tests.push((t) => {
        const asset = sideOf(t)
        return asset.type === 'ERC721' && asset.tokenId === id
      })
    }
  }
  for (const [name, compare] of [
    ['min_timestamp', (time: number, bound: number) => time >= bound],
    ['max_timestamp', (time: number, bound: number) => time <= bound],
  ] as const) {
    const bound = timeOf(c, name)
    if (!bound.ok) return bound
    const value = bound.value
    if (value !== undefined) tests.push((t) => compare(t.time, value))
  }
  return { ok: true, value: (trade) => tests.every((test) => test(trade)) }
}
