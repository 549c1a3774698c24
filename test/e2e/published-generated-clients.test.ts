/**
 * The published `@imtbl/generated-clients` 2.24.8 `MultiRollupApiClients`,
 * unchanged but for its base path and API key, against a started
 * emulator: the chains, a mint request minted on chain, the mint
 * activity, the NFT with the request's metadata, its owners, the
 * collection and the owner's NFTs. Then our own generated clients
 * (`embedded-wallets/api`) do the same, and read what the published ones
 * read alike.
 */
import { createConfig, MultiRollupApiClients } from '@imtbl/generated-clients'
import { type Address, getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  MultiRollupApiClients as OurClients,
  createConfig as ourConfig,
} from '../../src/api/index.js'
import { minter } from '../../src/emulator/chain/accounts.js'
import { type Emulator, startEmulator } from '../../src/emulator/index.js'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { slots } from '../../src/emulator/ports.js'
import { mintOnChain, shieldMetadata, untilSettled } from './minting.js'

let emulator: Emulator
let chainName: string
let collection: Address
let published: MultiRollupApiClients
let ours: OurClients

beforeAll(async () => {
  emulator = await startEmulator({
    portBase: await findFreePortRange(slots.length),
    anvilPort: await findFreePort(),
  })
  const { passport, contracts } = emulator.info
  chainName = passport.overrides.zkEvmChainName
  collection = contracts.erc721
  const headers = { 'x-immutable-api-key': passport.apiKey }
  const config = createConfig({ basePath: passport.apiUrl, headers })
  published = new MultiRollupApiClients({
    indexer: config,
    orderBook: config,
    passport: config,
  })
  const mine = ourConfig({ basePath: passport.apiUrl, headers })
  ours = new OurClients({ indexer: mine, orderBook: mine, passport: mine })
})
afterAll(() => emulator?.stop())

const fresh = () => privateKeyToAccount(generatePrivateKey()).address

describe('the published generated clients and ours, minting and reading', () => {
  let owner: Address
  let tokenId: string

  test('behavior: chainsApi lists the emulator chain', async () => {
    const { data } = await published.chainsApi.listChains()
    expect(data.result).toEqual([
      {
        id: `eip155:${emulator.info.chainId}`,
        name: chainName,
        rpc_url: emulator.info.rpcUrl,
        operator_allowlist_address:
          emulator.info.contracts.operatorAllowlist.toLowerCase(),
        minter_address: emulator.info.accounts.minter.address.toLowerCase(),
      },
    ])
    expect((await ours.chainsApi.listChains()).data.result).toEqual(data.result)
  })

  test('behavior: nftsApi.createMintRequest mints on chain; getMintRequest reports the assigned id, the hash of the chain and the mint activity', async () => {
    owner = fresh()
    const accepted = await published.nftsApi.createMintRequest({
      chainName,
      contractAddress: collection,
      createMintRequestRequest: {
        assets: [
          {
            reference_id: 'published-1',
            owner_address: owner,
            metadata: shieldMetadata,
          },
        ],
      },
    })
    expect(accepted.status).toBe(202)
    expect(accepted.data.imx_mint_requests_limit).toBe('2000')
    expect(accepted.data.imx_remaining_mint_requests).toBe('1999')
    const record = await untilSettled(async () => {
      const { data } = await published.nftsApi.getMintRequest({
        chainName,
        contractAddress: collection,
        referenceId: 'published-1',
      })
      expect(data.result).toHaveLength(1)
      return data.result[0]!
    })
    // The preset's first by-quantity id: 2^128 + 256.
    tokenId = (2n ** 128n + 256n).toString()
    expect(record).toMatchObject({
      status: 'succeeded',
      token_id: tokenId,
      owner_address: owner.toLowerCase(),
      collection_address: collection.toLowerCase(),
      reference_id: 'published-1',
      amount: null,
      error: null,
    })
    const chain = await mintOnChain(
      emulator,
      collection,
      owner,
      BigInt(tokenId),
    )
    expect(record.transaction_hash).toBe(chain.hash)
    expect(chain.from).toBe(minter.address)

    const { data: activities } = await published.activitiesApi.listActivities({
      chainName,
      contractAddress: collection,
      tokenId,
      activityType: 'mint',
    })
    expect(activities.result).toHaveLength(1)
    const [activity] = activities.result
    expect(activity!.id).toBe(record.activity_id)
    expect(activity!.type).toBe('mint')
    expect(activity!.blockchain_metadata?.transaction_hash).toBe(chain.hash)
    expect(activity!.details).toMatchObject({
      to: owner.toLowerCase(),
      amount: '1',
      asset: {
        contract_type: 'ERC721',
        contract_address: collection.toLowerCase(),
        token_id: tokenId,
      },
    })
  })

  test('behavior: the NFT carries the request metadata; its owner, the collection and the account NFTs agree', async () => {
    const { data: nft } = await published.nftsApi.getNFT({
      chainName,
      contractAddress: collection,
      tokenId,
    })
    expect(nft.result).toMatchObject({
      chain: { id: `eip155:${emulator.info.chainId}`, name: chainName },
      token_id: tokenId,
      contract_address: collection.toLowerCase(),
      contract_type: 'ERC721',
      name: 'Shield',
      description: 'A sturdy shield',
      image: 'https://img.example/shield.png',
      attributes: shieldMetadata.attributes,
    })
    const { data: owners } = await published.nftOwnersApi.listNFTOwners({
      chainName,
      contractAddress: collection,
      tokenId,
    })
    expect(owners.result).toHaveLength(1)
    expect(owners.result[0]).toMatchObject({
      account_address: owner.toLowerCase(),
      token_id: tokenId,
      balance: '1',
    })
    const { data: got } = await published.collectionApi.getCollection({
      chainName,
      contractAddress: collection,
    })
    expect(got.result).toMatchObject({
      contract_address: collection.toLowerCase(),
      contract_type: 'ERC721',
      name: 'Emulator ERC-721',
      symbol: 'EMU721',
    })
    const { data: held } = await published.nftsApi.listNFTsByAccountAddress({
      chainName,
      accountAddress: owner,
    })
    expect(held.result).toHaveLength(1)
    expect(held.result[0]).toMatchObject({
      token_id: tokenId,
      name: 'Shield',
      balance: '1',
    })

    // Ours reads the same records.
    expect(
      (
        await ours.nftsApi.getNFT({
          chainName,
          contractAddress: collection,
          tokenId,
        })
      ).data,
    ).toEqual(nft)
    expect(
      (
        await ours.nftOwnersApi.listNFTOwners({
          chainName,
          contractAddress: collection,
          tokenId,
        })
      ).data,
    ).toEqual(owners)
    expect(
      (
        await ours.collectionApi.getCollection({
          chainName,
          contractAddress: collection,
        })
      ).data,
    ).toEqual(got)
  })

  test('behavior: our nftsApi mints by id the same way, and the published client reads our mint', async () => {
    const other = fresh()
    const accepted = await ours.nftsApi.createMintRequest({
      chainName,
      contractAddress: collection,
      createMintRequestRequest: {
        assets: [
          {
            reference_id: 'ours-1',
            owner_address: other,
            token_id: '42',
            metadata: {
              name: 'Helmet',
              attributes: [{ trait_type: 'Defence', value: 3 }],
            },
          },
        ],
      },
    })
    expect(accepted.status).toBe(202)
    const record = await untilSettled(async () => {
      const { data } = await ours.nftsApi.getMintRequest({
        chainName,
        contractAddress: collection,
        referenceId: 'ours-1',
      })
      return data.result[0]!
    })
    expect(record).toMatchObject({
      status: 'succeeded',
      token_id: '42',
      error: null,
    })
    const chain = await mintOnChain(emulator, collection, other, 42n)
    expect(record.transaction_hash).toBe(chain.hash)
    const viaPublished = await published.nftsApi.getMintRequest({
      chainName,
      contractAddress: collection,
      referenceId: 'ours-1',
    })
    expect(viaPublished.data.result[0]).toEqual(record)
    const { data: nft } = await published.nftsApi.getNFT({
      chainName,
      contractAddress: collection,
      tokenId: '42',
    })
    expect(nft.result.name).toBe('Helmet')
    expect(nft.result.attributes).toEqual([{ trait_type: 'Defence', value: 3 }])
    const listed = await published.nftsApi.listMintRequests({
      chainName,
      contractAddress: collection,
      status: 'succeeded',
    })
    expect(
      listed.data.result.map((r: { reference_id: string }) => r.reference_id),
    ).toEqual(['published-1', 'ours-1'])
    expect(
      (
        await ours.nftsApi.listMintRequests({
          chainName,
          contractAddress: collection,
          status: 'succeeded',
        })
      ).data,
    ).toEqual(listed.data)
    expect(getAddress(record.owner_address)).toBe(other)
  })

  test('error: without the key the published client gets 401, a reference in use 409', async () => {
    const bare = new MultiRollupApiClients({
      indexer: createConfig({ basePath: emulator.info.passport.apiUrl }),
      orderBook: createConfig({ basePath: emulator.info.passport.apiUrl }),
      passport: createConfig({ basePath: emulator.info.passport.apiUrl }),
    })
    await expect(
      bare.nftsApi.createMintRequest({
        chainName,
        contractAddress: collection,
        createMintRequestRequest: {
          assets: [{ reference_id: 'x', owner_address: fresh() }],
        },
      }),
    ).rejects.toMatchObject({
      response: { status: 401, data: { code: 'UNAUTHORISED_REQUEST' } },
    })
    await expect(
      published.nftsApi.createMintRequest({
        chainName,
        contractAddress: collection,
        createMintRequestRequest: {
          assets: [{ reference_id: 'published-1', owner_address: fresh() }],
        },
      }),
    ).rejects.toMatchObject({
      response: { status: 409, data: { code: 'CONFLICT_ERROR' } },
    })
  })
})
