/**
 * The order book's routes over an Anvil of this file's own with the
 * emulator's contracts: orders built and signed with viem as
 * `@imtbl/orderbook` builds them, their statuses as the chain moves,
 * the fulfilment data the zone accepts, fills, cancellations and trades,
 * and the refusals, with exact values.
 */
import { Hono } from 'hono'
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  hashTypedData,
  http,
  type LocalAccount,
  type PrivateKeyAccount,
  parseAbi,
  parseEther,
  zeroAddress,
  zeroHash,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { anvil as anvilChain } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  counterfactualAddress,
  encodeSignature,
  eoaSignature,
  imageHash,
  metaTransaction,
  signatureTypes,
  subDigest,
  transactionsDigest,
  walletAbi,
  wrapErc6492,
} from '../../../passport/wire/sequence.js'
import { anvilAccounts, minter } from '../../chain/accounts.js'
import { startAnvil } from '../../chain/anvil.js'
import { Factory } from '../../chain/artifacts.generated.js'
import { type Contracts, deployContracts } from '../../chain/deploy.js'
import { ImmutableSeaport } from '../../chain/platformArtifacts.generated.js'
import * as Seaport from '../../chain/seaport.js'
import { findFreePort } from '../../net.js'
import { chainNameOf } from '../api/chains.js'
import {
  cancelTypedData,
  createOrderbook,
  fulfilmentLifetimeMs,
  type Orderbook,
  protocolFeeRecipient,
} from './orderbook.js'
import { orderbookRoutes } from './routes.js'

const seller = anvilAccounts[1]!
const buyer = anvilAccounts[2]!
const stranger = anvilAccounts[3]!

let node: Awaited<ReturnType<typeof startAnvil>>
let contracts: Contracts
let book: Orderbook
let app: Hono
/** How far the book's clock runs ahead of the wall clock, in ms. */
let offset = 0
let base: string

beforeAll(async () => {
  node = await startAnvil({ port: await findFreePort() })
  contracts = await deployContracts({ rpcUrl: node.rpcUrl })
  book = createOrderbook({
    chains: [
      {
        chainId: node.chainId,
        nodeUrl: node.rpcUrl,
        seaport: contracts.seaport,
        signedZone: contracts.signedZone,
        operatorAllowlist: contracts.operatorAllowlist,
      },
    ],
    now: () => new Date(Date.now() + offset),
    pollingInterval: 60_000,
  })
  app = new Hono()
  orderbookRoutes(app, { orderbook: book })
  base = `http://api.test/v1/chains/${chainNameOf(node.chainId)}`
}, 120_000)
afterAll(async () => {
  await book?.stop()
  await node?.stop()
})

const chain = () =>
  defineChain({
    ...anvilChain,
    id: node.chainId,
    rpcUrls: { default: { http: [node.rpcUrl] } },
  })
const client = () =>
  createPublicClient({
    chain: chain(),
    transport: http(node.rpcUrl),
    pollingInterval: 50,
  })

async function send(
  account: LocalAccount,
  call: {
    address: Address
    abi: Abi
    functionName: string
    args: readonly unknown[]
    value?: bigint
    gas?: bigint
  },
) {
  const wallet = createWalletClient({
    account,
    chain: chain(),
    transport: http(node.rpcUrl),
  })
  const hash = await wallet.writeContract(call as never)
  const receipt = await client().waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

const erc721 = parseAbi([
  'function mint(address to, uint256 tokenId)',
  'function setApprovalForAll(address operator, bool approved)',
  'function ownerOf(uint256 tokenId) view returns (address)',
])
const erc1155 = parseAbi([
  'function mint(address to, uint256 id, uint256 amount, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
  'function balanceOf(address account, uint256 id) view returns (uint256)',
])

/** A JSON answer of the API, read by the assertions. */
// biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, checked by the assertions
type Json = any

let nextTokenId = 100n
async function mintTo(owner: Address): Promise<bigint> {
  const tokenId = nextTokenId++
  await send(minter, {
    address: contracts.erc721,
    abi: erc721,
    functionName: 'mint',
    args: [owner, tokenId],
  })
  return tokenId
}

async function request(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const response = await app.request(`${base}${path}`, {
    method,
    ...(body !== undefined && {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }),
  })
  return { status: response.status, body: await response.json() }
}

/** A listing as `@imtbl/orderbook` builds it, signed by `signer`. */
async function listing(
  options: {
    tokenId: bigint
    price?: bigint
    erc1155Amount?: bigint
    start?: bigint
    end?: bigint
    signer?: LocalAccount
    zone?: Address
  } = { tokenId: 0n },
) {
  const now = BigInt(Math.floor(Date.now() / 1000))
  const price = options.price ?? parseEther('1')
  const amount = options.erc1155Amount
  const components: Seaport.OrderComponents = {
    offerer: seller.address,
    zone: options.zone ?? contracts.signedZone,
    offer: [
      {
        itemType:
          amount === undefined
            ? Seaport.ItemType.ERC721
            : Seaport.ItemType.ERC1155,
        token: amount === undefined ? contracts.erc721 : contracts.testErc1155,
        identifierOrCriteria: options.tokenId,
        startAmount: amount ?? 1n,
        endAmount: amount ?? 1n,
      },
    ],
    consideration: [
      {
        itemType: Seaport.ItemType.NATIVE,
        token: zeroAddress,
        identifierOrCriteria: 0n,
        startAmount: price,
        endAmount: price,
        recipient: seller.address,
      },
    ],
    orderType:
      amount === undefined
        ? Seaport.OrderType.FULL_RESTRICTED
        : Seaport.OrderType.PARTIAL_RESTRICTED,
    startTime: options.start ?? now - 10n,
    endTime: options.end ?? now + 3600n,
    zoneHash: zeroHash,
    salt: BigInt(Math.floor(Math.random() * 1e15)),
    conduitKey: zeroHash,
    counter: 0n,
  }
  const signature = await (options.signer ?? seller).signTypedData(
    Seaport.orderTypedData({
      chainId: node.chainId,
      seaport: contracts.seaport,
      order: components,
    }),
  )
  const body = {
    account_address: seller.address,
    buy: [{ type: 'NATIVE', amount: String(price) }],
    fees: [],
    end_at: new Date(Number(components.endTime) * 1000).toISOString(),
    order_hash: Seaport.orderHash(components),
    protocol_data: {
      order_type:
        amount === undefined ? 'FULL_RESTRICTED' : 'PARTIAL_RESTRICTED',
      zone_address: components.zone,
      seaport_address: contracts.seaport,
      seaport_version: '1.5',
      counter: '0',
    },
    salt: `0x${components.salt.toString(16)}`,
    sell: [
      amount === undefined
        ? {
            type: 'ERC721',
            contract_address: contracts.erc721,
            token_id: String(options.tokenId),
          }
        : {
            type: 'ERC1155',
            contract_address: contracts.testErc1155,
            token_id: String(options.tokenId),
            amount: String(amount),
          },
    ],
    signature,
    start_at: new Date(Number(components.startTime) * 1000).toISOString(),
  }
  return { components, signature, body }
}

/** Fulfils through the seaport as the SDK does: the order's fees as tips. */
async function fulfil(options: {
  components: Seaport.OrderComponents
  signature: Hex
  order: Json
  extraData: Hex
  numerator?: bigint
  denominator?: bigint
}) {
  const { components, order } = options
  const [price] = components.consideration
  const tips = (
    order.fees as { amount: string; recipient_address: string }[]
  ).map((fee) => ({
    itemType: price!.itemType,
    token: price!.token,
    identifierOrCriteria: 0n,
    startAmount: BigInt(fee.amount),
    endAmount: BigInt(fee.amount),
    recipient: fee.recipient_address as Address,
  }))
  const advanced = Seaport.toAdvancedOrder({
    order: components,
    signature: options.signature,
    extraData: options.extraData,
    numerator: options.numerator,
    denominator: options.denominator,
  })
  const whole = [...components.consideration, ...tips].reduce(
    (sum, item) => sum + item.startAmount,
    0n,
  )
  const numerator = options.numerator ?? 1n
  const denominator = options.denominator ?? 1n
  return send(buyer, {
    address: contracts.seaport,
    abi: ImmutableSeaport.abi as Abi,
    functionName: 'fulfillAdvancedOrder',
    args: [
      {
        ...advanced,
        parameters: {
          ...advanced.parameters,
          consideration: [...components.consideration, ...tips],
        },
      },
      [],
      zeroHash,
      zeroAddress,
    ],
    value: (whole * numerator) / denominator,
  })
}

async function approveSeaport(
  approved: boolean,
  collection = contracts.erc721,
) {
  await send(seller, {
    address: collection,
    abi: erc721,
    functionName: 'setApprovalForAll',
    args: [contracts.seaport, approved],
  })
}

describe('creating orders', () => {
  test('behavior: a signed listing is PENDING, INACTIVE without the approval, ACTIVE with it', async () => {
    const tokenId = await mintTo(seller.address)
    const { body, components } = await listing({ tokenId })
    await approveSeaport(false)
    const created = await request('POST', '/orders/listings', body)
    expect(created.status).toBe(201)
    const order = created.body.result
    expect(order).toMatchObject({
      account_address: seller.address.toLowerCase(),
      buy: [{ type: 'NATIVE', amount: '1000000000000000000' }],
      fees: [
        {
          type: 'PROTOCOL',
          amount: '20000000000000000',
          recipient_address: protocolFeeRecipient.toLowerCase(),
        },
      ],
      chain: { id: `eip155:${node.chainId}`, name: chainNameOf(node.chainId) },
      order_hash: Seaport.orderHash(components).toLowerCase(),
      protocol_data: {
        order_type: 'FULL_RESTRICTED',
        counter: '0',
        zone_address: contracts.signedZone.toLowerCase(),
        seaport_address: contracts.seaport.toLowerCase(),
        seaport_version: '1.5',
      },
      salt: body.salt,
      sell: [
        {
          type: 'ERC721',
          contract_address: contracts.erc721.toLowerCase(),
          token_id: String(tokenId),
        },
      ],
      status: { name: 'PENDING', evaluated: false, started: true },
      type: 'LISTING',
      fill_status: { numerator: '0', denominator: '0' },
    })
    const read = await request('GET', `/orders/listings/${order.id}`)
    expect(read.body.result.status).toEqual({
      name: 'INACTIVE',
      sufficient_approvals: false,
      sufficient_balances: true,
    })
    expect(
      await book.source.listings({
        chainId: node.chainId,
        contractAddress: contracts.erc721.toLowerCase() as Address,
        tokenIds: [String(tokenId)],
      }),
    ).toEqual([])
    await approveSeaport(true)
    expect(
      (await request('GET', `/orders/listings/${order.id}`)).body.result.status,
    ).toEqual({ name: 'ACTIVE' })
    // The indexer's quotes and stacks read the active listing.
    expect(
      await book.source.listings({
        chainId: node.chainId,
        contractAddress: contracts.erc721.toLowerCase() as Address,
        tokenIds: [String(tokenId)],
      }),
    ).toEqual([
      {
        listing_id: order.id,
        price_details: {
          token: { type: 'NATIVE', symbol: 'IMX' },
          amount: '1000000000000000000',
          fee_inclusive_amount: '1020000000000000000',
          fees: [
            {
              type: 'PROTOCOL',
              amount: '20000000000000000',
              recipient_address: protocolFeeRecipient.toLowerCase(),
            },
          ],
          converted_prices: null,
        },
        token_id: String(tokenId),
        contract_address: contracts.erc721.toLowerCase(),
        creator: seller.address.toLowerCase(),
        amount: '1',
      },
    ])
    expect(
      book.source.orderId?.({
        chainId: node.chainId,
        orderHash: Seaport.orderHash(components),
      }),
    ).toBe(order.id)
  })

  test('behavior: a listing of a token without code is INACTIVE and holds up no other order’s evaluation', async () => {
    const tokenId = await mintTo(seller.address)
    await approveSeaport(true)
    const good = await listing({ tokenId })
    const { body, components } = await listing({ tokenId })
    const codeless = {
      ...components,
      offer: components.offer.map((item) => ({
        ...item,
        token: stranger.address,
      })),
    }
    const created = await request('POST', '/orders/listings', {
      ...body,
      sell: [{ ...body.sell[0], contract_address: stranger.address }],
      order_hash: Seaport.orderHash(codeless),
      signature: await seller.signTypedData(
        Seaport.orderTypedData({
          chainId: node.chainId,
          seaport: contracts.seaport,
          order: codeless,
        }),
      ),
    })
    expect(created.status).toBe(201)
    const goodId = (await request('POST', '/orders/listings', good.body)).body
      .result.id
    expect(
      (await request('GET', `/orders/listings/${created.body.result.id}`)).body
        .result.status,
    ).toEqual({
      name: 'INACTIVE',
      sufficient_approvals: false,
      sufficient_balances: false,
    })
    expect(
      (await request('GET', `/orders/listings/${goodId}`)).body.result.status,
    ).toEqual({ name: 'ACTIVE' })
  })

  test('error: a listing is refused when another key signed it, its hash is not its own, its zone is not the signed zone, or it exists', async () => {
    const tokenId = await mintTo(seller.address)
    const forged = await listing({ tokenId, signer: stranger })
    const refused = await request('POST', '/orders/listings', forged.body)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: `signature is not account_address's signature of the order for the seaport ${contracts.seaport}.`,
      details: { parameter: 'signature' },
    })
    const good = await listing({ tokenId })
    const rehashed = await request('POST', '/orders/listings', {
      ...good.body,
      salt: '1',
    })
    expect(rehashed.status).toBe(400)
    expect(rehashed.body.message).toBe(
      'order_hash is not the hash of the order the request describes.',
    )
    const open = await request('POST', '/orders/listings', {
      ...good.body,
      protocol_data: { ...good.body.protocol_data, zone_address: zeroAddress },
    })
    expect(open.body.message).toBe(
      `protocol_data.zone_address must be the signed zone ${contracts.signedZone}.`,
    )
    const partial = await request('POST', '/orders/listings', {
      ...good.body,
      protocol_data: {
        ...good.body.protocol_data,
        order_type: 'PARTIAL_RESTRICTED',
      },
    })
    expect(partial.body.message).toBe(
      'protocol_data.order_type must be FULL_RESTRICTED for an ERC721 order.',
    )
    const fees = await request('POST', '/orders/listings', {
      ...good.body,
      fees: [{ type: 'PROTOCOL', amount: '1', recipient_address: zeroAddress }],
    })
    expect(fees.body.message).toBe(
      'fees[0] must be a fee of type MAKER_ECOSYSTEM.',
    )
    expect((await request('POST', '/orders/listings', good.body)).status).toBe(
      201,
    )
    const again = await request('POST', '/orders/listings', good.body)
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('CONFLICT_ERROR')
  })

  test('error: an unknown chain is a 404, an unknown listing a 404, a malformed id or filter a 400', async () => {
    const chainless = await app.request(
      'http://api.test/v1/chains/nowhere/orders/listings',
    )
    expect(chainless.status).toBe(404)
    expect((await chainless.json()).message).toBe(
      'There is no chain named nowhere.',
    )
    const missing = await request(
      'GET',
      '/orders/listings/018792c9-4ad7-8ec4-4038-9e05c598534a',
    )
    expect(missing.status).toBe(404)
    expect(missing.body.code).toBe('RESOURCE_NOT_FOUND')
    expect((await request('GET', '/orders/listings/nope')).status).toBe(400)
    const status = await request('GET', '/orders/listings?status=SOLD')
    expect(status.status).toBe(400)
    expect(status.body.message).toBe(
      'status must be one of PENDING, ACTIVE, INACTIVE, FILLED, EXPIRED, CANCELLED.',
    )
    const notJson = await app.request(`${base}/orders/listings`, {
      method: 'POST',
      body: '{',
    })
    expect(notJson.status).toBe(400)
  })
})

describe('fulfilment', () => {
  test('behavior: fulfilment data signed by the zone signer fills the listing on chain; the listing is FILLED and its trade recorded with its fees', async () => {
    const tokenId = await mintTo(seller.address)
    await approveSeaport(true)
    const { body, components, signature } = await listing({
      tokenId,
      price: 1000n,
    })
    const { id } = (await request('POST', '/orders/listings', body)).body.result
    const takerFee = {
      type: 'TAKER_ECOSYSTEM',
      amount: '30',
      recipient_address: stranger.address,
    }
    const data = await request('POST', '/orders/fulfillment-data', [
      { order_id: id, taker_address: buyer.address, fees: [takerFee] },
    ])
    expect(data.status).toBe(200)
    const [fulfillable] = data.body.result.fulfillable_orders
    expect(data.body.result.unfulfillable_orders).toEqual([])
    const fees = [
      {
        type: 'PROTOCOL',
        amount: '20',
        recipient_address: protocolFeeRecipient.toLowerCase(),
      },
      { ...takerFee, recipient_address: stranger.address.toLowerCase() },
    ]
    expect(fulfillable.order.fees).toEqual(fees)
    const extra = Seaport.decodeExtraData(fulfillable.extra_data)
    expect(extra.fulfiller).toBe(buyer.address)
    const expected = Date.now() + fulfilmentLifetimeMs
    expect(Number(extra.expiration) * 1000).toBeGreaterThan(expected - 5_000)
    expect(Number(extra.expiration) * 1000).toBeLessThanOrEqual(expected)
    expect(extra.context).toBe(
      Seaport.substandard3([
        {
          itemType: Seaport.ItemType.NATIVE,
          token: zeroAddress,
          identifier: 0n,
          amount: 1000n,
          recipient: seller.address,
        },
        {
          itemType: Seaport.ItemType.NATIVE,
          token: zeroAddress,
          identifier: 0n,
          amount: 20n,
          recipient: protocolFeeRecipient,
        },
        {
          itemType: Seaport.ItemType.NATIVE,
          token: zeroAddress,
          identifier: 0n,
          amount: 30n,
          recipient: stranger.address,
        },
      ]),
    )
    const receipt = await fulfil({
      components,
      signature,
      order: fulfillable.order,
      extraData: fulfillable.extra_data,
    })
    const filled = (await request('GET', `/orders/listings/${id}`)).body.result
    expect(filled.status).toEqual({ name: 'FILLED' })
    expect(filled.fill_status).toEqual({ numerator: '1', denominator: '1' })
    const trades = await request(
      'GET',
      `/trades?account_address=${seller.address}&sell_item_contract_address=${contracts.erc721}`,
    )
    const trade = trades.body.result.find(
      (candidate: { order_id: string }) => candidate.order_id === id,
    )
    expect(trade).toMatchObject({
      buy: [{ type: 'NATIVE', amount: '1000' }],
      sell: [
        {
          type: 'ERC721',
          contract_address: contracts.erc721.toLowerCase(),
          token_id: String(tokenId),
        },
      ],
      fees,
      buyer_fees: fees,
      buyer_address: buyer.address.toLowerCase(),
      seller_address: seller.address.toLowerCase(),
      maker_address: seller.address.toLowerCase(),
      taker_address: buyer.address.toLowerCase(),
      blockchain_metadata: {
        transaction_hash: receipt.transactionHash,
        block_number: String(receipt.blockNumber),
        transaction_index: String(receipt.transactionIndex),
      },
    })
    expect((await request('GET', `/trades/${trade.id}`)).body.result).toEqual(
      trade,
    )
    const again = await request('POST', '/orders/fulfillment-data', [
      { order_id: id, taker_address: buyer.address, fees: [] },
    ])
    expect(again.body.result.unfulfillable_orders).toEqual([
      { order_id: id, reason: `Invalid order status FILLED for order ${id}` },
    ])
  })

  test('behavior: an ERC-1155 listing fills in part (fill_status 2/5, still ACTIVE) and then whole (FILLED)', async () => {
    const tokenId = 7n
    await send(seller, {
      address: contracts.testErc1155,
      abi: erc1155,
      functionName: 'mint',
      args: [seller.address, tokenId, 5n, '0x'],
    })
    await send(seller, {
      address: contracts.testErc1155,
      abi: erc1155,
      functionName: 'setApprovalForAll',
      args: [contracts.seaport, true],
    })
    const { body, components, signature } = await listing({
      tokenId,
      price: 5000n,
      erc1155Amount: 5n,
    })
    const { id } = (await request('POST', '/orders/listings', body)).body.result
    const data = async () =>
      (
        await request('POST', '/orders/fulfillment-data', [
          { order_id: id, taker_address: buyer.address, fees: [] },
        ])
      ).body.result.fulfillable_orders[0]
    const first = await data()
    await fulfil({
      components,
      signature,
      order: first.order,
      extraData: first.extra_data,
      numerator: 2n,
      denominator: 5n,
    })
    const part = (await request('GET', `/orders/listings/${id}`)).body.result
    expect(part.fill_status).toEqual({ numerator: '2', denominator: '5' })
    expect(part.status).toEqual({ name: 'ACTIVE' })
    const rest = await data()
    await fulfil({
      components,
      signature,
      order: rest.order,
      extraData: rest.extra_data,
      numerator: 3n,
      denominator: 5n,
    })
    const whole = (await request('GET', `/orders/listings/${id}`)).body.result
    expect(whole.status).toEqual({ name: 'FILLED' })
    expect(whole.fill_status).toEqual({ numerator: '5', denominator: '5' })
    expect(
      await client().readContract({
        address: contracts.testErc1155,
        abi: erc1155,
        functionName: 'balanceOf',
        args: [buyer.address, tokenId],
      }),
    ).toBe(5n)
  })
  test('behavior: once an NFT sells through one listing, its offerer’s other listing of it is CANCELLED UNDERFUNDED', async () => {
    const tokenId = await mintTo(seller.address)
    await approveSeaport(true)
    const sold = await listing({ tokenId, price: 1000n })
    const other = await listing({ tokenId, price: 2000n })
    const { id } = (await request('POST', '/orders/listings', sold.body)).body
      .result
    const otherId = (await request('POST', '/orders/listings', other.body)).body
      .result.id
    const data = await request('POST', '/orders/fulfillment-data', [
      { order_id: id, taker_address: buyer.address, fees: [] },
    ])
    const [fulfillable] = data.body.result.fulfillable_orders
    await fulfil({
      components: sold.components,
      signature: sold.signature,
      order: fulfillable.order,
      extraData: fulfillable.extra_data,
    })
    expect(
      (await request('GET', `/orders/listings/${otherId}`)).body.result.status,
    ).toEqual({
      name: 'CANCELLED',
      pending: false,
      cancellation_type: 'UNDERFUNDED',
    })
  })
})

describe('cancellation and expiry', () => {
  test('behavior: the seaport’s cancel makes a listing CANCELLED ON_CHAIN', async () => {
    const tokenId = await mintTo(seller.address)
    await approveSeaport(true)
    const { body, components } = await listing({ tokenId })
    const { id } = (await request('POST', '/orders/listings', body)).body.result
    await send(seller, {
      address: contracts.seaport,
      abi: ImmutableSeaport.abi as Abi,
      functionName: 'cancel',
      args: [[components]],
    })
    expect(
      (await request('GET', `/orders/listings/${id}`)).body.result.status,
    ).toEqual({
      name: 'CANCELLED',
      pending: false,
      cancellation_type: 'ON_CHAIN',
    })
  })

  test('behavior: an off-chain cancellation is pending while signed fulfilment data lives, then final; a stranger’s signature is refused', async () => {
    const tokenId = await mintTo(seller.address)
    await approveSeaport(true)
    const { body } = await listing({ tokenId })
    const { id } = (await request('POST', '/orders/listings', body)).body.result
    await request('GET', `/orders/listings/${id}`)
    await request('POST', '/orders/fulfillment-data', [
      { order_id: id, taker_address: buyer.address, fees: [] },
    ])
    const typed = cancelTypedData({
      chainId: node.chainId,
      seaport: contracts.seaport,
      orderIds: [id],
    })
    const forged = await request('POST', '/orders/cancel', {
      account_address: seller.address,
      orders: [id],
      signature: await stranger.signTypedData(typed),
    })
    expect(forged.status).toBe(400)
    expect(forged.body.details).toEqual({ parameter: 'signature' })
    const cancelled = await request('POST', '/orders/cancel', {
      account_address: seller.address,
      orders: [id],
      signature: await seller.signTypedData(typed),
    })
    expect(cancelled.body.result).toEqual({
      successful_cancellations: [],
      pending_cancellations: [id],
      failed_cancellations: [],
    })
    expect(
      (await request('GET', `/orders/listings/${id}`)).body.result.status,
    ).toEqual({
      name: 'CANCELLED',
      pending: true,
      cancellation_type: 'OFF_CHAIN',
    })
    offset = fulfilmentLifetimeMs + 1_000
    try {
      expect(
        (await request('GET', `/orders/listings/${id}`)).body.result.status,
      ).toEqual({
        name: 'CANCELLED',
        pending: false,
        cancellation_type: 'OFF_CHAIN',
      })
    } finally {
      offset = 0
    }
  })

  test('behavior: a listing past its end is EXPIRED and has no fulfilment data', async () => {
    const tokenId = await mintTo(seller.address)
    const now = BigInt(Math.floor(Date.now() / 1000))
    const { body } = await listing({ tokenId, end: now + 60n })
    const { id } = (await request('POST', '/orders/listings', body)).body.result
    offset = 61_000
    try {
      expect(
        (await request('GET', `/orders/listings/${id}`)).body.result.status,
      ).toEqual({ name: 'EXPIRED' })
    } finally {
      offset = 0
    }
  })
})

describe('listing lists', () => {
  test('behavior: filters, sorting by buy_item_amount and cursor pages', async () => {
    const owner = stranger
    const ids: string[] = []
    for (const price of [300n, 100n, 200n]) {
      const tokenId = await mintTo(owner.address)
      const { body, components } = await listing({ tokenId, price })
      const mine = {
        ...components,
        offerer: owner.address,
        consideration: components.consideration.map((item) => ({
          ...item,
          recipient: owner.address,
        })),
      }
      const created = await request('POST', '/orders/listings', {
        ...body,
        account_address: owner.address,
        order_hash: Seaport.orderHash(mine),
        signature: await owner.signTypedData(
          Seaport.orderTypedData({
            chainId: node.chainId,
            seaport: contracts.seaport,
            order: mine,
          }),
        ),
      })
      expect(created.status).toBe(201)
      ids.push(created.body.result.id)
    }
    const first = await request(
      'GET',
      `/orders/listings?account_address=${owner.address}&sort_by=buy_item_amount&sort_direction=desc&page_size=2`,
    )
    expect(first.body.result.map((order: Json) => order.buy[0].amount)).toEqual(
      ['300', '200'],
    )
    expect(first.body.page.previous_cursor).toBeNull()
    const second = await request(
      'GET',
      `/orders/listings?account_address=${owner.address}&sort_by=buy_item_amount&sort_direction=desc&page_size=2&page_cursor=${first.body.page.next_cursor}`,
    )
    expect(second.body.result.map((order: Json) => order.id)).toEqual([ids[1]])
    expect(second.body.page.next_cursor).toBeNull()
    const none = await request(
      'GET',
      `/orders/listings?account_address=${owner.address}&status=FILLED`,
    )
    expect(none.body.result).toEqual([])
  })
})

describe('bounded growth', () => {
  test('error: a full book forgets its longest-finished order for a new one, and refuses one when every order is live', async () => {
    const small = createOrderbook({
      chains: [
        {
          chainId: node.chainId,
          nodeUrl: node.rpcUrl,
          seaport: contracts.seaport,
          signedZone: contracts.signedZone,
        },
      ],
      now: () => new Date(Date.now() + offset),
      pollingInterval: 60_000,
      maxOrders: 1,
    })
    try {
      const [chain] = small.chains
      const now = BigInt(Math.floor(Date.now() / 1000))
      const first = await small.create(
        chain!,
        'LISTING',
        (
          await listing({
            tokenId: await mintTo(seller.address),
            end: now + 60n,
          })
        ).body,
      )
      if ('refused' in first) throw new Error(first.message)
      offset = 61_000
      await small.sync(node.chainId)
      offset = 0
      expect(chain!.orders.get(first.id)?.status).toEqual({ name: 'EXPIRED' })
      const second = await small.create(
        chain!,
        'LISTING',
        (await listing({ tokenId: await mintTo(seller.address) })).body,
      )
      expect('refused' in second).toBe(false)
      expect(chain!.orders.has(first.id)).toBe(false)
      const third = await small.create(
        chain!,
        'LISTING',
        (await listing({ tokenId: await mintTo(seller.address) })).body,
      )
      expect(third).toEqual({
        refused: 'tooManyRequests',
        message: 'The order book holds 1 live orders on this chain, its most.',
        details: null,
      })
    } finally {
      offset = 0
      await small.stop()
    }
  })
})

describe('game wallets', () => {
  test('behavior: a game wallet asking for fulfilment data goes on the operator allowlist (Immutable’s collections refuse transfers to others); another contract does not', async () => {
    const tokenId = await mintTo(seller.address)
    await approveSeaport(true)
    const { body } = await listing({ tokenId })
    const { id } = (await request('POST', '/orders/listings', body)).body.result
    await request('GET', `/orders/listings/${id}`)
    const salt = imageHash({
      threshold: 1,
      signers: [{ weight: 1, address: stranger.address }],
    })
    const wallet = counterfactualAddress({
      factory: contracts.factory,
      mainModule: contracts.mainModule,
      imageHash: salt,
    })
    await send(stranger, {
      address: contracts.factory,
      abi: Factory.abi as Abi,
      functionName: 'deploy',
      args: [contracts.mainModule, salt],
      // A CREATE2 short of gas fails without reverting the factory's call.
      gas: 200_000n,
    })
    expect(await client().getCode({ address: wallet })).toBe(
      '0x363d3d373d3d3d363d30545af43d82803e903d91601857fd5bf3',
    )
    const allowlisted = (target: Address) =>
      client().readContract({
        address: contracts.operatorAllowlist,
        abi: parseAbi([
          'function isAllowlisted(address target) view returns (bool)',
        ]),
        functionName: 'isAllowlisted',
        args: [target],
      })
    expect(await allowlisted(wallet)).toBe(false)
    for (const taker of [wallet, contracts.erc20]) {
      const data = await request('POST', '/orders/fulfillment-data', [
        { order_id: id, taker_address: taker, fees: [] },
      ])
      expect(data.body.result.fulfillable_orders).toHaveLength(1)
    }
    expect(await allowlisted(wallet)).toBe(true)
    expect(await allowlisted(contracts.erc20)).toBe(false)
    // Asked directly, a wallet goes on once; anything else stays off.
    await book.allowlistGameWallet(node.chainId, wallet)
    await book.allowlistGameWallet(node.chainId, seller.address)
    expect(await allowlisted(seller.address)).toBe(false)
  })
})

describe('smart-wallet offerers', () => {
  /** A game-wallet-like Sequence v1 wallet of one key, and its order signer. */
  const walletOf = (key: PrivateKeyAccount) => {
    const salt = imageHash({
      threshold: 1,
      signers: [{ weight: 1, address: key.address }],
    })
    const address = counterfactualAddress({
      factory: contracts.factory,
      mainModule: contracts.mainModule,
      imageHash: salt,
    })
    /** The wallet's ERC-1271 signature of an order (its key signs the sub-digest). */
    const sign = async (order: Seaport.OrderComponents) => {
      const digest = hashTypedData(
        Seaport.orderTypedData({
          chainId: node.chainId,
          seaport: contracts.seaport,
          order,
        }),
      )
      const signature = await key.sign({
        hash: subDigest({ chainId: node.chainId, wallet: address, digest }),
      })
      return encodeSignature({
        threshold: 1,
        parts: [
          {
            type: 'eoa',
            weight: 1,
            signature: eoaSignature(signature, signatureTypes.eip712),
          },
        ],
      })
    }
    return { salt, address, sign }
  }

  /** A listing body of `wallet`'s, signed with `signature(order)`. */
  async function walletListing(
    wallet: Address,
    signature: (order: Seaport.OrderComponents) => Promise<Hex>,
  ) {
    const { body, components } = await listing({
      tokenId: await mintTo(wallet),
    })
    const order = {
      ...components,
      offerer: wallet,
      consideration: components.consideration.map((item) => ({
        ...item,
        recipient: wallet,
      })),
    }
    return request('POST', '/orders/listings', {
      ...body,
      account_address: wallet,
      order_hash: Seaport.orderHash(order),
      signature: await signature(order),
    })
  }

  test('behavior: a wallet not deployed yet signs with ERC-6492, a deployed one through ERC-1271; another key’s signature is refused', async () => {
    const key = privateKeyToAccount(generatePrivateKey())
    const wallet = walletOf(key)
    const undeployed = await walletListing(wallet.address, async (order) =>
      wrapErc6492({
        factory: contracts.factory,
        mainModule: contracts.mainModule,
        imageHash: wallet.salt,
        signature: await wallet.sign(order),
      }),
    )
    expect(undeployed.status).toBe(201)
    expect(undeployed.body.result.account_address).toBe(
      wallet.address.toLowerCase(),
    )
    await send(stranger, {
      address: contracts.factory,
      abi: Factory.abi as Abi,
      functionName: 'deploy',
      args: [contracts.mainModule, wallet.salt],
      gas: 200_000n,
    })
    const deployed = await walletListing(wallet.address, wallet.sign)
    expect(deployed.status).toBe(201)
    const other = walletOf(privateKeyToAccount(generatePrivateKey()))
    const forged = await walletListing(wallet.address, other.sign)
    expect(forged.status).toBe(400)
    expect(forged.body.details).toEqual({ parameter: 'signature' })
  })
})

describe('smart-wallet offerers: fulfilment', () => {
  test('behavior: a listing signed before its wallet was deployed (ERC-6492) is fulfilled with the inner signature, which the deployed wallet answers through ERC-1271', async () => {
    const key = privateKeyToAccount(generatePrivateKey())
    const salt = imageHash({
      threshold: 1,
      signers: [{ weight: 1, address: key.address }],
    })
    const wallet = counterfactualAddress({
      factory: contracts.factory,
      mainModule: contracts.mainModule,
      imageHash: salt,
    })
    /** The one-key wallet's signature part over `digest` (its sub-digest). */
    const signed = async (digest: Hex) =>
      encodeSignature({
        threshold: 1,
        parts: [
          {
            type: 'eoa',
            weight: 1,
            signature: eoaSignature(
              await key.sign({
                hash: subDigest({ chainId: node.chainId, wallet, digest }),
              }),
              signatureTypes.eip712,
            ),
          },
        ],
      })
    const tokenId = await mintTo(wallet)
    const { body, components } = await listing({ tokenId })
    const order = {
      ...components,
      offerer: wallet,
      consideration: components.consideration.map((item) => ({
        ...item,
        recipient: wallet,
      })),
    }
    const inner = await signed(
      hashTypedData(
        Seaport.orderTypedData({
          chainId: node.chainId,
          seaport: contracts.seaport,
          order,
        }),
      ),
    )
    const created = await request('POST', '/orders/listings', {
      ...body,
      account_address: wallet,
      order_hash: Seaport.orderHash(order),
      signature: wrapErc6492({
        factory: contracts.factory,
        mainModule: contracts.mainModule,
        imageHash: salt,
        signature: inner,
      }),
    })
    expect(created.status).toBe(201)

    // The wallet is deployed and approves the seaport with its first call.
    await send(stranger, {
      address: contracts.factory,
      abi: Factory.abi as Abi,
      functionName: 'deploy',
      args: [contracts.mainModule, salt],
      gas: 200_000n,
    })
    await book.allowlistRegisteredWallet(node.chainId, wallet)
    const transactions = [
      metaTransaction({
        to: contracts.erc721,
        data: encodeFunctionData({
          abi: erc721,
          functionName: 'setApprovalForAll',
          args: [contracts.seaport, true],
        }),
      }),
    ]
    await send(stranger, {
      address: wallet,
      abi: walletAbi as unknown as Abi,
      functionName: 'execute',
      args: [
        transactions,
        0n,
        await signed(transactionsDigest(0n, transactions)),
      ],
    })

    const data = await request('POST', '/orders/fulfillment-data', [
      {
        order_id: created.body.result.id,
        taker_address: buyer.address,
        fees: [],
      },
    ])
    const [fillable] = data.body.result.fulfillable_orders
    // The seaport knows nothing of ERC-6492: the wrapper is gone.
    expect(fillable.order.signature).toBe(inner)
    await fulfil({
      components: order,
      signature: fillable.order.signature,
      order: fillable.order,
      extraData: fillable.extra_data,
    })
    expect(
      await client().readContract({
        address: contracts.erc721,
        abi: erc721,
        functionName: 'ownerOf',
        args: [tokenId],
      }),
    ).toBe(buyer.address)
  })
})

describe('counters', () => {
  // Last in the file: it moves the seller's counter past every order above.
  test('behavior: the seaport’s incrementCounter makes the offerer’s live orders CANCELLED ON_CHAIN', async () => {
    const tokenId = await mintTo(seller.address)
    await approveSeaport(true)
    const { body } = await listing({ tokenId })
    const { id } = (await request('POST', '/orders/listings', body)).body.result
    await send(seller, {
      address: contracts.seaport,
      abi: ImmutableSeaport.abi as Abi,
      functionName: 'incrementCounter',
      args: [],
    })
    expect(
      (await request('GET', `/orders/listings/${id}`)).body.result.status,
    ).toEqual({
      name: 'CANCELLED',
      pending: false,
      cancellation_type: 'ON_CHAIN',
    })
  })
})
