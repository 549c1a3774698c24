/**
 * The marketplace's flows, each through the connected wallet (wagmi
 * actions, so either wallet: the iframe wallet signs as an account, the
 * game wallet as a smart contract wallet, ERC-1271 or ERC-6492) and the
 * order book's generated client: list an NFT, buy a listing, cancel one's
 * own listing, and mint a test NFT on the dev chain.
 *
 * @packageDocumentation
 */
import type { mr } from 'embedded-wallets/api'
import {
  type Address,
  formatEther,
  getAddress,
  type Hash,
  parseAbi,
  parseEventLogs,
} from 'viem'
import type { Config } from 'wagmi'
import {
  getBalance,
  readContract,
  signTypedData,
  waitForTransactionReceipt,
  writeContract,
} from 'wagmi/actions'
import type { Book } from './book.js'
import * as Seaport from './seaport.js'

/** What every flow works with. */
export type MarketContext = {
  readonly config: Config
  readonly book: Book
  readonly chainId: number
  readonly chainName: string
  readonly seaport: Address
  readonly zone: Address
  /** The connected account, which signs and sends. */
  readonly account: Address
  /** Hands every transaction sent to the page's activity list. */
  readonly track: (transaction: {
    hash: Hash
    label: string
    from: Address
  }) => void
  /** Says what the flow is doing now, in words. */
  readonly step: (text: string) => void
}

/** An NFT as the marketplace names it. */
export type Nft = {
  readonly contract: Address
  readonly tokenId: bigint
  /** The collection's name, e.g. `Test NFT`. */
  readonly collection: string
}

/** `Test NFT #3`. */
export function nftLabel(nft: Nft): string {
  return `${nft.collection} #${nft.tokenId}`
}

/** `contract:tokenId`, one NFT's key. */
export function nftKey(contract: string, tokenId: bigint | string): string {
  return `${contract.toLowerCase()}:${tokenId}`
}

/** The NFT a listing or a trade sells, if it is an ERC-721. */
export function nftOfOrder(
  order: Pick<mr.Order, 'sell'>,
  nameOf: (contract: string) => string,
): Nft | undefined {
  const [item] = order.sell
  if (item?.type !== 'ERC721') return undefined
  return {
    contract: getAddress(item.contract_address),
    tokenId: BigInt(item.token_id),
    collection: nameOf(item.contract_address),
  }
}

/** An amount of wei as ETH, every digit kept: `0.51 ETH`. */
export function eth(wei: bigint): string {
  return `${formatEther(wei)} ETH`
}

/**
 * Sends a transaction through `send`, hands it to the activity list and
 * waits until it is mined.
 *
 * @throws {Error} when it reverted.
 */
async function sendTracked(
  context: MarketContext,
  label: string,
  send: () => Promise<Hash>,
) {
  const hash = await send()
  context.track({ hash, label, from: context.account })
  context.step(`${label}: waiting for the block…`)
  const receipt = await waitForTransactionReceipt(context.config, { hash })
  if (receipt.status !== 'success')
    throw new Error(`The transaction ${hash} (${label}) reverted.`)
  return receipt
}

/**
 * Lists `nft` for `price` wei: lets the seaport move the collection's NFTs
 * if the account has not yet (one transaction), has the wallet sign the
 * Seaport order, and hands it to the order book, which takes it PENDING
 * and makes it ACTIVE once it has checked the holding and the approval.
 */
export async function listNft(
  context: MarketContext,
  nft: Nft,
  price: bigint,
): Promise<mr.Order> {
  const { config, account, seaport } = context
  context.step('Checking the seaport’s approval…')
  const approved = await readContract(config, {
    address: nft.contract,
    abi: Seaport.erc721Abi,
    functionName: 'isApprovedForAll',
    args: [account, seaport],
  })
  if (!approved) {
    const label = `Approve the seaport for ${nft.collection}`
    context.step(`${label}: confirm in your wallet…`)
    await sendTracked(context, label, () =>
      writeContract(config, {
        account,
        address: nft.contract,
        abi: Seaport.erc721Abi,
        functionName: 'setApprovalForAll',
        args: [seaport, true],
      }),
    )
  }
  const counter = await readContract(config, {
    address: seaport,
    abi: Seaport.abi,
    functionName: 'getCounter',
    args: [account],
  })
  const order = Seaport.listing({
    seller: account,
    zone: context.zone,
    token: nft.contract,
    tokenId: nft.tokenId,
    price,
    counter,
  })
  context.step('Sign the listing in your wallet…')
  const signature = await signTypedData(config, {
    account,
    ...Seaport.typedData({
      chainId: context.chainId,
      seaport,
      order,
    }),
  })
  context.step('Handing the listing to the order book…')
  const { data } = await context.book.orders.createListing({
    chainName: context.chainName,
    createListingRequestBody: {
      account_address: account,
      order_hash: Seaport.orderHash(order),
      buy: [{ type: 'NATIVE', amount: String(price) }],
      sell: [
        {
          type: 'ERC721',
          contract_address: nft.contract,
          token_id: String(nft.tokenId),
        },
      ],
      fees: [],
      start_at: new Date(Number(order.startTime) * 1000).toISOString(),
      end_at: new Date(Number(order.endTime) * 1000).toISOString(),
      salt: String(order.salt),
      signature,
      protocol_data: {
        order_type: 'FULL_RESTRICTED',
        counter: String(counter),
        zone_address: context.zone,
        seaport_address: seaport,
        seaport_version: '1.5',
      },
    },
  })
  return data.result
}

/** The price of a listing (its native amount), in wei. */
export function priceOf(order: Pick<mr.Order, 'buy'>): bigint {
  const [item] = order.buy
  return item?.type === 'NATIVE' ? BigInt(item.amount) : 0n
}

/**
 * Buys a listing: asks the order book for the zone-signed fulfilment data
 * for this account, then fills the order on the seaport, paying the price
 * and each of the book's fees (as tips) in one transaction.
 *
 * @throws {Error} when the book will not fill it (its reason) or the fill
 *   reverted.
 */
export async function buyListing(
  context: MarketContext,
  listing: mr.Order,
  nft: Nft,
) {
  context.step('Asking the order book for the fulfilment data…')
  const { data } = await context.book.orders.fulfillmentData({
    chainName: context.chainName,
    fulfillmentDataRequest: [
      { order_id: listing.id, taker_address: context.account, fees: [] },
    ],
  })
  const [refused] = data.result.unfulfillable_orders
  if (refused)
    throw new Error(`The order book will not fill it: ${refused.reason}.`)
  const [fillable] = data.result.fulfillable_orders
  if (!fillable)
    throw new Error('The order book answered no fulfilment data for it.')
  const { order } = fillable
  const price = priceOf(order)
  const fees = order.fees.reduce((sum, fee) => sum + BigInt(fee.amount), 0n)
  const label = `Buy ${nftLabel(nft)} for ${eth(price)}`
  // Checked before the wallet is asked: a fill short of funds would only
  // fail in the wallet or on chain, in less helpful words.
  const { value: balance } = await getBalance(context.config, {
    address: context.account,
  })
  if (balance < price + fees)
    throw new Error(
      `This account holds ${eth(balance)}; buying costs ${eth(price + fees)} (the price and the order book’s fees). Add ETH to it first.`,
    )
  context.step(`${label}: confirm in your wallet…`)
  return sendTracked(context, label, () =>
    writeContract(context.config, {
      account: context.account,
      address: context.seaport,
      abi: Seaport.abi,
      functionName: 'fulfillAdvancedOrder',
      args: Seaport.fulfilment({
        order: Seaport.fromBook(order),
        signature: order.signature as Hash,
        extraData: fillable.extra_data as Hash,
        fees: order.fees,
      }),
      value: price + fees,
    }),
  )
}

/**
 * Cancels one's own listing off chain: the wallet signs the cancellation
 * and the order book stops handing out fulfilment data for it. It says
 * whether the cancellation is final or pending (fulfilment data it signed
 * before may still be used until it expires).
 *
 * @throws {Error} when the listing was filled first.
 */
export async function cancelListing(
  context: MarketContext,
  listing: mr.Order,
): Promise<'cancelled' | 'pending'> {
  context.step('Sign the cancellation in your wallet…')
  const signature = await signTypedData(context.config, {
    account: context.account,
    ...Seaport.cancelTypedData({
      chainId: context.chainId,
      seaport: context.seaport,
      orderIds: [listing.id],
    }),
  })
  context.step('Handing the cancellation to the order book…')
  const { data } = await context.book.orders.cancelOrders({
    chainName: context.chainName,
    cancelOrdersRequestBody: {
      account_address: context.account,
      orders: [listing.id],
      signature,
    },
  })
  const { result } = data
  if (result.failed_cancellations.length > 0)
    throw new Error('The listing was filled before it could be cancelled.')
  return result.pending_cancellations.includes(listing.id)
    ? 'pending'
    : 'cancelled'
}

const testNftAbi = parseAbi([
  'function mint(address to) returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
])

/**
 * Mints the next test NFT to the account: the dev chain's test ERC-721
 * lets anyone mint. Returns its id, read from the mint's transfer.
 */
export async function mintTestNft(
  context: MarketContext,
  contract: Address,
): Promise<bigint | undefined> {
  const label = 'Mint a test NFT'
  context.step(`${label}: confirm in your wallet…`)
  const receipt = await sendTracked(context, label, () =>
    writeContract(context.config, {
      account: context.account,
      address: contract,
      abi: testNftAbi,
      functionName: 'mint',
      args: [context.account],
    }),
  )
  const [minted] = parseEventLogs({
    abi: testNftAbi,
    logs: receipt.logs.filter(
      (log) => log.address.toLowerCase() === contract.toLowerCase(),
    ),
    eventName: 'Transfer',
  })
  return minted?.args.tokenId
}

/**
 * Whether `error` (or one of its causes) is the person saying no: a
 * wallet's EIP-1193 4001 (rejected), the game wallet's refusal from its
 * confirmation window (published as a "Transaction rejected" error, code
 * -32003, "… rejected by user"), or a wallet popup they closed. The page
 * says it was cancelled; it is not a failure to report.
 */
export function isCancel(error: unknown): boolean {
  for (let at = error, depth = 0; at && depth < 8; depth++) {
    const { code, name, message, cause } = at as {
      code?: unknown
      name?: unknown
      message?: unknown
      cause?: unknown
    }
    if (code === 4001 || name === 'PopupClosedError') return true
    if (
      code === -32003 &&
      typeof message === 'string' &&
      message.endsWith('rejected by user')
    )
      return true
    at = cause
  }
  return false
}
