/**
 * Seaport's bulk order signatures: one EIP-712 signature over a
 * `BulkOrder` whose `tree` is a perfect binary tree of orders (height 1 to
 * 24), carried by each order as `signature ‖ uint24 key ‖ proof`. The
 * published `@imtbl/orderbook` signs several listings of an account this
 * way (`prepareBulkListings`). The root is rebuilt from the order's hash
 * and its proof as Seaport 1.5's `Verifiers._computeBulkOrderProof` does:
 * bit `i` of the key says whether the running hash is the right (1) or
 * left (0) child at level `i`.
 *
 * @packageDocumentation
 */
import {
  type Address,
  concat,
  type Hex,
  hashDomain,
  keccak256,
  numberToHex,
  size,
  slice,
  stringToBytes,
} from 'viem'
import * as Seaport from '../../chain/seaport.js'

/** The tallest bulk order tree Seaport takes. */
export const maxBulkHeight = 24

/**
 * Whether a signature has a bulk order's length: 64 or 65 bytes, a 3-byte
 * key and 1 to 24 proof words (Seaport's `_isValidBulkOrderSize`).
 */
export function isBulkSignature(signature: Hex): boolean {
  const length = size(signature)
  return length >= 99 && length - 99 < 738 && ((length + 29) & 31) < 2
}

/** A struct's EIP-712 type string, from viem-style field lists. */
function typeString(
  name: string,
  fields: readonly { name: string; type: string }[],
): string {
  return `${name}(${fields.map((field) => `${field.type} ${field.name}`).join(',')})`
}

/** The type hash of a `BulkOrder` of `height`. */
export function bulkOrderTypeHash(height: number): Hex {
  const { OrderComponents, OfferItem, ConsiderationItem } = Seaport.orderTypes
  return keccak256(
    stringToBytes(
      `BulkOrder(OrderComponents${'[2]'.repeat(height)} tree)` +
        typeString('ConsiderationItem', ConsiderationItem) +
        typeString('OfferItem', OfferItem) +
        typeString('OrderComponents', OrderComponents),
    ),
  )
}

/**
 * The digest the offerer signed and its bare signature, for a bulk order
 * signature of the order `orderHash`; `undefined` for any other signature.
 */
export function bulkOrderDigest(options: {
  chainId: number
  seaport: Address
  orderHash: Hex
  signature: Hex
}): { digest: Hex; signature: Hex } | undefined {
  const { signature } = options
  if (!isBulkSignature(signature)) return undefined
  const length = size(signature)
  const signatureLength = 65 - (length & 1)
  const height = (length - signatureLength) >> 5
  const key = Number(slice(signature, signatureLength, signatureLength + 3))
  let node = options.orderHash
  for (let level = 0; level < height; level++) {
    const start = signatureLength + 3 + level * 32
    const sibling = slice(signature, start, start + 32)
    node = keccak256(
      (key >> level) & 1 ? concat([sibling, node]) : concat([node, sibling]),
    )
  }
  const structHash = keccak256(
    concat([
      bulkOrderTypeHash(height),
      numberToHex(BigInt(node), { size: 32 }),
    ]),
  )
  const domain = Seaport.seaportDomain({
    chainId: options.chainId,
    seaport: options.seaport,
  })
  const digest = keccak256(
    concat([
      '0x1901',
      hashDomain({
        domain: { ...domain, chainId: BigInt(domain.chainId) },
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
        },
      }),
      structHash,
    ]),
  )
  return { digest, signature: slice(signature, 0, signatureLength) }
}
