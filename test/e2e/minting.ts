/**
 * What the published-client tests of the mint requests share: a started
 * emulator's facts, a poll of a mint request until it settles, and the
 * chain's own view of the mint (its transaction, from the node).
 */
import {
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  parseAbiItem,
} from 'viem'
import type { Emulator } from '../../src/emulator/index.js'

/** The request's metadata: the NFT's name and attributes must come from it. */
export const shieldMetadata = {
  name: 'Shield',
  description: 'A sturdy shield',
  image: 'https://img.example/shield.png',
  attributes: [
    { trait_type: 'Defence', value: 7, display_type: 'number' as const },
    { trait_type: 'Rarity', value: 'rare' },
  ],
}

/** A mint request record as the clients read it. */
export type Minted = {
  status: string
  token_id: string | null
  transaction_hash: string | null
  activity_id?: string | null
  error: unknown
}

/** Reads a record until it is no longer pending (a few seconds at most). */
export async function untilSettled<record extends Minted>(
  read: () => Promise<record>,
): Promise<record> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const record = await read()
    if (record.status !== 'pending' || Date.now() > deadline) return record
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * The transaction that minted `tokenId` of `collection` to `owner`, as
 * the node says (its `Transfer` from the zero address).
 */
export async function mintOnChain(
  emulator: Emulator,
  collection: Address,
  owner: Address,
  tokenId: bigint,
): Promise<{ hash: Hex; from: Address }> {
  const client = createPublicClient({ transport: http(emulator.info.rpcUrl) })
  const logs = await client.getLogs({
    address: collection,
    event: parseAbiItem(
      'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
    ),
    args: {
      from: '0x0000000000000000000000000000000000000000',
      to: owner,
      tokenId,
    },
    fromBlock: 0n,
  })
  if (logs.length !== 1) throw new Error(`${logs.length} mints of ${tokenId}.`)
  const hash = logs[0]!.transactionHash
  const transaction = await client.getTransaction({ hash })
  return { hash, from: getAddress(transaction.from) }
}
