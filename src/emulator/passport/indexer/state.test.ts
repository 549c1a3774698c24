import type { Address, Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import type { TransferEvent } from './events.js'
import { contentOfJson } from './metadata.js'
import {
  activityIdOf,
  append,
  createChainState,
  type Entry,
  link,
  nftKey,
  restack,
  rollback,
  uuidOf,
} from './state.js'

const collection = '0x00000000000000000000000000000000000000aa' as Address
const zero = '0x0000000000000000000000000000000000000000' as Address
const alice = '0x1111111111111111111111111111111111111111' as Address
const bob = '0x2222222222222222222222222222222222222222' as Address

function entry(
  block: number,
  from: Address,
  to: Address,
  tokenId: bigint,
  amount = 1n,
  indexedAt = new Date(block * 1000),
): Entry {
  const at = {
    block,
    blockHash: `0x${block.toString(16).padStart(64, '0')}` as Hex,
    txHash: `0x${'cd'.repeat(32)}` as Hex,
    txIndex: 0,
    logIndex: 0,
    position: 0,
  }
  const event: TransferEvent = {
    kind: 'transfer',
    standard: 'ERC1155',
    contract: collection,
    from,
    to,
    tokenId,
    amount,
    at,
  }
  return { ...event, id: activityIdOf(1, at, 'transfer'), indexedAt }
}

describe('append and rollback', () => {
  test('behavior: supply and balances follow mints, transfers and burns', () => {
    const state = createChainState(1)
    append(state, [
      entry(1, zero, alice, 7n, 5n),
      entry(2, alice, bob, 7n, 2n),
      entry(3, bob, zero, 7n, 1n),
    ])
    const key = nftKey(collection, 7n)
    expect(state.nfts.get(key)).toMatchObject({
      supply: 4n,
      indexedAt: new Date(1000),
      updatedAt: new Date(3000),
    })
    expect(state.owners.get(key)?.get(alice)?.balance).toBe(3n)
    expect(state.owners.get(key)?.get(bob)?.balance).toBe(1n)
    expect(state.activities.size).toBe(3)
    expect(state.collections.get(collection)?.indexedAt).toEqual(new Date(1000))
  })

  test('behavior: a rollback derives the state of the blocks kept, and marks what changed updated now', () => {
    const state = createChainState(1)
    append(state, [entry(1, zero, alice, 7n, 5n), entry(4, alice, bob, 7n, 2n)])
    const now = new Date(99_000)
    expect(rollback(state, 3, now)).toBe(1)
    const key = nftKey(collection, 7n)
    expect(state.owners.get(key)?.get(alice)).toEqual({
      balance: 5n,
      updatedAt: now,
    })
    expect(state.owners.get(key)?.get(bob)).toBe(undefined)
    expect(state.nfts.get(key)?.updatedAt).toEqual(now)
    expect(state.activities.size).toBe(1)
    expect(rollback(state, 3, now)).toBe(0)
  })

  test("behavior: a rollback past an NFT's mint forgets it, its metadata, its stack and its contract", () => {
    const state = createChainState(1)
    state.contracts.set(collection, {
      address: collection,
      kind: 'ERC1155',
      name: null,
      symbol: null,
      decimals: null,
      contractUri: null,
      description: null,
      image: null,
      externalLink: null,
      baseUri: null,
    })
    append(state, [entry(2, zero, alice, 1n)])
    const key = nftKey(collection, 1n)
    const content = contentOfJson({ name: 'A' })
    state.chainMetadata.set(key, content)
    const stack = link(state, key, collection, content, new Date(5))
    expect(state.stacks.get(stack.id)).toBe(stack)
    rollback(state, 1, new Date(6))
    expect(state.nfts.size).toBe(0)
    expect(state.chainMetadata.size).toBe(0)
    expect(state.links.size).toBe(0)
    expect(state.stacks.size).toBe(0)
    expect(state.stackByContent.size).toBe(0)
    expect(state.contracts.size).toBe(0)
    expect(state.collections.size).toBe(0)
  })
})

describe('link and restack', () => {
  test('behavior: NFTs with equal metadata share a stack; a changed one moves, and an emptied stack goes', () => {
    const state = createChainState(1)
    append(state, [entry(1, zero, alice, 1n), entry(1, zero, alice, 2n)])
    const a = contentOfJson({ name: 'Sword' })
    const one = link(state, nftKey(collection, 1n), collection, a, new Date(1))
    const two = link(
      state,
      nftKey(collection, 2n),
      collection,
      { ...a },
      new Date(2),
    )
    expect(two.id).toBe(one.id)
    const moved = link(
      state,
      nftKey(collection, 1n),
      collection,
      contentOfJson({ name: 'Shield' }),
      new Date(3),
    )
    expect(moved.id).not.toBe(one.id)
    expect(state.stacks.has(one.id)).toBe(true)
    link(
      state,
      nftKey(collection, 2n),
      collection,
      contentOfJson({ name: 'Shield' }),
      new Date(4),
    )
    expect(state.stacks.has(one.id)).toBe(false)
    expect([...state.stacks.keys()]).toEqual([moved.id])
  })

  test('behavior: restacking keeps the id and shows every NFT of the stack the new metadata', () => {
    const state = createChainState(1)
    append(state, [entry(1, zero, alice, 1n)])
    const stack = link(
      state,
      nftKey(collection, 1n),
      collection,
      contentOfJson({ name: 'A' }),
      new Date(1),
    )
    restack(state, stack, contentOfJson({ name: 'B' }), new Date(9))
    expect(state.stacks.get(stack.id)?.content.name).toBe('B')
    expect(state.links.get(nftKey(collection, 1n))).toEqual({
      stackId: stack.id,
      syncedAt: new Date(9),
    })
    // The new content finds the same stack.
    append(state, [entry(2, zero, alice, 2n)])
    expect(
      link(
        state,
        nftKey(collection, 2n),
        collection,
        contentOfJson({ name: 'B' }),
        new Date(10),
      ).id,
    ).toBe(stack.id)
  })
})

describe('uuidOf', () => {
  test('behavior: the same text gives the same version-4-shaped UUID', () => {
    expect(uuidOf('a')).toBe(uuidOf('a'))
    expect(uuidOf('a')).not.toBe(uuidOf('b'))
    expect(uuidOf('a')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
  })
})
