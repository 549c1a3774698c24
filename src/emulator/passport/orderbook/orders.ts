/**
 * The order book's records in the shapes of the platform API's `orders`
 * tag (mr-openapi.json: `Order`, `Item`, `Fee`, `Trade`, the statuses), and
 * the reading of a create request's body into the Seaport order its
 * signature covers, as `@imtbl/orderbook` builds it: one offer item, one
 * consideration item to the offerer, no zone hash, no conduit, the fees
 * left out of the signed order (the fulfiller adds them as tips).
 *
 * @packageDocumentation
 */
import { type Address, type Hex, zeroAddress, zeroHash } from 'viem'
import type { components } from '../../../api/wire/mr/schema.generated.js'
import * as Seaport from '../../chain/seaport.js'
import { invalid, type Refusal, refuse } from '../indexer/params.js'

type Schemas = components['schemas']

/** The kinds of orders the book takes. */
export type OrderKind = 'LISTING' | 'BID' | 'COLLECTION_BID'

/** `Item` of the API. */
export type Item =
  | { type: 'NATIVE'; amount: string }
  | { type: 'ERC20'; contract_address: string; amount: string }
  | { type: 'ERC721'; contract_address: string; token_id: string }
  | {
      type: 'ERC1155'
      contract_address: string
      token_id: string
      amount: string
    }
  | { type: 'ERC721_COLLECTION'; contract_address: string; amount: string }
  | { type: 'ERC1155_COLLECTION'; contract_address: string; amount: string }

/** The fee types of the platform. */
export const feeTypes = [
  'ROYALTY',
  'MAKER_ECOSYSTEM',
  'TAKER_ECOSYSTEM',
  'PROTOCOL',
] as const

/** `Fee` of the API. */
export type Fee = {
  amount: string
  type: (typeof feeTypes)[number]
  recipient_address: string
}

/** The order statuses of the API. */
export const orderStatusNames = [
  'PENDING',
  'ACTIVE',
  'INACTIVE',
  'FILLED',
  'EXPIRED',
  'CANCELLED',
] as const

/** `OrderStatus` of the API. */
export type OrderStatus =
  | { name: 'PENDING'; evaluated: boolean; started: boolean }
  | { name: 'ACTIVE' }
  | {
      name: 'INACTIVE'
      sufficient_approvals: boolean
      sufficient_balances: boolean
    }
  | { name: 'FILLED' }
  | { name: 'EXPIRED' }
  | {
      name: 'CANCELLED'
      pending: boolean
      cancellation_type: 'ON_CHAIN' | 'OFF_CHAIN' | 'UNDERFUNDED'
    }

/** `Order` of the API. */
export type ApiOrder = {
  account_address: string
  buy: Item[]
  fees: Fee[]
  chain: { id: string; name: string }
  created_at: string
  end_at: string
  id: string
  order_hash: string
  protocol_data: {
    order_type: 'FULL_RESTRICTED' | 'PARTIAL_RESTRICTED'
    counter: string
    zone_address: string
    seaport_address: string
    seaport_version: string
  }
  salt: string
  sell: Item[]
  signature: string
  start_at: string
  status: OrderStatus
  type: OrderKind
  updated_at: string
  fill_status: { numerator: string; denominator: string }
}

/** `Trade` of the API. */
export type ApiTrade = {
  buy: Item[]
  buyer_address: string
  buyer_fees: Fee[]
  fees: Fee[]
  chain: { id: string; name: string }
  order_id: string
  blockchain_metadata: {
    transaction_hash: string
    block_number: string
    transaction_index: string
    log_index: string
  }
  indexed_at: string
  id: string
  sell: Item[]
  seller_address: string
  maker_address: string
  taker_address: string
}

/** A create request, read and checked. */
export type OrderRequest = {
  kind: OrderKind
  account: Address
  orderHash: Hex
  buy: Item[]
  sell: Item[]
  fees: Fee[]
  startAt: Date
  endAt: Date
  salt: string
  signature: Hex
  components: Seaport.OrderComponents
}

/** What a create request is checked against. */
export type OrderContext = {
  seaport: Address
  signedZone: Address
  now: Date
}

/** The version of the seaport the book's orders are for. */
export const seaportVersion = Seaport.seaportVersion

/** The most maker fees an order may carry (as the API's description says). */
export const maxMakerFees = 2

const addressPattern = /^0x[0-9a-fA-F]{40}$/
const uintPattern = /^(0|[1-9][0-9]{0,77})$/
const hexUintPattern = /^0x[0-9a-fA-F]{1,64}$/
const isoPattern =
  /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function addressField(name: string, value: unknown): Address | Refusal {
  return typeof value === 'string' && addressPattern.test(value)
    ? (value.toLowerCase() as Address)
    : invalid(name, `${name} must be an address (0x and 40 hex digits).`)
}

function uintField(
  name: string,
  value: unknown,
  options: { positive?: boolean; hex?: boolean } = {},
): bigint | Refusal {
  const ok =
    typeof value === 'string' &&
    (uintPattern.test(value) || (options.hex && hexUintPattern.test(value)))
  if (!ok || (options.positive && BigInt(value) === 0n))
    return invalid(
      name,
      `${name} must be a${options.positive ? ' positive' : ''} uint256 as a decimal string.`,
    )
  const parsed = BigInt(value)
  return parsed < 2n ** 256n
    ? parsed
    : invalid(name, `${name} must be a uint256 as a decimal string.`)
}

function dateField(name: string, value: unknown): Date | Refusal {
  const refusal = invalid(name, `${name} must be an RFC 3339 date-time.`)
  if (typeof value !== 'string' || !isoPattern.test(value)) return refusal
  const time = Date.parse(value.toUpperCase())
  return Number.isNaN(time) ? refusal : new Date(time)
}

function isRefused(value: unknown): value is Refusal {
  return isRecord(value) && 'refused' in value
}

/** An API item, checked against the types `allowed`. */
export function itemOf(
  name: string,
  value: unknown,
  allowed: readonly Item['type'][],
): Item | Refusal {
  if (!isRecord(value) || typeof value.type !== 'string')
    return invalid(name, `${name} must be an item with a type.`)
  const type = value.type as Item['type']
  if (!allowed.includes(type))
    return invalid(name, `${name} must be of type ${allowed.join(' or ')}.`)
  if (type === 'NATIVE') {
    const amount = uintField(`${name}.amount`, value.amount, {
      positive: true,
    })
    return isRefused(amount) ? amount : { type, amount: String(amount) }
  }
  const contract = addressField(
    `${name}.contract_address`,
    value.contract_address,
  )
  if (isRefused(contract)) return contract
  if (type === 'ERC721') {
    const id = uintField(`${name}.token_id`, value.token_id)
    return isRefused(id)
      ? id
      : { type, contract_address: contract, token_id: String(id) }
  }
  const amount = uintField(`${name}.amount`, value.amount, { positive: true })
  if (isRefused(amount)) return amount
  if (type === 'ERC1155') {
    const id = uintField(`${name}.token_id`, value.token_id)
    return isRefused(id)
      ? id
      : {
          type,
          contract_address: contract,
          token_id: String(id),
          amount: String(amount),
        }
  }
  return { type, contract_address: contract, amount: String(amount) }
}

/** The Seaport offer item of an API item. */
export function offerItemOf(item: Item): Seaport.OfferItem {
  switch (item.type) {
    case 'NATIVE':
      return seaportItem(Seaport.ItemType.NATIVE, zeroAddress, 0n, item.amount)
    case 'ERC20':
      return seaportItem(
        Seaport.ItemType.ERC20,
        item.contract_address,
        0n,
        item.amount,
      )
    case 'ERC721':
      return seaportItem(
        Seaport.ItemType.ERC721,
        item.contract_address,
        BigInt(item.token_id),
        '1',
      )
    case 'ERC1155':
      return seaportItem(
        Seaport.ItemType.ERC1155,
        item.contract_address,
        BigInt(item.token_id),
        item.amount,
      )
    case 'ERC721_COLLECTION':
      return seaportItem(
        Seaport.ItemType.ERC721_WITH_CRITERIA,
        item.contract_address,
        0n,
        item.amount,
      )
    case 'ERC1155_COLLECTION':
      return seaportItem(
        Seaport.ItemType.ERC1155_WITH_CRITERIA,
        item.contract_address,
        0n,
        item.amount,
      )
  }
}

function seaportItem(
  itemType: Seaport.ItemType,
  token: string,
  identifierOrCriteria: bigint,
  amount: string,
): Seaport.OfferItem {
  return {
    itemType,
    token: token as Address,
    identifierOrCriteria,
    startAmount: BigInt(amount),
    endAmount: BigInt(amount),
  }
}

/** The item types each kind sells (offers) and buys (considers). */
const shapes = {
  LISTING: { sell: ['ERC721', 'ERC1155'], buy: ['NATIVE', 'ERC20'] },
  BID: { sell: ['ERC20'], buy: ['ERC721', 'ERC1155'] },
  COLLECTION_BID: {
    sell: ['ERC20'],
    buy: ['ERC721_COLLECTION', 'ERC1155_COLLECTION'],
  },
} as const satisfies Record<
  OrderKind,
  { sell: readonly Item['type'][]; buy: readonly Item['type'][] }
>

/**
 * Reads a create request's body (`CreateListingRequestBody`,
 * `CreateBidRequestBody`, `CreateCollectionBidRequestBody`) into the order
 * its signature must cover, checking it as the hosted book does: one item
 * each way of the kind's types, the seaport and zone of the chain, the
 * order type the item requires (`PARTIAL_RESTRICTED` for ERC-1155, else
 * `FULL_RESTRICTED`), maker fees only, an end in the future after the
 * start, and the order hash of those components.
 */
export function readOrderRequest(
  kind: OrderKind,
  body: unknown,
  context: OrderContext,
): OrderRequest | Refusal {
  if (!isRecord(body)) return invalid('body', 'The body must be an object.')
  const account = addressField('account_address', body.account_address)
  if (isRefused(account)) return account
  const orderHash =
    typeof body.order_hash === 'string' &&
    /^0x[0-9a-fA-F]{64}$/.test(body.order_hash)
      ? (body.order_hash.toLowerCase() as Hex)
      : invalid('order_hash', 'order_hash must be 0x and 64 hex digits.')
  if (isRefused(orderHash)) return orderHash
  const items = (side: 'buy' | 'sell') => {
    const value = body[side]
    if (!Array.isArray(value) || value.length !== 1)
      return invalid(side, `${side} must hold exactly one item.`)
    return itemOf(`${side}[0]`, value[0], shapes[kind][side])
  }
  const buy = items('buy')
  if (isRefused(buy)) return buy
  const sell = items('sell')
  if (isRefused(sell)) return sell
  if (!Array.isArray(body.fees) || body.fees.length > maxMakerFees)
    return invalid(
      'fees',
      `fees must be a list of at most ${maxMakerFees} maker fees.`,
    )
  const fees: Fee[] = []
  for (const [index, fee] of body.fees.entries()) {
    const name = `fees[${index}]`
    if (!isRecord(fee) || fee.type !== 'MAKER_ECOSYSTEM')
      return invalid(name, `${name} must be a fee of type MAKER_ECOSYSTEM.`)
    const amount = uintField(`${name}.amount`, fee.amount, { positive: true })
    if (isRefused(amount)) return amount
    const recipient = addressField(
      `${name}.recipient_address`,
      fee.recipient_address,
    )
    if (isRefused(recipient)) return recipient
    fees.push({
      type: 'MAKER_ECOSYSTEM',
      amount: String(amount),
      recipient_address: recipient,
    })
  }
  const startAt = dateField('start_at', body.start_at)
  if (isRefused(startAt)) return startAt
  const endAt = dateField('end_at', body.end_at)
  if (isRefused(endAt)) return endAt
  if (endAt.getTime() <= startAt.getTime())
    return invalid('end_at', 'end_at must be after start_at.')
  if (endAt.getTime() <= context.now.getTime())
    return invalid('end_at', 'end_at must be in the future.')
  const salt = uintField('salt', body.salt, { hex: true })
  if (isRefused(salt)) return salt
  const signature =
    typeof body.signature === 'string' &&
    /^0x([0-9a-fA-F]{2}){1,4096}$/.test(body.signature)
      ? (body.signature as Hex)
      : invalid('signature', 'signature must be hex bytes.')
  if (isRefused(signature)) return signature
  const protocol = body.protocol_data
  if (!isRecord(protocol))
    return invalid('protocol_data', 'protocol_data must be an object.')
  const nft = kind === 'LISTING' ? sell : buy
  // A collection bid may be filled by several NFTs, one fill each, so the
  // published SDK signs every collection bid as partial, as ERC-1155 orders.
  const orderType =
    nft.type === 'ERC1155' || kind === 'COLLECTION_BID'
      ? 'PARTIAL_RESTRICTED'
      : 'FULL_RESTRICTED'
  if (protocol.order_type !== orderType)
    return invalid(
      'protocol_data.order_type',
      `protocol_data.order_type must be ${orderType} for ${kind === 'COLLECTION_BID' ? 'a collection bid' : `an ${nft.type} order`}.`,
    )
  const zone = addressField('protocol_data.zone_address', protocol.zone_address)
  if (isRefused(zone)) return zone
  if (zone !== context.signedZone.toLowerCase())
    return invalid(
      'protocol_data.zone_address',
      `protocol_data.zone_address must be the signed zone ${context.signedZone}.`,
    )
  const seaport = addressField(
    'protocol_data.seaport_address',
    protocol.seaport_address,
  )
  if (isRefused(seaport)) return seaport
  if (seaport !== context.seaport.toLowerCase())
    return invalid(
      'protocol_data.seaport_address',
      `protocol_data.seaport_address must be the seaport ${context.seaport}.`,
    )
  if (protocol.seaport_version !== seaportVersion)
    return invalid(
      'protocol_data.seaport_version',
      `protocol_data.seaport_version must be ${seaportVersion}.`,
    )
  const counter = uintField('protocol_data.counter', protocol.counter)
  if (isRefused(counter)) return counter

  const components: Seaport.OrderComponents = {
    offerer: account,
    zone,
    offer: [offerItemOf(sell)],
    consideration: [{ ...offerItemOf(buy), recipient: account }],
    orderType:
      orderType === 'PARTIAL_RESTRICTED'
        ? Seaport.OrderType.PARTIAL_RESTRICTED
        : Seaport.OrderType.FULL_RESTRICTED,
    startTime: BigInt(Math.round(startAt.getTime() / 1000)),
    endTime: BigInt(Math.round(endAt.getTime() / 1000)),
    zoneHash: zeroHash,
    salt,
    conduitKey: zeroHash,
    counter,
  }
  if (Seaport.orderHash(components).toLowerCase() !== orderHash)
    return invalid(
      'order_hash',
      'order_hash is not the hash of the order the request describes.',
    )
  return {
    kind,
    account,
    orderHash,
    buy: [buy],
    sell: [sell],
    fees,
    startAt,
    endAt,
    salt: body.salt as string,
    signature,
    components,
  }
}

/** The API item of a Seaport item (spent or received) of `amount`. */
export function apiItemOf(item: {
  itemType: number
  token: Address
  identifier: bigint
  amount: bigint
}): Item {
  const contract = item.token.toLowerCase()
  switch (item.itemType) {
    case Seaport.ItemType.NATIVE:
      return { type: 'NATIVE', amount: String(item.amount) }
    case Seaport.ItemType.ERC20:
      return {
        type: 'ERC20',
        contract_address: contract,
        amount: String(item.amount),
      }
    case Seaport.ItemType.ERC721:
      return {
        type: 'ERC721',
        contract_address: contract,
        token_id: String(item.identifier),
      }
    default:
      return {
        type: 'ERC1155',
        contract_address: contract,
        token_id: String(item.identifier),
        amount: String(item.amount),
      }
  }
}

/** A refusal for an order that conflicts with one the book holds. */
export function conflict(message: string): Refusal {
  return refuse('conflict', message)
}

/** `from`, which compiles only when assignable to `to`. */
export type Assignable<to, from extends to> = from

/**
 * The book's answers checked against the API's generated types: a shape
 * that drifts from the spec fails to compile.
 */
export type SpecChecks = [
  Assignable<Schemas['Order'], ApiOrder>,
  Assignable<Schemas['Trade'], ApiTrade>,
  Assignable<Schemas['Fee'], Fee>,
  Assignable<Schemas['Item'], Item>,
  Assignable<Schemas['OrderStatus'], OrderStatus>,
]
