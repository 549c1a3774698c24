/**
 * The published `@imtbl/orderbook` 2.24.9, unchanged but for its overrides
 * (`apiEndpoint`, `chainName`, `jsonRpcProviderUrl`,
 * `seaportContractAddress`, `zoneContractAddress`), against a started
 * emulator: a listing prepared, signed and created by one dApp account,
 * fulfilled by another through the SDK's actions, FILLED with its trade
 * listed and the NFT's new owner on chain; then a listing cancelled off
 * chain with the SDK's signed cancellation.
 *
 * The SDK's actions are plain transaction requests and EIP-712 messages:
 * this test signs and sends them with viem, as a dApp with any wallet would.
 */
import { Environment, ImmutableConfiguration } from '@imtbl/config'
import { Orderbook } from '@imtbl/orderbook'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  type LocalAccount,
  parseAbi,
  parseEther,
} from 'viem'
import { anvil as anvilChain } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anvilAccounts, minter } from '../../src/emulator/chain/accounts.js'
import { type Emulator, startEmulator } from '../../src/emulator/index.js'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { chainNameOf } from '../../src/emulator/passport/api/chains.js'
import { slots } from '../../src/emulator/ports.js'

// The package's type files import their siblings without extensions,
// which NodeNext resolution does not follow: its action types are read
// off its methods instead.
type Action = Awaited<
  ReturnType<Orderbook['prepareListing']>
>['actions'][number]
type SignableAction = Awaited<
  ReturnType<Orderbook['prepareOrderCancellations']>
>['signableAction']
type TypedField = { name: string; type: string }

const seller = anvilAccounts[1]!
const buyer = anvilAccounts[2]!

const erc20Abi = parseAbi([
  'function mint(address to, uint256 amount)',
  'function balanceOf(address account) view returns (uint256)',
])

const erc721Abi = parseAbi([
  'function mint(address to, uint256 tokenId)',
  'function ownerOf(uint256 tokenId) view returns (address)',
])

let emulator: Emulator
let orderbook: Orderbook

beforeAll(async () => {
  emulator = await startEmulator({
    portBase: await findFreePortRange(slots.length),
    anvilPort: await findFreePort(),
  })
  const { info } = emulator
  orderbook = new Orderbook({
    baseConfig: new ImmutableConfiguration({
      environment: Environment.SANDBOX,
    }),
    overrides: {
      apiEndpoint: info.passport.apiUrl,
      chainName: chainNameOf(info.chainId),
      jsonRpcProviderUrl: info.rpcUrl,
      seaportContractAddress: info.contracts.seaport,
      zoneContractAddress: info.contracts.signedZone,
    },
  })
})
afterAll(() => emulator?.stop())

const chain = () =>
  defineChain({
    ...anvilChain,
    id: emulator.info.chainId,
    rpcUrls: { default: { http: [emulator.info.rpcUrl] } },
  })
const publicClient = () =>
  createPublicClient({
    chain: chain(),
    transport: http(emulator.info.rpcUrl),
    pollingInterval: 50,
  })

/** Sends a transaction and waits for its success. */
async function send(
  account: LocalAccount,
  request: { to: Address; data?: Hex; value?: bigint; gas?: bigint },
) {
  const wallet = createWalletClient({
    account,
    chain: chain(),
    transport: http(emulator.info.rpcUrl),
  })
  const hash = await wallet.sendTransaction(request)
  const receipt = await publicClient().waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

/** Sends every transaction action; signs and returns the signable one's signature. */
async function run(
  account: LocalAccount,
  actions: readonly Action[],
): Promise<Hex | undefined> {
  let signature: Hex | undefined
  for (const action of actions) {
    if ('buildTransaction' in action) {
      const tx = await action.buildTransaction()
      await send(account, {
        to: tx.to as Address,
        data: tx.data as Hex,
        ...(tx.value !== undefined &&
          tx.value !== null && { value: BigInt(tx.value) }),
        ...(tx.gasLimit !== undefined &&
          tx.gasLimit !== null && { gas: BigInt(tx.gasLimit) }),
      })
    } else signature = await signAction(account, action as SignableAction)
  }
  return signature
}

/** Signs a signable action's EIP-712 message (ethers' domain, types, value). */
async function signAction(
  account: LocalAccount,
  action: SignableAction,
): Promise<Hex> {
  const { domain, value } = action.message
  const types = action.message.types as Record<string, TypedField[]>
  const primaryType = Object.keys(types).find(
    (name) =>
      !Object.values(types).some((fields) =>
        fields.some((field) => field.type.replace('[]', '') === name),
      ),
  )
  const d = domain as {
    name?: string | null
    version?: string | null
    chainId?: bigint | number | string | null
    verifyingContract?: string | null
  }
  return account.signTypedData({
    domain: {
      ...(d.name != null && { name: d.name }),
      ...(d.version != null && { version: d.version }),
      ...(d.chainId != null && { chainId: Number(d.chainId) }),
      ...(d.verifyingContract != null && {
        verifyingContract: d.verifyingContract as Address,
      }),
    },
    types,
    primaryType: primaryType as string,
    message: value,
  })
}

async function mint(tokenId: bigint, to: Address) {
  const wallet = createWalletClient({
    account: minter,
    chain: chain(),
    transport: http(emulator.info.rpcUrl),
  })
  const hash = await wallet.writeContract({
    address: emulator.info.contracts.erc721,
    abi: erc721Abi,
    functionName: 'mint',
    args: [to, tokenId],
  })
  const receipt = await publicClient().waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
}

async function mintErc20(to: Address, amount: bigint) {
  await send(anvilAccounts[4]!, {
    to: emulator.info.contracts.erc20,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'mint',
      args: [to, amount],
    }),
  })
}

const erc20Balance = (account: Address) =>
  publicClient().readContract({
    address: emulator.info.contracts.erc20,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [account],
  })

const ownerOf = (tokenId: bigint) =>
  publicClient().readContract({
    address: emulator.info.contracts.erc721,
    abi: erc721Abi,
    functionName: 'ownerOf',
    args: [tokenId],
  })

async function list(tokenId: bigint, price: bigint) {
  const prepared = await orderbook.prepareListing({
    makerAddress: seller.address,
    sell: {
      type: 'ERC721',
      contractAddress: emulator.info.contracts.erc721,
      tokenId: String(tokenId),
    },
    buy: { type: 'NATIVE', amount: String(price) },
  })
  const signature = await run(seller, prepared.actions)
  expect(signature).toBeDefined()
  const { result } = await orderbook.createListing({
    orderComponents: prepared.orderComponents,
    orderHash: prepared.orderHash,
    orderSignature: signature as Hex,
    makerFees: [],
  })
  return { result, orderHash: prepared.orderHash }
}

/**
 * Reads the listing until it is ACTIVE: the book evaluates it after its
 * start (the SDK rounds the start to the nearest second, which may be
 * ahead of now).
 */
async function untilActive(id: string) {
  await expect
    .poll(async () => (await orderbook.getListing(id)).result.status.name, {
      interval: 200,
      timeout: 5_000,
    })
    .toBe('ACTIVE')
}

describe('the published @imtbl/orderbook against the emulator', () => {
  test('behavior: a listing prepared, signed and created, fulfilled by another account, FILLED, its trade listed and the NFT moved on chain', async () => {
    const tokenId = 7001n
    const price = parseEther('1')
    await mint(tokenId, seller.address)
    const { result: created, orderHash } = await list(tokenId, price)
    expect(created.orderHash).toBe(orderHash.toLowerCase())
    expect(created.accountAddress).toBe(seller.address.toLowerCase())
    expect(created.status.name).toBe('PENDING')
    expect(created.sell).toEqual([
      {
        type: 'ERC721',
        contractAddress: emulator.info.contracts.erc721.toLowerCase(),
        tokenId: String(tokenId),
      },
    ])
    await untilActive(created.id)
    // The NFT's metadata (set as its collection's owner would) gives it a
    // metadata id in the indexer, which finds the listing.
    const collection = `${emulator.info.passport.apiUrl}/v1/chains/${chainNameOf(emulator.info.chainId)}/collections/${emulator.info.contracts.erc721}`
    const refreshed = await fetch(`${collection}/nfts/refresh-metadata`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-immutable-api-key': emulator.info.passport.apiKey,
      },
      body: JSON.stringify({
        nft_metadata: [
          {
            token_id: String(tokenId),
            name: 'Sword',
            description: null,
            image: null,
            external_url: null,
            animation_url: null,
            youtube_url: null,
            attributes: null,
          },
        ],
      }),
    })
    expect(refreshed.status).toBe(202)
    const nft = (await (
      await fetch(`${collection}/nfts/${tokenId}`)
    ).json()) as { result: { metadata_id: string | null } }
    expect(nft.result.metadata_id).not.toBeNull()
    const byMetadata = await orderbook.listListings({
      sellItemMetadataId: nft.result.metadata_id as string,
    })
    expect(byMetadata.result.map((order: { id: string }) => order.id)).toEqual([
      created.id,
    ])

    const sellerBefore = await publicClient().getBalance({
      address: seller.address,
    })
    const takerFee = parseEther('0.01')
    const feeRecipient = anvilAccounts[3]!.address
    const feeBefore = await publicClient().getBalance({ address: feeRecipient })
    const fulfilment = await orderbook.fulfillOrder(created.id, buyer.address, [
      { amount: String(takerFee), recipientAddress: feeRecipient },
    ])
    expect(fulfilment.order.id).toBe(created.id)
    expect(
      new Date(fulfilment.expiration).getTime() - Date.now(),
    ).toBeGreaterThan(60_000)
    await run(buyer, fulfilment.actions)

    expect(
      await publicClient().readContract({
        address: emulator.info.contracts.erc721,
        abi: erc721Abi,
        functionName: 'ownerOf',
        args: [tokenId],
      }),
    ).toBe(buyer.address)
    expect(
      (await publicClient().getBalance({ address: seller.address })) -
        sellerBefore,
    ).toBe(price)
    expect(
      (await publicClient().getBalance({ address: feeRecipient })) - feeBefore,
    ).toBe(takerFee)

    const filled = (await orderbook.getListing(created.id)).result
    expect(filled.status.name).toBe('FILLED')
    expect(filled.fillStatus).toEqual({ numerator: '1', denominator: '1' })

    const trades = await orderbook.listTrades({
      accountAddress: buyer.address,
    })
    expect(trades.result).toHaveLength(1)
    const [trade] = trades.result
    expect(trade?.orderId).toBe(created.id)
    expect(trade?.makerAddress).toBe(seller.address.toLowerCase())
    expect(trade?.takerAddress).toBe(buyer.address.toLowerCase())
    expect(trade?.sell).toEqual(created.sell)
    expect(trade?.buy).toEqual([{ type: 'NATIVE', amount: String(price) }])
    expect(
      trade?.fees.map(
        (fee: { type: string; amount: string; recipientAddress: string }) => [
          fee.type,
          fee.amount,
          fee.recipientAddress,
        ],
      ),
    ).toEqual([
      [
        'PROTOCOL',
        String((price * 2n) / 100n),
        emulator.info.accounts.deployer.address.toLowerCase(),
      ],
      ['TAKER_ECOSYSTEM', String(takerFee), feeRecipient.toLowerCase()],
    ])
    expect((await orderbook.getTrade(trade!.id)).result).toEqual(trade)
  })

  test('behavior: a listing cancelled off chain with the SDK’s signed cancellation is CANCELLED OFF_CHAIN and refuses fulfilment', async () => {
    const tokenId = 7002n
    await mint(tokenId, seller.address)
    const { result: created } = await list(tokenId, parseEther('2'))
    await untilActive(created.id)
    const { signableAction } = await orderbook.prepareOrderCancellations([
      created.id,
    ])
    const signature = await signAction(seller, signableAction)
    const cancelled = await orderbook.cancelOrders(
      [created.id],
      seller.address,
      signature,
    )
    expect(cancelled.result).toEqual({
      successful_cancellations: [created.id],
      pending_cancellations: [],
      failed_cancellations: [],
    })
    expect((await orderbook.getListing(created.id)).result.status).toEqual({
      name: 'CANCELLED',
      pending: false,
      cancellation_type: 'OFF_CHAIN',
    })
    await expect(
      orderbook.fulfillOrder(created.id, buyer.address, []),
    ).rejects.toThrow(
      `Unable to prepare fulfillment data: Invalid order status CANCELLED for order ${created.id}`,
    )
  })
  test('behavior: a bid in ERC-20 prepared, signed and created by the buyer, fulfilled by the NFT’s owner: FILLED, the NFT and the tokens moved', async () => {
    const tokenId = 7003n
    const amount = 5_000n
    await mint(tokenId, seller.address)
    await mintErc20(buyer.address, amount)
    // The owner pays the fees, as tips in the bid's currency.
    await mintErc20(seller.address, amount)
    const prepared = await orderbook.prepareBid({
      makerAddress: buyer.address,
      sell: {
        type: 'ERC20',
        contractAddress: emulator.info.contracts.erc20,
        amount: String(amount),
      },
      buy: {
        type: 'ERC721',
        contractAddress: emulator.info.contracts.erc721,
        tokenId: String(tokenId),
      },
    })
    const signature = await run(buyer, prepared.actions)
    const { result: bid } = await orderbook.createBid({
      orderComponents: prepared.orderComponents,
      orderHash: prepared.orderHash,
      orderSignature: signature as Hex,
      makerFees: [],
    })
    expect(bid.type).toBe('BID')
    await expect
      .poll(async () => (await orderbook.getBid(bid.id)).result.status.name, {
        interval: 200,
        timeout: 5_000,
      })
      .toBe('ACTIVE')
    const sellerBefore = await erc20Balance(seller.address)
    const fulfilment = await orderbook.fulfillOrder(bid.id, seller.address, [])
    await run(seller, fulfilment.actions)
    expect(await ownerOf(tokenId)).toBe(buyer.address)
    // The owner receives the bid and pays the 2% protocol fee.
    expect((await erc20Balance(seller.address)) - sellerBefore).toBe(
      amount - (amount * 2n) / 100n,
    )
    expect((await orderbook.getBid(bid.id)).result.status.name).toBe('FILLED')
    const { result: bids } = await orderbook.listBids({
      accountAddress: buyer.address,
      status: 'FILLED' as never,
    })
    expect(bids.map((order: { id: string }) => order.id)).toEqual([bid.id])
  })

  test('behavior: a collection bid fulfilled with a token id of the owner’s choosing', async () => {
    const tokenId = 7004n
    const amount = 3_000n
    await mint(tokenId, seller.address)
    await mintErc20(buyer.address, amount)
    await mintErc20(seller.address, amount)
    const prepared = await orderbook.prepareCollectionBid({
      makerAddress: buyer.address,
      sell: {
        type: 'ERC20',
        contractAddress: emulator.info.contracts.erc20,
        amount: String(amount),
      },
      buy: {
        type: 'ERC721_COLLECTION',
        contractAddress: emulator.info.contracts.erc721,
        amount: '1',
      },
    })
    const signature = await run(buyer, prepared.actions)
    const { result: bid } = await orderbook.createCollectionBid({
      orderComponents: prepared.orderComponents,
      orderHash: prepared.orderHash,
      orderSignature: signature as Hex,
      makerFees: [],
    })
    expect(bid.type).toBe('COLLECTION_BID')
    await expect
      .poll(
        async () =>
          (await orderbook.getCollectionBid(bid.id)).result.status.name,
        { interval: 200, timeout: 5_000 },
      )
      .toBe('ACTIVE')
    const fulfilment = await orderbook.fulfillOrder(
      bid.id,
      seller.address,
      [],
      undefined,
      String(tokenId),
    )
    await run(seller, fulfilment.actions)
    expect(await ownerOf(tokenId)).toBe(buyer.address)
    expect((await orderbook.getCollectionBid(bid.id)).result.status.name).toBe(
      'FILLED',
    )
    const { result: trades } = await orderbook.listTrades({
      accountAddress: buyer.address,
    })
    const trade = trades.find(
      (candidate: { orderId: string }) => candidate.orderId === bid.id,
    )
    expect(trade?.buy).toEqual([
      {
        type: 'ERC721',
        contractAddress: emulator.info.contracts.erc721.toLowerCase(),
        tokenId: String(tokenId),
      },
    ])
  })
  test('behavior: two listings of an account signed once as a Seaport bulk order, both created; one fulfilled on chain with its bulk signature', async () => {
    const tokens = [7005n, 7006n]
    for (const tokenId of tokens) await mint(tokenId, seller.address)
    const prepared = await orderbook.prepareBulkListings({
      makerAddress: seller.address,
      listingParams: tokens.map((tokenId) => ({
        sell: {
          type: 'ERC721' as const,
          contractAddress: emulator.info.contracts.erc721,
          tokenId: String(tokenId),
        },
        buy: { type: 'NATIVE' as const, amount: '1000' },
        makerFees: [],
      })),
    })
    const signature = await run(seller, prepared.actions)
    const { result } = await prepared.completeListings([signature as Hex])
    expect(result.map((entry: { success: boolean }) => entry.success)).toEqual([
      true,
      true,
    ])
    const [first] = result as { order: { id: string } }[]
    await untilActive(first!.order.id)
    const fulfilment = await orderbook.fulfillOrder(
      first!.order.id,
      buyer.address,
      [],
    )
    await run(buyer, fulfilment.actions)
    expect(await ownerOf(tokens[0]!)).toBe(buyer.address)
    expect(
      (await orderbook.getListing(first!.order.id)).result.status.name,
    ).toBe('FILLED')
  })
})
