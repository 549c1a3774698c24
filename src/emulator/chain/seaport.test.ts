import {
  type Address,
  concat,
  encodeAbiParameters,
  hashDomain,
  hashTypedData,
  keccak256,
  recoverTypedDataAddress,
  serializeSignature,
  zeroAddress,
  zeroHash,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { anvilAccounts, zoneSigner } from './accounts.js'
import {
  type ConsiderationItem,
  decodeExtraData,
  encodeExtraData,
  ItemType,
  type OrderComponents,
  OrderType,
  orderHash,
  orderTypedData,
  receivedItems,
  receivedItemsHash,
  SeaportError,
  signExtraData,
  signedOrderTypes,
  signedZoneDomain,
  substandard3,
  substandard4,
  substandard6,
  toAdvancedOrder,
} from './seaport.js'

const seller = anvilAccounts[1]!
const buyer = anvilAccounts[2]!
const seaport: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const zone: Address = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const nft: Address = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'

const consideration: ConsiderationItem[] = [
  {
    itemType: ItemType.NATIVE,
    token: zeroAddress,
    identifierOrCriteria: 0n,
    startAmount: 975n,
    endAmount: 975n,
    recipient: seller.address,
  },
  {
    itemType: ItemType.NATIVE,
    token: zeroAddress,
    identifierOrCriteria: 0n,
    startAmount: 25n,
    endAmount: 25n,
    recipient: buyer.address,
  },
]

const order: OrderComponents = {
  offerer: seller.address,
  zone,
  offer: [
    {
      itemType: ItemType.ERC721,
      token: nft,
      identifierOrCriteria: 7n,
      startAmount: 1n,
      endAmount: 1n,
    },
  ],
  consideration,
  orderType: OrderType.FULL_RESTRICTED,
  startTime: 1_700_000_000n,
  endTime: 1_800_000_000n,
  zoneHash: zeroHash,
  salt: 12345n,
  conduitKey: zeroHash,
  counter: 0n,
}

describe('orders', () => {
  test('behavior: the typed data the offerer signs hashes to the domain and the order hash', () => {
    const typedData = orderTypedData({ chainId: 31337, seaport, order })
    expect(typedData.domain).toEqual({
      name: 'ImmutableSeaport',
      version: '1.5',
      chainId: 31337,
      verifyingContract: seaport,
    })
    const domainSeparator = hashDomain({
      domain: { ...typedData.domain, chainId: 31337n },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
      },
    })
    expect(hashTypedData(typedData)).toBe(
      keccak256(concat(['0x1901', domainSeparator, orderHash(order)])),
    )
  })

  test("behavior: the order hash follows Seaport's type strings", () => {
    const typeHash = (text: string) => keccak256(new TextEncoder().encode(text))
    const offerItem =
      'OfferItem(uint8 itemType,address token,uint256 identifierOrCriteria,uint256 startAmount,uint256 endAmount)'
    const considerationItem =
      'ConsiderationItem(uint8 itemType,address token,uint256 identifierOrCriteria,uint256 startAmount,uint256 endAmount,address recipient)'
    const orderComponents =
      'OrderComponents(address offerer,address zone,OfferItem[] offer,ConsiderationItem[] consideration,uint8 orderType,uint256 startTime,uint256 endTime,bytes32 zoneHash,uint256 salt,bytes32 conduitKey,uint256 counter)'
    const hashItems = (
      type: string,
      items: readonly Record<string, unknown>[],
    ) =>
      keccak256(
        concat([
          '0x',
          ...items.map((item) => {
            const { recipient, ...rest } = item as { recipient?: Address }
            const fields = rest as {
              itemType: number
              token: Address
              identifierOrCriteria: bigint
              startAmount: bigint
              endAmount: bigint
            }
            const head = [
              typeHash(type),
              fields.itemType,
              fields.token,
              fields.identifierOrCriteria,
              fields.startAmount,
              fields.endAmount,
            ] as const
            const itemTypes = [
              { type: 'bytes32' },
              { type: 'uint8' },
              { type: 'address' },
              { type: 'uint256' },
              { type: 'uint256' },
              { type: 'uint256' },
            ] as const
            return keccak256(
              recipient
                ? encodeAbiParameters(
                    [...itemTypes, { type: 'address' }],
                    [...head, recipient],
                  )
                : encodeAbiParameters(itemTypes, head),
            )
          }),
        ]),
      )
    const expected = keccak256(
      encodeAbiParameters(
        [
          { type: 'bytes32' },
          { type: 'address' },
          { type: 'address' },
          { type: 'bytes32' },
          { type: 'bytes32' },
          { type: 'uint8' },
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'bytes32' },
          { type: 'uint256' },
          { type: 'bytes32' },
          { type: 'uint256' },
        ],
        [
          typeHash(`${orderComponents}${considerationItem}${offerItem}`),
          order.offerer,
          order.zone,
          hashItems(offerItem, order.offer),
          hashItems(considerationItem, order.consideration),
          order.orderType,
          order.startTime,
          order.endTime,
          order.zoneHash,
          order.salt,
          order.conduitKey,
          order.counter,
        ],
      ),
    )
    expect(orderHash(order)).toBe(expected)
  })

  test('behavior: the advanced order drops the counter and counts the consideration', () => {
    const advanced = toAdvancedOrder({
      order,
      signature: '0x1234',
      extraData: '0x00',
    })
    expect(advanced).toEqual({
      parameters: {
        offerer: order.offerer,
        zone,
        offer: order.offer,
        consideration,
        orderType: 2,
        startTime: order.startTime,
        endTime: order.endTime,
        zoneHash: zeroHash,
        salt: 12345n,
        conduitKey: zeroHash,
        totalOriginalConsiderationItems: 2n,
      },
      numerator: 1n,
      denominator: 1n,
      signature: '0x1234',
      extraData: '0x00',
    })
    expect(
      toAdvancedOrder({
        order,
        signature: '0x',
        extraData: '0x',
        numerator: 1n,
        denominator: 4n,
      }).denominator,
    ).toBe(4n)
  })

  test('behavior: a whole fill hands every consideration item with its amount', () => {
    expect(receivedItems(consideration)).toEqual([
      {
        itemType: 0,
        token: zeroAddress,
        identifier: 0n,
        amount: 975n,
        recipient: seller.address,
      },
      {
        itemType: 0,
        token: zeroAddress,
        identifier: 0n,
        amount: 25n,
        recipient: buyer.address,
      },
    ])
  })

  test('error: an amount that changes over time has no whole-fill amount', () => {
    const item = { ...consideration[0]!, endAmount: 1n }
    expect(() => receivedItems([item])).toThrow(SeaportError)
    expect(() => receivedItems([item])).toThrow(
      'Consideration item 0 has a start amount (975) other than its end amount (1).',
    )
  })
})

describe('the signed zone', () => {
  const items = receivedItems(consideration)

  test('behavior: received items are packed as the zone packs them', () => {
    const packed = (item: (typeof items)[number]) =>
      concat([
        `0x${item.itemType.toString(16).padStart(2, '0')}`,
        item.token,
        `0x${item.identifier.toString(16).padStart(64, '0')}`,
        `0x${item.amount.toString(16).padStart(64, '0')}`,
        item.recipient,
      ])
    expect(receivedItemsHash(items)).toBe(keccak256(concat(items.map(packed))))
    expect(receivedItemsHash([])).toBe(keccak256('0x'))
  })

  test('behavior: substandards 3, 4 and 6 lead with their number', () => {
    const hash = receivedItemsHash(items)
    expect(substandard3(items)).toBe(concat(['0x03', hash]))
    const hashes = [keccak256('0x01'), keccak256('0x02')]
    expect(substandard4(hashes)).toBe(
      concat([
        '0x04',
        `0x${'20'.padStart(64, '0')}`,
        `0x${'2'.padStart(64, '0')}`,
        ...hashes,
      ]),
    )
    expect(substandard6({ originalFirstOfferItemAmount: 10n, items })).toBe(
      concat(['0x06', `0x${'a'.padStart(64, '0')}`, hash]),
    )
  })

  test('behavior: signed extra data is version 0, fulfiller, expiration, compact signature, context; the signature recovers to the signer', async () => {
    const context = substandard3(items)
    const hash = orderHash(order)
    const extraData = await signExtraData({
      signer: zoneSigner,
      chainId: 31337,
      zone,
      fulfiller: buyer.address,
      expiration: 1_750_000_000n,
      orderHash: hash,
      context,
    })
    const decoded = decodeExtraData(extraData)
    expect(extraData.slice(0, 4)).toBe('0x00')
    expect(decoded.fulfiller).toBe(buyer.address)
    expect(decoded.expiration).toBe(1_750_000_000n)
    expect(decoded.context).toBe(context)
    expect((extraData.length - 2) / 2).toBe(93 + 33)
    expect(encodeExtraData(decoded)).toBe(extraData)

    // ERC-2098: r, then s with the parity in its top bit.
    const r = `0x${decoded.signature.slice(2, 66)}` as const
    const vs = BigInt(`0x${decoded.signature.slice(66)}`)
    const s =
      `0x${(vs & ((1n << 255n) - 1n)).toString(16).padStart(64, '0')}` as const
    const recovered = await recoverTypedDataAddress({
      domain: signedZoneDomain({ chainId: 31337, zone }),
      types: signedOrderTypes,
      primaryType: 'SignedOrder',
      message: {
        fulfiller: buyer.address,
        expiration: 1_750_000_000n,
        orderHash: hash,
        context,
      },
      signature: serializeSignature({ r, s, yParity: Number(vs >> 255n) }),
    })
    expect(recovered).toBe(zoneSigner.address)
  })

  test('behavior: the zone domain is its name and version 2.0', () => {
    expect(signedZoneDomain({ chainId: 1, zone })).toEqual({
      name: 'ImmutableSignedZoneV2',
      version: '2.0',
      chainId: 1,
      verifyingContract: zone,
    })
    expect(signedZoneDomain({ chainId: 1, zone, name: 'Other' }).name).toBe(
      'Other',
    )
  })

  test('error: extra data the zone would refuse is refused', () => {
    const signature = `0x${'11'.repeat(64)}` as const
    const valid = {
      fulfiller: zeroAddress,
      expiration: 1n,
      signature,
      context: '0x03',
    } as const
    expect(() =>
      encodeExtraData({ ...valid, signature: `0x${'11'.repeat(65)}` }),
    ).toThrow('The zone signature must be 64 bytes (ERC-2098 compact), not 65.')
    expect(() => encodeExtraData({ ...valid, expiration: 2n ** 64n })).toThrow(
      'The expiration 18446744073709551616 does not fit 8 bytes.',
    )
    expect(() => encodeExtraData({ ...valid, expiration: -1n })).toThrow(
      SeaportError,
    )
    expect(() => decodeExtraData(`0x${'00'.repeat(92)}`)).toThrow(
      'Extra data holds at least 93 bytes, not 92.',
    )
    expect(() => decodeExtraData(`0x01${'00'.repeat(92)}`)).toThrow(
      'Extra data version 1 is not 0.',
    )
    expect(
      decodeExtraData(encodeExtraData({ ...valid, context: '0x' })),
    ).toEqual({ ...valid, context: '0x' })
  })
})
