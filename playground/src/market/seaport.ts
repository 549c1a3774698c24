/**
 * What the marketplace needs of Seaport 1.5, as Immutable's seaport runs it
 * (seaport-types, ImmutableSeaport): the order a seller signs, its EIP-712
 * types and domain, and the calls a dApp makes. The dApp builds a listing
 * itself, as the published order book SDK does: one NFT offered, one price
 * in the chain's native currency to the seller, restricted to the platform's
 * signed zone, no zone hash, no conduit (the seller approves the seaport
 * itself), and the platform's fees left out of the signed order: the buyer
 * adds them as tips when filling it.
 *
 * @example
 * ```ts
 * const order = Seaport.listing({ seller, zone, token, tokenId, price, counter })
 * const signature = await signTypedData(config, Seaport.typedData({ chainId, seaport, order }))
 * ```
 *
 * @packageDocumentation
 */
import {
  type Address,
  getAddress,
  type Hex,
  hashStruct,
  parseAbi,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem'

/** Seaport's item types (`ItemType` of seaport-types). */
export const ItemType = { NATIVE: 0, ERC20: 1, ERC721: 2 } as const

/** Immutable's seaport fills only restricted orders of a zone it allows. */
export const FULL_RESTRICTED = 2

/** What the offerer gives. */
export type OfferItem = {
  itemType: number
  token: Address
  identifierOrCriteria: bigint
  startAmount: bigint
  endAmount: bigint
}

/** What a recipient gets from the fulfiller. */
export type ConsiderationItem = OfferItem & { recipient: Address }

/** The order as its offerer signs it. */
export type OrderComponents = {
  offerer: Address
  zone: Address
  offer: readonly OfferItem[]
  consideration: readonly ConsiderationItem[]
  orderType: number
  startTime: bigint
  endTime: bigint
  zoneHash: Hex
  salt: bigint
  conduitKey: Hex
  counter: bigint
}

/** The EIP-712 types of an order (Seaport 1.5's type strings). */
export const orderTypes = {
  OrderComponents: [
    { name: 'offerer', type: 'address' },
    { name: 'zone', type: 'address' },
    { name: 'offer', type: 'OfferItem[]' },
    { name: 'consideration', type: 'ConsiderationItem[]' },
    { name: 'orderType', type: 'uint8' },
    { name: 'startTime', type: 'uint256' },
    { name: 'endTime', type: 'uint256' },
    { name: 'zoneHash', type: 'bytes32' },
    { name: 'salt', type: 'uint256' },
    { name: 'conduitKey', type: 'bytes32' },
    { name: 'counter', type: 'uint256' },
  ],
  OfferItem: [
    { name: 'itemType', type: 'uint8' },
    { name: 'token', type: 'address' },
    { name: 'identifierOrCriteria', type: 'uint256' },
    { name: 'startAmount', type: 'uint256' },
    { name: 'endAmount', type: 'uint256' },
  ],
  ConsiderationItem: [
    { name: 'itemType', type: 'uint8' },
    { name: 'token', type: 'address' },
    { name: 'identifierOrCriteria', type: 'uint256' },
    { name: 'startAmount', type: 'uint256' },
    { name: 'endAmount', type: 'uint256' },
    { name: 'recipient', type: 'address' },
  ],
} as const

/** The calls a marketplace makes on the seaport (seaport-types' ABI). */
export const abi = parseAbi([
  'struct OfferItem { uint8 itemType; address token; uint256 identifierOrCriteria; uint256 startAmount; uint256 endAmount; }',
  'struct ConsiderationItem { uint8 itemType; address token; uint256 identifierOrCriteria; uint256 startAmount; uint256 endAmount; address recipient; }',
  'struct OrderComponents { address offerer; address zone; OfferItem[] offer; ConsiderationItem[] consideration; uint8 orderType; uint256 startTime; uint256 endTime; bytes32 zoneHash; uint256 salt; bytes32 conduitKey; uint256 counter; }',
  'struct OrderParameters { address offerer; address zone; OfferItem[] offer; ConsiderationItem[] consideration; uint8 orderType; uint256 startTime; uint256 endTime; bytes32 zoneHash; uint256 salt; bytes32 conduitKey; uint256 totalOriginalConsiderationItems; }',
  'struct AdvancedOrder { OrderParameters parameters; uint120 numerator; uint120 denominator; bytes signature; bytes extraData; }',
  'struct CriteriaResolver { uint256 orderIndex; uint8 side; uint256 index; uint256 identifier; bytes32[] criteriaProof; }',
  'function getCounter(address offerer) view returns (uint256 counter)',
  'function getOrderHash(OrderComponents order) view returns (bytes32 orderHash)',
  'function fulfillAdvancedOrder(AdvancedOrder advancedOrder, CriteriaResolver[] criteriaResolvers, bytes32 fulfillerConduitKey, address recipient) payable returns (bool fulfilled)',
  'function cancel(OrderComponents[] orders) returns (bool cancelled)',
])

/** The ERC-721 calls of a listing: the seller lets the seaport move the NFT. */
export const erc721Abi = parseAbi([
  'function setApprovalForAll(address operator, bool approved)',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function ownerOf(uint256 tokenId) view returns (address)',
])

/** The seaport's EIP-712 domain (its `information()` name and version). */
export function domain(options: { chainId: number; seaport: Address }) {
  return {
    name: 'ImmutableSeaport',
    version: '1.5',
    chainId: options.chainId,
    verifyingContract: options.seaport,
  } as const
}

/**
 * A listing of one ERC-721 for `price` wei of the native currency to its
 * owner, valid from a second ago (the chain's clock may lag the page's)
 * for `lifetimeSeconds`, with a random salt.
 */
export function listing(options: {
  seller: Address
  zone: Address
  token: Address
  tokenId: bigint
  price: bigint
  counter: bigint
  now?: Date | undefined
  lifetimeSeconds?: number | undefined
}): OrderComponents {
  const { seller, price } = options
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000)
  return {
    offerer: seller,
    zone: options.zone,
    offer: [
      {
        itemType: ItemType.ERC721,
        token: options.token,
        identifierOrCriteria: options.tokenId,
        startAmount: 1n,
        endAmount: 1n,
      },
    ],
    consideration: [
      {
        itemType: ItemType.NATIVE,
        token: zeroAddress,
        identifierOrCriteria: 0n,
        startAmount: price,
        endAmount: price,
        recipient: seller,
      },
    ],
    orderType: FULL_RESTRICTED,
    startTime: BigInt(now - 1),
    endTime: BigInt(now + (options.lifetimeSeconds ?? 30 * 24 * 3600)),
    zoneHash: zeroHash,
    salt: BigInt(toHex(crypto.getRandomValues(new Uint8Array(16)))),
    conduitKey: zeroHash,
    counter: options.counter,
  }
}

/** The typed data the seller's wallet signs for an order. */
export function typedData(options: {
  chainId: number
  seaport: Address
  order: OrderComponents
}) {
  return {
    domain: domain(options),
    types: orderTypes,
    primaryType: 'OrderComponents',
    message: options.order,
  } as const
}

/** The order hash: the EIP-712 struct hash of its components. */
export function orderHash(order: OrderComponents): Hex {
  return hashStruct({
    types: orderTypes,
    primaryType: 'OrderComponents',
    data: order,
  })
}

/** A fee of the order book's fulfilment data, paid by the buyer as a tip. */
export type Fee = { amount: string; recipient_address: string }

/**
 * The arguments of `fulfillAdvancedOrder` for a whole fill of `order`,
 * with each fee as a native-currency tip after the original items (what
 * the zone's signed extra data covers), the NFT going to the caller.
 */
export function fulfilment(options: {
  order: OrderComponents
  signature: Hex
  extraData: Hex
  fees: readonly Fee[]
}) {
  const { order, signature, extraData, fees } = options
  const { counter: _, ...parameters } = order
  const tips: ConsiderationItem[] = fees.map((fee) => ({
    itemType: ItemType.NATIVE,
    token: zeroAddress,
    identifierOrCriteria: 0n,
    startAmount: BigInt(fee.amount),
    endAmount: BigInt(fee.amount),
    recipient: getAddress(fee.recipient_address),
  }))
  return [
    {
      parameters: {
        ...parameters,
        consideration: [...order.consideration, ...tips],
        totalOriginalConsiderationItems: BigInt(order.consideration.length),
      },
      numerator: 1n,
      denominator: 1n,
      signature,
      extraData,
    },
    [],
    zeroHash,
    zeroAddress,
  ] as const
}

/** The order book's record of an order, as far as a fill needs it. */
export type BookOrder = {
  account_address: string
  buy: readonly { type: string; amount?: string }[]
  sell: readonly {
    type: string
    contract_address?: string
    token_id?: string
  }[]
  start_at: string
  end_at: string
  salt: string
  protocol_data: { counter: string; zone_address: string }
}

/**
 * The components an order book listing was signed as, rebuilt from its
 * record (what the book itself checks the order hash against).
 *
 * @throws {Error} for a listing that is not one ERC-721 for a native price.
 */
export function fromBook(order: BookOrder): OrderComponents {
  const [nft] = order.sell
  const [price] = order.buy
  if (
    nft?.type !== 'ERC721' ||
    nft.contract_address === undefined ||
    nft.token_id === undefined ||
    price?.type !== 'NATIVE' ||
    price.amount === undefined
  )
    throw new Error(
      'The listing is not an ERC-721 for the native currency, the only kind this page fills.',
    )
  const seller = getAddress(order.account_address)
  const amount = BigInt(price.amount)
  return {
    offerer: seller,
    zone: getAddress(order.protocol_data.zone_address),
    offer: [
      {
        itemType: ItemType.ERC721,
        token: getAddress(nft.contract_address),
        identifierOrCriteria: BigInt(nft.token_id),
        startAmount: 1n,
        endAmount: 1n,
      },
    ],
    consideration: [
      {
        itemType: ItemType.NATIVE,
        token: zeroAddress,
        identifierOrCriteria: 0n,
        startAmount: amount,
        endAmount: amount,
        recipient: seller,
      },
    ],
    orderType: FULL_RESTRICTED,
    startTime: BigInt(Math.round(Date.parse(order.start_at) / 1000)),
    endTime: BigInt(Math.round(Date.parse(order.end_at) / 1000)),
    zoneHash: zeroHash,
    salt: BigInt(order.salt),
    conduitKey: zeroHash,
    counter: BigInt(order.protocol_data.counter),
  }
}

/**
 * The typed data the order book takes as the maker's consent to cancel
 * orders off chain (a soft cancel, as the published order book SDK signs
 * it): no transaction, and no fulfilment data is signed for them again.
 */
export function cancelTypedData(options: {
  chainId: number
  seaport: Address
  orderIds: readonly string[]
}) {
  return {
    domain: {
      name: 'imtbl-order-book',
      chainId: options.chainId,
      verifyingContract: options.seaport,
    },
    types: {
      CancelPayload: [{ name: 'orders', type: 'Order[]' }],
      Order: [{ name: 'id', type: 'string' }],
    },
    primaryType: 'CancelPayload',
    message: { orders: options.orderIds.map((id) => ({ id })) },
  } as const
}
