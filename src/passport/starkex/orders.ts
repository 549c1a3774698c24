/**
 * Orders: created (`/v3/signable-order-details`, `/v3/orders`, fees
 * split and included) and cancelled (`/v3/signable-cancel-order-details`,
 * `DELETE /v3/orders/{id}` with a JSON body), each signed with the Stark
 * key after the guardian checked its payload hash.
 */
import type {
  CancelOrderResponse,
  CreateOrderResponse,
  GetSignableCancelOrderRequest,
} from '../../api/imx/models.generated.js'
import { PassportErrorType, withPassportError } from '../errors.js'
import type { Context } from './context.js'
import { withConfirmation } from './guarded.js'
import { registeredPlayer } from './player.js'
import { amountOf, signableToken } from './tokens.js'
import type { UnsignedOrderRequest } from './types.js'
import { bearer } from './user.js'

/**
 * Creates an order selling `sell` for `buy` (an ERC721's amount '1').
 *
 * @throws {PassportError} `CREATE_ORDER_ERROR`, `SERVICE_UNAVAILABLE_ERROR`,
 *   or the player's errors.
 */
export function createOrder(
  context: Context,
  request: UnsignedOrderRequest,
): Promise<CreateOrderResponse> {
  return withConfirmation(context, undefined, async (guard) => {
    const { user, starkSigner } = await registeredPlayer(context)
    return withPassportError(async () => {
      const orders = context.exchange.ordersApi
      const headers = bearer(user)
      const { data: signable } = await orders.getSignableOrder(
        {
          getSignableOrderRequestV3: {
            user: user.imx.ethAddress,
            amount_buy: amountOf(request.buy),
            token_buy: signableToken(request.buy),
            amount_sell: amountOf(request.sell),
            token_sell: signableToken(request.sell),
            ...(request.fees ? { fees: request.fees } : {}),
            split_fees: true,
            ...(request.expiration_timestamp === undefined
              ? {}
              : { expiration_timestamp: request.expiration_timestamp }),
          },
        },
        { headers },
      )
      await guard(signable.payload_hash, user.imx.ethAddress)
      const starkSignature = await starkSigner.signMessage(
        signable.payload_hash,
      )
      const { data } = await orders.createOrderV3(
        {
          createOrderRequest: {
            include_fees: true,
            ...(request.fees ? { fees: request.fees } : {}),
            stark_signature: starkSignature,
            amount_buy: signable.amount_buy,
            amount_sell: signable.amount_sell,
            asset_id_buy: signable.asset_id_buy,
            asset_id_sell: signable.asset_id_sell,
            expiration_timestamp: signable.expiration_timestamp,
            nonce: signable.nonce,
            stark_key: signable.stark_key,
            vault_id_buy: signable.vault_id_buy,
            vault_id_sell: signable.vault_id_sell,
          },
        },
        { headers },
      )
      return { ...data }
    }, PassportErrorType.CREATE_ORDER_ERROR)
  })
}

/**
 * Cancels one of the player's orders.
 *
 * @throws {PassportError} `CANCEL_ORDER_ERROR`, `SERVICE_UNAVAILABLE_ERROR`,
 *   or the player's errors.
 */
export function cancelOrder(
  context: Context,
  request: GetSignableCancelOrderRequest,
): Promise<CancelOrderResponse> {
  return withConfirmation(context, undefined, async (guard) => {
    const { user, starkSigner } = await registeredPlayer(context)
    return withPassportError(async () => {
      const orders = context.exchange.ordersApi
      const headers = bearer(user)
      const { data: signable } = await orders.getSignableCancelOrderV3(
        { getSignableCancelOrderRequest: { order_id: request.order_id } },
        { headers },
      )
      await guard(signable.payload_hash, user.imx.ethAddress)
      const starkSignature = await starkSigner.signMessage(
        signable.payload_hash,
      )
      const { data } = await orders.cancelOrderV3(
        {
          id: String(request.order_id),
          cancelOrderRequest: {
            order_id: request.order_id,
            stark_signature: starkSignature,
          },
        },
        { headers },
      )
      return { order_id: data.order_id, status: data.status }
    }, PassportErrorType.CANCEL_ORDER_ERROR)
  })
}
