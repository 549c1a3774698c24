/**
 * Orders (v3), StarkEx limit orders with fees (see market.ts for the fee
 * rules and statuses):
 *
 * - `POST /v3/signable-order-details` [Bearer] `{ user, amount_buy,
 *   token_buy, amount_sell, token_sell, fees, split_fees,
 *   expiration_timestamp }` → the vaults (the buy side's opened as
 *   needed), quantized amounts, `fee_info`, a fresh nonce and the
 *   `payload_hash` (StarkEx's limit order with fees); registered with the
 *   guardian (type `order`);
 * - `POST /v3/orders` [Bearer] → `{ order_id, status: 'active', time }`
 *   once the hash of the fields sent is one this exchange issued, its
 *   Stark signature verifies, its nonce is unspent, it has not expired, the
 *   seller holds what it sells and the guardian approved it;
 * - `POST /v3/signable-cancel-order-details` [Bearer] `{ order_id }` → the
 *   cancel's `payload_hash` ({@link cancelHash}), registered with the
 *   guardian (type `cancelOrder`);
 * - `DELETE /v3/orders/{id}` [Bearer] `{ order_id, stark_signature }` →
 *   `{ order_id, status: 'cancelled' }`;
 * - `GET /v3/orders/{id}` and `GET /v3/orders` with the legacy API's
 *   filters (`buy_metadata`, `sell_metadata`, `buy_token_name` and
 *   `sell_token_name` are not supported: 400).
 *
 * @packageDocumentation
 */
import { pedersen } from '@scure/starknet'
import type { Hono, Context as HonoContext } from 'hono'
import type { components } from '../../../api/wire/imx/schema.generated.js'
import {
  accountOfPlayer,
  addressOf,
  assetIdOf,
  baseUnits,
  type Deps,
  decimalOf,
  directionOf,
  expirationOf,
  fail,
  isExpired,
  isRecord,
  knownTokenOf,
  notRegistered,
  pageAnswer,
  pageOf,
  quantize,
  type Read,
  readJson,
  requirePlayer,
  type StarkExEnv,
  sortedBy,
  starkKeyOf,
  timeOf,
  uint31Of,
} from './http.js'
import {
  type Account,
  type AssetInfo,
  LedgerError,
  LedgerFullError,
  type Pending,
} from './ledger.js'
import {
  addOrder,
  assetDetails,
  charge,
  type Fee,
  type FeeCharge,
  feesOf,
  feeTotal,
  marketOf,
  maxOrders,
  type OrderRecord,
  type OrderView,
  orderAnswer,
  requiredBalance,
  type Sides,
  sameFees,
  sidesOf,
  statusOf,
} from './market.js'
import {
  assetIdText,
  limitOrderHash,
  parseStarkSignature,
  payloadHashText,
  StarkRangeError,
  verifyStarkSignature,
} from './stark.js'
import { guardianRefusal } from './transfers.js'

type Schemas = components['schemas']

/** A refusal of a route: the error kind and its message. */
export type Refusal = {
  readonly kind: 'validation' | 'authentication' | 'notFound' | 'conflict'
  readonly message: string
}

type Checked<value> = ({ ok: true } & value) | ({ ok: false } & Refusal)

const invalid = (message: string) =>
  ({ ok: false, kind: 'validation', message }) as const

/**
 * The tag of a cancel's hash: the short string `imx:cancel-order` as a
 * field element (its ASCII bytes as one number), so no other request of
 * the exchange hashes to a cancel.
 */
export const cancelTag = BigInt(
  `0x${Buffer.from('imx:cancel-order').toString('hex')}`,
)

/**
 * The hash a maker signs to cancel an order:
 * `pedersen(pedersen(cancelTag, order_id), order's payload hash)`. It binds
 * the order id and the very order (its own signed hash), so a cancel
 * signed for one order cannot cancel another that happens to get the same
 * id (e.g. after the emulator restarted).
 */
export function cancelHash(orderId: number, orderHash: string): bigint {
  return BigInt(
    pedersen(
      BigInt(pedersen(cancelTag, BigInt(orderId))),
      BigInt(`0x${orderHash}`),
    ),
  )
}

/** What a signable limit order (an order, or a trade's taker side) stands for. */
export type LimitOrderIssue = {
  readonly signer: Account
  readonly sell: AssetInfo
  readonly buy: AssetInfo
  readonly amountSell: bigint
  readonly amountBuy: bigint
  readonly vaultSell: number
  readonly vaultBuy: number
  readonly sides: Sides
  readonly fees: readonly FeeCharge[]
  readonly feeVault: number
  readonly feeLimit: bigint
  readonly nonce: number
  readonly expiration: number
  readonly hash: bigint
}

/** The `details` of an order's or trade's pending signable. */
export type LimitOrderDetails = {
  readonly fees: readonly Fee[]
  /** The maker's order a trade fills. */
  readonly orderId?: number | undefined
}

/**
 * Prepares a signable limit order of `signer`: checks its vault of the
 * sold asset covers the amount (and the fees paid in it), opens its vault
 * of the bought asset, computes the fee info, a fresh nonce and the hash.
 * Records nothing but the bought asset's vault.
 */
export function prepareLimitOrder(
  deps: Deps,
  signer: Account,
  order: {
    sell: AssetInfo
    buy: AssetInfo
    amountSell: bigint
    amountBuy: bigint
    fees: readonly Fee[]
    expiration: number
  },
): Checked<{ issue: LimitOrderIssue }> {
  const { sell, buy, amountSell, amountBuy } = order
  const sides = sidesOf(sell, buy, amountSell, amountBuy)
  if (!sides.ok) return invalid(sides.message)
  const fees = charge(order.fees, sides.value.priceAmount)
  const feeLimit = feeTotal(fees)
  const needed = requiredBalance(sides.value, amountSell, feeLimit)
  const vault = deps.ledger.vaultOf(signer.starkKey, sell.id)
  if (!vault || vault.balance < needed)
    return invalid(
      `${signer.ethAddress} holds ${vault ? baseUnits(vault.balance, sell) : '0'} base units of the token it sells, less than the ${baseUnits(needed, sell)} the order needs.`,
    )
  let vaultBuy: number
  try {
    vaultBuy = deps.ledger.openVault(signer.starkKey, buy.id).id
  } catch (error) {
    if (error instanceof LedgerFullError)
      return { ok: false, kind: 'conflict', message: error.shortMessage }
    throw error
  }
  const feeVault = sides.value.sellsToken ? vaultBuy : vault.id
  const nonce = deps.ledger.freshNonce(signer.starkKey)
  const hash = limitOrderHash({
    vaultSell: BigInt(vault.id),
    vaultBuy: BigInt(vaultBuy),
    amountSell,
    amountBuy,
    assetSell: sell.id,
    assetBuy: buy.id,
    nonce: BigInt(nonce),
    expiration: BigInt(order.expiration),
    feeAsset: sides.value.price.id,
    feeVaultId: BigInt(feeVault),
    feeLimit,
  })
  return {
    ok: true,
    issue: {
      signer,
      sell,
      buy,
      amountSell,
      amountBuy,
      vaultSell: vault.id,
      vaultBuy,
      sides: sides.value,
      fees,
      feeVault,
      feeLimit,
      nonce,
      expiration: order.expiration,
      hash,
    },
  }
}

/**
 * Records a prepared limit order's signable and answers its fields (the
 * `GetSignableOrderResponse` and `GetSignableTradeResponse` shape).
 */
export async function issueLimitOrder(
  deps: Deps,
  issue: LimitOrderIssue,
  kind: 'order' | 'trade',
  details: LimitOrderDetails,
): Promise<Schemas['GetSignableOrderResponse']> {
  const payloadHash = payloadHashText(issue.hash)
  const feeInfo = {
    asset_id: assetIdText(issue.sides.price.id),
    fee_limit: issue.feeLimit.toString(),
    source_vault_id: issue.feeVault,
  }
  const readable = JSON.stringify({
    type: kind === 'order' ? 'LimitOrderWithFees' : 'TradeLimitOrderWithFees',
    ...(details.orderId === undefined ? {} : { order_id: details.orderId }),
    stark_key: issue.signer.starkKey,
    vault_id_sell: issue.vaultSell,
    vault_id_buy: issue.vaultBuy,
    asset_id_sell: assetIdText(issue.sell.id),
    asset_id_buy: assetIdText(issue.buy.id),
    amount_sell: issue.amountSell.toString(),
    amount_buy: issue.amountBuy.toString(),
    fee_info: feeInfo,
    nonce: issue.nonce,
    expiration_timestamp: issue.expiration,
  })
  const describe = (asset: AssetInfo, quantized: bigint) => {
    const amount = baseUnits(quantized, asset)
    return asset.type === 'ERC721'
      ? `ERC721 ${asset.tokenAddress} #${asset.tokenId}`
      : `${amount} base units of ${asset.type === 'ETH' ? 'ETH' : `ERC20 ${asset.tokenAddress}`}`
  }
  const message = [
    'Only sign this request if you\u2019ve initiated an action with Immutable X.',
    '',
    `${kind === 'order' ? 'Create an order' : `Fill order ${details.orderId}`}: sell ${describe(issue.sell, issue.amountSell)} for ${describe(issue.buy, issue.amountBuy)}, fees up to ${baseUnits(issue.feeLimit, issue.sides.price)} base units.`,
    `Payload hash: ${payloadHash}`,
  ].join('\n')
  deps.ledger.issue({
    hash: payloadHash,
    kind,
    starkKey: issue.signer.starkKey,
    nonce: issue.nonce,
    expiration: issue.expiration,
    message,
    details,
  })
  return {
    amount_buy: issue.amountBuy.toString(),
    amount_sell: issue.amountSell.toString(),
    asset_id_buy: assetIdText(issue.buy.id),
    asset_id_sell: assetIdText(issue.sell.id),
    expiration_timestamp: issue.expiration,
    fee_info: feeInfo,
    nonce: issue.nonce,
    payload_hash: payloadHash,
    readable_transaction: readable,
    signable_message: message,
    stark_key: issue.signer.starkKey,
    vault_id_buy: issue.vaultBuy,
    vault_id_sell: issue.vaultSell,
    verification_signature: await deps.verificationSignature(
      readable,
      payloadHash,
    ),
  }
}

/** What the guardian's confirmation page shows of a limit order. */
export function limitOrderDetails(issue: LimitOrderIssue, orderId?: number) {
  return {
    ...(orderId === undefined ? {} : { order_id: orderId }),
    user: issue.signer.ethAddress,
    sell: assetDetails(issue.sell, issue.amountSell),
    buy: assetDetails(issue.buy, issue.amountBuy),
    fees: issue.fees.map((fee) => ({
      address: fee.address,
      fee_percentage: fee.percentage,
      amount: baseUnits(fee.amount, issue.sides.price),
    })),
    expiration_timestamp: issue.expiration,
  }
}

/** A signed limit order as a create request carries it, checked. */
export type SignedLimitOrder = Omit<LimitOrderIssue, 'signer'> & {
  readonly signer: Account
  readonly payloadHash: string
  readonly pending: Pending & { details: LimitOrderDetails }
}

/**
 * Checks a signed limit order of `signer` (the body of `POST /v3/orders`
 * or `POST /v3/trades`): its fields, the hash they make with the fees
 * sent, the Stark signature, the signable issued under that hash (of
 * `kind`, with the same fees), its expiry, its vaults and the seller's
 * balance. Changes nothing.
 */
export function checkSignedLimitOrder(
  deps: Deps,
  signer: Account,
  body: Record<string, unknown>,
  kind: 'order' | 'trade',
): Checked<{ order: SignedLimitOrder }> {
  const vaultSell = uint31Of(body.vault_id_sell)
  const vaultBuy = uint31Of(body.vault_id_buy)
  const nonce = uint31Of(body.nonce)
  const expiration = uint31Of(body.expiration_timestamp)
  const amountSell = decimalOf(body.amount_sell)
  const amountBuy = decimalOf(body.amount_buy)
  const assetSell = assetIdOf(body.asset_id_sell)
  const assetBuy = assetIdOf(body.asset_id_buy)
  if (vaultSell === undefined) return invalid('vault_id_sell must be a uint31.')
  if (vaultBuy === undefined) return invalid('vault_id_buy must be a uint31.')
  if (nonce === undefined) return invalid('nonce must be a uint31.')
  if (expiration === undefined)
    return invalid('expiration_timestamp must be a whole number of hours.')
  if (amountSell === undefined || amountSell === 0n)
    return invalid(
      'amount_sell must be a positive decimal string of quantized units.',
    )
  if (amountBuy === undefined || amountBuy === 0n)
    return invalid(
      'amount_buy must be a positive decimal string of quantized units.',
    )
  if (assetSell === undefined) return invalid('asset_id_sell must be 0x-hex.')
  if (assetBuy === undefined) return invalid('asset_id_buy must be 0x-hex.')
  const sell = deps.ledger.asset(assetSell)
  const buy = deps.ledger.asset(assetBuy)
  if (!sell)
    return invalid(`The exchange knows no asset ${assetIdText(assetSell)}.`)
  if (!buy)
    return invalid(`The exchange knows no asset ${assetIdText(assetBuy)}.`)
  const sides = sidesOf(sell, buy, amountSell, amountBuy)
  if (!sides.ok) return invalid(sides.message)
  const feeList = feesOf(body.fees)
  if (!feeList.ok) return invalid(feeList.message)
  const fees = charge(feeList.value, sides.value.priceAmount)
  const feeLimit = feeTotal(fees)
  const feeVault = sides.value.sellsToken ? vaultBuy : vaultSell
  if (body.fee_info !== undefined && body.fee_info !== null) {
    const info = isRecord(body.fee_info) ? body.fee_info : {}
    if (
      assetIdOf(info.asset_id) !== sides.value.price.id ||
      decimalOf(info.fee_limit) !== feeLimit ||
      uint31Of(info.source_vault_id) !== feeVault
    )
      return invalid(
        `fee_info must be { asset_id: ${assetIdText(sides.value.price.id)}, fee_limit: ${feeLimit}, source_vault_id: ${feeVault} }, the fees of this order.`,
      )
  }
  let hash: bigint
  try {
    hash = limitOrderHash({
      vaultSell: BigInt(vaultSell),
      vaultBuy: BigInt(vaultBuy),
      amountSell,
      amountBuy,
      assetSell,
      assetBuy,
      nonce: BigInt(nonce),
      expiration: BigInt(expiration),
      feeAsset: sides.value.price.id,
      feeVaultId: BigInt(feeVault),
      feeLimit,
    })
  } catch (error) {
    if (error instanceof StarkRangeError) return invalid(error.shortMessage)
    throw error
  }
  const payloadHash = payloadHashText(hash)
  const signature = parseStarkSignature(body.stark_signature)
  if (!signature)
    return invalid(
      'stark_signature must be 0x followed by r and s, 64 hex digits each.',
    )
  if (!verifyStarkSignature(signature, hash, signer.starkKey))
    return invalid(
      `The Stark signature does not sign payload_hash ${payloadHash} for Stark key ${signer.starkKey}.`,
    )
  const pending = deps.ledger.pending(hash)
  if (
    !pending ||
    pending.starkKey !== signer.starkKey ||
    pending.kind !== kind
  ) {
    if (deps.ledger.isNonceUsed(signer.starkKey, nonce))
      return invalid(
        `Nonce ${nonce} of Stark key ${signer.starkKey} was used already.`,
      )
    return invalid(
      `No ${kind} was issued with payload_hash ${payloadHash}: ask for its signable details first.`,
    )
  }
  const details = pending.details as LimitOrderDetails
  if (!sameFees(details.fees, feeList.value))
    return invalid(
      `The fees differ from those issued with payload_hash ${payloadHash}.`,
    )
  if (isExpired(deps, expiration))
    return invalid(`The ${kind} with payload_hash ${payloadHash} has expired.`)
  for (const [id, asset] of [
    [vaultSell, sell],
    [vaultBuy, buy],
  ] as const) {
    const vault = deps.ledger.vault(id)
    if (
      !vault ||
      vault.starkKey !== signer.starkKey ||
      vault.assetId !== asset.id
    )
      return invalid(
        `Vault ${id} is not a vault of Stark key ${signer.starkKey} for asset ${assetIdText(asset.id)}.`,
      )
  }
  const needed = requiredBalance(sides.value, amountSell, feeLimit)
  const balance = deps.ledger.vault(vaultSell)!.balance
  if (balance < needed)
    return invalid(
      `Vault ${vaultSell} holds ${baseUnits(balance, sell)} base units, less than the ${baseUnits(needed, sell)} the ${kind} needs.`,
    )
  return {
    ok: true,
    order: {
      signer,
      sell,
      buy,
      amountSell,
      amountBuy,
      vaultSell,
      vaultBuy,
      sides: sides.value,
      fees,
      feeVault,
      feeLimit,
      nonce,
      expiration,
      hash,
      payloadHash,
      pending: pending as Pending & { details: LimitOrderDetails },
    },
  }
}

/** A new order record of a checked signed limit order. */
export function orderRecord(
  deps: Deps,
  order: SignedLimitOrder,
  role: 'maker' | 'taker',
): OrderRecord {
  const market = marketOf(deps)
  const time = deps.now()
  return {
    id: market.nextOrderId++,
    user: order.signer.ethAddress,
    starkKey: order.signer.starkKey,
    sell: order.sell,
    buy: order.buy,
    amountSell: order.amountSell,
    amountBuy: order.amountBuy,
    vaultSell: order.vaultSell,
    vaultBuy: order.vaultBuy,
    nonce: order.nonce,
    expiration: order.expiration,
    fees: order.fees,
    feeVault: order.feeVault,
    feeLimit: order.feeLimit,
    payloadHash: order.payloadHash,
    role,
    status: 'active',
    amountSold: 0n,
    createdAt: time,
    updatedAt: time,
  }
}

/**
 * The signed-in player's StarkEx account, or the refusal to answer: 400
 * when it is not registered, 403 when `claimed` (a body's `user` or
 * `stark_key`) is not its own.
 */
export function signerOf(
  deps: Deps,
  c: HonoContext<StarkExEnv>,
  claimed: { user?: unknown; starkKey?: unknown },
): Checked<{ account: Account }> {
  const account = accountOfPlayer(deps, c.var.player)
  if (!account) return invalid(notRegistered)
  if ('user' in claimed && addressOf(claimed.user) !== account.ethAddress)
    return {
      ok: false,
      kind: 'authentication',
      message: `user must be the player's StarkEx address ${account.ethAddress}.`,
    }
  if (
    'starkKey' in claimed &&
    starkKeyOf(claimed.starkKey) !== account.starkKey
  )
    return {
      ok: false,
      kind: 'authentication',
      message: `stark_key must be the player's Stark key ${account.starkKey}.`,
    }
  return { ok: true, account }
}

/** The order of a path or body id, or a 404 refusal. */
export function findOrder(
  deps: Deps,
  id: unknown,
): Checked<{ order: OrderRecord }> {
  const number =
    typeof id === 'string' && /^[1-9][0-9]{0,14}$/.test(id)
      ? Number(id)
      : typeof id === 'number'
        ? id
        : undefined
  const order =
    number === undefined ? undefined : marketOf(deps).orders.get(number)
  return order
    ? { ok: true, order }
    : { ok: false, kind: 'notFound', message: `No order ${String(id)}.` }
}

/** Reads `include_fees` and the `auxiliary_fee_*` pair of a read route. */
export function orderViewOf(c: HonoContext): Read<OrderView> {
  const include = c.req.query('include_fees')
  if (include !== undefined && include !== 'true' && include !== 'false')
    return { ok: false, message: "include_fees must be 'true' or 'false'." }
  const percentages = c.req.query('auxiliary_fee_percentages')
  const recipients = c.req.query('auxiliary_fee_recipients')
  if ((percentages ?? '') === '' && (recipients ?? '') === '')
    return {
      ok: true,
      value: { includeFees: include === 'true', auxiliary: [] },
    }
  const ps = (percentages ?? '').split(',')
  const rs = (recipients ?? '').split(',')
  if (ps.length !== rs.length)
    return {
      ok: false,
      message:
        'auxiliary_fee_percentages and auxiliary_fee_recipients must list as many entries, comma-separated.',
    }
  const fees = feesOf(
    ps.map((p, i) => ({
      address: rs[i],
      fee_percentage: /^[0-9.]{1,12}$/.test(p) ? Number(p) : Number.NaN,
    })),
    'auxiliary fees',
  )
  if (!fees.ok) return fees
  return {
    ok: true,
    value: { includeFees: include === 'true', auxiliary: fees.value },
  }
}

/** Mounts the order routes. */
export function orderRoutes(app: Hono<StarkExEnv>, deps: Deps) {
  const player = requirePlayer(deps)
  const market = marketOf(deps)

  app.post('/v3/signable-order-details', player, async (c) => {
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(
        c,
        'validation',
        'Expected a JSON body { user, amount_buy, token_buy, amount_sell, token_sell, fees, expiration_timestamp }.',
      )
    const signer = signerOf(deps, c, { user: body.user })
    if (!signer.ok) return fail(c, signer.kind, signer.message)
    const sell = knownTokenOf(deps, body.token_sell)
    if (!sell.ok) return fail(c, 'validation', `token_sell: ${sell.message}`)
    const buy = knownTokenOf(deps, body.token_buy)
    if (!buy.ok) return fail(c, 'validation', `token_buy: ${buy.message}`)
    const amountSell = quantize('amount_sell', body.amount_sell, sell.value)
    if (!amountSell.ok) return fail(c, 'validation', amountSell.message)
    const amountBuy = quantize('amount_buy', body.amount_buy, buy.value)
    if (!amountBuy.ok) return fail(c, 'validation', amountBuy.message)
    const fees = feesOf(body.fees)
    if (!fees.ok) return fail(c, 'validation', fees.message)
    const expiration = expirationOf(deps, body.expiration_timestamp)
    if (!expiration.ok) return fail(c, 'validation', expiration.message)
    const account = signer.account
    if (sell.value.type === 'ERC721') {
      const other = [...market.orders.values()].find(
        (order) =>
          order.starkKey === account.starkKey &&
          order.sell.id === sell.value.id &&
          statusOf(deps, order) === 'active',
      )
      if (other)
        return fail(
          c,
          'conflict',
          `Order ${other.id} sells that token already: cancel it first.`,
        )
    }
    const prepared = prepareLimitOrder(deps, account, {
      sell: sell.value,
      buy: buy.value,
      amountSell: amountSell.value,
      amountBuy: amountBuy.value,
      fees: fees.value,
      expiration: expiration.value,
    })
    if (!prepared.ok) return fail(c, prepared.kind, prepared.message)
    const answer = await issueLimitOrder(deps, prepared.issue, 'order', {
      fees: fees.value,
    })
    deps.guardian.registerStarkEx({
      payloadHash: answer.payload_hash,
      wallet: account.ethAddress,
      type: 'order',
      details: limitOrderDetails(prepared.issue),
    })
    return c.json(answer satisfies Schemas['GetSignableOrderResponse'])
  })

  app.post('/v3/orders', player, async (c) => {
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(c, 'validation', 'Expected a JSON body of a signed order.')
    const signer = signerOf(deps, c, { starkKey: body.stark_key })
    if (!signer.ok) return fail(c, signer.kind, signer.message)
    const checked = checkSignedLimitOrder(deps, signer.account, body, 'order')
    if (!checked.ok) return fail(c, checked.kind, checked.message)
    const { order } = checked
    const refused = guardianRefusal(deps, signer.account, order.payloadHash)
    if (refused) return fail(c, 'authentication', refused)
    if (order.sell.type === 'ERC721') {
      const other = [...market.orders.values()].find(
        (kept) =>
          kept.starkKey === order.signer.starkKey &&
          kept.sell.id === order.sell.id &&
          statusOf(deps, kept) === 'active',
      )
      if (other)
        return fail(
          c,
          'conflict',
          `Order ${other.id} sells that token already: cancel it first.`,
        )
    }
    if (market.orders.size >= maxOrders && !canAdd(market))
      return fail(c, 'conflict', 'The order book is full.')
    try {
      // Spends the nonce (a create moves nothing: an order locks nothing).
      deps.ledger.commit({
        starkKey: order.signer.starkKey,
        nonces: [order.nonce],
        movements: [],
      })
    } catch (error) {
      if (error instanceof LedgerFullError)
        return fail(c, 'conflict', error.shortMessage)
      if (error instanceof LedgerError)
        return fail(c, 'validation', error.shortMessage)
      throw error
    }
    deps.ledger.settle(order.hash)
    const record = orderRecord(deps, order, 'maker')
    addOrder(market, record)
    return c.json({
      order_id: record.id,
      status: 'active',
      time: Math.floor(record.createdAt / 1000),
    } satisfies Schemas['CreateOrderResponse'])
  })

  app.post('/v3/signable-cancel-order-details', player, async (c) => {
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(c, 'validation', 'Expected a JSON body { order_id }.')
    const signer = signerOf(deps, c, {})
    if (!signer.ok) return fail(c, signer.kind, signer.message)
    const cancellable = cancellableOrder(deps, signer.account, body.order_id)
    if (!cancellable.ok) return fail(c, cancellable.kind, cancellable.message)
    const { order } = cancellable
    const payloadHash = payloadHashText(cancelHash(order.id, order.payloadHash))
    const readable = JSON.stringify({
      type: 'CancelOrder',
      order_id: order.id,
      order_payload_hash: order.payloadHash,
      stark_key: order.starkKey,
    })
    deps.guardian.registerStarkEx({
      payloadHash,
      wallet: signer.account.ethAddress,
      type: 'cancelOrder',
      details: {
        order_id: order.id,
        user: order.user,
        sell: assetDetails(order.sell, order.amountSell),
        buy: assetDetails(order.buy, order.amountBuy),
      },
    })
    return c.json({
      order_id: order.id,
      payload_hash: payloadHash,
      readable_transaction: readable,
      signable_message: [
        'Only sign this request if you\u2019ve initiated an action with Immutable X.',
        '',
        `Cancel order ${order.id}.`,
        `Payload hash: ${payloadHash}`,
      ].join('\n'),
      verification_signature: await deps.verificationSignature(
        readable,
        payloadHash,
      ),
    } satisfies Schemas['GetSignableCancelOrderResponse'])
  })

  app.delete('/v3/orders/:id', player, async (c) => {
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(
        c,
        'validation',
        'Expected a JSON body { order_id, stark_signature }.',
      )
    const id = c.req.param('id')
    if (String(body.order_id) !== id)
      return fail(
        c,
        'validation',
        `order_id ${String(body.order_id)} is not the order ${id} of the path.`,
      )
    const signer = signerOf(deps, c, {})
    if (!signer.ok) return fail(c, signer.kind, signer.message)
    const cancellable = cancellableOrder(deps, signer.account, id)
    if (!cancellable.ok) return fail(c, cancellable.kind, cancellable.message)
    const { order } = cancellable
    const hash = cancelHash(order.id, order.payloadHash)
    const payloadHash = payloadHashText(hash)
    const signature = parseStarkSignature(body.stark_signature)
    if (!signature)
      return fail(
        c,
        'validation',
        'stark_signature must be 0x followed by r and s, 64 hex digits each.',
      )
    if (!verifyStarkSignature(signature, hash, order.starkKey))
      return fail(
        c,
        'validation',
        `The Stark signature does not sign payload_hash ${payloadHash} for Stark key ${order.starkKey}.`,
      )
    const refused = guardianRefusal(deps, signer.account, payloadHash)
    if (refused) return fail(c, 'authentication', refused)
    order.status = 'cancelled'
    order.updatedAt = deps.now()
    return c.json({
      order_id: order.id,
      status: 'cancelled',
    } satisfies Schemas['CancelOrderResponse'])
  })

  app.get('/v3/orders/:id', (c) => {
    const view = orderViewOf(c)
    if (!view.ok) return fail(c, 'validation', view.message)
    const found = findOrder(deps, c.req.param('id'))
    if (!found.ok) return fail(c, found.kind, found.message)
    return c.json(
      orderAnswer(deps, found.order, view.value) satisfies Schemas['OrderV3'],
    )
  })

  app.get('/v3/orders', (c) => {
    const page = pageOf(c)
    if (!page.ok) return fail(c, 'validation', page.message)
    const view = orderViewOf(c)
    if (!view.ok) return fail(c, 'validation', view.message)
    const filter = orderFilterOf(deps, c)
    if (!filter.ok) return fail(c, 'validation', filter.message)
    const direction = directionOf(c)
    if (!direction.ok) return fail(c, 'validation', direction.message)
    const orderBy = c.req.query('order_by') ?? 'created_at'
    const priceWithFees = (o: OrderRecord) => {
      const sides = sidesOf(o.sell, o.buy, o.amountSell, o.amountBuy)
      return sides.ok && sides.value.sellsToken
        ? o.amountBuy - o.feeLimit
        : o.amountBuy
    }
    const keys: Record<string, (o: OrderRecord) => bigint | number> = {
      created_at: (o) => o.createdAt,
      updated_at: (o) => o.updatedAt,
      expired_at: (o) => o.expiration,
      sell_quantity: (o) => o.amountSell * quantumOf(o.sell),
      buy_quantity: (o) => o.amountBuy * quantumOf(o.buy),
      buy_quantity_with_fees: (o) => priceWithFees(o) * quantumOf(o.buy),
    }
    const found = sortedBy(
      [...market.orders.values()].filter(filter.value),
      keys,
      orderBy,
      direction.value,
      (r) => r.id,
    )
    if (!found.ok) return fail(c, 'validation', found.message)
    return c.json(
      pageAnswer(
        found.value.map((order) => orderAnswer(deps, order, view.value)),
        page.value,
      ) satisfies Schemas['ListOrdersResponseV3'],
    )
  })
}

/** Whether the book can take one more order (it forgets a non-active one). */
function canAdd(market: ReturnType<typeof marketOf>): boolean {
  for (const order of market.orders.values())
    if (order.status !== 'active') return true
  return false
}

/** An asset's quantum (1 for an ERC721). */
function quantumOf(asset: AssetInfo): bigint {
  return asset.type === 'ERC721' ? 1n : asset.quantum
}

/**
 * The order `id` when `account` may cancel it: 404 if there is none, 403
 * if it is another's, 409 unless it is active (or inactive: its maker may
 * always withdraw it).
 */
function cancellableOrder(
  deps: Deps,
  account: Account,
  id: unknown,
): Checked<{ order: OrderRecord }> {
  const found = findOrder(deps, id)
  if (!found.ok) return found
  const { order } = found
  if (order.starkKey !== account.starkKey)
    return {
      ok: false,
      kind: 'authentication',
      message: `Order ${order.id} is not the player's.`,
    }
  const status = statusOf(deps, order)
  if (status !== 'active' && status !== 'inactive')
    return {
      ok: false,
      kind: 'conflict',
      message: `Order ${order.id} is ${status}: only an active order can be cancelled.`,
    }
  return found
}

/** Reads the order list's filters into a predicate. */
function orderFilterOf(
  deps: Deps,
  c: HonoContext,
): Read<(order: OrderRecord) => boolean> {
  const q = (name: string) => {
    const value = c.req.query(name)
    return value === '' ? undefined : value
  }
  for (const name of [
    'buy_metadata',
    'sell_metadata',
    'buy_token_name',
    'sell_token_name',
  ])
    if (q(name) !== undefined)
      return {
        ok: false,
        message: `The ${name} filter is not supported by this exchange.`,
      }
  const tests: ((order: OrderRecord) => boolean)[] = []
  const user = q('user')
  if (user !== undefined) {
    const address = addressOf(user)
    if (!address)
      return { ok: false, message: 'user must be an Ethereum address.' }
    tests.push((o) => o.user === address)
  }
  const status = q('status')
  if (status !== undefined) {
    if (
      !['active', 'filled', 'cancelled', 'expired', 'inactive'].includes(status)
    )
      return {
        ok: false,
        message:
          "status must be 'active', 'filled', 'cancelled', 'expired' or 'inactive'.",
      }
    tests.push((o) => statusOf(deps, o) === status)
  }
  for (const [name, pick, compare] of [
    [
      'min_timestamp',
      (o: OrderRecord) => o.createdAt,
      (t: number, b: number) => t >= b,
    ],
    [
      'max_timestamp',
      (o: OrderRecord) => o.createdAt,
      (t: number, b: number) => t <= b,
    ],
    [
      'updated_min_timestamp',
      (o: OrderRecord) => o.updatedAt,
      (t: number, b: number) => t >= b,
    ],
    [
      'updated_max_timestamp',
      (o: OrderRecord) => o.updatedAt,
      (t: number, b: number) => t <= b,
    ],
  ] as const) {
    const bound = timeOf(c, name)
    if (!bound.ok) return bound
    const value = bound.value
    if (value !== undefined) tests.push((o) => compare(pick(o), value))
  }
  for (const side of ['buy', 'sell'] as const) {
    const assetOf = (o: OrderRecord) => (side === 'buy' ? o.buy : o.sell)
    const amountOf = (o: OrderRecord) =>
      side === 'buy' ? o.amountBuy : o.amountSell
    const type = q(`${side}_token_type`)
    if (type !== undefined) {
      if (!['ETH', 'ERC20', 'ERC721'].includes(type))
        return {
          ok: false,
          message: `${side}_token_type must be 'ETH', 'ERC20' or 'ERC721'.`,
        }
      tests.push((o) => assetOf(o).type === type)
    }
    const tokenId = q(`${side}_token_id`)
    if (tokenId !== undefined) {
      const id = decimalOf(tokenId)
      if (id === undefined)
        return {
          ok: false,
          message: `${side}_token_id must be a decimal string.`,
        }
      tests.push((o) => {
        const asset = assetOf(o)
        return asset.type === 'ERC721' && asset.tokenId === id
      })
    }
    const assetId = q(`${side}_asset_id`)
    if (assetId !== undefined) {
      const id = assetIdOf(assetId)
      if (id === undefined)
        return { ok: false, message: `${side}_asset_id must be 0x-hex.` }
      tests.push((o) => assetOf(o).id === id)
    }
    const tokenAddress = q(`${side}_token_address`)
    if (tokenAddress !== undefined) {
      const address = addressOf(tokenAddress)
      if (!address)
        return {
          ok: false,
          message: `${side}_token_address must be an Ethereum address.`,
        }
      tests.push((o) => {
        const asset = assetOf(o)
        return (
          asset.type !== 'ETH' &&
          asset.tokenAddress.toLowerCase() === address.toLowerCase()
        )
      })
    }
    for (const [bound, compare] of [
      ['min', (x: bigint, y: bigint) => x >= y],
      ['max', (x: bigint, y: bigint) => x <= y],
    ] as const) {
      const name = `${side}_${bound}_quantity`
      const text = q(name)
      if (text === undefined) continue
      const value = decimalOf(text)
      if (value === undefined)
        return {
          ok: false,
          message: `${name} must be a decimal string of base units.`,
        }
      tests.push((o) => compare(amountOf(o) * quantumOf(assetOf(o)), value))
    }
  }
  return { ok: true, value: (order) => tests.every((test) => test(order)) }
}
