/**
 * The exchange's market state and rules, shared by the order, trade and
 * mint routes: the orders, trades, mints, collections and projects it
 * keeps (one {@link Market} per exchange, found with {@link marketOf}), the
 * fee rules, and the answers that describe an order or a trade.
 *
 * **Orders** trade one ERC721 for ETH or an ERC20 (the "price" side), in
 * either direction. An order is a signed intent: it locks nothing, but the
 * exchange takes it only while the seller's vault holds what it sells. Its
 * status is `active` until a trade fills it (`filled`) or its maker cancels
 * it (`cancelled`); an active order past its expiration reads `expired`,
 * and one whose maker no longer holds what it sells (plus its fee, when it
 * pays in the asset it sells) reads `inactive` — it turns active again if
 * the maker holds it again.
 *
 * **Fees** (StarkEx's limit order with fees): each side of a trade names
 * its own fees (`fees: [{ address, fee_percentage }]`: the maker's order
 * at creation, the taker's at the signable trade). Each fee is that
 * percentage of the side's price amount, in quantized units rounded down,
 * paid in the price asset by the side that signed it, from its vault of
 * the price asset (`fee_info.source_vault_id`), and the signed `fee_limit`
 * is their sum. The side that pays the price pays its fees on top of it
 * (its vault must hold price + fees); the side that receives the price
 * pays its fees out of it (it receives price − fees). Each fee goes to its
 * recipient by Ethereum address: into the recipient's vault of the price
 * asset when the recipient is a registered account, else into the fee
 * escrow vault the exchange keeps for that address (its owner is
 * {@link feeEscrowOwner}), since no vault can name a Stark key the exchange
 * does not know. At most {@link maxFees} fees per side, each above 0 with
 * at most four decimals, adding up to less than 100 %.
 *
 * @packageDocumentation
 */
import type { Address } from 'viem'
import type { components } from '../../../api/wire/imx/schema.generated.js'
import { addressOf, baseUnits, type Deps, type Read } from './http.js'
import type { AssetInfo, Ledger, Movement } from './ledger.js'
import { assetIdText } from './stark.js'
import { tokenAnswer } from './transfers.js'

type Schemas = components['schemas']

/** The most orders kept (makers' and takers'); the oldest non-active go first. */
export const maxOrders = 100_000
/** The most trades kept for the lists; the oldest are forgotten. */
export const maxTrades = 100_000
/** The most mints kept for the lists; the oldest are forgotten. */
export const maxMints = 100_000
/** The most collections the exchange registers. */
export const maxCollections = 10_000
/** The most projects the exchange registers. */
export const maxProjects = 10_000
/** The most fees one side of a trade may name. */
export const maxFees = 10

/** Fee percentages are kept in millionths of the amount (four decimals of a percent). */
const feeScale = 1_000_000n

/** One fee a side of a trade pays. */
export type Fee = {
  /** The recipient (checksummed). */
  readonly address: Address
  /** The percentage as the request sent it. */
  readonly percentage: number
  /** The percentage in millionths of the amount. */
  readonly millionths: bigint
}

/** A fee with its amount for one price. */
export type FeeCharge = Fee & {
  /** Quantized units of the price asset. */
  readonly amount: bigint
}

/** Where an order's status stands. */
export type OrderStatus = 'active' | 'filled' | 'cancelled' | 'expired'

/** An order the exchange took: a maker's, or the taker's side of a trade. */
export type OrderRecord = {
  readonly id: number
  /** The signer's Ethereum address. */
  readonly user: Address
  readonly starkKey: string
  readonly sell: AssetInfo
  readonly buy: AssetInfo
  /** Quantized. */
  readonly amountSell: bigint
  /** Quantized. */
  readonly amountBuy: bigint
  readonly vaultSell: number
  readonly vaultBuy: number
  readonly nonce: number
  /** Hours since the epoch. */
  readonly expiration: number
  readonly fees: readonly FeeCharge[]
  /** The signer's vault its fees are paid from. */
  readonly feeVault: number
  /** The sum of its fees, quantized. */
  readonly feeLimit: bigint
  /** Its payload hash (lowercase hex, no `0x`). */
  readonly payloadHash: string
  /** `maker` for an order of the book, `taker` for a trade's other side. */
  readonly role: 'maker' | 'taker'
  status: 'active' | 'filled' | 'cancelled'
  /** Quantized units of `sell` sold. */
  amountSold: bigint
  /** ms since the epoch. */
  readonly createdAt: number
  updatedAt: number
}

/** A trade: a maker's order (side a) filled by a taker's (side b). */
export type TradeRecord = {
  /** The trade's transaction id. */
  readonly id: number
  readonly maker: OrderRecord
  readonly taker: OrderRecord
  /** ms since the epoch. */
  readonly time: number
}

/** A collection registered with the exchange. */
export type CollectionRecord = {
  /** Lowercase. */
  readonly address: string
  readonly name: string
  readonly description: string | null
  readonly iconUrl: string | null
  readonly imageUrl: string | null
  readonly metadataApiUrl: string | null
  readonly projectId: number
  /** Who may mint (the contract owner, from `owner_public_key`). */
  readonly owner: Address
  readonly createdAt: number
}

/** A project: whoever registered its first collection owns it. */
export type ProjectRecord = {
  readonly id: number
  readonly owner: Address
  readonly createdAt: number
}

/** One token minted. */
export type MintRecord = {
  /** The mint's transaction id. */
  readonly id: number
  readonly user: Address
  readonly asset: AssetInfo
  readonly blueprint: string
  readonly royalties: readonly { recipient: Address; percentage: number }[]
  readonly time: number
}

/** The market state of one exchange. */
export type Market = {
  readonly orders: Map<number, OrderRecord>
  /** The next order id. */
  nextOrderId: number
  readonly trades: Map<number, TradeRecord>
  readonly mints: Map<number, MintRecord>
  /** By lowercase address. */
  readonly collections: Map<string, CollectionRecord>
  readonly projects: Map<number, ProjectRecord>
}

const markets = new WeakMap<Deps, Market>()

/** The market state of the exchange `deps` belongs to (made on first use). */
export function marketOf(deps: Deps): Market {
  let market = markets.get(deps)
  if (!market) {
    market = {
      orders: new Map(),
      nextOrderId: 1,
      trades: new Map(),
      mints: new Map(),
      collections: new Map(),
      projects: new Map(),
    }
    markets.set(deps, market)
  }
  return market
}

/**
 * Keeps an order, forgetting the oldest order that is no longer active
 * when the book is full; `false` if every kept order is active.
 */
export function addOrder(market: Market, order: OrderRecord): boolean {
  if (market.orders.size >= maxOrders) {
    let oldest: number | undefined
    for (const [id, kept] of market.orders)
      if (kept.status !== 'active') {
        oldest = id
        break
      }
    if (oldest === undefined) return false
    market.orders.delete(oldest)
  }
  market.orders.set(order.id, order)
  return true
}

/** Keeps a record in a bounded map, forgetting its oldest entries. */
export function addBounded<value>(
  map: Map<number, value>,
  id: number,
  value: value,
  max: number,
) {
  while (map.size >= max) map.delete(map.keys().next().value as number)
  map.set(id, value)
}

/**
 * The owner a fee escrow vault is kept under for a recipient that is not
 * a registered account: not a Stark key, so no signature can move it; it
 * holds the fees paid to that address.
 */
export function feeEscrowOwner(address: Address): string {
  return `fee-escrow:${address.toLowerCase()}`
}

/**
 * Moves what the fee escrow of an account's Ethereum address holds into
 * the account's own vaults (one per asset): for the registration route to
 * call once an address that was paid fees registers. Returns the
 * movements made.
 *
 * @throws {LedgerFullError} Past the ledger's vault cap (nothing moved).
 */
export function releaseFeeEscrow(
  ledger: Ledger,
  account: { readonly ethAddress: Address; readonly starkKey: string },
): Movement[] {
  const held = ledger
    .vaultsOf(feeEscrowOwner(account.ethAddress))
    .filter((vault) => vault.balance > 0n)
  const movements = held.map((vault) => ({
    from: vault.id,
    to: ledger.openVault(account.starkKey, vault.assetId).id,
    amount: vault.balance,
  }))
  if (movements.length > 0) ledger.apply(movements)
  return movements
}

/**
 * Reads a side's `fees` (`[{ address, fee_percentage }]`, absent or null
 * for none).
 */
export function feesOf(value: unknown, field = 'fees'): Read<readonly Fee[]> {
  if (value === undefined || value === null) return { ok: true, value: [] }
  if (!Array.isArray(value) || value.length > maxFees)
    return {
      ok: false,
      message: `${field} must be a list of at most ${maxFees} { address, fee_percentage }.`,
    }
  const fees: Fee[] = []
  let total = 0n
  for (const [index, entry] of value.entries()) {
    const at = `${field}[${index}]`
    const record =
      typeof entry === 'object' && entry !== null && !Array.isArray(entry)
        ? (entry as Record<string, unknown>)
        : undefined
    const address = addressOf(record?.address)
    if (!address)
      return {
        ok: false,
        message: `${at}.address must be an Ethereum address.`,
      }
    const percentage = record?.fee_percentage
    const text = typeof percentage === 'number' ? String(percentage) : ''
    const match = /^([0-9]{1,3})(?:\.([0-9]{1,4}))?$/.exec(text)
    const millionths = match
      ? BigInt(match[1]!) * 10_000n + BigInt((match[2] ?? '').padEnd(4, '0'))
      : 0n
    if (typeof percentage !== 'number' || millionths === 0n)
      return {
        ok: false,
        message: `${at}.fee_percentage must be a number above 0 with at most four decimals.`,
      }
    total += millionths
    fees.push({ address, percentage, millionths })
  }
  if (total >= feeScale)
    return {
      ok: false,
      message: `The ${field} add up to ${Number(total) / 10_000} %: they must stay below 100 %.`,
    }
  return { ok: true, value: fees }
}

/** Whether two fee lists name the same recipients and percentages, in order. */
export function sameFees(a: readonly Fee[], b: readonly Fee[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (fee, i) =>
        fee.address === b[i]!.address && fee.millionths === b[i]!.millionths,
    )
  )
}

/** The fees on a quantized price, each rounded down. */
export function charge(fees: readonly Fee[], price: bigint): FeeCharge[] {
  return fees.map((fee) => ({
    ...fee,
    amount: (price * fee.millionths) / feeScale,
  }))
}

/** The sum of charged fees (a side's `fee_limit`). */
export function feeTotal(charges: readonly FeeCharge[]): bigint {
  return charges.reduce((sum, fee) => sum + fee.amount, 0n)
}

/** An order's two assets arranged by role: the ERC721 and the price asset. */
export type Sides = {
  /** True when the signer sells the ERC721 (and receives the price). */
  readonly sellsToken: boolean
  readonly price: AssetInfo
  /** The quantized price amount. */
  readonly priceAmount: bigint
}

/**
 * The roles of an order's assets; a refusal unless it trades one ERC721
 * for ETH or an ERC20.
 */
export function sidesOf(
  sell: AssetInfo,
  buy: AssetInfo,
  amountSell: bigint,
  amountBuy: bigint,
): Read<Sides> {
  if (sell.type === 'ERC721' && buy.type !== 'ERC721')
    return {
      ok: true,
      value: { sellsToken: true, price: buy, priceAmount: amountBuy },
    }
  if (buy.type === 'ERC721' && sell.type !== 'ERC721')
    return {
      ok: true,
      value: { sellsToken: false, price: sell, priceAmount: amountSell },
    }
  return {
    ok: false,
    message: 'An order trades one ERC721 for ETH or an ERC20.',
  }
}

/**
 * What the signer's vault of the sold asset must hold for the order: the
 * amount sold, plus the fees when they are paid in that asset.
 */
export function requiredBalance(
  sides: Sides,
  amountSell: bigint,
  feeLimit: bigint,
): bigint {
  return sides.sellsToken ? amountSell : amountSell + feeLimit
}

/** The status an order reads now (see the module's description). */
export function statusOf(
  deps: Deps,
  order: OrderRecord,
): OrderStatus | 'inactive' {
  if (order.status !== 'active') return order.status
  if (order.expiration * 3_600_000 <= deps.now()) return 'expired'
  const sides = sidesOf(
    order.sell,
    order.buy,
    order.amountSell,
    order.amountBuy,
  )
  const vault = deps.ledger.vault(order.vaultSell)
  const needed = sides.ok
    ? requiredBalance(sides.value, order.amountSell, order.feeLimit)
    : order.amountSell
  return vault && vault.balance >= needed ? 'active' : 'inactive'
}

/**
 * The vault a fee to `address` is paid into: the recipient's vault of the
 * asset when it is a registered account, else its fee escrow vault.
 *
 * @throws {LedgerFullError} Past the ledger's vault cap.
 */
export function feeVaultOf(
  ledger: Ledger,
  address: Address,
  asset: AssetInfo,
): number {
  const account = ledger.accountOf(address)
  return ledger.openVault(
    account?.starkKey ?? feeEscrowOwner(address),
    asset.id,
  ).id
}

/** ISO time of ms since the epoch. */
export function iso(time: number): string {
  return new Date(time).toISOString()
}

/** The legacy API's `OrderFeeInfo` of charged fees. */
function feeInfoAnswer(
  fees: readonly FeeCharge[],
  price: AssetInfo,
  type: string,
): Schemas['OrderFeeInfo'][] {
  return fees.map((fee) => ({
    address: fee.address.toLowerCase(),
    amount: baseUnits(fee.amount, price),
    type,
    token: {
      type: price.type === 'ERC20' ? 'ERC20' : 'ETH',
      data: {
        decimals: price.decimals,
        ...(price.type === 'ERC20'
          ? { contract_address: price.tokenAddress }
          : {}),
      },
    },
  }))
}

/** Options of an order's answer (the read routes' query). */
export type OrderView = {
  /** Whether the answer lists `fees` (`include_fees`). */
  readonly includeFees: boolean
  /** A prospective taker's fees (`auxiliary_fee_*`): shown as `taker_fees`. */
  readonly auxiliary: readonly Fee[]
}

/** An order as the legacy API's `OrderV3` describes it. */
export function orderAnswer(
  deps: Deps,
  order: OrderRecord,
  view: OrderView,
): Schemas['OrderV3'] {
  const sides = sidesOf(
    order.sell,
    order.buy,
    order.amountSell,
    order.amountBuy,
  )
  const status = statusOf(deps, order)
  const price = sides.ok ? sides.value.price : order.buy
  const priceAmount = sides.ok ? sides.value.priceAmount : order.amountBuy
  const sellsToken = sides.ok ? sides.value.sellsToken : true
  // What the maker receives (sells the ERC721) or pays (buys it), fees applied.
  const makerWithFees = sellsToken
    ? priceAmount - order.feeLimit
    : priceAmount + order.feeLimit
  const takerCharges = charge(view.auxiliary, priceAmount)
  const takerWithFees = sellsToken
    ? priceAmount + feeTotal(takerCharges)
    : priceAmount - feeTotal(takerCharges)
  const token = (asset: AssetInfo, quantized: bigint, withFees: bigint) => {
    const answer = tokenAnswer(asset, baseUnits(quantized, asset))
    return {
      ...answer,
      data: { ...answer.data, quantity_with_fees: baseUnits(withFees, asset) },
    }
  }
  const priceSide = (
    withFees: bigint,
    fees: readonly FeeCharge[],
    type: string,
  ) => ({
    decimals: price.decimals,
    symbol: price.type === 'ERC20' ? '' : 'ETH',
    token_address: price.type === 'ERC20' ? price.tokenAddress : '',
    token_type: price.type,
    quantity_with_fees: baseUnits(withFees, price),
    fees: feeInfoAnswer(fees, price, type),
  })
  const expired = status === 'expired'
  return {
    order_id: order.id,
    status,
    user: order.user.toLowerCase(),
    sell: token(
      order.sell,
      order.amountSell,
      sellsToken ? order.amountSell : makerWithFees,
    ),
    buy: token(
      order.buy,
      order.amountBuy,
      sellsToken ? makerWithFees : order.amountBuy,
    ),
    amount_sold: baseUnits(order.amountSold, order.sell),
    expiration_timestamp: iso(order.expiration * 3_600_000),
    timestamp: iso(order.createdAt),
    updated_timestamp: iso(
      expired ? order.expiration * 3_600_000 : order.updatedAt,
    ),
    maker_taker_type: order.role,
    maker_fees: priceSide(makerWithFees, order.fees, 'maker'),
    taker_fees: priceSide(takerWithFees, takerCharges, 'taker'),
    ...(view.includeFees
      ? { fees: feeInfoAnswer(order.fees, price, order.role) }
      : {}),
  }
}

/** One side of a trade as the legacy API's `TradeSide` describes it. */
function tradeSide(order: OrderRecord): Schemas['TradeSide'] {
  const asset = order.sell
  return {
    order_id: order.id,
    sold: baseUnits(order.amountSold, asset),
    token_type: asset.type,
    ...(asset.type === 'ETH' ? {} : { token_address: asset.tokenAddress }),
    ...(asset.type === 'ERC721' ? { token_id: asset.tokenId.toString() } : {}),
  }
}

/** A trade as the legacy API's `Trade` describes it. */
export function tradeAnswer(trade: TradeRecord): Schemas['Trade'] {
  return {
    transaction_id: trade.id,
    status: 'success',
    timestamp: iso(trade.time),
    a: tradeSide(trade.maker),
    b: tradeSide(trade.taker),
  }
}

/** An asset as the guardian's confirmation page shows it. */
export function assetDetails(asset: AssetInfo, quantized: bigint) {
  return {
    type: asset.type,
    asset_id: assetIdText(asset.id),
    ...(asset.type === 'ETH' ? {} : { token_address: asset.tokenAddress }),
    ...(asset.type === 'ERC721' ? { token_id: asset.tokenId.toString() } : {}),
    amount: baseUnits(quantized, asset),
  }
}
