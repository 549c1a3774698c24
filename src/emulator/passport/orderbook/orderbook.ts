/**
 * The emulated order book: listings, bids and collection bids made of
 * signed Seaport orders for the emulator's ImmutableSeaport and signed zone,
 * kept in memory for one emulator run, and the trades of their fills.
 *
 * - An order is taken once its components hash to the request's
 *   `order_hash` and its EIP-712 signature verifies for the seaport's
 *   domain (an account's key, ERC-1271 for a contract such as the game
 *   wallet, ERC-6492 for a wallet not deployed yet): viem's universal
 *   signature check does all three with one `eth_call`.
 * - Its status follows the chain: PENDING until evaluated and started,
 *   ACTIVE while the offerer holds the item and has approved the seaport,
 *   INACTIVE (with the flags of what is missing) while not, EXPIRED past
 *   its end, FILLED once the seaport's `OrderFulfilled` events fill it
 *   (ERC-1155 fills in part: `fill_status` is the seaport's own
 *   `getOrderStatus` ratio), CANCELLED `ON_CHAIN` by the seaport's
 *   `OrderCancelled` or `CounterIncremented`, `OFF_CHAIN` by a signed
 *   cancel request (pending while fulfilment data signed for it has not
 *   expired: the zone would still accept it), `UNDERFUNDED` for the other
 *   ERC-721 listings of an NFT its offerer sold through the book.
 * - Fulfilment data is signed by the zone signer (SIP-7 extra data for the
 *   taker, expiring after {@link fulfilmentLifetimeMs}) over the items of
 *   a whole fill: the order's price to the offerer and every fee as a tip —
 *   the protocol fee ({@link protocolFeeBps} of the price, to
 *   {@link protocolFeeRecipient}), the collection's ERC-2981 royalty, the
 *   maker's and the taker's ecosystem fees.
 *
 * @packageDocumentation
 */
import { randomUUID } from 'node:crypto'
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  compactSignatureToSignature,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  parseAbi,
  parseCompactSignature,
  parseEventLogs,
  recoverAddress,
  serializeSignature,
  size,
  zeroAddress,
} from 'viem'
import type { components } from '../../../api/wire/mr/schema.generated.js'
import {
  unwrapErc6492,
  walletCreationCode,
} from '../../../passport/wire/sequence.js'
import { deployer, zoneSigner } from '../../chain/accounts.js'
import { ImmutableSeaport } from '../../chain/platformArtifacts.generated.js'
import * as Seaport from '../../chain/seaport.js'
import { chainNameOf } from '../api/chains.js'
import type { ListingsSource, MarketQuery } from '../indexer/indexer.js'
import { type Cursors, createCursors } from '../indexer/pages.js'
import { invalid, type Refusal, refuse } from '../indexer/params.js'
import type {
  Bid,
  LastTrade,
  Listing,
  MarketPriceDetails,
} from '../indexer/schema.js'
import { bulkOrderDigest } from './bulk.js'
import {
  type ApiOrder,
  type ApiTrade,
  type Assignable,
  apiItemOf,
  conflict,
  type Fee,
  type Item,
  type OrderKind,
  type OrderRequest,
  type OrderStatus,
  readOrderRequest,
} from './orders.js'

/** The protocol fee of every fill, in basis points of the price. */
export const protocolFeeBps = 200n

/**
 * Who receives the protocol fee: the deployer of the platform's contracts
 * (Anvil account 0), the emulated platform's own treasury.
 */
export const protocolFeeRecipient: Address = deployer.address

/** How long signed fulfilment data stays valid. */
export const fulfilmentLifetimeMs = 5 * 60 * 1000

/**
 * The most orders the book holds per chain: past it, a new order takes
 * the place of the one that finished longest ago, or is refused.
 */
export const maxOrders = 10_000

/** The most trades the book keeps per chain (the oldest go first). */
export const maxTrades = 10_000

/** The most orders one cancel or fulfilment-data request names. */
export const maxRequestOrders = 100

/** A chain the order book serves. */
export type OrderbookChainInput = {
  readonly chainId: number
  /** The node's own JSON-RPC URL. */
  readonly nodeUrl: string
  readonly seaport: Address
  readonly signedZone: Address
  /**
   * The operator allowlist the platform's collections check: a game
   * wallet that asks for fulfilment data goes on it (see
   * {@link allowlistGameWallet}); none without it.
   */
  readonly operatorAllowlist?: Address | undefined
}

/**
 * The runtime code of every game wallet (a Sequence v1 proxy): the tail of
 * its creation code.
 */
export const gameWalletRuntime: Hex = `0x${walletCreationCode.slice(-52)}`

/** An order as the book keeps it. */
export type StoredOrder = {
  readonly id: string
  readonly kind: OrderKind
  readonly request: OrderRequest
  readonly createdAt: Date
  updatedAt: Date
  status: OrderStatus
  fill: { numerator: bigint; denominator: bigint }
  /** The ERC-2981 royalty of a whole fill, once read. */
  royalty: Fee | null | undefined
  /** Until when fulfilment data signed for it is valid (ms). */
  signedUntil: number
  /** The fees of the last fulfilment data, to type a trade's fees. */
  lastFees: readonly Fee[]
}

type SeaportEventName =
  | 'OrderFulfilled'
  | 'OrderCancelled'
  | 'CounterIncremented'

const seaportEvents: SeaportEventName[] = [
  'OrderFulfilled',
  'OrderCancelled',
  'CounterIncremented',
]

type SeaportEvent = ReturnType<
  typeof parseEventLogs<typeof ImmutableSeaport.abi, true, SeaportEventName[]>
>[number]

/** A trade as the book keeps it. */
export type StoredTrade = { readonly trade: ApiTrade; readonly at: Date }

/** One chain of the book. */
export type OrderbookChain = OrderbookChainInput & {
  readonly name: string
  readonly orders: Map<string, StoredOrder>
  readonly byHash: Map<Hex, string>
  readonly trades: Map<string, StoredTrade>
  readonly client: PublicClient
  /** The last block whose seaport events were read. */
  lastBlock: bigint | undefined
  /** The block of the last evaluation of holdings and approvals. */
  evaluatedBlock: bigint | undefined
}

/** The answer of the fulfilment-data route. */
export type FulfilmentData = {
  fulfillable_orders: { order: ApiOrder; token_id?: string; extra_data: Hex }[]
  unfulfillable_orders: {
    order_id: string
    token_id?: string
    reason: string
  }[]
}

/** The answer of the cancel route. */
export type CancelResult = {
  successful_cancellations: string[]
  pending_cancellations: string[]
  failed_cancellations: { order: string; reason_code: 'FILLED' }[]
}

/** The cancel answer checked against the API's generated type. */
export type CancelCheck = Assignable<
  components['schemas']['CancelOrdersResultData'],
  CancelResult
>

/** The emulated order book. */
export type Orderbook = {
  readonly chains: readonly OrderbookChain[]
  readonly cursors: Cursors
  readonly now: () => Date
  /** What the indexer reads of the book: active orders and trades. */
  readonly source: ListingsSource
  /** The chain of an API name, if it is one of the book's. */
  chainByName(name: string): OrderbookChain | undefined
  /**
   * Reads the seaport's events up to the head and re-evaluates the live
   * orders, for at most `timeout` ms.
   */
  sync(chainId: number, timeout?: number): Promise<void>
  /** Takes a signed order. */
  create(
    chain: OrderbookChain,
    kind: OrderKind,
    body: unknown,
  ): Promise<ApiOrder | Refusal>
  /** Signs fulfilment data for the requests of `body`. */
  fulfilmentData(
    chain: OrderbookChain,
    body: unknown,
  ): Promise<FulfilmentData | Refusal>
  /** Cancels orders off chain, on their account's signature. */
  cancel(chain: OrderbookChain, body: unknown): Promise<CancelResult | Refusal>
  /**
   * Puts a game wallet (a contract with the Sequence v1 proxy's code) on
   * the chain's operator allowlist, if it is not yet; other addresses are
   * left as they are. The book does it for a game wallet that asks for
   * fulfilment data; a wallet that lists must be on it before it
   * approves the seaport.
   */
  allowlistGameWallet(chainId: number, wallet: Address): Promise<void>
  /**
   * Puts a game wallet the platform API registered on the operator
   * allowlist, deployed or not: the hosted platform allowlists every game
   * wallet by its code, so a player may approve the seaport and list from
   * their first transaction. (Allowlisting by code needs the proxy's
   * `PROXY_getImplementation`, which the Sequence v1 proxy lacks; its
   * address stands in for it.)
   */
  allowlistRegisteredWallet(chainId: number, wallet: Address): Promise<void>
  /** The API shape of an order. */
  render(chain: OrderbookChain, order: StoredOrder): ApiOrder
  /** Stops polling. Idempotent. */
  stop(): Promise<void>
}

const erc721Abi = parseAbi([
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function getApproved(uint256 tokenId) view returns (address)',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
])
const erc1155Abi = parseAbi([
  'function balanceOf(address account, uint256 id) view returns (uint256)',
  'function isApprovedForAll(address account, address operator) view returns (bool)',
])
const erc20Abi = parseAbi([
  'function balanceOf(address account) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
])
const allowlistAbi = parseAbi([
  'function isAllowlisted(address target) view returns (bool)',
  'function addAddressesToAllowlist(address[] addressTargets)',
])
const royaltyAbi = parseAbi([
  'function royaltyInfo(uint256 tokenId, uint256 salePrice) view returns (address, uint256)',
])

/** The EIP-712 typed data `@imtbl/orderbook` signs to cancel orders off chain. */
export function cancelTypedData(options: {
  chainId: number
  seaport: Address
  orderIds: readonly string[]
}) {
  return {
    domain: {
      name: 'imtbl-order-book',
      chainId: options.chainId,
      verifyingContract: options.seaport,
    },
    types: {
      CancelPayload: [{ name: 'orders', type: 'Order[]' }],
      Order: [{ name: 'id', type: 'string' }],
    },
    primaryType: 'CancelPayload',
    message: { orders: options.orderIds.map((id) => ({ id })) },
  } as const
}

/**
 * Creates the order book and starts following its chains' seaports.
 *
 * @example
 * ```ts
 * const book = createOrderbook({ chains: [{ chainId, nodeUrl, seaport, signedZone }] })
 * orderbookRoutes(app, { orderbook: book })
 * await book.stop()
 * ```
 */
export function createOrderbook(options: createOrderbook.Options): Orderbook {
  const {
    now = () => new Date(),
    pollingInterval = 1_000,
    syncTimeout = 5_000,
    maxOrders: orderLimit = maxOrders,
  } = options
  const chains: OrderbookChain[] = options.chains.map((input) => ({
    ...input,
    name: chainNameOf(input.chainId),
    orders: new Map(),
    byHash: new Map(),
    trades: new Map(),
    client: createPublicClient({ transport: http(input.nodeUrl) }),
    lastBlock: undefined,
    evaluatedBlock: undefined,
  }))
  const running = new Map<number, Promise<void>>()
  const next = new Map<number, Promise<void>>()

  const touch = (order: StoredOrder, status: OrderStatus) => {
    if (JSON.stringify(order.status) === JSON.stringify(status)) return
    order.status = status
    order.updatedAt = now()
  }

  // One run per chain at a time; a caller arriving during a run waits for
  // the next one, which starts after it and so sees what it has seen.
  const catchUp = (chain: OrderbookChain): Promise<void> => {
    const queued = next.get(chain.chainId)
    if (queued) return queued
    const current = running.get(chain.chainId) ?? Promise.resolve()
    const run = current.then(async () => {
      next.delete(chain.chainId)
      try {
        await readEvents(chain)
        await evaluate(chain)
      } catch {
        // An unreachable node leaves the book as it was; the next read
        // tries again.
      }
    })
    next.set(chain.chainId, run)
    running.set(chain.chainId, run)
    void run.finally(() => {
      if (running.get(chain.chainId) === run) running.delete(chain.chainId)
    })
    return run
  }

  async function readEvents(chain: OrderbookChain) {
    // viem caches the block number for its polling interval: a read must
    // see the block mined just before it.
    const head = await chain.client.getBlockNumber({ cacheTime: 0 })
    // A fresh or reverted chain: start from its head (the book holds
    // nothing older than itself).
    if (chain.lastBlock === undefined || head < chain.lastBlock) {
      chain.lastBlock = head
      return
    }
    let last: bigint = chain.lastBlock
    while (last < head) {
      const from: bigint = last + 1n
      const to: bigint = head - from > 1_999n ? from + 1_999n : head
      const logs = await chain.client.getLogs({
        address: chain.seaport,
        fromBlock: from,
        toBlock: to,
      })
      const events = parseEventLogs({
        abi: ImmutableSeaport.abi,
        logs,
        eventName: seaportEvents,
      })
      for (const event of events) await apply(chain, event)
      chain.lastBlock = to
      last = to
    }
  }

  async function apply(chain: OrderbookChain, event: SeaportEvent) {
    if (event.eventName === 'CounterIncremented') {
      const { newCounter, offerer } = event.args
      for (const order of chain.orders.values())
        if (
          order.request.account === offerer.toLowerCase() &&
          order.request.components.counter < newCounter &&
          isLive(order)
        )
          touch(order, cancelled('ON_CHAIN'))
      return
    }
    const hash = event.args.orderHash.toLowerCase() as Hex
    const id = chain.byHash.get(hash)
    const order = id ? chain.orders.get(id) : undefined
    if (!order) return
    if (event.eventName === 'OrderCancelled') {
      if (order.status.name !== 'FILLED') touch(order, cancelled('ON_CHAIN'))
      return
    }
    if (event.eventName !== 'OrderFulfilled') return
    const { recipient, offer, consideration } = event.args
    const [, , totalFilled, totalSize] = await chain.client.readContract({
      address: chain.seaport,
      abi: ImmutableSeaport.abi,
      functionName: 'getOrderStatus',
      args: [hash],
      blockNumber: event.blockNumber,
    })
    order.fill = { numerator: totalFilled, denominator: totalSize }
    if (totalSize > 0n && totalFilled >= totalSize) {
      touch(order, { name: 'FILLED' })
      underfund(chain, order)
    } else order.updatedAt = now()
    recordTrade(chain, order, {
      recipient,
      offer: [...offer],
      consideration: [...consideration],
      transactionHash: event.transactionHash,
      blockNumber: event.blockNumber,
      transactionIndex: event.transactionIndex,
      logIndex: event.logIndex,
    })
  }

  /** The other live ERC-721 listings of an NFT its offerer just sold. */
  function underfund(chain: OrderbookChain, sold: StoredOrder) {
    const [item] = sold.request.sell
    if (sold.kind !== 'LISTING' || item?.type !== 'ERC721') return
    for (const order of chain.orders.values()) {
      const [other] = order.request.sell
      if (
        order !== sold &&
        order.kind === 'LISTING' &&
        isLive(order) &&
        order.request.account === sold.request.account &&
        other?.type === 'ERC721' &&
        other.contract_address === item.contract_address &&
        other.token_id === item.token_id
      )
        touch(order, cancelled('UNDERFUNDED'))
    }
  }

  function recordTrade(
    chain: OrderbookChain,
    order: StoredOrder,
    fill: {
      recipient: Address
      offer: ReceivedItem[]
      consideration: ReceivedItem[]
      transactionHash: Hex
      blockNumber: bigint
      transactionIndex: number
      logIndex: number
    },
  ) {
    const maker = order.request.account
    const toMaker = fill.consideration.filter(
      (item) => item.recipient?.toLowerCase() === maker,
    )
    const feeItems = fill.consideration.filter(
      (item) => item.recipient?.toLowerCase() !== maker,
    )
    const unused = [...order.lastFees]
    const fees: Fee[] = feeItems.map((item) => {
      const recipient = (item.recipient ?? '').toLowerCase()
      const index = unused.findIndex(
        (fee) => fee.recipient_address === recipient,
      )
      const [known] = index >= 0 ? unused.splice(index, 1) : []
      return {
        type: known?.type ?? 'TAKER_ECOSYSTEM',
        amount: String(item.amount),
        recipient_address: recipient,
      }
    })
    const taker = fill.recipient.toLowerCase()
    const listing = order.kind === 'LISTING'
    const trade: ApiTrade = {
      buy: toMaker.map(apiItemOf),
      buyer_address: listing ? taker : maker,
      buyer_fees: fees,
      fees,
      chain: { id: `eip155:${chain.chainId}`, name: chain.name },
      order_id: order.id,
      blockchain_metadata: {
        transaction_hash: fill.transactionHash,
        block_number: String(fill.blockNumber),
        transaction_index: String(fill.transactionIndex),
        log_index: String(fill.logIndex),
      },
      indexed_at: now().toISOString(),
      id: randomUUID(),
      sell: fill.offer.map(apiItemOf),
      seller_address: listing ? maker : taker,
      maker_address: maker,
      taker_address: taker,
    }
    if (chain.trades.size >= maxTrades) {
      const [oldest] = chain.trades.keys()
      if (oldest !== undefined) chain.trades.delete(oldest)
    }
    chain.trades.set(trade.id, { trade, at: now() })
  }

  /**
   * Re-evaluates the live orders: times on every pass, holdings and
   * approvals only when a block was mined since the last pass (nothing on
   * chain changes without one) or the order was never evaluated.
   */
  async function evaluate(chain: OrderbookChain) {
    const at = now().getTime()
    const fresh = chain.evaluatedBlock !== chain.lastBlock
    await Promise.all(
      [...chain.orders.values()].filter(isLive).map(async (order) => {
        if (order.status.name === 'CANCELLED') {
          // An off-chain cancellation is final once no signed fulfilment
          // data can still be used.
          if (order.status.pending && order.signedUntil <= at)
            touch(order, cancelled(order.status.cancellation_type, false))
          return
        }
        if (order.request.endAt.getTime() <= at) {
          touch(order, { name: 'EXPIRED' })
          return
        }
        if (!fresh && order.status.name !== 'PENDING') return
        const funds = await fundsOf(chain, order).catch((error: unknown) => {
          // A token that reverts or has no code holds nothing for anyone;
          // any other failure (the node) leaves the order for the next pass.
          if (reverted(error)) return { balances: false, approvals: false }
          throw error
        })
        if (order.royalty === undefined)
          order.royalty = await royaltyOf(chain, order)
        if (order.request.startAt.getTime() > at)
          touch(order, { name: 'PENDING', evaluated: true, started: false })
        else if (funds.balances && funds.approvals)
          touch(order, { name: 'ACTIVE' })
        else
          touch(order, {
            name: 'INACTIVE',
            sufficient_approvals: funds.approvals,
            sufficient_balances: funds.balances,
          })
      }),
    )
    chain.evaluatedBlock = chain.lastBlock
  }

  /** Whether the offerer holds what the order gives and let the seaport move it. */
  async function fundsOf(
    chain: OrderbookChain,
    order: StoredOrder,
  ): Promise<{ balances: boolean; approvals: boolean }> {
    const { client, seaport } = chain
    const owner = order.request.account
    const [offer] = order.request.components.offer
    if (!offer) return { balances: false, approvals: false }
    const remaining =
      order.fill.denominator === 0n
        ? offer.startAmount
        : offer.startAmount -
          (offer.startAmount * order.fill.numerator) / order.fill.denominator
    if (offer.itemType === Seaport.ItemType.ERC20) {
      const [balance, allowance] = await Promise.all([
        client.readContract({
          address: offer.token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [owner],
        }),
        client.readContract({
          address: offer.token,
          abi: erc20Abi,
          functionName: 'allowance',
          args: [owner, seaport],
        }),
      ])
      return {
        balances: balance >= remaining,
        approvals: allowance >= remaining,
      }
    }
    const id = offer.identifierOrCriteria
    if (offer.itemType === Seaport.ItemType.ERC721) {
      const [holder, approved, all] = await Promise.all([
        client
          .readContract({
            address: offer.token,
            abi: erc721Abi,
            functionName: 'ownerOf',
            args: [id],
          })
          .catch(() => undefined),
        client
          .readContract({
            address: offer.token,
            abi: erc721Abi,
            functionName: 'getApproved',
            args: [id],
          })
          .catch(() => undefined),
        client.readContract({
          address: offer.token,
          abi: erc721Abi,
          functionName: 'isApprovedForAll',
          args: [owner, seaport],
        }),
      ])
      return {
        balances: holder?.toLowerCase() === owner,
        approvals: all || approved?.toLowerCase() === seaport.toLowerCase(),
      }
    }
    const [balance, all] = await Promise.all([
      client.readContract({
        address: offer.token,
        abi: erc1155Abi,
        functionName: 'balanceOf',
        args: [owner, id],
      }),
      client.readContract({
        address: offer.token,
        abi: erc1155Abi,
        functionName: 'isApprovedForAll',
        args: [owner, seaport],
      }),
    ])
    return { balances: balance >= remaining, approvals: all }
  }

  /** The collection's ERC-2981 royalty on a whole fill, if it has one. */
  async function royaltyOf(
    chain: OrderbookChain,
    order: StoredOrder,
  ): Promise<Fee | null> {
    const nft = nftOf(order)
    if (!nft || nft.tokenId === undefined) return null
    try {
      const [receiver, amount] = await chain.client.readContract({
        address: nft.contract as Address,
        abi: royaltyAbi,
        functionName: 'royaltyInfo',
        args: [BigInt(nft.tokenId), priceOf(order)],
      })
      return amount > 0n
        ? {
            type: 'ROYALTY',
            amount: String(amount),
            recipient_address: receiver.toLowerCase(),
          }
        : null
    } catch {
      return null
    }
  }

  /** Every fee of a whole fill, the taker's included. */
  function feesOf(order: StoredOrder, takerFees: readonly Fee[]): Fee[] {
    const protocol = (priceOf(order) * protocolFeeBps) / 10_000n
    return [
      ...(protocol > 0n
        ? [
            {
              type: 'PROTOCOL' as const,
              amount: String(protocol),
              recipient_address: protocolFeeRecipient.toLowerCase(),
            },
          ]
        : []),
      ...(order.royalty ? [order.royalty] : []),
      ...order.request.fees,
      ...takerFees,
    ]
  }

  // The deployer's sends, one at a time per chain (one nonce sequence).
  const sends = new Map<number, Promise<unknown>>()

  /**
   * Puts a game wallet on the operator allowlist, as the hosted platform
   * has every Passport wallet on it: Immutable's collections refuse
   * transfers to contracts that are not. The hosted allowlist takes
   * Passport wallets by their proxy's code hash and implementation
   * (`addWalletToAllowlist` reads `PROXY_getImplementation`), which the
   * game wallet's Sequence v1 proxy does not answer; so each wallet goes
   * on by its address, from the deployer (a registrar of the allowlist),
   * when it first asks to buy. Other contracts are left as they are.
   */
  async function allowlistGameWallet(chain: OrderbookChain, wallet: Address) {
    const code = await chain.client.getCode({ address: wallet })
    if (code?.toLowerCase() !== gameWalletRuntime) return
    await allowlist(chain, wallet)
  }

  async function allowlist(chain: OrderbookChain, wallet: Address) {
    const { operatorAllowlist } = chain
    if (!operatorAllowlist) return
    const previous = sends.get(chain.chainId) ?? Promise.resolve()
    const send = previous.then(async () => {
      const listed = await chain.client.readContract({
        address: operatorAllowlist,
        abi: allowlistAbi,
        functionName: 'isAllowlisted',
        args: [wallet],
      })
      if (listed) return
      const hash = await createWalletClient({
        account: deployer,
        transport: http(chain.nodeUrl),
      }).writeContract({
        chain: null,
        address: operatorAllowlist,
        abi: allowlistAbi,
        functionName: 'addAddressesToAllowlist',
        args: [[wallet]],
      })
      await chain.client.waitForTransactionReceipt({
        hash,
        pollingInterval: 50,
      })
    })
    sends.set(
      chain.chainId,
      send.catch(() => undefined),
    )
    await send
  }

  const render = (chain: OrderbookChain, order: StoredOrder): ApiOrder => {
    const { request } = order
    const { components } = request
    return {
      account_address: request.account,
      buy: request.buy,
      fees: feesOf(order, []),
      chain: { id: `eip155:${chain.chainId}`, name: chain.name },
      created_at: order.createdAt.toISOString(),
      end_at: request.endAt.toISOString(),
      id: order.id,
      order_hash: request.orderHash,
      protocol_data: {
        order_type:
          components.orderType === Seaport.OrderType.PARTIAL_RESTRICTED
            ? 'PARTIAL_RESTRICTED'
            : 'FULL_RESTRICTED',
        counter: String(components.counter),
        zone_address: chain.signedZone.toLowerCase(),
        seaport_address: chain.seaport.toLowerCase(),
        seaport_version: Seaport.seaportVersion,
      },
      salt: request.salt,
      sell: request.sell,
      signature: request.signature,
      start_at: request.startAt.toISOString(),
      status: order.status,
      type: order.kind,
      updated_at: order.updatedAt.toISOString(),
      fill_status: {
        numerator: String(order.fill.numerator),
        denominator: String(order.fill.denominator),
      },
    }
  }

  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const poll = () => {
    timer = setTimeout(async () => {
      await Promise.all(chains.map(catchUp))
      if (!stopped) poll()
    }, pollingInterval)
    timer.unref?.()
  }
  poll()

  const chainById = (chainId: number) =>
    chains.find((chain) => chain.chainId === chainId)

  const ordersOf = (query: MarketQuery, kinds: readonly OrderKind[]) => {
    const chain = chainById(query.chainId)
    if (!chain) return []
    return [...chain.orders.values()].filter((order) => {
      if (!kinds.includes(order.kind) || order.status.name !== 'ACTIVE')
        return false
      const nft = nftOf(order)
      return (
        nft?.contract === query.contractAddress.toLowerCase() &&
        (query.tokenIds === undefined ||
          nft.tokenId === undefined ||
          query.tokenIds.includes(nft.tokenId))
      )
    })
  }

  const source: ListingsSource = {
    listings: (query) =>
      ordersOf(query, ['LISTING']).map(
        (order): Listing => ({
          listing_id: order.id,
          price_details: priceDetails(order, feesOf(order, [])),
          token_id: nftOf(order)?.tokenId ?? '0',
          contract_address: nftOf(order)?.contract ?? '',
          creator: order.request.account,
          amount: nftAmountOf(order),
        }),
      ),
    bids: (query) =>
      ordersOf(query, ['BID', 'COLLECTION_BID']).map(
        (order): Bid => ({
          bid_id: order.id,
          price_details: priceDetails(order, feesOf(order, [])),
          token_id: nftOf(order)?.tokenId ?? null,
          contract_address: nftOf(order)?.contract ?? '',
          creator: order.request.account,
          amount: nftAmountOf(order),
        }),
      ),
    trades(query) {
      const chain = chainById(query.chainId)
      if (!chain) return []
      const out: LastTrade[] = []
      for (const { trade } of chain.trades.values()) {
        const nft = [...trade.sell, ...trade.buy].find(
          (item) => item.type === 'ERC721' || item.type === 'ERC1155',
        )
        const currency = [...trade.sell, ...trade.buy].find(
          (item) => item.type === 'NATIVE' || item.type === 'ERC20',
        )
        if (
          !nft ||
          !currency ||
          !('token_id' in nft) ||
          nft.contract_address !== query.contractAddress.toLowerCase() ||
          (query.tokenIds && !query.tokenIds.includes(nft.token_id))
        )
          continue
        const amount = BigInt('amount' in currency ? currency.amount : '0')
        const feeTotal = trade.fees.reduce(
          (sum, f) => sum + BigInt(f.amount),
          0n,
        )
        out.push({
          trade_id: trade.id,
          contract_address: nft.contract_address,
          token_id: nft.token_id,
          price_details: [
            {
              token: tokenOf(currency),
              amount: String(amount),
              fee_inclusive_amount: String(amount + feeTotal),
              fees: trade.fees,
              converted_prices: null,
            },
          ],
          amount: 'amount' in nft ? nft.amount : '1',
          created_at: trade.indexed_at,
        })
      }
      return out
    },
    orderId({ chainId, orderHash }) {
      return chainById(chainId)?.byHash.get(orderHash.toLowerCase() as Hex)
    },
  }

  return {
    chains,
    cursors: createCursors(),
    now,
    source,
    render,
    chainByName: (name) => chains.find((chain) => chain.name === name),
    async allowlistGameWallet(chainId, wallet) {
      const chain = chainById(chainId)
      if (chain) await allowlistGameWallet(chain, wallet)
    },
    async allowlistRegisteredWallet(chainId, wallet) {
      const chain = chainById(chainId)
      if (chain) await allowlist(chain, wallet)
    },
    async sync(chainId, timeout = syncTimeout) {
      const chain = chainById(chainId)
      if (!chain) return
      let timeoutTimer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        catchUp(chain),
        new Promise<void>((resolve) => {
          timeoutTimer = setTimeout(resolve, timeout)
        }),
      ])
      clearTimeout(timeoutTimer)
    },
    async create(chain, kind, body) {
      const request = readOrderRequest(kind, body, {
        seaport: chain.seaport,
        signedZone: chain.signedZone,
        now: now(),
      })
      if ('refused' in request) return request
      if (chain.byHash.has(request.orderHash))
        return conflict(`An order with hash ${request.orderHash} exists.`)
      if (chain.orders.size >= orderLimit && !evictFinished(chain))
        return refuse(
          'tooManyRequests',
          `The order book holds ${orderLimit} live orders on this chain, its most.`,
        )
      const valid =
        (await chain.client
          .verifyTypedData({
            address: request.account,
            ...Seaport.orderTypedData({
              chainId: chain.chainId,
              seaport: chain.seaport,
              order: request.components,
            }),
            signature: request.signature,
          })
          .catch(() => false)) || (await verifyBulk(chain, request))
      if (!valid)
        return invalid(
          'signature',
          `signature is not account_address's signature of the order for the seaport ${chain.seaport}.`,
        )
      // Checked again after the wait: another request may have taken it.
      if (chain.byHash.has(request.orderHash))
        return conflict(`An order with hash ${request.orderHash} exists.`)
      const at = now()
      const order: StoredOrder = {
        id: randomUUID(),
        kind,
        request,
        createdAt: at,
        updatedAt: at,
        status: {
          name: 'PENDING',
          evaluated: false,
          started: request.startAt.getTime() <= at.getTime(),
        },
        fill: { numerator: 0n, denominator: 0n },
        royalty: undefined,
        signedUntil: 0,
        lastFees: [],
      }
      chain.orders.set(order.id, order)
      chain.byHash.set(request.orderHash, order.id)
      return render(chain, order)
    },
    async fulfilmentData(chain, body) {
      if (
        !Array.isArray(body) ||
        body.length === 0 ||
        body.length > maxRequestOrders
      )
        return invalid(
          'body',
          `The body must be a list of 1 to ${maxRequestOrders} fulfilment requests.`,
        )
      const requests = []
      for (const [index, entry] of body.entries()) {
        const read = readFulfilmentRequest(`[${index}]`, entry)
        if ('refused' in read) return read
        requests.push(read)
      }
      const answer: FulfilmentData = {
        fulfillable_orders: [],
        unfulfillable_orders: [],
      }
      for (const request of requests) {
        const order = chain.orders.get(request.orderId)
        const refuseWith = (reason: string) =>
          answer.unfulfillable_orders.push({
            order_id: request.orderId,
            ...(request.tokenId !== undefined && { token_id: request.tokenId }),
            reason,
          })
        if (!order) {
          refuseWith(`Order ${request.orderId} not found`)
          continue
        }
        if (order.status.name !== 'ACTIVE') {
          refuseWith(
            `Invalid order status ${order.status.name} for order ${order.id}`,
          )
          continue
        }
        const collection = order.kind === 'COLLECTION_BID'
        if (collection !== (request.tokenId !== undefined)) {
          refuseWith(
            collection
              ? `A token_id is required to fulfil collection bid ${order.id}`
              : `A token_id is only taken for a collection bid, not for order ${order.id}`,
          )
          continue
        }
        // A game wallet that could not receive the item could not buy.
        await allowlistGameWallet(chain, request.taker).catch(() => undefined)
        const fees = feesOf(order, request.fees)
        const expiration = BigInt(
          Math.floor((now().getTime() + fulfilmentLifetimeMs) / 1000),
        )
        const extraData = await Seaport.signExtraData({
          signer: zoneSigner,
          chainId: chain.chainId,
          zone: chain.signedZone,
          fulfiller: request.taker,
          expiration,
          orderHash: order.request.orderHash,
          context: contextOf(order, fees, request.tokenId),
        })
        order.signedUntil = Math.max(
          order.signedUntil,
          Number(expiration) * 1000,
        )
        order.lastFees = fees
        answer.fulfillable_orders.push({
          order: {
            ...render(chain, order),
            fees,
            signature: fulfilmentSignature(order.request.signature),
          },
          ...(request.tokenId !== undefined && { token_id: request.tokenId }),
          extra_data: extraData,
        })
      }
      return answer
    },
    async cancel(chain, body) {
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return invalid('body', 'The body must be an object.')
      const given = body as Record<string, unknown>
      const account =
        typeof given.account_address === 'string' &&
        /^0x[0-9a-fA-F]{40}$/.test(given.account_address)
          ? (given.account_address.toLowerCase() as Address)
          : undefined
      if (!account)
        return invalid(
          'account_address',
          'account_address must be an address (0x and 40 hex digits).',
        )
      const ids = given.orders
      if (
        !Array.isArray(ids) ||
        ids.length === 0 ||
        ids.length > maxRequestOrders ||
        !ids.every((id) => typeof id === 'string' && id.length <= 64)
      )
        return invalid(
          'orders',
          `orders must list 1 to ${maxRequestOrders} order ids.`,
        )
      const signature =
        typeof given.signature === 'string' &&
        /^0x([0-9a-fA-F]{2}){1,4096}$/.test(given.signature)
          ? (given.signature as Hex)
          : undefined
      if (!signature)
        return invalid('signature', 'signature must be hex bytes.')
      const orders: StoredOrder[] = []
      for (const id of ids as string[]) {
        const order = chain.orders.get(id.toLowerCase())
        if (!order) return refuse('notFound', `There is no order ${id}.`)
        if (order.request.account !== account)
          return invalid(
            'orders',
            `Order ${order.id} is not an order of ${account}.`,
          )
        orders.push(order)
      }
      const valid = await chain.client
        .verifyTypedData({
          address: account,
          ...cancelTypedData({
            chainId: chain.chainId,
            seaport: chain.seaport,
            orderIds: ids as string[],
          }),
          signature,
        })
        .catch(() => false)
      if (!valid)
        return invalid(
          'signature',
          'signature is not account_address’s signature of the cancellation.',
        )
      const result: CancelResult = {
        successful_cancellations: [],
        pending_cancellations: [],
        failed_cancellations: [],
      }
      const at = now().getTime()
      for (const order of orders) {
        if (order.status.name === 'FILLED') {
          result.failed_cancellations.push({
            order: order.id,
            reason_code: 'FILLED',
          })
          continue
        }
        if (isLive(order) && order.status.name !== 'CANCELLED') {
          touch(order, cancelled('OFF_CHAIN', order.signedUntil > at))
        }
        if (order.status.name === 'CANCELLED' && order.status.pending)
          result.pending_cancellations.push(order.id)
        else result.successful_cancellations.push(order.id)
      }
      return result
    },
    async stop() {
      if (stopped) return
      stopped = true
      clearTimeout(timer)
      await Promise.all([...running.values()])
    },
  }
}

export declare namespace createOrderbook {
  type Options = {
    /** The chains, the main one first. */
    chains: readonly OrderbookChainInput[]
    /** The clock of the records and of start and end times. @default () => new Date() */
    now?: (() => Date) | undefined
    /** How often the seaports' events are read, in ms. @default 1_000 */
    pollingInterval?: number | undefined
    /** The longest {@link Orderbook.sync} waits, in ms. @default 5_000 */
    syncTimeout?: number | undefined
    /** The most orders per chain. @default {@link maxOrders} */
    maxOrders?: number | undefined
  }
}

type ReceivedItem = {
  itemType: number
  token: Address
  identifier: bigint
  amount: bigint
  recipient?: Address | undefined
}

/**
 * Whether an account's bulk order signature covers the order. Seaport
 * reads a bulk proof only for an offerer without code (a contract gets the
 * whole signature through ERC-1271, which the plain check above covers).
 */
async function verifyBulk(
  chain: OrderbookChain,
  request: OrderRequest,
): Promise<boolean> {
  const bulk = bulkOrderDigest({
    chainId: chain.chainId,
    seaport: chain.seaport,
    orderHash: request.orderHash,
    signature: request.signature,
  })
  if (!bulk) return false
  try {
    if (await chain.client.getCode({ address: request.account })) return false
    const signature =
      size(bulk.signature) === 64
        ? serializeSignature(
            compactSignatureToSignature(parseCompactSignature(bulk.signature)),
          )
        : bulk.signature
    const signer = await recoverAddress({ hash: bulk.digest, signature })
    return signer.toLowerCase() === request.account
  } catch {
    return false
  }
}

/**
 * The signature the seaport is handed at fulfilment. It knows nothing of
 * ERC-6492: it asks a contract offerer through ERC-1271 with the bytes as
 * given, which a wallet refuses when they still carry the wrapper of its
 * undeployed days. An order fulfilment data is signed for is ACTIVE, so its
 * offerer approved the seaport and has code: the inner signature is the
 * one its ERC-1271 check takes.
 */
function fulfilmentSignature(signature: Hex): Hex {
  try {
    return unwrapErc6492(signature)?.signature ?? signature
  } catch {
    return signature
  }
}

/** Whether a read failed in the contract (a revert, or no code there). */
function reverted(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk(
      (cause) =>
        cause instanceof ContractFunctionRevertedError ||
        cause instanceof ContractFunctionZeroDataError,
    ) !== null
  )
}

function cancelled(
  type: 'ON_CHAIN' | 'OFF_CHAIN' | 'UNDERFUNDED',
  pending = false,
): OrderStatus {
  return { name: 'CANCELLED', pending, cancellation_type: type }
}

/**
 * Forgets the order that finished (filled, expired or cancelled for good)
 * longest ago, to make room; `false` when every order is live.
 */
function evictFinished(chain: OrderbookChain): boolean {
  let oldest: StoredOrder | undefined
  for (const order of chain.orders.values())
    if (!isLive(order) && (!oldest || order.updatedAt < oldest.updatedAt))
      oldest = order
  if (!oldest) return false
  chain.orders.delete(oldest.id)
  chain.byHash.delete(oldest.request.orderHash)
  return true
}

/** Whether an order can still change: not filled, expired or cancelled for good. */
function isLive(order: StoredOrder): boolean {
  const { status } = order
  return (
    status.name === 'PENDING' ||
    status.name === 'ACTIVE' ||
    status.name === 'INACTIVE' ||
    (status.name === 'CANCELLED' && status.pending)
  )
}

/** The NFT side of an order: the collection and, but for a collection bid, the token. */
function nftOf(
  order: StoredOrder,
): { contract: string; tokenId: string | undefined } | undefined {
  const [item] =
    order.kind === 'LISTING' ? order.request.sell : order.request.buy
  if (!item || item.type === 'NATIVE' || item.type === 'ERC20') return undefined
  return {
    contract: item.contract_address,
    tokenId: 'token_id' in item ? item.token_id : undefined,
  }
}

function nftAmountOf(order: StoredOrder): string {
  const [item] =
    order.kind === 'LISTING' ? order.request.sell : order.request.buy
  return item && 'amount' in item ? item.amount : '1'
}

/** The currency side of an order. */
function currencyOf(order: StoredOrder): Item | undefined {
  return (order.kind === 'LISTING' ? order.request.buy : order.request.sell)[0]
}

/** The price of a whole fill, in the currency's smallest unit. */
function priceOf(order: StoredOrder): bigint {
  const currency = currencyOf(order)
  return currency && 'amount' in currency ? BigInt(currency.amount) : 0n
}

function tokenOf(currency: Item): MarketPriceDetails['token'] {
  return currency.type === 'ERC20'
    ? {
        type: 'ERC20',
        contract_address: currency.contract_address,
        symbol: null,
        decimals: null,
      }
    : { type: 'NATIVE', symbol: 'IMX' }
}

function priceDetails(order: StoredOrder, fees: Fee[]): MarketPriceDetails {
  const amount = priceOf(order)
  const currency = currencyOf(order)
  const total = fees.reduce((sum, fee) => sum + BigInt(fee.amount), 0n)
  return {
    token: currency ? tokenOf(currency) : { type: 'NATIVE', symbol: 'IMX' },
    amount: String(amount),
    fee_inclusive_amount: String(amount + total),
    fees,
    converted_prices: null,
  }
}

/**
 * The zone's context for a whole fill: the order's consideration (the
 * token resolved for a collection bid) and each fee as a tip in the
 * currency. Substandard 3 for a whole-only order, 6 (scaled by the first
 * offer item's original amount) for one that fills in part.
 */
function contextOf(
  order: StoredOrder,
  fees: readonly Fee[],
  tokenId: string | undefined,
): Hex {
  const { components } = order.request
  const currency =
    (order.kind === 'LISTING'
      ? components.consideration
      : components.offer)[0] ?? components.offer[0]
  const items: Seaport.ReceivedItem[] = [
    ...components.consideration.map((item) => ({
      itemType:
        item.itemType === Seaport.ItemType.ERC721_WITH_CRITERIA
          ? Seaport.ItemType.ERC721
          : item.itemType === Seaport.ItemType.ERC1155_WITH_CRITERIA
            ? Seaport.ItemType.ERC1155
            : item.itemType,
      token: item.token,
      identifier:
        tokenId !== undefined ? BigInt(tokenId) : item.identifierOrCriteria,
      amount: item.startAmount,
      recipient: item.recipient,
    })),
    ...fees.map((fee) => ({
      itemType: currency?.itemType ?? Seaport.ItemType.NATIVE,
      token: currency?.token ?? zeroAddress,
      identifier: 0n,
      amount: BigInt(fee.amount),
      recipient: fee.recipient_address as Address,
    })),
  ]
  const [first] = components.offer
  return components.orderType === Seaport.OrderType.PARTIAL_RESTRICTED
    ? Seaport.substandard6({
        originalFirstOfferItemAmount: first?.startAmount ?? 0n,
        items,
      })
    : Seaport.substandard3(items)
}

type FulfilmentRequest = {
  orderId: string
  taker: Address
  fees: Fee[]
  tokenId: string | undefined
}

function readFulfilmentRequest(
  name: string,
  value: unknown,
): FulfilmentRequest | Refusal {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return invalid(name, `${name} must be an object.`)
  const entry = value as Record<string, unknown>
  if (
    typeof entry.order_id !== 'string' ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(
      entry.order_id,
    )
  )
    return invalid(`${name}.order_id`, `${name}.order_id must be a UUID.`)
  if (
    typeof entry.taker_address !== 'string' ||
    !/^0x[0-9a-fA-F]{40}$/.test(entry.taker_address)
  )
    return invalid(
      `${name}.taker_address`,
      `${name}.taker_address must be an address (0x and 40 hex digits).`,
    )
  if (!Array.isArray(entry.fees) || entry.fees.length > 2)
    return invalid(
      `${name}.fees`,
      `${name}.fees must be a list of at most 2 taker fees.`,
    )
  const fees: Fee[] = []
  for (const [index, fee] of entry.fees.entries()) {
    const feeName = `${name}.fees[${index}]`
    if (
      typeof fee !== 'object' ||
      fee === null ||
      (fee as Fee).type !== 'TAKER_ECOSYSTEM' ||
      typeof (fee as Fee).amount !== 'string' ||
      !/^[1-9][0-9]{0,76}$/.test((fee as Fee).amount) ||
      typeof (fee as Fee).recipient_address !== 'string' ||
      !/^0x[0-9a-fA-F]{40}$/.test((fee as Fee).recipient_address)
    )
      return invalid(
        feeName,
        `${feeName} must be a TAKER_ECOSYSTEM fee with a positive amount and a recipient address.`,
      )
    fees.push({
      type: 'TAKER_ECOSYSTEM',
      amount: (fee as Fee).amount,
      recipient_address: (fee as Fee).recipient_address.toLowerCase(),
    })
  }
  let tokenId: string | undefined
  if (entry.token_id !== undefined) {
    if (
      typeof entry.token_id !== 'string' ||
      !/^(0|[1-9][0-9]{0,76})$/.test(entry.token_id)
    )
      return invalid(
        `${name}.token_id`,
        `${name}.token_id must be a uint256 as a decimal string.`,
      )
    tokenId = entry.token_id
  }
  return {
    orderId: entry.order_id.toLowerCase(),
    taker: entry.taker_address as Address,
    fees,
    tokenId,
  }
}
