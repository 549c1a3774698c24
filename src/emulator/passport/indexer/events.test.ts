import {
  type Address,
  encodeAbiParameters,
  type Hex,
  numberToHex,
  pad,
  parseAbiParameters,
} from 'viem'
import { describe, expect, test } from 'vitest'
import {
  decodeLog,
  type OrderEvent,
  orderFulfilledTopic,
  type RawLog,
  saleOf,
  salesOf,
  type TransferEvent,
  transferBatchTopic,
  transferSingleTopic,
  transferTopic,
} from './events.js'

const token = '0x00000000000000000000000000000000000000aa' as Address
const market = '0x00000000000000000000000000000000000000bb' as Address
const alice = '0x1111111111111111111111111111111111111111' as Address
const bob = '0x2222222222222222222222222222222222222222' as Address
const carol = '0x3333333333333333333333333333333333333333' as Address
const zero = '0x0000000000000000000000000000000000000000' as Address
const blockHash = `0x${'ab'.repeat(32)}` as Hex
const txHash = `0x${'cd'.repeat(32)}` as Hex

function log(topics: Hex[], data: Hex, logIndex = 0, address = token): RawLog {
  return {
    address,
    topics,
    data,
    blockNumber: '0x7',
    blockHash,
    transactionHash: txHash,
    transactionIndex: '0x1',
    logIndex: numberToHex(logIndex),
  }
}

const topic = (address: Address) => pad(address)
const uint = (value: bigint) =>
  encodeAbiParameters(parseAbiParameters('uint256'), [value])

describe('decodeLog', () => {
  test('behavior: a Transfer with three topics is an ERC-20 transfer, with four an ERC-721 one', () => {
    expect(
      decodeLog(log([transferTopic, topic(alice), topic(bob)], uint(5n))),
    ).toEqual([
      {
        kind: 'transfer',
        standard: 'ERC20',
        contract: token,
        from: alice,
        to: bob,
        tokenId: undefined,
        amount: 5n,
        at: {
          block: 7,
          blockHash,
          txHash,
          txIndex: 1,
          logIndex: 0,
          position: 0,
        },
      },
    ])
    expect(
      decodeLog(
        log(
          [
            transferTopic,
            topic(zero),
            topic(bob),
            numberToHex(9n, { size: 32 }),
          ],
          '0x',
        ),
      ),
    ).toMatchObject([
      { standard: 'ERC721', from: zero, to: bob, tokenId: 9n, amount: 1n },
    ])
  })

  test('behavior: a TransferBatch gives one transfer per id, in order', () => {
    const data = encodeAbiParameters(
      parseAbiParameters('uint256[], uint256[]'),
      [
        [1n, 2n],
        [10n, 20n],
      ],
    )
    expect(
      decodeLog(
        log([transferBatchTopic, topic(carol), topic(alice), topic(bob)], data),
      ),
    ).toMatchObject([
      { standard: 'ERC1155', tokenId: 1n, amount: 10n, at: { position: 0 } },
      { standard: 'ERC1155', tokenId: 2n, amount: 20n, at: { position: 1 } },
    ])
    expect(
      decodeLog(
        log(
          [transferSingleTopic, topic(carol), topic(alice), topic(bob)],
          encodeAbiParameters(parseAbiParameters('uint256, uint256'), [3n, 4n]),
        ),
      ),
    ).toMatchObject([
      { standard: 'ERC1155', from: alice, to: bob, tokenId: 3n, amount: 4n },
    ])
  })

  test('error: logs that break their event layout decode to nothing', () => {
    for (const bad of [
      // ERC-20 without its value, with a longer value, an NFT with data.
      log([transferTopic, topic(alice), topic(bob)], '0x'),
      log([transferTopic, topic(alice), topic(bob)], `${uint(1n)}00`),
      log(
        [
          transferTopic,
          topic(alice),
          topic(bob),
          numberToHex(1n, { size: 32 }),
        ],
        uint(1n),
      ),
      // A topic that is no address.
      log([transferTopic, `0x${'ff'.repeat(32)}`, topic(bob)], uint(1n)),
      // A batch whose arrays differ in length, or do not decode.
      log(
        [transferBatchTopic, topic(carol), topic(alice), topic(bob)],
        encodeAbiParameters(parseAbiParameters('uint256[], uint256[]'), [
          [1n],
          [],
        ]),
      ),
      log([transferBatchTopic, topic(carol), topic(alice), topic(bob)], '0x12'),
      // Zero to zero moves nothing.
      log([transferTopic, topic(zero), topic(zero)], uint(1n)),
      // Pending logs have no block.
      {
        ...log([transferTopic, topic(alice), topic(bob)], uint(1n)),
        blockNumber: null,
      },
    ])
      expect(decodeLog(bad)).toEqual([])
  })

  test('behavior: OrderFulfilled counts only from the marketplace it is given', () => {
    const order = orderLog({
      offer: [{ itemType: 2, token, identifier: 5n, amount: 1n }],
      consideration: [
        {
          itemType: 0,
          token: zero,
          identifier: 0n,
          amount: 90n,
          recipient: alice,
        },
        {
          itemType: 0,
          token: zero,
          identifier: 0n,
          amount: 10n,
          recipient: carol,
        },
      ],
    })
    expect(decodeLog(order)).toEqual([])
    expect(decodeLog(order, bob)).toEqual([])
    expect(decodeLog(order, market)).toMatchObject([
      {
        kind: 'order',
        offerer: alice,
        recipient: bob,
        orderHash: `0x${'01'.repeat(32)}`,
      },
    ])
  })
})

function orderLog(items: {
  offer: {
    itemType: number
    token: Address
    identifier: bigint
    amount: bigint
  }[]
  consideration: {
    itemType: number
    token: Address
    identifier: bigint
    amount: bigint
    recipient: Address
  }[]
  offerer?: Address
  recipient?: Address
}): RawLog {
  const data = encodeAbiParameters(
    parseAbiParameters(
      'bytes32, address, (uint8, address, uint256, uint256)[], (uint8, address, uint256, uint256, address)[]',
    ),
    [
      `0x${'01'.repeat(32)}`,
      items.recipient ?? bob,
      items.offer.map(
        (item) =>
          [item.itemType, item.token, item.identifier, item.amount] as const,
      ),
      items.consideration.map(
        (item) =>
          [
            item.itemType,
            item.token,
            item.identifier,
            item.amount,
            item.recipient,
          ] as const,
      ),
    ],
  )
  return log(
    [orderFulfilledTopic, topic(items.offerer ?? alice), topic(zero)],
    data,
    5,
    market,
  )
}

describe('saleOf', () => {
  test('behavior: a listing sells the offered NFTs to the recipient; what the offerer receives is the price without fees', () => {
    const [order] = decodeLog(
      orderLog({
        offer: [{ itemType: 2, token, identifier: 5n, amount: 1n }],
        consideration: [
          {
            itemType: 0,
            token: zero,
            identifier: 0n,
            amount: 90n,
            recipient: alice,
          },
          {
            itemType: 0,
            token: zero,
            identifier: 0n,
            amount: 10n,
            recipient: carol,
          },
        ],
      }),
      market,
    ) as [OrderEvent]
    expect(saleOf(order)).toMatchObject({
      seller: alice,
      buyer: bob,
      assets: [
        { standard: 'ERC721', contract: token, tokenId: 5n, amount: 1n },
      ],
      payment: {
        token: undefined,
        total: 100n,
        proceeds: 90n,
        fees: [{ recipient: carol, amount: 10n }],
      },
    })
  })

  test('behavior: a bid buys the wanted NFTs for the offerer; its fees come out of the offered amount', () => {
    const erc20 = '0x00000000000000000000000000000000000000cc' as Address
    const [order] = decodeLog(
      orderLog({
        offer: [{ itemType: 1, token: erc20, identifier: 0n, amount: 100n }],
        consideration: [
          { itemType: 3, token, identifier: 7n, amount: 4n, recipient: alice },
          {
            itemType: 1,
            token: erc20,
            identifier: 0n,
            amount: 3n,
            recipient: carol,
          },
        ],
      }),
      market,
    ) as [OrderEvent]
    expect(saleOf(order)).toMatchObject({
      seller: bob,
      buyer: alice,
      assets: [{ standard: 'ERC1155', tokenId: 7n, amount: 4n }],
      payment: {
        token: erc20,
        total: 100n,
        proceeds: 97n,
        fees: [{ recipient: carol, amount: 3n }],
      },
    })
  })

  test('behavior: an order that moves no NFT is no sale', () => {
    const [order] = decodeLog(
      orderLog({
        offer: [{ itemType: 1, token, identifier: 0n, amount: 1n }],
        consideration: [
          {
            itemType: 0,
            token: zero,
            identifier: 0n,
            amount: 1n,
            recipient: alice,
          },
        ],
      }),
      market,
    ) as [OrderEvent]
    expect(saleOf(order)).toBe(undefined)
  })
})

describe('salesOf', () => {
  test('behavior: the NFT transfer a sale settled is marked with the order; others in the transaction are not', () => {
    const nft = decodeLog(
      log(
        [
          transferTopic,
          topic(alice),
          topic(bob),
          numberToHex(5n, { size: 32 }),
        ],
        '0x',
        1,
      ),
    )[0] as TransferEvent
    const other = decodeLog(
      log(
        [
          transferTopic,
          topic(alice),
          topic(carol),
          numberToHex(6n, { size: 32 }),
        ],
        '0x',
        2,
      ),
    )[0] as TransferEvent
    const [order] = decodeLog(
      orderLog({
        offer: [{ itemType: 2, token, identifier: 5n, amount: 1n }],
        consideration: [
          {
            itemType: 0,
            token: zero,
            identifier: 0n,
            amount: 1n,
            recipient: alice,
          },
        ],
      }),
      market,
    )
    const events = salesOf([nft, other, order!])
    expect(events.map((event) => event.kind)).toEqual([
      'transfer',
      'transfer',
      'sale',
    ])
    expect(nft.sale).toBe(`0x${'01'.repeat(32)}`)
    expect(other.sale).toBe(undefined)
  })
})
