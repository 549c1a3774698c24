/**
 * Trades against an order (`/v3/signable-trade-details`, `/v3/trades`,
 * fees included), signed with the Stark key after the guardian checked
 * the payload hash; the create carries the player's token and the signed
 * wallet headers.
 */
import type {
  CreateTradeResponse,
  GetSignableTradeRequest,
} from '../../api/imx/models.generated.js'
import { PassportErrorType, withPassportError } from '../errors.js'
import type { Context } from './context.js'
import { withConfirmation } from './guarded.js'
import { registeredPlayer } from './player.js'
import { bearer } from './user.js'
import { walletHeaders } from './walletHeaders.js'

/**
 * Fills an order (`request.user` is replaced by the player's address).
 *
 * @throws {PassportError} `CREATE_TRADE_ERROR`, `SERVICE_UNAVAILABLE_ERROR`,
 *   or the player's errors.
 */
export function createTrade(
  context: Context,
  request: GetSignableTradeRequest,
): Promise<CreateTradeResponse> {
  return withConfirmation(context, undefined, async (guard) => {
    const { user, starkSigner } = await registeredPlayer(context)
    return withPassportError(async () => {
      const trades = context.exchange.tradesApi
      const headers = bearer(user)
      const { data: signable } = await trades.getSignableTrade(
        {
          getSignableTradeRequest: {
            ...(request.expiration_timestamp === undefined
              ? {}
              : { expiration_timestamp: request.expiration_timestamp }),
            ...(request.fees ? { fees: request.fees } : {}),
            order_id: request.order_id,
            user: user.imx.ethAddress,
          },
        },
        { headers },
      )
      await guard(signable.payload_hash, user.imx.ethAddress)
      const [starkSignature, wallet] = await Promise.all([
        starkSigner.signMessage(signable.payload_hash),
        walletHeaders(context, user, signable.signable_message),
      ])
      const { data } = await trades.createTradeV3(
        {
          ...wallet,
          createTradeRequest: {
            include_fees: true,
            ...(request.fees ? { fees: request.fees } : {}),
            stark_signature: starkSignature,
            order_id: request.order_id,
            ...(signable.fee_info ? { fee_info: signable.fee_info } : {}),
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
      return data
    }, PassportErrorType.CREATE_TRADE_ERROR)
  })
}
