/**
 * Our generated platform clients (`src/api/`) against a started emulator:
 * every multi-rollup tag the emulated platform serves, called through the
 * clients alone, over real state made on its Anvil from accounts 1–4 (the
 * emulator's test tokens minted and moved, a fixture collection's NFT
 * burned), with exact answers; the API's refusals as their typed errors;
 * and the tags the emulator does not serve answering the typed not-found
 * error rather than breaking the client.
 */
import {
  type Abi,
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  domainSeparator,
  encodeAbiParameters,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  keccak256,
  type PrivateKeyAccount,
  pad,
  parseAbi,
  recoverAddress,
  toBytes,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  ApiErrors,
  createConfig,
  MultiRollupApiClients,
  mr,
} from '../../src/api/index.js'
import { anvilAccounts } from '../../src/emulator/chain/accounts.js'
import { type Emulator, startEmulator } from '../../src/emulator/index.js'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { compileMulticaller } from '../../src/emulator/passport/api/_test/multicaller.js'
import { tokensFor } from '../../src/emulator/passport/identity/testkit.js'
import {
  dataUri,
  fixtureArtifacts,
} from '../../src/emulator/passport/indexer/testkit.js'
import { slots } from '../../src/emulator/ports.js'
import { playerWalletAddress } from '../../src/passport/wire/sequence.js'

let emulator: Emulator
let chainName: string
let chainId: number
let api: string
let clients: MultiRollupApiClients
let keyed: mr.Configuration
let open: mr.Configuration

/** Anvil accounts 1–4: the ones the emulator leaves to dApps and tests. */
const account = (index: 1 | 2 | 3 | 4): PrivateKeyAccount => {
  const found = anvilAccounts[index]
  if (!found) throw new Error(`No Anvil account ${index}.`)
  return found
}
const [one, two, three, four] = [account(1), account(2), account(3), account(4)]
const lower = (account: { address: Address }) =>
  account.address.toLowerCase() as Address

let contracts: {
  nft: Address
  items: Address
  coin: Address
  relics: Address
}
const hashes: Record<string, Hash> = {}
/** The fixture collection's contract URI. */
const relicsUri = () => dataUri({ name: 'Relics', description: 'Old things' })

const tokenAbi = parseAbi([
  'function mint(address to) returns (uint256)',
  'function transferFrom(address from, address to, uint256 id)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data)',
  'function mint(address to, uint256 id, uint256 amount, bytes data)',
  'function mint(address to, uint256 amount)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function mint(address to, uint256 id, string uri)',
  'function burn(uint256 id)',
])

/** Sends a token call from `account` and waits for it; records its hash. */
async function send(
  name: string,
  account: PrivateKeyAccount,
  call: { address: Address; functionName: string; args: readonly unknown[] },
) {
  const { rpcUrl } = emulator.info
  const hash = await createWalletClient({
    account,
    transport: http(rpcUrl),
  }).writeContract({ chain: null, abi: tokenAbi, ...call } as never)
  const receipt = await createPublicClient({
    transport: http(rpcUrl),
  }).waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`${name} reverted.`)
  hashes[name] = hash
}

beforeAll(async () => {
  emulator = await startEmulator({
    portBase: await findFreePortRange(slots.length),
    anvilPort: await findFreePort(),
  })
  const { info } = emulator
  chainId = info.chainId
  chainName = info.passport.overrides.zkEvmChainName
  api = info.passport.apiUrl
  open = createConfig({ basePath: api })
  keyed = new mr.Configuration({ basePath: api, apiKey: info.passport.apiKey })
  clients = new MultiRollupApiClients({
    indexer: open,
    orderBook: open,
    passport: open,
  })

  const publicClient = createPublicClient({ transport: http(info.rpcUrl) })
  // The emulator's test tokens have no burn (and OpenZeppelin refuses a
  // transfer to the zero address): the burned NFT is a fixture
  // collection's, deployed by account 4.
  const { FixtureCollection } = fixtureArtifacts()
  const deployed = await publicClient.waitForTransactionReceipt({
    hash: await createWalletClient({
      account: four,
      transport: http(info.rpcUrl),
    }).deployContract({
      chain: null,
      account: four,
      abi: FixtureCollection.abi as Abi,
      bytecode: FixtureCollection.bytecode,
      args: ['Relics', 'RLC', relicsUri()],
    }),
  })
  contracts = {
    nft: info.contracts.testErc721,
    items: info.contracts.testErc1155,
    coin: info.contracts.erc20,
    relics: deployed.contractAddress as Address,
  }
  const { nft, items, coin, relics } = contracts
  await send('mint721a', one, {
    address: nft,
    functionName: 'mint',
    args: [one.address],
  })
  await send('mint721b', one, {
    address: nft,
    functionName: 'mint',
    args: [one.address],
  })
  await send('transfer721', one, {
    address: nft,
    functionName: 'transferFrom',
    args: [one.address, two.address, 2n],
  })
  await send('mint1155', three, {
    address: items,
    functionName: 'mint',
    args: [three.address, 7n, 5n, '0x'],
  })
  await send('transfer1155', three, {
    address: items,
    functionName: 'safeTransferFrom',
    args: [three.address, four.address, 7n, 2n, '0x'],
  })
  await send('mint20', one, {
    address: coin,
    functionName: 'mint',
    args: [one.address, 1000n],
  })
  await send('transfer20', one, {
    address: coin,
    functionName: 'transfer',
    args: [two.address, 250n],
  })
  await send('mintRelic9', four, {
    address: relics,
    functionName: 'mint',
    args: [
      four.address,
      9n,
      dataUri({
        name: 'Broken Idol',
        attributes: [{ trait_type: 'age', value: 'old' }],
      }),
    ],
  })
  await send('mintRelic10', four, {
    address: relics,
    functionName: 'mint',
    args: [
      four.address,
      10n,
      dataUri({
        name: 'Golden Idol',
        attributes: [{ trait_type: 'age', value: 'old' }],
      }),
    ],
  })
  await send('burnRelic9', four, {
    address: relics,
    functionName: 'burn',
    args: [9n],
  })
})
afterAll(() => emulator?.stop())

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
const uuid = expect.stringMatching(
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
)
const noPage = { previous_cursor: null, next_cursor: null }
const chainRef = () => ({ id: `eip155:${chainId}`, name: chainName })

/** What `call` rejects with, to compare its class and fields exactly. */
async function refusal(call: () => Promise<unknown>) {
  const error = await call().then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!(error instanceof ApiErrors.ApiError))
    throw new Error(`Expected an ApiErrors.ApiError, got ${String(error)}`)
  return {
    type: error.constructor,
    name: error.name,
    code: error.code,
    status: error.status,
    message: error.message,
    bodyCode: error.body?.code,
  }
}

/** The fields every refusal of `type` has, with the server's `message`. */
function refused(
  type: (new (
    response: ApiErrors.ApiResponse<unknown>,
  ) => ApiErrors.ApiError) & { readonly code: string; readonly status: number },
  name: string,
  message: string,
) {
  return {
    type,
    name: `ApiErrors.${name}`,
    code: type.code,
    status: type.status,
    message,
    bodyCode: type.code,
  }
}

describe('chains', () => {
  test('default: listChains names the emulator’s chain and its node', async () => {
    const { data } = await clients.chainsApi.listChains()
    expect(data).toEqual({
      result: [
        {
          ...chainRef(),
          rpc_url: emulator.info.rpcUrl,
          operator_allowlist_address:
            emulator.info.contracts.operatorAllowlist.toLowerCase(),
          minter_address: emulator.info.accounts.minter.address.toLowerCase(),
        },
      ],
      page: noPage,
    })
  })
})

describe('activities', () => {
  test('default: listActivities has every transfer of the setup, in chain order, with its type', async () => {
    const { data } = await clients.activitiesApi.listActivities({ chainName })
    expect(data.page).toEqual(noPage)
    expect(
      data.result.map((activity) => {
        const details = activity.details as {
          from?: string
          to?: string
          amount: string
          asset: { contract_address: string; token_id?: string }
        }
        return [
          activity.type,
          details.from ?? '-',
          details.to ?? '-',
          details.asset.contract_address,
          details.asset.token_id ?? '-',
          details.amount,
          activity.blockchain_metadata?.transaction_hash,
        ].join(' ')
      }),
    ).toEqual(
      [
        ['mint', '-', lower(one), contracts.nft, '1', '1', 'mint721a'],
        ['mint', '-', lower(one), contracts.nft, '2', '1', 'mint721b'],
        [
          'transfer',
          lower(one),
          lower(two),
          contracts.nft,
          '2',
          '1',
          'transfer721',
        ],
        ['mint', '-', lower(three), contracts.items, '7', '5', 'mint1155'],
        [
          'transfer',
          lower(three),
          lower(four),
          contracts.items,
          '7',
          '2',
          'transfer1155',
        ],
        ['mint', '-', lower(one), contracts.coin, '-', '1000', 'mint20'],
        [
          'transfer',
          lower(one),
          lower(two),
          contracts.coin,
          '-',
          '250',
          'transfer20',
        ],
        ['mint', '-', lower(four), contracts.relics, '9', '1', 'mintRelic9'],
        ['mint', '-', lower(four), contracts.relics, '10', '1', 'mintRelic10'],
        ['burn', lower(four), '-', contracts.relics, '9', '1', 'burnRelic9'],
      ].map(([type, from, to, contract, token, amount, tx]) =>
        [
          type,
          from,
          to,
          contract?.toLowerCase(),
          token,
          amount,
          hashes[tx!],
        ].join(' '),
      ),
    )
  })

  test('behavior: page_size 1 walks the NFT’s activities by next_cursor and back by previous_cursor; getActivity reads one by id', async () => {
    const list = (pageCursor?: string) =>
      clients.activitiesApi.listActivities({
        chainName,
        contractAddress: contracts.nft,
        pageSize: 1,
        ...(pageCursor ? { pageCursor } : {}),
      })
    const first = (await list()).data
    expect(first.result).toHaveLength(1)
    expect(first.result[0]).toEqual({
      id: uuid,
      chain: chainRef(),
      type: 'mint',
      details: {
        to: lower(one),
        amount: '1',
        asset: {
          contract_type: 'ERC721',
          contract_address: contracts.nft.toLowerCase(),
          token_id: '1',
          amount: '1',
        },
      },
      updated_at: iso,
      indexed_at: iso,
      blockchain_metadata: {
        transaction_hash: hashes.mint721a,
        block_number: expect.stringMatching(/^\d+$/),
        transaction_index: '0',
        log_index: '0',
      },
    })
    expect(first.page.previous_cursor).toBeNull()
    const second = (await list(first.page.next_cursor as string)).data
    expect(
      second.result.map((a) => [
        a.type,
        a.blockchain_metadata?.transaction_hash,
      ]),
    ).toEqual([['mint', hashes.mint721b]])
    const third = (await list(second.page.next_cursor as string)).data
    expect(
      third.result.map((a) => [
        a.type,
        a.blockchain_metadata?.transaction_hash,
      ]),
    ).toEqual([['transfer', hashes.transfer721]])
    const back = (await list(second.page.previous_cursor as string)).data
    expect(back.result).toEqual(first.result)
    const read = await clients.activitiesApi.getActivity({
      chainName,
      activityId: third.result[0]!.id,
    })
    expect(read.data).toEqual({ result: third.result[0] })
  })

  test('behavior: listActivityHistory from a time before the setup, filtered to burns', async () => {
    const { data } = await clients.activitiesApi.listActivityHistory({
      chainName,
      fromUpdatedAt: new Date(Date.now() - 3_600_000),
      activityType: 'burn',
    })
    expect(data).toEqual({
      result: [
        expect.objectContaining({
          type: 'burn',
          details: {
            from: lower(four),
            amount: '1',
            asset: {
              contract_type: 'ERC721',
              contract_address: contracts.relics.toLowerCase(),
              token_id: '9',
              amount: '1',
            },
          },
        }),
      ],
      page: noPage,
    })
  })
})

/** A collection as the indexer answers it, from what its contract says. */
function collection(fields: {
  address: Address
  name: string | null
  symbol: string | null
  type: 'ERC721' | 'ERC1155'
  description?: string
  contractUri?: string
}) {
  return {
    chain: chainRef(),
    name: fields.name,
    symbol: fields.symbol,
    contract_type: fields.type,
    contract_address: fields.address.toLowerCase(),
    description: fields.description ?? null,
    image: null,
    external_link: null,
    contract_uri: fields.contractUri ?? null,
    base_uri: null,
    verification_status: 'unverified',
    indexed_at: iso,
    updated_at: iso,
    metadata_synced_at: null,
  }
}

describe('collections', () => {
  test('default: getCollection and listCollections read each contract’s name, symbol and type from the chain', async () => {
    const relics = collection({
      address: contracts.relics,
      name: 'Relics',
      symbol: 'RLC',
      type: 'ERC721',
      description: 'Old things',
      contractUri: relicsUri(),
    })
    const read = await clients.collectionApi.getCollection({
      chainName,
      contractAddress: contracts.relics,
    })
    expect(read.data).toEqual({ result: relics })
    const { data } = await clients.collectionApi.listCollections({ chainName })
    expect(data).toEqual({
      result: [
        collection({
          address: contracts.nft,
          name: 'Test NFT',
          symbol: 'TNFT',
          type: 'ERC721',
        }),
        collection({
          address: contracts.items,
          name: null,
          symbol: null,
          type: 'ERC1155',
        }),
        relics,
      ],
      page: noPage,
    })
  })

  test('behavior: listCollectionsByNFTOwner lists the collections an account holds NFTs of', async () => {
    const { data } = await clients.collectionApi.listCollectionsByNFTOwner({
      chainName,
      accountAddress: four.address,
    })
    expect(
      data.result.map((entry) => [entry.contract_address, entry.contract_type]),
    ).toEqual([
      [contracts.items.toLowerCase(), 'ERC1155'],
      [contracts.relics.toLowerCase(), 'ERC721'],
    ])
    expect(data.page).toEqual(noPage)
  })
})

/** An NFT of the test collections as the indexer answers it. */
function nftOf(fields: {
  address: Address
  tokenId: string
  type: 'ERC721' | 'ERC1155'
  name: string
  description?: string | null
  attributes?: readonly { trait_type: string; value: string }[]
  supply: string
}) {
  return {
    chain: chainRef(),
    token_id: fields.tokenId,
    contract_address: fields.address.toLowerCase(),
    contract_type: fields.type,
    indexed_at: iso,
    updated_at: iso,
    metadata_synced_at: iso,
    metadata_id: uuid,
    name: fields.name,
    description: fields.description ?? null,
    image: null,
    external_link: null,
    external_url: null,
    animation_url: null,
    youtube_url: null,
    attributes: fields.attributes ?? [],
    total_supply: fields.supply,
  }
}

const idol = (name: string) => ({
  name,
  attributes: [{ trait_type: 'age', value: 'old' }],
})

describe('nfts', () => {
  test('default: getNFT reads a minted NFT with the metadata of its token URI', async () => {
    const { data } = await clients.nftsApi.getNFT({
      chainName,
      contractAddress: contracts.nft,
      tokenId: '1',
    })
    expect(data).toEqual({
      result: nftOf({
        address: contracts.nft,
        tokenId: '1',
        type: 'ERC721',
        name: 'Test NFT 1',
        description: 'Local test NFT 1',
        supply: '1',
      }),
    })
  })

  test('behavior: listNFTs of a collection keeps the burned NFT with a total supply of 0', async () => {
    const { data } = await clients.nftsApi.listNFTs({
      chainName,
      contractAddress: contracts.relics,
    })
    expect(data).toEqual({
      result: [
        nftOf({
          address: contracts.relics,
          tokenId: '9',
          type: 'ERC721',
          ...idol('Broken Idol'),
          supply: '0',
        }),
        nftOf({
          address: contracts.relics,
          tokenId: '10',
          type: 'ERC721',
          ...idol('Golden Idol'),
          supply: '1',
        }),
      ],
      page: noPage,
    })
  })

  test('behavior: listNFTsByAccountAddress follows the transfer; listAllNFTs pages one by one', async () => {
    const held = await clients.nftsApi.listNFTsByAccountAddress({
      chainName,
      accountAddress: two.address,
    })
    expect(
      held.data.result.map((nft) => [nft.contract_address, nft.token_id]),
    ).toEqual([[contracts.nft.toLowerCase(), '2']])
    const seen: string[] = []
    let cursor: string | undefined
    for (let page = 0; page < 10; page++) {
      const { data } = await clients.nftsApi.listAllNFTs({
        chainName,
        pageSize: 1,
        ...(cursor ? { pageCursor: cursor } : {}),
      })
      expect(data.result.length).toBeLessThanOrEqual(1)
      seen.push(...data.result.map((nft) => `${nft.name}`))
      if (!data.page.next_cursor) break
      cursor = data.page.next_cursor
    }
    expect(seen).toEqual([
      'Test NFT 1',
      'Test NFT 2',
      'Test Item 7',
      'Broken Idol',
      'Golden Idol',
    ])
  })
})

describe('nft owners', () => {
  test('default: listNFTOwners of the ERC-1155 item: both holders with their balances', async () => {
    const { data } = await clients.nftOwnersApi.listNFTOwners({
      chainName,
      contractAddress: contracts.items,
      tokenId: '7',
    })
    expect(data).toEqual({
      result: [
        {
          chain: chainRef(),
          contract_address: contracts.items.toLowerCase(),
          token_id: '7',
          account_address: lower(four),
          balance: '2',
          updated_at: iso,
        },
        {
          chain: chainRef(),
          contract_address: contracts.items.toLowerCase(),
          token_id: '7',
          account_address: lower(three),
          balance: '3',
          updated_at: iso,
        },
      ],
      page: noPage,
    })
  })

  test('behavior: listOwnersByContractAddress filters by account; listAllNFTOwners leaves out the burned NFT', async () => {
    const byAccount = await clients.nftOwnersApi.listOwnersByContractAddress({
      chainName,
      contractAddress: contracts.nft,
      accountAddress: [two.address],
    })
    expect(
      byAccount.data.result.map((o) => [
        o.token_id,
        o.account_address,
        o.balance,
      ]),
    ).toEqual([['2', lower(two), '1']])
    const all = await clients.nftOwnersApi.listAllNFTOwners({ chainName })
    expect(
      all.data.result.map((o) => [
        o.contract_address,
        o.token_id,
        o.account_address,
        o.balance,
      ]),
    ).toEqual([
      [contracts.nft.toLowerCase(), '1', lower(one), '1'],
      [contracts.nft.toLowerCase(), '2', lower(two), '1'],
      [contracts.items.toLowerCase(), '7', lower(four), '2'],
      [contracts.items.toLowerCase(), '7', lower(three), '3'],
      [contracts.relics.toLowerCase(), '10', lower(four), '1'],
    ])
  })
})

describe('tokens', () => {
  test('default: getERC20Token and listERC20Tokens read the minted ERC-20 from the chain', async () => {
    const tokens = new mr.TokensApi(open)
    const token = {
      chain: chainRef(),
      contract_address: contracts.coin.toLowerCase(),
      root_contract_address: null,
      root_chain_id: null,
      bridge_used: null,
      symbol: 'TEST',
      decimals: 18,
      image_url: null,
      name: 'Test Token',
      verification_status: 'unverified',
      updated_at: iso,
      is_canonical: false,
    }
    expect(
      (
        await tokens.getERC20Token({
          chainName,
          contractAddress: contracts.coin,
        })
      ).data,
    ).toEqual({ result: token })
    expect((await tokens.listERC20Tokens({ chainName })).data).toEqual({
      result: [token],
      page: noPage,
    })
  })
})

/** The metadata id (stack id) of an NFT, as getNFT answers it. */
async function metadataIdOf(contractAddress: Address, tokenId: string) {
  const { data } = await clients.nftsApi.getNFT({
    chainName,
    contractAddress,
    tokenId,
  })
  return data.result.metadata_id as string
}

/** A stack of the relics as the search routes answer it. */
function relicStack(stackId: string, name: string) {
  return {
    stack_id: stackId,
    chain: chainRef(),
    contract_address: contracts.relics.toLowerCase(),
    contract_type: 'ERC721',
    created_at: iso,
    updated_at: iso,
    ...idol(name),
    description: null,
    image: null,
    external_url: null,
    animation_url: null,
    youtube_url: null,
  }
}

const emptyMarket = { floor_listing: null, top_bid: null, last_trade: null }

describe('metadata-search', () => {
  test('default: listFilters counts the traits of the NFTs in circulation (the burned one not)', async () => {
    const { data } = await new mr.MetadataSearchApi(open).listFilters({
      chainName,
      contractAddress: contracts.relics,
    })
    expect(data).toEqual({
      result: {
        chain: chainRef(),
        contract_address: contracts.relics.toLowerCase(),
        filters: [
          {
            name: 'age',
            values: [{ value: 'old', nft_count: '1' }],
            omitted_values_count: 0,
          },
        ],
      },
      page: noPage,
    })
  })

  test('behavior: searchNFTs and searchStacks (by keyword) find the held NFT in its stack, with an empty market', async () => {
    const search = new mr.MetadataSearchApi(open)
    const stackId = await metadataIdOf(contracts.relics, '10')
    const nfts = await search.searchNFTs({
      chainName,
      contractAddress: [contracts.relics],
      accountAddress: four.address,
    })
    expect(nfts.data).toEqual({
      result: [
        {
          nft_with_stack: {
            ...relicStack(stackId, 'Golden Idol'),
            token_id: '10',
            balance: 1,
          },
          market: emptyMarket,
          listings: [],
          bids: [],
        },
      ],
      page: noPage,
    })
    const stacks = await search.searchStacks({
      chainName,
      contractAddress: [contracts.relics],
      keyword: 'Golden',
    })
    expect(stacks.data).toEqual({
      result: [
        {
          stack: relicStack(stackId, 'Golden Idol'),
          stack_count: 1,
          market: emptyMarket,
          listings: [],
          bids: [],
        },
      ],
      page: noPage,
    })
    const none = await search.searchStacks({
      chainName,
      contractAddress: [contracts.relics],
      keyword: 'Broken',
    })
    expect(none.data).toEqual({ result: [], page: noPage })
  })
})

describe('pricing', () => {
  // No order book yet: the quotes are there, every market empty.
  test('default: quotesForNFTs answers each NFT with no listing, bid or trade', async () => {
    const { data } = await new mr.PricingApi(open).quotesForNFTs({
      chainName,
      contractAddress: contracts.nft,
      tokenId: ['1', '2'],
    })
    expect(data).toEqual({
      result: ['1', '2'].map((tokenId) => ({
        chain: chainRef(),
        token_id: tokenId,
        market_stack: emptyMarket,
        market_nft: { last_trade: null },
        market_collection: emptyMarket,
      })),
      page: noPage,
    })
  })

  test('default: quotesForStacks answers the stack with an empty market', async () => {
    const stackId = await metadataIdOf(contracts.relics, '10')
    const { data } = await new mr.PricingApi(open).quotesForStacks({
      chainName,
      contractAddress: contracts.relics,
      stackId: [stackId],
    })
    expect(data).toEqual({
      result: [
        {
          chain: chainRef(),
          stack_id: stackId,
          market_stack: emptyMarket,
          market_collection: emptyMarket,
        },
      ],
      page: noPage,
    })
  })
})

/** Every field of an NFT's metadata, unset. */
const blank = {
  name: null,
  description: null,
  image: null,
  external_url: null,
  animation_url: null,
  youtube_url: null,
  attributes: null,
}

describe('metadata', () => {
  test('default: getMetadata, listMetadata and listStacks read the stacks of the token URIs', async () => {
    const metadata = new mr.MetadataApi(open)
    const golden = await metadataIdOf(contracts.relics, '10')
    const broken = await metadataIdOf(contracts.relics, '9')
    const record = (id: string, name: string) => ({
      id,
      chain: chainRef(),
      contract_address: contracts.relics.toLowerCase(),
      created_at: iso,
      updated_at: iso,
      ...blank,
      ...idol(name),
    })
    expect(
      (
        await metadata.getMetadata({
          chainName,
          contractAddress: contracts.relics,
          metadataId: golden,
        })
      ).data,
    ).toEqual({ result: record(golden, 'Golden Idol') })
    expect(
      (
        await metadata.listMetadata({
          chainName,
          contractAddress: contracts.relics,
        })
      ).data,
    ).toEqual({
      result: [record(broken, 'Broken Idol'), record(golden, 'Golden Idol')],
      page: noPage,
    })
    const all = await metadata.listMetadataForChain({ chainName, pageSize: 2 })
    expect(all.data.result.map((entry) => entry.name)).toEqual([
      'Test NFT 1',
      'Test NFT 2',
    ])
    expect(all.data.page.next_cursor).toEqual(expect.any(String))
    const stacks = await metadata.listStacks({ chainName, stackId: [golden] })
    expect(stacks.data).toEqual([
      expect.objectContaining({
        stack: relicStack(golden, 'Golden Idol'),
        stack_count: 1,
      }),
    ])
  })

  test('behavior: with the API key, refreshNFTMetadataByTokenID and refreshMetadataByID give NFTs new metadata, and answer the hour’s budget', async () => {
    const metadata = new mr.MetadataApi(keyed)
    const budget = (remaining: string) => ({
      imx_refreshes_limit: '2000',
      imx_refresh_limit_reset: iso,
      imx_remaining_refreshes: remaining,
      retry_after: '0',
    })
    const byToken = await metadata.refreshNFTMetadataByTokenID({
      chainName,
      contractAddress: contracts.relics,
      refreshNFTMetadataByTokenIDRequest: {
        nft_metadata: [{ token_id: '10', ...blank, ...idol('Polished Idol') }],
      },
    })
    expect([byToken.status, byToken.data]).toEqual([202, budget('1999')])
    const polished = await clients.nftsApi.getNFT({
      chainName,
      contractAddress: contracts.relics,
      tokenId: '10',
    })
    expect(polished.data.result).toEqual(
      nftOf({
        address: contracts.relics,
        tokenId: '10',
        type: 'ERC721',
        ...idol('Polished Idol'),
        supply: '1',
      }),
    )

    const first = await metadataIdOf(contracts.nft, '1')
    const byId = await metadata.refreshMetadataByID({
      chainName,
      contractAddress: contracts.nft,
      refreshMetadataByIDRequest: {
        metadata: [
          {
            metadata_id: first,
            ...blank,
            name: 'Renamed NFT',
            description: 'Refreshed',
          },
        ],
      },
    })
    expect([byId.status, byId.data]).toEqual([202, budget('1998')])
    const renamed = await clients.nftsApi.getNFT({
      chainName,
      contractAddress: contracts.nft,
      tokenId: '1',
    })
    expect([
      renamed.data.result.metadata_id,
      renamed.data.result.name,
      renamed.data.result.description,
    ]).toEqual([first, 'Renamed NFT', 'Refreshed'])
  })

  test('behavior: with the API key, refreshCollectionMetadata answers the collection’s new metadata, which getCollection then reads', async () => {
    const given = {
      name: 'Relics Reforged',
      symbol: 'RLC2',
      description: 'Older things',
      image: 'https://img.example/relics.png',
      external_link: 'https://game.example',
      contract_uri: null,
      base_uri: 'https://meta.example/relics/',
    }
    const refreshed = await new mr.CollectionsApi(
      keyed,
    ).refreshCollectionMetadata({
      chainName,
      contractAddress: contracts.relics,
      refreshCollectionMetadataRequest: { collection_metadata: given },
    })
    expect(refreshed.data).toEqual({
      contract_address: contracts.relics.toLowerCase(),
      chain: chainRef(),
      collection_metadata: given,
    })
    const read = await clients.collectionApi.getCollection({
      chainName,
      contractAddress: contracts.relics,
    })
    expect(read.data.result).toEqual({
      ...collection({
        address: contracts.relics,
        name: 'Relics Reforged',
        symbol: 'RLC2',
        type: 'ERC721',
      }),
      ...given,
      metadata_synced_at: iso,
    })
  })
})

/**
 * The digest Immutable's `GuardedMulticaller2` (@imtbl/contracts) checks a
 * crafting signature against, written from the contract's source: its
 * struct hashes `abi.encode` the string, the bytes and the array of call
 * hashes as they are, then EIP-712's domain and `0x1901` prefix.
 */
function guardedMulticallDigest(input: {
  multicaller: { address: Address; name: string; version: string }
  reference: Hex
  calls: readonly { target: Address; functionSignature: string; data: Hex }[]
  deadline: bigint
}): Hex {
  const callType = keccak256(
    toBytes('Call(address target,string functionSignature,bytes data)'),
  )
  const multicallType = keccak256(
    toBytes(
      'Multicall(bytes32 ref,Call[] calls,uint256 deadline)Call(address target,string functionSignature,bytes data)',
    ),
  )
  const callHashes = input.calls.map((call) =>
    keccak256(
      encodeAbiParameters(
        [
          { type: 'bytes32' },
          { type: 'address' },
          { type: 'string' },
          { type: 'bytes' },
        ],
        [callType, call.target, call.functionSignature, call.data],
      ),
    ),
  )
  const structHash = keccak256(
    encodeAbiParameters(
      [
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
      ],
      [
        multicallType,
        input.reference,
        keccak256(encodeAbiParameters([{ type: 'bytes32[]' }], [callHashes])),
        input.deadline,
      ],
    ),
  )
  return keccak256(
    concat([
      '0x1901',
      domainSeparator({
        domain: {
          name: input.multicaller.name,
          version: input.multicaller.version,
          chainId,
          verifyingContract: input.multicaller.address,
        },
      }),
      structHash,
    ]),
  )
}

describe('crafting', () => {
  test('default: with the API key, signCraftingPayload signs by passport.craftingSigner; the signer recovers from GuardedMulticaller2’s digest, and the contract executes the calls', async () => {
    const { rpcUrl, passport } = emulator.info
    const { craftingSigner } = passport
    // Immutable's multicaller, deployed and owned by account 4, which
    // grants the emulator's crafting signer its signer role.
    const compiled = compileMulticaller()
    const owner = createWalletClient({ account: four, transport: http(rpcUrl) })
    const reader = createPublicClient({ transport: http(rpcUrl) })
    const deployed = await reader.waitForTransactionReceipt({
      hash: await owner.deployContract({
        chain: null,
        account: four,
        abi: compiled.abi,
        bytecode: compiled.bytecode,
        args: [four.address, 'Forge', '1'],
      }),
    })
    const multicaller = {
      address: deployed.contractAddress as Address,
      name: 'Forge',
      version: '1',
    }
    await reader.waitForTransactionReceipt({
      hash: await owner.writeContract({
        chain: null,
        account: four,
        address: multicaller.address,
        abi: compiled.abi,
        functionName: 'grantMulticallSignerRole',
        args: [craftingSigner],
      }),
    })

    const expires = '2099-01-01T00:00:00Z'
    const { data } = await new mr.CraftingApi(keyed).signCraftingPayload({
      chainName,
      signCraftingRequest: {
        multi_caller: multicaller,
        reference_id: 'abc123',
        calls: [
          {
            target_address: contracts.coin,
            function_signature: 'mint(address,uint256)',
            function_args: [two.address, '7'],
          },
        ],
        expires_at: expires,
      },
    })
    expect(data).toEqual({
      signer_address: craftingSigner,
      signature: expect.stringMatching(/^0x[0-9a-f]{128}(1b|1c)$/),
    })
    const calls = [
      {
        target: contracts.coin,
        functionSignature: 'mint(address,uint256)',
        data: encodeAbiParameters(
          [{ type: 'address' }, { type: 'uint256' }],
          [two.address, 7n],
        ),
      },
    ]
    const reference = pad('0xabc123', { size: 32 })
    const deadline = BigInt(Date.parse(expires) / 1000)
    const digest = guardedMulticallDigest({
      multicaller,
      reference,
      calls,
      deadline,
    })
    expect(
      await recoverAddress({ hash: digest, signature: data.signature as Hex }),
    ).toBe(craftingSigner)

    const balance = () =>
      reader.readContract({
        address: contracts.coin,
        abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
        functionName: 'balanceOf',
        args: [two.address],
      })
    const before = await balance()
    const executed = await reader.waitForTransactionReceipt({
      hash: await owner.writeContract({
        chain: null,
        account: four,
        address: multicaller.address,
        abi: compiled.abi,
        functionName: 'execute',
        args: [craftingSigner, reference, calls, deadline, data.signature],
      }),
    })
    expect(executed.status).toBe('success')
    expect(await balance()).toBe(before + 7n)
  })
})

describe('passport, passport profile and guardian (a signed-in player)', () => {
  const email = 'proof-player@example.com'
  let player: {
    sub: string
    accessToken: string
    custody: Address
    wallet: Address
  }
  let signedIn: mr.Configuration
  /** What the registration answered. */
  let registered: unknown

  beforeAll(async () => {
    const { passport, contracts: deployed } = emulator.info
    const { overrides } = passport
    const tokens = await tokensFor(
      {
        issuer: passport.authenticationDomain,
        clientId: passport.clientId,
        mailbox: emulator.mailbox,
      },
      email,
    )
    // The key-custody API (not a platform tag) holds the player's key.
    const tee = async (path: string, body?: unknown) => {
      const response = await fetch(`${overrides.magicTeeBasePath}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.idToken}`,
          'content-type': 'application/json',
          'x-magic-api-key': overrides.magicPublishableApiKey,
          'x-oidc-provider-id': overrides.magicProviderId,
          'x-magic-chain': 'ETH',
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      if (!response.ok) throw new Error(`${path}: ${response.status}`)
      return (await response.json()) as Record<string, string>
    }
    const custody = (await tee('/v1/wallet')).public_address as Address
    player = {
      sub: tokens.sub,
      accessToken: tokens.accessToken,
      custody,
      wallet: playerWalletAddress({ custody, contracts: deployed }),
    }
    signedIn = new mr.Configuration({
      basePath: api,
      accessToken: tokens.accessToken,
    })
    // Registered here, through our client, as every test of the player
    // needs it: the custody key signs the registration text, as the
    // published SDK has it signed, and the SDK sends v as 0 or 1.
    const { signature } = await tee('/v1/wallet/sign/message', {
      message_base64: Buffer.from(
        'Only sign this message from Immutable Passport',
      ).toString('base64'),
    })
    const v = Number.parseInt(String(signature).slice(130), 16) - 27
    registered = (
      await new mr.PassportApi(signedIn).createCounterfactualAddressV2({
        chainName,
        createCounterfactualAddressRequest: {
          ethereum_address: player.custody,
          ethereum_signature: `${String(signature).slice(0, 130)}0${v}`,
        },
      })
    ).data
  })

  test('default: passport createCounterfactualAddressV2 registered the wallet of the custody key’s signature', () => {
    expect(registered).toEqual({ counterfactual_address: player.wallet })
  })

  test('behavior: a registered wallet is on the operator allowlist before it is deployed, so it may approve the seaport and list the platform’s collections', async () => {
    const reader = createPublicClient({ transport: http(emulator.info.rpcUrl) })
    expect(await reader.getCode({ address: player.wallet })).toBeUndefined()
    expect(
      await reader.readContract({
        address: emulator.info.contracts.operatorAllowlist,
        abi: parseAbi(['function isAllowlisted(address) view returns (bool)']),
        functionName: 'isAllowlisted',
        args: [player.wallet],
      }),
    ).toBe(true)
  })

  test('behavior: passport profile getUserInfo, linkWalletV2 with an EIP-712 signature, then both linked-address reads and, with the API key, the user metadata', async () => {
    const profile = new mr.PassportProfileApi(signedIn)
    const passport = new mr.PassportApi(signedIn)
    expect((await profile.getUserInfo()).data).toEqual({
      sub: player.sub,
      email,
      passport_address: player.wallet,
      linked_addresses: [],
    })
    const nonce = 'proof-nonce-1'
    // The typed data the published SDK has an external wallet sign.
    const signature = await three.signTypedData({
      domain: { chainId: 1 },
      types: {
        LinkWallet: [
          { name: 'walletAddress', type: 'address' },
          { name: 'immutablePassportAddress', type: 'address' },
          { name: 'condition', type: 'string' },
          { name: 'nonce', type: 'string' },
        ],
      },
      primaryType: 'LinkWallet',
      message: {
        walletAddress: lower(three),
        immutablePassportAddress: player.wallet.toLowerCase() as Address,
        condition:
          'I agree to link this wallet to my Immutable Passport account.',
        nonce,
      },
    })
    const linked = await profile.linkWalletV2({
      linkWalletV2Request: {
        type: 'External',
        wallet_address: three.address,
        nonce,
        signature,
      },
    })
    expect(linked.data).toEqual({
      address: three.address,
      type: 'External',
      created_at: iso,
      updated_at: iso,
      clientName: expect.any(String),
    })
    expect((await profile.getUserInfo()).data.linked_addresses).toEqual([
      three.address,
    ])
    expect(
      (await passport.getLinkedAddresses({ chainName, userId: player.sub }))
        .data,
    ).toEqual({ linked_addresses: [three.address] })
    expect(
      (await passport.getLinkedAddressesDeprecated({ userId: player.sub }))
        .data,
    ).toEqual({ linkedAddresses: [three.address] })
    expect(
      (await new mr.PassportApi(keyed).getUserMetadata({ userId: player.sub }))
        .data,
    ).toEqual({
      passport_metadata: [
        {
          chain_id: `eip155:${chainId}`,
          chain_key: chainName,
          user_admin_key: player.custody,
          counterfactual_address: player.wallet,
        },
      ],
    })
  })

  test('behavior: passport getTransactionMetadata describes an ERC-20 transfer from the chain', async () => {
    const data = encodeFunctionData({
      abi: tokenAbi,
      functionName: 'transfer',
      args: [two.address, 40n],
    })
    const answer = await new mr.PassportApi(signedIn).getTransactionMetadata({
      chainName,
      getTransactionMetadataRequest: {
        contract_address: contracts.coin,
        method_id: data.slice(0, 10),
        transaction_id: 'proof-1',
        transaction_data: data,
      },
    })
    expect(answer.data).toEqual({
      transaction_type: 'ERC20_TRANSFER',
      to_address: two.address,
      amount: '40',
      decimals: 18,
      symbol: 'TEST',
      immutable_verification_status: 'unverified',
      image_url: '',
    })
  })

  test('behavior: guardian evaluateTransaction, then getTransactionByID with includeSimulation simulates the batch on the chain', async () => {
    const guardian = new mr.GuardianApi(signedIn)
    const transfer = encodeFunctionData({
      abi: tokenAbi,
      functionName: 'transfer',
      args: [two.address, 40n],
    })
    const evaluated = await guardian.evaluateTransaction({
      id: 'evm',
      transactionEvaluationRequest: {
        chainType: 'evm',
        chainId: `eip155:${chainId}`,
        transactionData: {
          nonce: '0',
          userAddress: player.wallet,
          metaTransactions: [
            {
              delegateCall: false,
              revertOnError: true,
              gasLimit: '0',
              target: contracts.coin,
              value: '0',
              data: transfer,
            },
          ],
        },
      } as never,
    })
    expect(evaluated.data).toEqual({
      confirmationRequired: false,
      confirmationMethod: 'web',
      transactionId: expect.any(String),
    })
    const id = evaluated.data.transactionId as string
    await send('fundPlayer', one, {
      address: contracts.coin,
      functionName: 'transfer',
      args: [player.wallet, 100n],
    })
    const read = await guardian.getTransactionByID(
      { transactionID: id, chainType: 'evm', chainID: `eip155:${chainId}` },
      { params: { includeSimulation: true } },
    )
    const plain = await guardian.getTransactionByID({
      transactionID: id,
      chainType: 'evm',
    })
    const sends = `Sends 0.00000000000000004 TEST to ${two.address}.`
    expect(plain.data).toEqual({
      id,
      eth_address: player.wallet,
      status: 'allowed',
      transaction_type: 'evm',
      version: '1',
      transaction_metadata: {
        chainType: 'evm',
        chainId: `eip155:${chainId}`,
        transactionData: {
          nonce: '0',
          userAddress: player.wallet,
          metaTransactions: [
            {
              delegateCall: false,
              revertOnError: true,
              gasLimit: '0',
              target: contracts.coin,
              value: '0',
              data: transfer,
            },
          ],
        },
      },
    })
    // The simulation runs the batch as the wallet on the chain now, with
    // the 100 TEST it was just sent.
    expect(read.data).toEqual({
      ...plain.data,
      validation: {
        status: 'success',
        highestSeverity: { severity: 'info', description: sends },
        analysis: [
          { severity: 'info', description: sends, address: two.address },
        ],
      },
    })
  })
})

describe('errors', () => {
  test('error: an unknown NFT or chain is a ResourceNotFoundError (404) with the server’s message', async () => {
    expect(
      await refusal(() =>
        clients.nftsApi.getNFT({
          chainName,
          contractAddress: contracts.nft,
          tokenId: '99',
        }),
      ),
    ).toEqual(
      refused(
        ApiErrors.ResourceNotFoundError,
        'ResourceNotFoundError',
        `There is no NFT 99 of ${contracts.nft.toLowerCase()} on ${chainName}.`,
      ),
    )
    expect(
      await refusal(() =>
        clients.collectionApi.getCollection({
          chainName: 'imtbl-zkevm-nowhere',
          contractAddress: contracts.nft,
        }),
      ),
    ).toEqual(
      refused(
        ApiErrors.ResourceNotFoundError,
        'ResourceNotFoundError',
        'There is no chain named imtbl-zkevm-nowhere.',
      ),
    )
  })

  test('error: a malformed address is a ValidationError (400) naming the parameter', async () => {
    expect(
      await refusal(() =>
        clients.nftsApi.listNFTsByAccountAddress({
          chainName,
          accountAddress: '0x1234',
        }),
      ),
    ).toEqual(
      refused(
        ApiErrors.ValidationError,
        'ValidationError',
        'account_address must be an address (0x and 40 hex digits).',
      ),
    )
  })

  test('error: a route of the API key without it, or with another, is an UnauthorisedRequestError (401), and changes nothing', async () => {
    const read = () =>
      clients.nftsApi.getNFT({
        chainName,
        contractAddress: contracts.relics,
        tokenId: '10',
      })
    const before = (await read()).data.result
    const refresh = (config: mr.Configuration) =>
      new mr.MetadataApi(config).refreshNFTMetadataByTokenID({
        chainName,
        contractAddress: contracts.relics,
        refreshNFTMetadataByTokenIDRequest: {
          nft_metadata: [{ token_id: '10', ...blank, name: 'Stolen Idol' }],
        },
      })
    expect(await refusal(() => refresh(open))).toEqual(
      refused(
        ApiErrors.UnauthorisedRequestError,
        'UnauthorisedRequestError',
        "The x-immutable-api-key header is required: the platform's secret API key.",
      ),
    )
    expect(
      await refusal(() =>
        refresh(
          new mr.Configuration({
            basePath: api,
            apiKey: 'sk_imapik-test-other',
          }),
        ),
      ),
    ).toEqual(
      refused(
        ApiErrors.UnauthorisedRequestError,
        'UnauthorisedRequestError',
        "The x-immutable-api-key header is not this platform's API key.",
      ),
    )
    expect(
      await refusal(() =>
        new mr.CraftingApi(open).signCraftingPayload({
          chainName,
          signCraftingRequest: {
            multi_caller: {
              address: contracts.coin,
              name: 'Forge',
              version: '1',
            },
            reference_id: '1',
            calls: [],
            expires_at: '2099-01-01T00:00:00Z',
          },
        }),
      ),
    ).toEqual(
      refused(
        ApiErrors.UnauthorisedRequestError,
        'UnauthorisedRequestError',
        "The x-immutable-api-key header is required: the platform's secret API key.",
      ),
    )
    expect((await read()).data.result).toEqual(before)
  })

  test('error: a missing path parameter is the client’s RequiredError, and nothing is sent', async () => {
    const error = await clients.nftsApi
      .getNFT({
        chainName,
        contractAddress: contracts.nft,
        tokenId: undefined as never,
      })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiErrors.RequiredError)
    expect((error as ApiErrors.RequiredError).message).toBe(
      'Required parameter tokenId was null or undefined when calling getNFT.',
    )
  })
})

/**
 * Tags of the multi-rollup spec the emulator does not serve (none of the
 * routes the game wallet's spec lists): each answers the API's 404, which
 * the client throws as its typed error.
 */
describe('tags the emulator does not serve', () => {
  test.each([
    ['health', 'GET /v1/heartbeat', () => new mr.HealthApi(open).heartbeat()],
    [
      'gamefi',
      'GET /v1/staking/programs/gems/epochs/current',
      () =>
        new mr.GamefiApi(open).getEpoch({
          programName: 'gems',
          epochId: 'current',
        }),
    ],
    [
      'feed-items',
      'GET /passport-profile/v1/feed-items',
      () => new mr.FeedItemsApi(open).getFeedItems(),
    ],
    [
      'assets',
      'GET /passport-profile/v1/feed-items/assets',
      () =>
        new mr.AssetsApi(open).getFeedItemsAssets({ type: 'image' as never }),
    ],
  ] as const)(
    'error: %s answers 404 RESOURCE_NOT_FOUND, a ResourceNotFoundError',
    async (_tag, route, call) => {
      expect(await refusal(call)).toEqual(
        refused(
          ApiErrors.ResourceNotFoundError,
          'ResourceNotFoundError',
          `No route ${route}.`,
        ),
      )
    },
  )
})
