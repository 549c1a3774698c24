/**
 * Mint requests over a real Anvil of the test's own: the emulator's minter
 * mints on the platform's ERC-721 and ERC-1155 presets, by quantity (ids
 * the preset assigns, read back from its events), by id, and ERC-1155
 * amounts, several assets in one transaction; the request's metadata is
 * the indexed NFT's; a revert fails only the assets that revert; a failed
 * reference id may be used again; concurrent requests never race the
 * minter's nonces.
 */
import { type Address, getAddress, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { minter } from '../../src/emulator/chain/accounts.js'
import {
  type MintingTest,
  startMintingTest,
} from '../../src/emulator/passport/minting/testkit.js'

let kit: MintingTest
let erc721: Address
let erc1155: Address

beforeAll(async () => {
  kit = await startMintingTest()
  erc721 = kit.contracts.erc721.toLowerCase() as Address
  erc1155 = kit.contracts.erc1155.toLowerCase() as Address
})
afterAll(() => kit?.stop())

const erc721Abi = parseAbi([
  'function ownerOf(uint256 tokenId) view returns (address)',
])
const erc1155Abi = parseAbi([
  'function balanceOf(address account, uint256 id) view returns (uint256)',
])
/** The first id the preset's by-quantity mint assigns: 2^128 + 256. */
const firstQuantityId = 2n ** 128n + 256n

const sword = {
  name: 'Sword',
  description: 'A sharp sword',
  image: 'https://img.example/sword.png',
  attributes: [{ trait_type: 'Power', value: 9, display_type: 'number' }],
}

async function settled(contract: Address, referenceId: string) {
  await kit.minting.idle()
  const answer = await kit.get(
    `/collections/${contract}/nfts/mint-requests/${referenceId}`,
  )
  expect(answer.status).toBe(200)
  return answer.body.result[0]
}

describe('mint requests on chain', () => {
  test('behavior: ERC-721 without token ids mints by quantity in one transaction, reports the assigned ids, hands the metadata to the indexer', async () => {
    const alice = (await kit.account()).address.toLowerCase() as Address
    const bob = (await kit.account()).address.toLowerCase() as Address
    const accepted = await kit.mint(erc721, {
      assets: [
        { reference_id: 'q-1', owner_address: alice, metadata: sword },
        { reference_id: 'q-2', owner_address: bob },
        { reference_id: 'q-3', owner_address: alice },
      ],
    })
    expect(accepted.status).toBe(202)
    expect(accepted.body.imx_mint_requests_limit).toBe('2000')
    expect(accepted.body.imx_remaining_mint_requests).toBe('1997')
    expect(accepted.headers.get('imx-remaining-mint-requests')).toBe('1997')
    const pending = await kit.get(
      `/collections/${erc721}/nfts/mint-requests/q-1`,
    )
    expect(pending.body.result[0]).toMatchObject({
      reference_id: 'q-1',
      owner_address: alice,
      collection_address: erc721,
      chain: { id: `eip155:${kit.chainId}`, name: kit.chainName },
    })
    const [one, two, three] = [
      await settled(erc721, 'q-1'),
      await settled(erc721, 'q-2'),
      await settled(erc721, 'q-3'),
    ]
    // Alice's two come first (one run of ids per owner), then Bob's.
    expect(one.token_id).toBe(firstQuantityId.toString())
    expect(three.token_id).toBe((firstQuantityId + 1n).toString())
    expect(two.token_id).toBe((firstQuantityId + 256n).toString())
    expect(one.status).toBe('succeeded')
    expect(one.error).toBeNull()
    expect(one.amount).toBeNull()
    expect(one.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(two.transaction_hash).toBe(one.transaction_hash)
    expect(three.transaction_hash).toBe(one.transaction_hash)
    const receipt = await kit.publicClient.getTransactionReceipt({
      hash: one.transaction_hash,
    })
    expect(getAddress(receipt.from)).toBe(minter.address)
    expect(
      await kit.publicClient.readContract({
        address: erc721,
        abi: erc721Abi,
        functionName: 'ownerOf',
        args: [BigInt(two.token_id)],
      }),
    ).toBe(getAddress(bob))

    const activity = await kit.get(`/activities/${one.activity_id}`)
    expect(activity.status).toBe(200)
    expect(activity.body.result.type).toBe('mint')
    expect(activity.body.result.blockchain_metadata.transaction_hash).toBe(
      one.transaction_hash,
    )
    expect(
      kit.minting.record(kit.chainId, erc721, 'q-1')?.metadata,
    ).toBeUndefined()
    const nft = await kit.get(`/collections/${erc721}/nfts/${one.token_id}`)
    expect(nft.body.result).toMatchObject({
      token_id: one.token_id,
      name: 'Sword',
      description: 'A sharp sword',
      image: 'https://img.example/sword.png',
      attributes: [{ trait_type: 'Power', value: 9, display_type: 'number' }],
    })
  })

  test('behavior: ERC-721 with token ids mints by id; an id minted already fails alone with the revert, the others mint', async () => {
    const carol = (await kit.account()).address.toLowerCase() as Address
    expect(
      (
        await kit.mint(erc721, {
          assets: [
            { reference_id: 'id-7', owner_address: carol, token_id: '7' },
          ],
        })
      ).status,
    ).toBe(202)
    expect((await settled(erc721, 'id-7')).status).toBe('succeeded')
    const again = await kit.mint(erc721, {
      assets: [
        { reference_id: 'id-7-again', owner_address: carol, token_id: '7' },
        { reference_id: 'id-8', owner_address: carol, token_id: '8' },
      ],
    })
    expect(again.status).toBe(202)
    const failed = await settled(erc721, 'id-7-again')
    expect(failed).toMatchObject({
      status: 'failed',
      token_id: '7',
      transaction_hash: null,
      activity_id: null,
      error: { message: 'The mint reverted: ERC721: token already minted' },
    })
    const eight = await settled(erc721, 'id-8')
    expect(eight.status).toBe('succeeded')
    expect(eight.token_id).toBe('8')

    // A failed reference id may be used again; a minted one may not.
    const retry = await kit.mint(erc721, {
      assets: [
        { reference_id: 'id-7-again', owner_address: carol, token_id: '9' },
      ],
    })
    expect(retry.status).toBe(202)
    expect(await settled(erc721, 'id-7-again')).toMatchObject({
      status: 'succeeded',
      token_id: '9',
      error: null,
    })
    // Ids from 2^128 up are the by-quantity mint's: the preset refuses them by id.
    const above = await kit.mint(erc721, {
      assets: [
        {
          reference_id: 'id-high',
          owner_address: carol,
          token_id: (2n ** 128n).toString(),
        },
      ],
    })
    expect(above.status).toBe(202)
    expect((await settled(erc721, 'id-high')).error).toEqual({
      message: `The mint reverted: IImmutableERC721IDAboveThreshold(${2n ** 128n})`,
    })
    const duplicate = await kit.mint(erc721, {
      assets: [{ reference_id: 'id-8', owner_address: carol }],
    })
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.code).toBe('CONFLICT_ERROR')
  })

  test('behavior: ERC-1155 mints amounts, one transaction per owner', async () => {
    const dave = (await kit.account()).address.toLowerCase() as Address
    const erin = (await kit.account()).address.toLowerCase() as Address
    const accepted = await kit.mint(erc1155, {
      assets: [
        {
          reference_id: 'g-1',
          owner_address: dave,
          token_id: '1',
          amount: '5',
          metadata: { name: 'Gold' },
        },
        {
          reference_id: 'g-2',
          owner_address: dave,
          token_id: '2',
          amount: '1',
        },
        {
          reference_id: 'g-3',
          owner_address: erin,
          token_id: '1',
          amount: '3',
        },
      ],
    })
    expect(accepted.status).toBe(202)
    // Distinct token ids count against the budget, not assets.
    const g1 = await settled(erc1155, 'g-1')
    const g2 = await settled(erc1155, 'g-2')
    const g3 = await settled(erc1155, 'g-3')
    expect([g1.status, g2.status, g3.status]).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
    ])
    expect(g1.amount).toBe('5')
    expect(g2.transaction_hash).toBe(g1.transaction_hash)
    expect(g3.transaction_hash).not.toBe(g1.transaction_hash)
    expect(
      await kit.publicClient.readContract({
        address: erc1155,
        abi: erc1155Abi,
        functionName: 'balanceOf',
        args: [erin, 1n],
      }),
    ).toBe(3n)
    const nft = await kit.get(`/collections/${erc1155}/nfts/1`)
    expect(nft.body.result.name).toBe('Gold')
    expect(g1.activity_id).not.toBe(g3.activity_id)
    const activity = await kit.get(`/activities/${g3.activity_id}`)
    expect(activity.body.result.details.to).toBe(erin)
  })

  test("behavior: the indexer's NFT routes leave the mint request routes alone, whatever the reference id", async () => {
    const owner = (await kit.account()).address.toLowerCase() as Address
    expect(
      (
        await kit.mint(erc721, {
          assets: [{ reference_id: 'owners', owner_address: owner }],
        })
      ).status,
    ).toBe(202)
    const record = await settled(erc721, 'owners')
    expect(record.reference_id).toBe('owners')
    expect(record.status).toBe('succeeded')
  })

  test('behavior: concurrent requests are minted one after another from the minter, none lost', async () => {
    const frank = (await kit.account()).address.toLowerCase() as Address
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        kit.mint(erc721, {
          assets: [{ reference_id: `c-${i}`, owner_address: frank }],
        }),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(202))
    const records = await Promise.all(
      Array.from({ length: 6 }, (_, i) => settled(erc721, `c-${i}`)),
    )
    expect(records.every((record) => record.status === 'succeeded')).toBe(true)
    expect(new Set(records.map((record) => record.transaction_hash)).size).toBe(
      6,
    )
    const listed = await kit.get(
      `/collections/${erc721}/nfts/mint-requests?status=succeeded&page_size=200`,
    )
    expect(
      listed.body.result
        .map((record: { reference_id: string }) => record.reference_id)
        .filter((id: string) => id.startsWith('c-')),
    ).toEqual(['c-0', 'c-1', 'c-2', 'c-3', 'c-4', 'c-5'])
  })
})
