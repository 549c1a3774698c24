/**
 * The chain events the indexer reads, decoded from raw logs: token
 * transfers (ERC-20 and ERC-721 `Transfer`, ERC-1155 `TransferSingle` and
 * `TransferBatch`) of any contract, and the Seaport `OrderFulfilled` of the
 * emulator's marketplace, which turns the NFT transfers of its transaction
 * into a sale.
 *
 * ERC-20 and ERC-721 share the `Transfer(address,address,uint256)`
 * signature; EIP-721 indexes the token id and EIP-20 does not, so the
 * number of topics tells them apart (four for an NFT, three for a token).
 *
 * @packageDocumentation
 */
import {
  type Address,
  decodeAbiParameters,
  type Hex,
  parseAbiParameters,
  toEventSelector,
  zeroAddress,
} from 'viem'

/** `Transfer(address indexed from, address indexed to, uint256 value)` of both standards. */
export const transferTopic = toEventSelector(
  'Transfer(address,address,uint256)',
)

/** EIP-1155 `TransferSingle(operator, from, to, id, value)`. */
export const transferSingleTopic = toEventSelector(
  'TransferSingle(address,address,address,uint256,uint256)',
)

/** EIP-1155 `TransferBatch(operator, from, to, ids, values)`. */
export const transferBatchTopic = toEventSelector(
  'TransferBatch(address,address,address,uint256[],uint256[])',
)

/**
 * Seaport's `OrderFulfilled(orderHash, offerer indexed, zone indexed,
 * recipient, SpentItem[] offer, ReceivedItem[] consideration)`.
 */
export const orderFulfilledTopic = toEventSelector(
  'OrderFulfilled(bytes32,address,address,address,(uint8,address,uint256,uint256)[],(uint8,address,uint256,uint256,address)[])',
)

/** Every topic the indexer asks the node for. */
export const indexedTopics: readonly Hex[] = [
  transferTopic,
  transferSingleTopic,
  transferBatchTopic,
  orderFulfilledTopic,
]

/** A log as `eth_getLogs` answers it (quantities still hex). */
export type RawLog = {
  address: Hex
  topics: readonly Hex[]
  data: Hex
  blockNumber: Hex | null
  blockHash: Hex | null
  transactionHash: Hex | null
  transactionIndex: Hex | null
  logIndex: Hex | null
  removed?: boolean | undefined
}

/** Where an event happened. `position` orders the entries of one batch. */
export type Location = {
  block: number
  blockHash: Hex
  txHash: Hex
  txIndex: number
  logIndex: number
  position: number
}

/** One token movement (one entry of an ERC-1155 batch). Addresses are lowercase. */
export type TransferEvent = {
  kind: 'transfer'
  standard: 'ERC20' | 'ERC721' | 'ERC1155'
  contract: Address
  from: Address
  to: Address
  /** `undefined` for ERC-20. */
  tokenId: bigint | undefined
  amount: bigint
  at: Location
  /** The order hash of the sale this transfer settles, if any. */
  sale?: Hex | undefined
}

/** Seaport's item types (`ItemType`). */
export const itemTypes = {
  native: 0,
  erc20: 1,
  erc721: 2,
  erc1155: 3,
  erc721WithCriteria: 4,
  erc1155WithCriteria: 5,
} as const

/** A Seaport `SpentItem` or `ReceivedItem` (`recipient` only on the latter). */
export type OrderItem = {
  itemType: number
  token: Address
  identifier: bigint
  amount: bigint
  recipient?: Address | undefined
}

/** A decoded `OrderFulfilled`. Addresses are lowercase. */
export type OrderEvent = {
  kind: 'order'
  marketplace: Address
  orderHash: Hex
  offerer: Address
  zone: Address
  recipient: Address
  offer: readonly OrderItem[]
  consideration: readonly OrderItem[]
  at: Location
}

/** What one log decodes to. */
export type Decoded = TransferEvent | OrderEvent

const orderParameters = parseAbiParameters(
  'bytes32 orderHash, address recipient, (uint8 itemType, address token, uint256 identifier, uint256 amount)[] offer, (uint8 itemType, address token, uint256 identifier, uint256 amount, address recipient)[] consideration',
)
const batchParameters = parseAbiParameters('uint256[] ids, uint256[] values')
const singleParameters = parseAbiParameters('uint256 id, uint256 value')
const valueParameters = parseAbiParameters('uint256 value')

/**
 * Decodes a log into the events it carries: one transfer, the entries of
 * a batch, or an order of `marketplace`. A log that is none of these, or
 * that breaks its event's layout (any contract may emit anything), gives
 * `[]`.
 *
 * @param marketplace - The Seaport contract whose orders make sales.
 */
export function decodeLog(
  log: RawLog,
  marketplace?: Address | undefined,
): readonly Decoded[] {
  const at = locationOf(log)
  if (!at || log.removed) return []
  const [topic, ...indexed] = log.topics
  const contract = log.address.toLowerCase() as Address
  try {
    if (topic === transferTopic) {
      if (indexed.length === 2 && hexLength(log.data) === 32) {
        const [value] = decodeAbiParameters(valueParameters, log.data)
        return [
          transfer('ERC20', contract, indexed, undefined, value, at, 0),
        ].filter(isMovement)
      }
      if (indexed.length === 3 && hexLength(log.data) === 0)
        return [
          transfer('ERC721', contract, indexed, BigInt(indexed[2]!), 1n, at, 0),
        ].filter(isMovement)
      return []
    }
    if (topic === transferSingleTopic && indexed.length === 3) {
      const [id, value] = decodeAbiParameters(singleParameters, log.data)
      return [
        transfer('ERC1155', contract, indexed.slice(1), id, value, at, 0),
      ].filter(isMovement)
    }
    if (topic === transferBatchTopic && indexed.length === 3) {
      const [ids, values] = decodeAbiParameters(batchParameters, log.data)
      if (ids.length !== values.length) return []
      return ids
        .map((id, i) =>
          transfer(
            'ERC1155',
            contract,
            indexed.slice(1),
            id,
            values[i]!,
            at,
            i,
          ),
        )
        .filter(isMovement)
    }
    if (
      topic === orderFulfilledTopic &&
      marketplace !== undefined &&
      contract === marketplace.toLowerCase() &&
      indexed.length === 2
    ) {
      const [orderHash, recipient, offer, consideration] = decodeAbiParameters(
        orderParameters,
        log.data,
      )
      return [
        {
          kind: 'order',
          marketplace: contract,
          orderHash,
          offerer: topicAddress(indexed[0]!),
          zone: topicAddress(indexed[1]!),
          recipient: lower(recipient),
          offer: offer.map((item) => ({
            itemType: item.itemType,
            token: lower(item.token),
            identifier: item.identifier,
            amount: item.amount,
          })),
          consideration: consideration.map((item) => ({
            itemType: item.itemType,
            token: lower(item.token),
            identifier: item.identifier,
            amount: item.amount,
            recipient: lower(item.recipient),
          })),
          at,
        },
      ]
    }
  } catch {
    // A log shaped like ours but not decodable is some other contract's.
  }
  return []
}

/** A sale: an order of the marketplace and what it moved. */
export type SaleEvent = {
  kind: 'sale'
  orderHash: Hex
  seller: Address
  buyer: Address
  assets: readonly {
    standard: 'ERC721' | 'ERC1155'
    contract: Address
    tokenId: bigint
    amount: bigint
  }[]
  payment: {
    /** `undefined` for the chain's native currency. */
    token: Address | undefined
    /** What the buyer paid, fees included. */
    total: bigint
    /** What reached the seller. */
    proceeds: bigint
    fees: readonly { recipient: Address; amount: bigint }[]
  }
  at: Location
}

/**
 * The sale an order made, or `undefined` when it moved no NFT. A listing
 * offers NFTs for a payment (the offerer sells to the order's recipient);
 * a bid offers a payment for NFTs (the recipient, who fills it, sells to
 * the offerer), its fees then come out of the offered amount.
 */
export function saleOf(order: OrderEvent): SaleEvent | undefined {
  const offeredNfts = order.offer.filter(isNftItem)
  if (offeredNfts.length > 0) {
    const payments = paymentItems(order.consideration)
    const token = payments[0]?.token
    const paid = payments.filter((item) => item.token === token)
    const toSeller = paid.filter((item) => item.recipient === order.offerer)
    const fees = paid.filter((item) => item.recipient !== order.offerer)
    return {
      kind: 'sale',
      orderHash: order.orderHash,
      seller: order.offerer,
      buyer: order.recipient,
      assets: offeredNfts.map(assetOf),
      payment: {
        token: tokenOf(payments[0]),
        total: sum(paid),
        proceeds: sum(toSeller),
        fees: fees.map((item) => ({
          recipient: item.recipient ?? zeroAddress,
          amount: item.amount,
        })),
      },
      at: order.at,
    }
  }
  const wantedNfts = order.consideration.filter(
    (item) => isNftItem(item) && item.recipient === order.offerer,
  )
  if (wantedNfts.length === 0) return undefined
  const offered = paymentItems(order.offer)
  const token = offered[0]?.token
  const paid = offered.filter((item) => item.token === token)
  const fees = paymentItems(order.consideration).filter(
    (item) => item.token === token,
  )
  const total = sum(paid)
  const feeTotal = sum(fees)
  return {
    kind: 'sale',
    orderHash: order.orderHash,
    seller: order.recipient,
    buyer: order.offerer,
    assets: wantedNfts.map(assetOf),
    payment: {
      token: tokenOf(offered[0]),
      total,
      proceeds: total > feeTotal ? total - feeTotal : 0n,
      fees: fees.map((item) => ({
        recipient: item.recipient ?? zeroAddress,
        amount: item.amount,
      })),
    },
    at: order.at,
  }
}

/**
 * The sales of one transaction's events, with the NFT transfers each sale
 * settled marked by its order hash (they stay ownership changes, but are
 * no transfers of their own in the activity list).
 */
export function salesOf(
  events: readonly Decoded[],
): readonly (TransferEvent | SaleEvent)[] {
  const transfers = events.filter(
    (event): event is TransferEvent => event.kind === 'transfer',
  )
  const out: (TransferEvent | SaleEvent)[] = [...transfers]
  for (const event of events) {
    if (event.kind !== 'order') continue
    const sale = saleOf(event)
    if (!sale) continue
    out.push(sale)
    for (const asset of sale.assets) {
      const settled =
        transfers.find(
          (candidate) =>
            candidate.sale === undefined &&
            candidate.standard !== 'ERC20' &&
            candidate.contract === asset.contract &&
            candidate.tokenId === asset.tokenId &&
            candidate.from === sale.seller &&
            candidate.to === sale.buyer,
        ) ??
        transfers.find(
          (candidate) =>
            candidate.sale === undefined &&
            candidate.standard !== 'ERC20' &&
            candidate.contract === asset.contract &&
            candidate.tokenId === asset.tokenId &&
            candidate.from === sale.seller,
        )
      if (settled) settled.sale = sale.orderHash
    }
  }
  return out.sort((a, b) => compareLocations(a.at, b.at))
}

/** Orders locations as the chain does. */
export function compareLocations(a: Location, b: Location): number {
  return a.block - b.block || a.logIndex - b.logIndex || a.position - b.position
}

/** A key that sorts as {@link compareLocations} does, as a string. */
export function locationKey(at: Location): string {
  return `${pad(at.block, 12)}.${pad(at.logIndex, 8)}.${pad(at.position, 8)}`
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0')
}

function transfer(
  standard: TransferEvent['standard'],
  contract: Address,
  fromTo: readonly Hex[],
  tokenId: bigint | undefined,
  amount: bigint,
  at: Location,
  position: number,
): TransferEvent {
  return {
    kind: 'transfer',
    standard,
    contract,
    from: topicAddress(fromTo[0]!),
    to: topicAddress(fromTo[1]!),
    tokenId,
    amount,
    at: { ...at, position },
  }
}

/** Moving nothing anywhere (zero to zero) changes no balance. */
function isMovement(event: TransferEvent): boolean {
  return !(event.from === zeroAddress && event.to === zeroAddress)
}

function locationOf(log: RawLog): Location | undefined {
  if (
    log.blockNumber === null ||
    log.blockHash === null ||
    log.transactionHash === null ||
    log.transactionIndex === null ||
    log.logIndex === null
  )
    return undefined
  return {
    block: Number(BigInt(log.blockNumber)),
    blockHash: log.blockHash,
    txHash: log.transactionHash,
    txIndex: Number(BigInt(log.transactionIndex)),
    logIndex: Number(BigInt(log.logIndex)),
    position: 0,
  }
}

function topicAddress(topic: Hex): Address {
  if (!/^0x[0-9a-fA-F]{64}$/.test(topic)) throw new Error('Not a topic.')
  if (!/^0x0{24}/.test(topic)) throw new Error('Not an address topic.')
  return `0x${topic.slice(26).toLowerCase()}` as Address
}

function lower(address: Address): Address {
  return address.toLowerCase() as Address
}

function hexLength(data: Hex): number {
  return (data.length - 2) / 2
}

function isNftItem(item: OrderItem): boolean {
  return item.itemType >= itemTypes.erc721 && item.itemType <= 5
}

function paymentItems(items: readonly OrderItem[]): readonly OrderItem[] {
  return items.filter(
    (item) =>
      item.itemType === itemTypes.native || item.itemType === itemTypes.erc20,
  )
}

function assetOf(item: OrderItem): SaleEvent['assets'][number] {
  return {
    standard:
      item.itemType === itemTypes.erc721 ||
      item.itemType === itemTypes.erc721WithCriteria
        ? 'ERC721'
        : 'ERC1155',
    contract: item.token,
    tokenId: item.identifier,
    amount: item.amount,
  }
}

function tokenOf(item: OrderItem | undefined): Address | undefined {
  return item === undefined || item.itemType === itemTypes.native
    ? undefined
    : item.token
}

function sum(items: readonly OrderItem[]): bigint {
  return items.reduce((total, item) => total + item.amount, 0n)
}
