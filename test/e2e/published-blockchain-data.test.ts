/**
 * The published `@imtbl/blockchain-data` 2.24.8 `BlockchainData`,
 * unchanged but for its base path and API key (its `overrides`), against
 * a started emulator: the chains, an ERC-1155 mint request minted on
 * chain, the mint activity, the NFT with the request's metadata, its
 * owners, the collection and the owner's NFTs.
 */
import { APIError, BlockchainData } from '@imtbl/blockchain-data'
import type { Address } from 'viem'
import {
  createPublicClient,
  getAddress,
  http,
  parseAbi,
  parseAbiItem,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { minter } from '../../src/emulator/chain/accounts.js'
import { type Emulator, startEmulator } from '../../src/emulator/index.js'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { slots } from '../../src/emulator/ports.js'
import { shieldMetadata, untilSettled } from './minting.js'

let emulator: Emulator
let chainName: string
let collection: Address
let client: BlockchainData

/** Its sandbox environment, the value the brief's config names. */
const sandbox = 'sandbox' as ConstructorParameters<
  typeof BlockchainData
>[0]['baseConfig']['environment']

beforeAll(async () => {
  emulator = await startEmulator({
    portBase: await findFreePortRange(slots.length),
    anvilPort: await findFreePort(),
  })
  const { passport, contracts } = emulator.info
  chainName = passport.overrides.zkEvmChainName
  collection = contracts.erc1155
  client = new BlockchainData({
    baseConfig: { environment: sandbox },
    overrides: {
      basePath: passport.apiUrl,
      headers: { 'x-immutable-api-key': passport.apiKey },
    },
  })
})
afterAll(() => emulator?.stop())

describe('the published BlockchainData', () => {
  test('behavior: mints an ERC-1155 amount through the emulator and reads the chain, the activity, the NFT, its owner, the collection and the account', async () => {
    const { result: chains } = await client.listChains({})
    expect(chains).toEqual([
      {
        id: `eip155:${emulator.info.chainId}`,
        name: chainName,
        rpc_url: emulator.info.rpcUrl,
        operator_allowlist_address:
          emulator.info.contracts.operatorAllowlist.toLowerCase(),
        minter_address: emulator.info.accounts.minter.address.toLowerCase(),
      },
    ])

    const owner = privateKeyToAccount(generatePrivateKey()).address
    const accepted = await client.createMintRequest({
      chainName,
      contractAddress: collection,
      createMintRequestRequest: {
        assets: [
          {
            reference_id: 'bd-1',
            owner_address: owner,
            token_id: '77',
            amount: '4',
            metadata: shieldMetadata,
          },
        ],
      },
    })
    expect(accepted.imx_mint_requests_limit).toBe('2000')
    expect(accepted.imx_remaining_mint_requests).toBe('1999')
    const record = await untilSettled(async () => {
      const { result } = await client.getMintRequest({
        chainName,
        contractAddress: collection,
        referenceId: 'bd-1',
      })
      return result[0]!
    })
    expect(record).toMatchObject({
      status: 'succeeded',
      token_id: '77',
      amount: '4',
      owner_address: owner.toLowerCase(),
      error: null,
    })

    // The chain's own view: the minter's batch mint (the preset's
    // safeMintBatch) of 4 of token 77.
    const node = createPublicClient({ transport: http(emulator.info.rpcUrl) })
    const [log] = await node.getLogs({
      address: collection,
      event: parseAbiItem(
        'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
      ),
      args: { to: owner },
      fromBlock: 0n,
    })
    expect(log?.args).toMatchObject({
      operator: minter.address,
      ids: [77n],
      values: [4n],
    })
    expect(record.transaction_hash).toBe(log?.transactionHash)
    expect(
      await node.readContract({
        address: collection,
        abi: parseAbi([
          'function balanceOf(address account, uint256 id) view returns (uint256)',
        ]),
        functionName: 'balanceOf',
        args: [owner, 77n],
      }),
    ).toBe(4n)

    const { result: activities } = await client.listActivities({
      chainName,
      contractAddress: collection,
      tokenId: '77',
      activityType: 'mint',
    })
    expect(activities).toHaveLength(1)
    expect(activities[0]).toMatchObject({
      id: record.activity_id,
      type: 'mint',
      blockchain_metadata: { transaction_hash: log?.transactionHash },
      details: {
        to: owner.toLowerCase(),
        amount: '4',
        asset: {
          contract_type: 'ERC1155',
          contract_address: collection.toLowerCase(),
          token_id: '77',
        },
      },
    })

    const { result: nft } = await client.getNFT({
      chainName,
      contractAddress: collection,
      tokenId: '77',
    })
    expect(nft).toMatchObject({
      token_id: '77',
      contract_type: 'ERC1155',
      name: 'Shield',
      description: 'A sturdy shield',
      image: 'https://img.example/shield.png',
      attributes: shieldMetadata.attributes,
      total_supply: '4',
    })
    const { result: owners } = await client.listNFTOwners({
      chainName,
      contractAddress: collection,
      tokenId: '77',
    })
    expect(owners).toHaveLength(1)
    expect(owners[0]).toMatchObject({
      account_address: owner.toLowerCase(),
      balance: '4',
    })
    const { result: got } = await client.getCollection({
      chainName,
      contractAddress: collection,
    })
    expect(got).toMatchObject({
      contract_address: collection.toLowerCase(),
      contract_type: 'ERC1155',
      // The ERC-1155 preset has no name(): its name is only its EIP-712
      // domain's.
      name: null,
    })
    const { result: held } = await client.listNFTsByAccountAddress({
      chainName,
      accountAddress: owner,
    })
    expect(held).toHaveLength(1)
    expect(held[0]).toMatchObject({
      token_id: '77',
      balance: '4',
      name: 'Shield',
    })
    expect(getAddress(record.owner_address)).toBe(owner)
  })

  test('error: a contract the platform does not mint on is refused as the API says (403 AUTHENTICATION_ERROR), a wrong key 401', async () => {
    const foreign = emulator.info.contracts.testErc721
    const refused = await client
      .createMintRequest({
        chainName,
        contractAddress: foreign,
        createMintRequestRequest: {
          assets: [
            {
              reference_id: 'bd-x',
              owner_address: privateKeyToAccount(generatePrivateKey()).address,
            },
          ],
        },
      })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(APIError)
    expect(refused).toMatchObject({ code: 'AUTHENTICATION_ERROR' })
    const wrong = new BlockchainData({
      baseConfig: { environment: sandbox },
      overrides: {
        basePath: emulator.info.passport.apiUrl,
        headers: { 'x-immutable-api-key': 'sk_imapik-test-wrong' },
      },
    })
    const unauthorised = await wrong
      .listMintRequests({ chainName, contractAddress: collection })
      .catch((error: unknown) => error)
    expect(unauthorised).toMatchObject({ code: 'UNAUTHORISED_REQUEST' })
  })
})
