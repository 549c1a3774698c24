import {
  concat,
  type Hex,
  hashTypedData,
  keccak256,
  numberToHex,
  zeroAddress,
  zeroHash,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import * as Seaport from '../../chain/seaport.js'
import { bulkOrderDigest, isBulkSignature } from './bulk.js'

const chainId = 31337
const seaport = '0x00000000000000000000000000000000000005ea' as const
const key = privateKeyToAccount(generatePrivateKey())

const order = (salt: bigint): Seaport.OrderComponents => ({
  offerer: key.address,
  zone: zeroAddress,
  offer: [],
  consideration: [],
  orderType: Seaport.OrderType.FULL_RESTRICTED,
  startTime: 0n,
  endTime: 1n,
  zoneHash: zeroHash,
  salt,
  conduitKey: zeroHash,
  counter: 0n,
})

const pair = (left: Hex, right: Hex) => keccak256(concat([left, right]))

describe('bulk order signatures', () => {
  test('behavior: the digest rebuilt from one order, its key and its proof is the digest of the whole tree the account signed', async () => {
    const [a, b, c, d] = [1n, 2n, 3n, 4n].map(order) as [
      Seaport.OrderComponents,
      Seaport.OrderComponents,
      Seaport.OrderComponents,
      Seaport.OrderComponents,
    ]
    // A tree of height 2, signed as a wallet signs a bulk order.
    const typed = {
      domain: Seaport.seaportDomain({ chainId, seaport }),
      types: {
        ...Seaport.orderTypes,
        BulkOrder: [{ name: 'tree', type: 'OrderComponents[2][2]' }],
      },
      primaryType: 'BulkOrder',
      message: {
        tree: [
          [a, b],
          [c, d],
        ],
      },
    } as const
    const signature = await key.signTypedData(typed)
    const [ha, hb, hc, hd] = [a, b, c, d].map(Seaport.orderHash) as [
      Hex,
      Hex,
      Hex,
      Hex,
    ]
    // Leaf c is index 2 (key 0b10): its sibling d on its right, then the
    // left pair (a, b) on the left.
    const bulk = concat([
      signature,
      numberToHex(2, { size: 3 }),
      hd,
      pair(ha, hb),
    ])
    expect(isBulkSignature(bulk)).toBe(true)
    expect(isBulkSignature(signature)).toBe(false)
    expect(
      bulkOrderDigest({ chainId, seaport, orderHash: hc, signature: bulk }),
    ).toEqual({ digest: hashTypedData(typed), signature })
    expect(
      bulkOrderDigest({ chainId, seaport, orderHash: hb, signature: bulk })
        ?.digest,
    ).not.toBe(hashTypedData(typed))
    expect(
      bulkOrderDigest({ chainId, seaport, orderHash: hc, signature }),
    ).toBeUndefined()
  })
})
