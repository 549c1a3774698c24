/**
 * What the StarkEx view reads from the exchange (the legacy exchange API at
 * `imxPublicApiDomain`, through the package's generated clients) and how it
 * writes amounts and tokens.
 */
import { ApiErrors, createConfig } from 'embedded-wallets/api'
import {
  AssetsApi,
  type Balance,
  BalancesApi,
  type AssetWithOrders as ImxAsset,
  OrdersApi,
  type OrderV3,
  type Trade,
  TradesApi,
  type Transfer,
  TransfersApi,
  UsersApi,
} from 'embedded-wallets/api/imx'
import { RpcErrors } from 'embedded-wallets/core'
import { formatEther, parseEther } from 'viem'
import type { Info } from '../emulator.js'

export type { Balance, ImxAsset, OrderV3, Trade, Transfer }

/** The exchange's read clients, one configuration at `imxPublicApiDomain`. */
export type Exchange = {
  balances: BalancesApi
  assets: AssetsApi
  orders: OrdersApi
  trades: TradesApi
  transfers: TransfersApi
  users: UsersApi
}

/** The read clients of the emulator's exchange. */
export function createExchange(info: Info): Exchange {
  const config = createConfig({
    basePath: info.passport.overrides.imxPublicApiDomain,
  })
  return {
    balances: new BalancesApi(config),
    assets: new AssetsApi(config),
    orders: new OrdersApi(config),
    trades: new TradesApi(config),
    transfers: new TransfersApi(config),
    users: new UsersApi(config),
  }
}

/** The most rows a list asks for (the exchange's page limit is larger). */
export const pageSize = 100

/**
 * StarkEx stores ETH in units of 10^8 wei (the exchange's quantum), so an
 * amount with more than 10 decimals cannot be moved; the exchange refuses
 * it. The form says so before asking.
 */
export const ethQuantum = 10n ** 8n

/** An ETH amount the player typed: wei, or why it is not one. */
export type AmountCheck =
  | { ok: true; wei: bigint }
  | { ok: false; reason: string }

/**
 * Checks an ETH amount typed in a form against what the player holds
 * (`balance`, wei; `undefined` when not known yet).
 */
export function checkEthAmount(
  text: string,
  balance: bigint | undefined,
): AmountCheck {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, reason: 'Enter an amount of ETH.' }
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(trimmed))
    return { ok: false, reason: 'Enter the amount as a number, e.g. 0.25.' }
  const fraction = trimmed.split('.')[1] ?? ''
  if (fraction.replace(/0+$/, '').length > 10)
    return {
      ok: false,
      reason:
        'StarkEx moves ETH in steps of 0.0000000001: use 10 decimals at most.',
    }
  const wei = parseEther(trimmed)
  if (wei <= 0n) return { ok: false, reason: 'Enter more than 0 ETH.' }
  if (wei % ethQuantum !== 0n)
    return {
      ok: false,
      reason:
        'StarkEx moves ETH in steps of 0.0000000001: use 10 decimals at most.',
    }
  if (balance !== undefined && wei > balance)
    return {
      ok: false,
      reason: `You hold ${formatEther(balance)} ETH on StarkEx: enter at most that.`,
    }
  return { ok: true, wei }
}

/** A token of the exchange as the view names it. */
export function nftName(
  info: Info,
  token: { token_address?: string | undefined; token_id?: string | undefined },
): string {
  const address = token.token_address?.toLowerCase() ?? ''
  const name =
    address === info.contracts.testErc721.toLowerCase() ? 'TestERC721' : 'NFT'
  return `${name} #${token.token_id ?? '?'}`
}

/** An amount in wei (a decimal string) as ETH. */
export function ethText(wei: string | bigint | undefined): string {
  if (wei === undefined || wei === '') return '0 ETH'
  try {
    return `${formatEther(BigInt(wei))} ETH`
  } catch {
    return `${String(wei)} wei`
  }
}

/** The ETH balance (wei) among `balances`; 0 when the player has no vault. */
export function ethBalance(balances: readonly Balance[]): bigint {
  const eth = balances.find((balance) => balance.symbol === 'ETH')
  return BigInt(eth?.balance ?? '0')
}

/** The NFT an order sells, when it sells one for ETH. */
export function listingOf(order: OrderV3) {
  const { sell, buy } = order
  if (sell.type !== 'ERC721' || buy.type !== 'ETH') return undefined
  return {
    tokenAddress: sell.data.token_address ?? '',
    tokenId: sell.data.token_id ?? '',
    /** Wei the buyer pays (fees included). */
    price: buy.data.quantity_with_fees || buy.data.quantity,
  }
}

/**
 * A trade as one of its parties sees it: the NFT, the price, and whether
 * they bought or sold (by the orders that are theirs).
 */
export function tradeFor(trade: Trade, mine: ReadonlySet<number>) {
  const sides = [trade.a, trade.b]
  const nft = sides.find((side) => side.token_type === 'ERC721')
  const payment = sides.find((side) => side.token_type !== 'ERC721')
  const soldNft = nft !== undefined && mine.has(nft.order_id)
  const paid = payment !== undefined && mine.has(payment.order_id)
  if (!nft || !payment || (!soldNft && !paid)) return undefined
  return {
    id: trade.transaction_id,
    role: soldNft ? ('sold' as const) : ('bought' as const),
    token: { token_address: nft.token_address, token_id: nft.token_id },
    price: payment.sold,
    /** The other party's order. */
    counterOrder: soldNft ? payment.order_id : nft.order_id,
    at: trade.timestamp,
  }
}

/** The loopback-only dev route of the emulator's exchange that credits a vault. */
export const devMintPath = '/dev/starkex/mint'

/** What "Mint test assets" credits: 1 ETH. */
export const mintedEth = parseEther('1')

/**
 * Credits the player's StarkEx vaults through the emulator's dev mint (the
 * dev chain's faucet for StarkEx): 1 ETH, and the next free token of the
 * page's test collection.
 *
 * @returns The token id minted.
 */
export async function mintTestAssets(
  info: Info,
  exchange: Exchange,
  user: string,
): Promise<string> {
  const collection = info.contracts.testErc721.toLowerCase()
  await devMint(info, {
    user,
    token: { type: 'ETH', data: { decimals: 18 } },
    quantity: mintedEth.toString(),
  })
  let next = (await highestTokenId(exchange, collection)) + 1n
  // Someone may mint the same id at the same moment: then the next one.
  for (let attempt = 0; ; attempt++) {
    const tokenId = next.toString()
    const response = await devMint(
      info,
      {
        user,
        token: {
          type: 'ERC721',
          data: { token_address: collection, token_id: tokenId },
        },
        quantity: '1',
      },
      attempt < 4 ? [409] : [],
    )
    if (response.ok) return tokenId
    next++
  }
}

type DevMintBody = {
  user: string
  token:
    | { type: 'ETH'; data: { decimals: number } }
    | { type: 'ERC721'; data: { token_address: string; token_id: string } }
  quantity: string
}

async function devMint(
  info: Info,
  body: DevMintBody,
  tolerated: readonly number[] = [],
): Promise<Response> {
  const response = await fetch(
    `${info.passport.overrides.imxPublicApiDomain}${devMintPath}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
  )
  if (response.ok || tolerated.includes(response.status)) return response
  const text = await response.text()
  let data: unknown = text
  try {
    data = JSON.parse(text)
  } catch {
    // Not JSON: the text is the answer.
  }
  // The emulator's server refuses a request with `{ error }` (a page not on
  // a loopback origin, a body too large); the exchange with `{ code, message }`.
  if (isRecord(data) && typeof data.error === 'string' && !data.message)
    data = { ...data, message: data.error }
  throw ApiErrors.fromResponse({
    data,
    status: response.status,
    statusText: response.statusText,
    headers: Object.fromEntries(response.headers),
  })
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The highest token id of `collection` anyone holds on the exchange (0 if none). */
async function highestTokenId(
  exchange: Exchange,
  collection: string,
): Promise<bigint> {
  let highest = 0n
  let cursor: string | undefined
  for (let page = 0; page < 50; page++) {
    const { data } = await exchange.assets.listAssets({
      collection,
      pageSize,
      ...(cursor ? { cursor } : {}),
    })
    for (const asset of data.result) {
      const id = /^\d+$/.test(asset.token_id) ? BigInt(asset.token_id) : 0n
      if (id > highest) highest = id
    }
    if (!data.remaining || !data.cursor) break
    cursor = data.cursor
  }
  return highest
}

/** What an action of the view came to, in one sentence. */
export type Outcome = { text: string; declined: boolean }

/**
 * Whether the player declined a request: closed a popup, rejected in the
 * wallet (EIP-1193 4001), or rejected the guardian's confirmation (the
 * wallet's -32003 'Transaction rejected by user', under the StarkEx call's
 * own error). Not a failure: the view says nothing moved.
 */
export function declined(error: unknown): boolean {
  for (let at = error, depth = 0; at && depth < 8; depth++) {
    const { code, name, cause } = at as {
      code?: unknown
      name?: unknown
      cause?: unknown
    }
    if (code === 4001 || name === 'PopupClosedError') return true
    if (
      at instanceof RpcErrors.TransactionRejectedError &&
      at.shortMessage === 'Transaction rejected by user'
    )
      return true
    at = cause
  }
  return false
}
