import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseAbi,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { predictContracts } from '../../chain/deploy.js'
import { findFreePort } from '../../net.js'
import { type Backends, type Player, startBackends } from '../testkit.js'
import { chainNameOf } from './chains.js'
import { describedAbi, describeTransaction } from './metadata.js'
import { createChainReader } from './onchain.js'
import { seaportListing, startApi } from './testkit.js'

let b: Backends
let player: Player
let tokenId: bigint

const bob = getAddress('0x000000000000000000000000000000000000b0b0')
const alice = getAddress('0x00000000000000000000000000000000000a11ce')

const testAbi = parseAbi([
  'function mint(address to) returns (uint256)',
  'function nextTokenId() view returns (uint256)',
])

beforeAll(async () => {
  b = await startBackends()
  player = await b.player()
  // An NFT of the emulator's TestERC721, minted to alice.
  const minter = privateKeyToAccount(generatePrivateKey())
  await b.fund(minter.address, parseEther('1'))
  tokenId = await b.publicClient.readContract({
    address: b.contracts.testErc721,
    abi: testAbi,
    functionName: 'nextTokenId',
  })
  const hash = await createWalletClient({
    account: minter,
    transport: http(b.nodeUrl),
  }).writeContract({
    chain: null,
    address: b.contracts.testErc721,
    abi: testAbi,
    functionName: 'mint',
    args: [alice],
  })
  await b.publicClient.waitForTransactionReceipt({ hash })
}, 120_000)
afterAll(() => b?.stop())

const transactionPath = () =>
  `/v1/chains/${b.chainName}/passport/transaction-metadata`
const typedDataPath = () =>
  `/v1/chains/${b.chainName}/passport/typeddata-metadata`

async function post(path: string, body: unknown, token = player.accessToken) {
  const response = await fetch(`${b.api.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: await response.json() }
}

/** The metadata of a call of `data` on `contract`, as the route answers. */
async function metadataOf(contract: Address, data: Hex) {
  const response = await post(transactionPath(), {
    contract_address: contract,
    method_id: data.length >= 10 ? data.slice(0, 10) : '0x',
    transaction_id: crypto.randomUUID(),
    transaction_data: data,
  })
  expect(response.status).toBe(200)
  return response.body
}

const encode = (
  functionName: (typeof describedAbi)[number] extends infer item
    ? item extends { type: 'function'; name: infer name }
      ? name
      : never
    : never,
  args: readonly unknown[],
) =>
  encodeFunctionData({
    abi: describedAbi,
    functionName,
    args: args as never,
  } as never)

describe('POST /v1/chains/{chain_name}/passport/transaction-metadata', () => {
  test('behavior: ERC-20 transfer, approve and transferFrom, with the symbol and decimals the token answers', async () => {
    const { erc20, testErc721: erc721 } = b.contracts
    expect(
      await metadataOf(erc20, encode('transfer', [bob, 10n ** 16n])),
    ).toEqual({
      transaction_type: 'ERC20_TRANSFER',
      to_address: bob,
      amount: '10000000000000000',
      decimals: 18,
      symbol: 'TEST',
      immutable_verification_status: 'unverified',
      image_url: '',
    })
    // The spender is a contract: named by its own name().
    expect(await metadataOf(erc20, encode('approve', [erc721, 5n]))).toEqual({
      transaction_type: 'ERC20_APPROVE',
      amount: '5',
      token_symbol: 'TEST',
      spender: erc721,
      is_smart_contract: true,
      is_contract_verified: false,
      immutable_verification_status: 'unverified',
      contract_name: 'Test NFT',
      image_url: '',
    })
    expect(
      await metadataOf(erc20, encode('transferFrom', [alice, bob, 7n])),
    ).toEqual({
      transaction_type: 'ERC20_TRANSFER_FROM',
      from_address: alice,
      to_address: bob,
      amount: '7',
      decimals: 18,
      symbol: 'TEST',
      immutable_verification_status: 'unverified',
      image_url: '',
    })
  })

  test("behavior: ERC-721 approve, safeTransferFrom and safeTransferFromBatch, with the token's name from its on-chain metadata", async () => {
    const { testErc721: erc721 } = b.contracts
    const asset = `Test NFT ${tokenId}`
    expect(await metadataOf(erc721, encode('approve', [bob, tokenId]))).toEqual(
      {
        transaction_type: 'ERC721_APPROVE',
        collection_name: 'Test NFT',
        collection_image: '',
        asset_image: '',
        asset_name: asset,
        is_smart_contract: false,
        is_contract_verified: false,
        contract_name: '',
        token_id: tokenId.toString(),
        immutable_verification_status: 'unverified',
      },
    )
    // The same selector as ERC-20's transferFrom: ERC-165 tells them apart.
    for (const data of [
      encode('transferFrom', [alice, bob, tokenId]),
      encode('safeTransferFrom', [alice, bob, tokenId, '0x']),
    ])
      expect(await metadataOf(erc721, data)).toEqual({
        transaction_type: 'ERC721_TRANSFER_FROM',
        from_address: alice,
        to_address: bob,
        collection_name: 'Test NFT',
        token_id: tokenId.toString(),
        asset_name: asset,
        asset_image: '',
        immutable_verification_status: 'unverified',
      })
    expect(
      await metadataOf(
        erc721,
        encode('safeTransferFromBatch', [
          { from: alice, tos: [bob, alice], tokenIds: [tokenId, 999n] },
        ]),
      ),
    ).toEqual({
      transaction_type: 'ERC721_SAFE_TRANSFER_FROM_BATCH',
      from_address: alice,
      collection_name: 'Test NFT',
      items: [
        {
          to_address: bob,
          token_id: tokenId.toString(),
          asset_name: asset,
          asset_image: '',
        },
        // Not minted: the chain holds no metadata of it.
        { to_address: alice, token_id: '999', asset_name: '', asset_image: '' },
      ],
      immutable_verification_status: 'unverified',
    })
  })

  test('behavior: setApprovalForAll names the standard of the collection', async () => {
    const { testErc721: erc721, testErc1155: erc1155, erc20 } = b.contracts
    const data = encode('setApprovalForAll', [erc20, true])
    expect(await metadataOf(erc721, data)).toEqual({
      transaction_type: 'ERC721_SET_APPROVAL_FOR_ALL',
      collection_name: 'Test NFT',
      collection_image: '',
      is_smart_contract: true,
      is_contract_verified: false,
      contract_name: 'Test Token',
      immutable_verification_status: 'unverified',
    })
    // TestERC1155 answers no name(): its collection name is empty.
    expect(await metadataOf(erc1155, data)).toEqual({
      transaction_type: 'ERC1155_SET_APPROVAL_FOR_ALL',
      collection_name: '',
      collection_image: '',
      is_smart_contract: true,
      is_contract_verified: false,
      contract_name: 'Test Token',
      immutable_verification_status: 'unverified',
    })
  })

  test('behavior: any other call is UNKNOWN, with the called address as the chain shows it', async () => {
    const { testErc721: erc721, erc20 } = b.contracts
    // transfer(address,uint256) is no ERC-721 call.
    expect(await metadataOf(erc721, encode('transfer', [bob, 1n]))).toEqual({
      transaction_type: 'UNKNOWN',
      is_smart_contract: true,
      is_contract_verified: false,
      contract_name: 'Test NFT',
    })
    expect(await metadataOf(erc20, '0xdeadbeef')).toEqual({
      transaction_type: 'UNKNOWN',
      is_smart_contract: true,
      is_contract_verified: false,
      contract_name: 'Test Token',
    })
    expect(await metadataOf(bob, '0x')).toEqual({
      transaction_type: 'UNKNOWN',
      is_smart_contract: false,
      is_contract_verified: false,
      contract_name: '',
    })
  })

  test("behavior: a Seaport fulfilment lists each order's item, price and fees", async () => {
    const { testErc721: erc721, erc20, guestModule } = b.contracts
    const item = (
      itemType: number,
      token: Address,
      amount: bigint,
      identifier = 0n,
    ) => ({
      itemType,
      token,
      identifierOrCriteria: identifier,
      startAmount: amount,
      endAmount: amount,
    })
    const order = {
      parameters: {
        offerer: alice,
        zone: bob,
        offer: [item(2, erc721, 1n, tokenId)],
        consideration: [
          { ...item(1, erc20, 10n ** 18n), recipient: alice },
          { ...item(0, bob, 5n), recipient: bob },
        ],
        orderType: 2,
        startTime: 0n,
        endTime: 2n ** 40n,
        zoneHash: `0x${'00'.repeat(32)}` as Hex,
        salt: 1n,
        conduitKey: `0x${'00'.repeat(32)}` as Hex,
        totalOriginalConsiderationItems: 2n,
      },
      numerator: 1n,
      denominator: 1n,
      signature: '0x' as Hex,
      extraData: '0x' as Hex,
    }
    const data = encode('fulfillAvailableAdvancedOrders', [
      [order],
      [],
      [[{ orderIndex: 0n, itemIndex: 0n }]],
      [[{ orderIndex: 0n, itemIndex: 0n }]],
      `0x${'00'.repeat(32)}`,
      player.wallet,
      1n,
    ])
    expect(await metadataOf(guestModule, data)).toEqual({
      transaction_type: 'SEAPORT_FULFILL_AVAILABLE_ADVANCED_ORDERS',
      is_smart_contract: true,
      is_contract_verified: false,
      contract_name: '',
      orders: [
        {
          sell: {
            type: 'ERC721',
            contract_address: erc721,
            contract_name: 'Test NFT',
            name: `Test NFT ${tokenId}`,
            token_id: tokenId.toString(),
            immutable_verification_status: 'unverified',
          },
          buy: {
            type: 'ERC20',
            contract_address: erc20,
            symbol: 'TEST',
            image_url: null,
            amount: '1000000000000000000',
            decimals: 18,
            immutable_verification_status: 'unverified',
          },
          fees: [
            {
              type: 'NATIVE',
              amount: '5',
              recipient_address: bob,
              decimals: 18,
            },
          ],
        },
      ],
    })
  })

  test('error: a malformed request is 400 VALIDATION_ERROR, saying what is wrong', async () => {
    const good = {
      contract_address: b.contracts.erc20,
      method_id: '0xa9059cbb',
      transaction_id: 'tx-1',
      transaction_data: encode('transfer', [bob, 1n]),
    }
    for (const [body, message] of [
      [
        'x',
        'Expected { contract_address, method_id, transaction_id, transaction_data }.',
      ],
      [
        { ...good, extra: 1 },
        'Unknown fields: extra. Known: contract_address, method_id, transaction_id, transaction_data.',
      ],
      [
        { ...good, contract_address: 'x' },
        'contract_address must be an address.',
      ],
      [
        { ...good, transaction_data: '0x123' },
        'transaction_data must be 0x-prefixed hex of whole bytes (the call data).',
      ],
      [
        { ...good, method_id: '0x095ea7b3' },
        "method_id must be transaction_data's first 4 bytes (0x for call data shorter than a method id).",
      ],
      [
        { ...good, method_id: '0x' },
        "method_id must be transaction_data's first 4 bytes (0x for call data shorter than a method id).",
      ],
      [
        { ...good, transaction_id: '' },
        'transaction_id must be a string of 1 to 256 characters.',
      ],
    ] as const) {
      const response = await post(transactionPath(), body)
      expect(response).toEqual({
        status: 400,
        body: { code: 'VALIDATION_ERROR', message, details: null },
      })
    }
  })

  test('error: an unknown chain is 404, a request without a valid token 401', async () => {
    const body = {
      contract_address: b.contracts.erc20,
      method_id: '0x',
      transaction_id: 'tx',
      transaction_data: '0x',
    }
    expect(
      await post(
        '/v1/chains/imtbl-zkevm-testnet/passport/transaction-metadata',
        body,
      ),
    ).toEqual({
      status: 404,
      body: {
        code: 'RESOURCE_NOT_FOUND',
        message: 'There is no chain named imtbl-zkevm-testnet.',
        details: null,
      },
    })
    const anonymous = await post(transactionPath(), body, 'nope')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toMatchObject({ code: 'UNAUTHORISED_REQUEST' })
  })
})

describe('POST /v1/chains/{chain_name}/passport/typeddata-metadata', () => {
  test('behavior: a Seaport listing is described item by item, from the chain', async () => {
    const response = await post(typedDataPath(), {
      payload: seaportListing({
        chainId: b.chainId,
        offerer: player.wallet,
        token: b.contracts.testErc721,
        tokenId: tokenId.toString(),
        seaport: bob,
        feeRecipient: alice,
      }),
    })
    expect(response).toEqual({
      status: 200,
      body: {
        typed_data_type: 'SEAPORT_CREATE_LISTING_METADATA',
        sell: {
          type: 'ERC721',
          contract_address: b.contracts.testErc721,
          contract_name: 'Test NFT',
          name: `Test NFT ${tokenId}`,
          token_id: tokenId.toString(),
          immutable_verification_status: 'unverified',
        },
        buy: { type: 'NATIVE', amount: '10000000000000000', decimals: 18 },
        fees: [
          {
            type: 'NATIVE',
            amount: '250000000000000',
            recipient_address: alice,
            decimals: 18,
          },
        ],
      },
    })
  })

  test('behavior: other typed data is UNKNOWN', async () => {
    const response = await post(typedDataPath(), {
      payload: {
        types: { Mail: [{ name: 'contents', type: 'string' }] },
        domain: { name: 'Game', chainId: b.chainId },
        primaryType: 'Mail',
        message: { contents: 'hi' },
      },
    })
    expect(response).toEqual({
      status: 200,
      body: { typed_data_type: 'UNKNOWN' },
    })
  })

  test('error: typed data of another chain, malformed typed data or no payload is 400', async () => {
    const listing = seaportListing({
      chainId: 1,
      offerer: player.wallet,
      token: b.contracts.testErc721,
      tokenId: '1',
      seaport: bob,
      feeRecipient: alice,
    })
    for (const [body, message] of [
      [
        { payload: listing },
        `The typed data's domain.chainId is not ${b.chainId}.`,
      ],
      [
        {
          payload: {
            types: { Mail: [{ name: 'n', type: 'uint256' }] },
            primaryType: 'Mail',
            message: { n: 'not a number' },
          },
        },
        'payload is not valid EIP-712 typed data.',
      ],
      [
        {},
        'Expected { payload } with payload EIP-712 typed data: { types, domain, primaryType, message }.',
      ],
    ] as const) {
      expect(await post(typedDataPath(), body)).toEqual({
        status: 400,
        body: { code: 'VALIDATION_ERROR', message, details: null },
      })
    }
  })
})

describe('describeTransaction', () => {
  test("behavior: the platform's verification status is reported, and a verified spender counts as verified", async () => {
    const { erc20, testErc721: erc721 } = b.contracts
    const reader = createChainReader({
      chainId: b.chainId,
      rpcUrl: b.nodeUrl,
    })
    const described = await describeTransaction(
      {
        reader,
        status: async (address) => (address === erc721 ? 'verified' : 'spam'),
      },
      erc20,
      encode('approve', [erc721, 1n]),
    )
    expect(described).toMatchObject({
      transaction_type: 'ERC20_APPROVE',
      is_contract_verified: true,
      immutable_verification_status: 'spam',
    })
  })
})

describe('a chain whose node does not answer', () => {
  test('error: the metadata routes answer 404, saying the chain cannot be read', async () => {
    const dead = `http://127.0.0.1:${await findFreePort()}`
    const api = await startApi({
      chains: [
        {
          chainId: 31337,
          rpcUrl: dead,
          nodeUrl: dead,
          contracts: predictContracts(),
        },
      ],
    })
    try {
      const someone = await api.player()
      const response = await api.post(
        `/v1/chains/${chainNameOf(31337)}/passport/transaction-metadata`,
        {
          contract_address: bob,
          method_id: '0x',
          transaction_id: 'tx',
          transaction_data: '0x',
        },
        someone.accessToken,
      )
      expect([response.status, response.body]).toEqual([
        404,
        {
          code: 'RESOURCE_NOT_FOUND',
          message: 'Chain 31337 cannot be read now: its node did not answer.',
          details: null,
        },
      ])
    } finally {
      await api.stop()
    }
  })
})
