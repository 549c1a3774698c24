import {
  encodeAbiParameters,
  encodeEventTopics,
  type Hex,
  pad,
  parseAbi,
  parseAbiItem,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { decodeLog } from './logs.js'

const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const from = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const erc20Transfer = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
)
const erc721Transfer = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
)

describe('decodeLog', () => {
  test("behavior: ERC-20's Transfer (value in data) and ERC-721's (token id indexed) share a selector and decode apart", () => {
    const erc20 = decodeLog({
      address: token,
      logIndex: 0,
      topics: encodeEventTopics({
        abi: [erc20Transfer],
        args: { from, to },
      }) as [Hex, ...Hex[]],
      data: encodeAbiParameters([{ type: 'uint256' }], [25n * 10n ** 17n]),
    })
    expect(erc20).toMatchObject({
      name: 'Transfer',
      args: [
        { name: 'from', value: from },
        { name: 'to', value: to },
        { name: 'value', value: 2_500_000_000_000_000_000n },
      ],
    })
    const erc721 = decodeLog({
      address: token,
      logIndex: 1,
      topics: encodeEventTopics({
        abi: [erc721Transfer],
        args: { from, to, tokenId: 7n },
      }) as [Hex, ...Hex[]],
      data: '0x',
    })
    expect(erc721).toMatchObject({
      name: 'Transfer',
      args: [
        { name: 'from', value: from },
        { name: 'to', value: to },
        { name: 'tokenId', value: 7n },
      ],
    })
  })

  test("behavior: the game wallet's anonymous TxExecuted is read from a topicless one-word log", () => {
    const tx = pad('0x1234', { size: 32 })
    expect(
      decodeLog({ address: from, logIndex: 2, topics: [], data: tx }),
    ).toMatchObject({ name: 'TxExecuted', args: [{ name: '_tx', value: tx }] })
  })

  test('behavior: an event the page does not know stays raw', () => {
    const [unknown] = parseAbi(['event Poked(address indexed who)'])
    const topics = encodeEventTopics({
      abi: [unknown],
      args: { who: from },
    }) as [Hex, ...Hex[]]
    expect(
      decodeLog({ address: token, logIndex: 3, topics, data: '0x' }),
    ).toEqual({
      address: token,
      logIndex: 3,
      name: undefined,
      args: [],
      topics,
      data: '0x',
    })
  })

  test('error: topics that fit neither overload stay raw', () => {
    const [selector] = encodeEventTopics({
      abi: [erc20Transfer],
      args: {},
    }) as [Hex, ...Hex[]]
    expect(
      decodeLog({ address: token, logIndex: 4, topics: [selector], data: '0x' })
        .name,
    ).toBeUndefined()
  })
})
