/**
 * Orders of Immutable's seaport and the extra data of its signed zone, as
 * the emulated order book builds, hashes and signs them.
 *
 * - An order is Seaport 1.5's: its `OrderComponents` are signed by the
 *   offerer as EIP-712 typed data for the domain `ImmutableSeaport`,
 *   version `1.5` (what `@imtbl/orderbook` signs), and fulfilled as an
 *   `AdvancedOrder`. ImmutableSeaport fulfils only restricted orders
 *   (`FULL_RESTRICTED`, `PARTIAL_RESTRICTED`) of a zone it allows.
 * - The zone, `ImmutableSignedZoneV2`, accepts a fulfilment only with extra
 *   data in the layout of SIP-6 version 0 and SIP-7: a version byte (0),
 *   the expected fulfiller (20 bytes, zero for anyone), the expiry (8
 *   bytes, seconds), an ERC-2098 compact signature (64 bytes) of an active
 *   signer over the EIP-712 `SignedOrder(fulfiller, expiration, orderHash,
 *   context)` of the domain (zone name, `2.0`), and the context: one or
 *   more of the zone's substandards 3, 4 and 6, in that order.
 *
 * @example
 * ```ts
 * const order = { offerer, zone, offer, consideration, ... }
 * const signature = await seller.signTypedData(
 *   Seaport.orderTypedData({ chainId, seaport, order }),
 * )
 * const extraData = await Seaport.signExtraData({
 *   signer: zoneSigner, chainId, zone, fulfiller: buyer.address,
 *   expiration: now + 60n, orderHash: Seaport.orderHash(order),
 *   context: Seaport.substandard3(Seaport.receivedItems(order.consideration)),
 * })
 * await buyer.writeContract({ address: seaport, abi, functionName:
 *   'fulfillAdvancedOrder', args: [Seaport.toAdvancedOrder({ order,
 *   signature, extraData }), [], zeroHash, zeroAddress], value })
 * ```
 *
 * @packageDocumentation
 */
import {
  type Address,
  concat,
  encodeAbiParameters,
  encodePacked,
  getAddress,
  type Hex,
  hashStruct,
  keccak256,
  type LocalAccount,
  numberToHex,
  parseSignature,
  serializeCompactSignature,
  signatureToCompactSignature,
  size,
  slice,
} from 'viem'
import { BaseError } from '../../core/Errors.js'

/** The seaport's EIP-712 domain name. */
export const seaportName = 'ImmutableSeaport'

/** The seaport's EIP-712 domain version (its `information()` version). */
export const seaportVersion = '1.5'

/** The name the emulator deploys the signed zone with: its domain name. */
export const signedZoneName = 'ImmutableSignedZoneV2'

/** The signed zone's EIP-712 domain version. */
export const signedZoneVersion = '2.0'

/** Seaport's item types (`ItemType` of seaport-types). */
export const ItemType = {
  NATIVE: 0,
  ERC20: 1,
  ERC721: 2,
  ERC1155: 3,
  ERC721_WITH_CRITERIA: 4,
  ERC1155_WITH_CRITERIA: 5,
} as const

/** A Seaport item type. */
export type ItemType = (typeof ItemType)[keyof typeof ItemType]

/** Seaport's order types (`OrderType` of seaport-types). */
export const OrderType = {
  FULL_OPEN: 0,
  PARTIAL_OPEN: 1,
  FULL_RESTRICTED: 2,
  PARTIAL_RESTRICTED: 3,
  CONTRACT: 4,
} as const

/** A Seaport order type. */
export type OrderType = (typeof OrderType)[keyof typeof OrderType]

/** What the offerer gives. */
export type OfferItem = {
  itemType: ItemType
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
  orderType: OrderType
  startTime: bigint
  endTime: bigint
  zoneHash: Hex
  salt: bigint
  conduitKey: Hex
  /** The offerer's counter on the seaport (`getCounter(offerer)`). */
  counter: bigint
}

/** The order as fulfilment takes it: no counter, the original item count. */
export type OrderParameters = Omit<OrderComponents, 'counter'> & {
  totalOriginalConsiderationItems: bigint
}

/** The first argument of `fulfillAdvancedOrder`. */
export type AdvancedOrder = {
  parameters: OrderParameters
  numerator: bigint
  denominator: bigint
  signature: Hex
  extraData: Hex
}

/**
 * A consideration item as the seaport hands it to the zone
 * (`ZoneParameters.consideration`): the amount of this fulfilment.
 */
export type ReceivedItem = {
  itemType: ItemType
  token: Address
  identifier: bigint
  amount: bigint
  recipient: Address
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

/** The EIP-712 type of what a zone signer signs. */
export const signedOrderTypes = {
  SignedOrder: [
    { name: 'fulfiller', type: 'address' },
    { name: 'expiration', type: 'uint64' },
    { name: 'orderHash', type: 'bytes32' },
    { name: 'context', type: 'bytes' },
  ],
} as const

/** An EIP-712 domain with every field the seaport and the zone use. */
export type Domain = {
  name: string
  version: string
  chainId: number
  verifyingContract: Address
}

/** The seaport's EIP-712 domain on a chain. */
export function seaportDomain(options: {
  chainId: number
  seaport: Address
}): Domain {
  return {
    name: seaportName,
    version: seaportVersion,
    chainId: options.chainId,
    verifyingContract: options.seaport,
  }
}

/**
 * The typed data an offerer signs for an order (`signTypedData`'s
 * argument; the result is the order's `signature`).
 */
export function orderTypedData(options: {
  chainId: number
  seaport: Address
  order: OrderComponents
}) {
  return {
    domain: seaportDomain(options),
    types: orderTypes,
    primaryType: 'OrderComponents',
    message: options.order,
  } as const
}

/**
 * The order hash: the EIP-712 struct hash of its components, what the
 * seaport's `getOrderHash` returns and the zone signs over.
 */
export function orderHash(order: OrderComponents): Hex {
  return hashStruct({
    types: orderTypes,
    primaryType: 'OrderComponents',
    data: order,
  })
}

/**
 * The order as `fulfillAdvancedOrder` takes it, for the fraction
 * `numerator / denominator` (a whole fill by default).
 */
export function toAdvancedOrder(options: {
  order: OrderComponents
  signature: Hex
  extraData: Hex
  numerator?: bigint | undefined
  denominator?: bigint | undefined
}): AdvancedOrder {
  const { order, signature, extraData } = options
  const { counter: _, ...parameters } = order
  return {
    parameters: {
      ...parameters,
      totalOriginalConsiderationItems: BigInt(order.consideration.length),
    },
    numerator: options.numerator ?? 1n,
    denominator: options.denominator ?? 1n,
    signature,
    extraData,
  }
}

/**
 * The received items a whole fill of the order hands the zone: each
 * consideration item with its amount.
 *
 * @throws {SeaportError} for an item whose amount changes over time
 *   (start ≠ end), whose amount depends on the block's time.
 */
export function receivedItems(
  consideration: readonly ConsiderationItem[],
): ReceivedItem[] {
  return consideration.map((item, index) => {
    if (item.startAmount !== item.endAmount)
      throw new SeaportError(
        `Consideration item ${index} has a start amount (${item.startAmount}) other than its end amount (${item.endAmount}).`,
      )
    return {
      itemType: item.itemType,
      token: item.token,
      identifier: item.identifierOrCriteria,
      amount: item.startAmount,
      recipient: item.recipient,
    }
  })
}

/**
 * keccak256 of the received items packed as the zone packs them (item
 * type as one byte, token, identifier, amount, recipient).
 */
export function receivedItemsHash(items: readonly ReceivedItem[]): Hex {
  return keccak256(
    concat([
      '0x',
      ...items.map((item) =>
        encodePacked(
          ['uint8', 'address', 'uint256', 'uint256', 'address'],
          [
            item.itemType,
            item.token,
            item.identifier,
            item.amount,
            item.recipient,
          ],
        ),
      ),
    ]),
  )
}

/**
 * Substandard 3 of the zone: the fulfilment must hand out exactly these
 * items (a whole fill).
 */
export function substandard3(items: readonly ReceivedItem[]): Hex {
  return concat(['0x03', receivedItemsHash(items)])
}

/**
 * Substandard 4 of the zone: the fulfilment must include these orders
 * (a bundle that fails whole).
 */
export function substandard4(orderHashes: readonly Hex[]): Hex {
  return concat([
    '0x04',
    encodeAbiParameters([{ type: 'bytes32[]' }], [orderHashes]),
  ])
}

/**
 * Substandard 6 of the zone: for a partial fill, the items of a whole fill
 * and the original amount of the first offer item, which the zone scales
 * the received amounts back by.
 */
export function substandard6(options: {
  originalFirstOfferItemAmount: bigint
  items: readonly ReceivedItem[]
}): Hex {
  return concat([
    '0x06',
    numberToHex(options.originalFirstOfferItemAmount, { size: 32 }),
    receivedItemsHash(options.items),
  ])
}

/** The signed zone's EIP-712 domain on a chain. */
export function signedZoneDomain(options: {
  chainId: number
  zone: Address
  name?: string | undefined
}): Domain {
  return {
    name: options.name ?? signedZoneName,
    version: signedZoneVersion,
    chainId: options.chainId,
    verifyingContract: options.zone,
  }
}

/** What the extra data holds, besides its version byte. */
export type ExtraData = {
  /** Who may fulfil; the zero address for anyone. */
  fulfiller: Address
  /** When the signature expires, in seconds since the epoch. */
  expiration: bigint
  /** The zone signer's ERC-2098 compact signature (64 bytes). */
  signature: Hex
  /** The substandards (3, 4, 6), concatenated. */
  context: Hex
}

/**
 * The extra data bytes: version 0, fulfiller, expiration, signature,
 * context.
 *
 * @throws {SeaportError} when the signature is not 64 bytes or the
 *   expiration does not fit 8 bytes.
 */
export function encodeExtraData(data: ExtraData): Hex {
  if (size(data.signature) !== 64)
    throw new SeaportError(
      `The zone signature must be 64 bytes (ERC-2098 compact), not ${size(data.signature)}.`,
    )
  if (data.expiration < 0n || data.expiration >= 2n ** 64n)
    throw new SeaportError(
      `The expiration ${data.expiration} does not fit 8 bytes.`,
    )
  return concat([
    '0x00',
    data.fulfiller,
    numberToHex(data.expiration, { size: 8 }),
    data.signature,
    data.context,
  ])
}

/**
 * Reads extra data back into its parts.
 *
 * @throws {SeaportError} when it is shorter than 93 bytes or its version
 *   is not 0 (what the zone refuses too).
 */
export function decodeExtraData(extraData: Hex): ExtraData {
  if (size(extraData) < 93)
    throw new SeaportError(
      `Extra data holds at least 93 bytes, not ${size(extraData)}.`,
    )
  const version = Number(slice(extraData, 0, 1))
  if (version !== 0)
    throw new SeaportError(`Extra data version ${version} is not 0.`)
  return {
    fulfiller: getAddress(slice(extraData, 1, 21)),
    expiration: BigInt(slice(extraData, 21, 29)),
    signature: slice(extraData, 29, 93),
    context: size(extraData) > 93 ? slice(extraData, 93) : '0x',
  }
}

/**
 * Signs a fulfilment for the zone and returns its extra data: `signer`
 * signs the `SignedOrder` for the zone's domain, and the signature goes in
 * compact form.
 *
 * @throws {SeaportError} as {@link encodeExtraData}.
 */
export async function signExtraData(options: {
  /** An active signer of the zone. */
  signer: Pick<LocalAccount, 'signTypedData'>
  chainId: number
  zone: Address
  /** The zone's name, when not {@link signedZoneName}. */
  zoneName?: string | undefined
  fulfiller: Address
  expiration: bigint
  orderHash: Hex
  context: Hex
}): Promise<Hex> {
  const { signer, fulfiller, expiration, orderHash: hash, context } = options
  if (expiration < 0n || expiration >= 2n ** 64n)
    throw new SeaportError(`The expiration ${expiration} does not fit 8 bytes.`)
  const signature = await signer.signTypedData({
    domain: signedZoneDomain({
      chainId: options.chainId,
      zone: options.zone,
      name: options.zoneName,
    }),
    types: signedOrderTypes,
    primaryType: 'SignedOrder',
    message: { fulfiller, expiration, orderHash: hash, context },
  })
  return encodeExtraData({
    fulfiller,
    expiration,
    signature: serializeCompactSignature(
      signatureToCompactSignature(parseSignature(signature)),
    ),
    context,
  })
}

/** An order or extra data that cannot be encoded as asked. */
export class SeaportError extends BaseError<undefined> {
  override readonly name = 'Seaport.SeaportError'
}
