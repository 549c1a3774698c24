/**
 * Transfers of an exchange (an on- or off-ramp created with
 * `POST /v3/exchanges`): `/v2/exchanges/{id}/signable-transfer-details`
 * (no credential) and `/v2/exchanges/{id}/transfers` (the player's
 * token and the signed wallet headers). The published SDK asks no
 * guardian for them.
 */
import type { CreateTransferResponseV1 } from '../../api/imx/models.generated.js'
import { PassportErrorType, withPassportError } from '../errors.js'
import type { Context } from './context.js'
import { registeredPlayer } from './player.js'
import { signableToken } from './tokens.js'
import type { UnsignedExchangeTransferRequest } from './types.js'
import { bearer } from './user.js'
import { walletHeaders } from './walletHeaders.js'

/**
 * Sends the exchange's transfer.
 *
 * @throws {PassportError} `EXCHANGE_TRANSFER_ERROR`, or the player's errors.
 */
export async function exchangeTransfer(
  context: Context,
  request: UnsignedExchangeTransferRequest,
): Promise<CreateTransferResponseV1> {
  const { user, starkSigner } = await registeredPlayer(context)
  return withPassportError(async () => {
    const exchanges = context.exchange.exchangeApi
    const { data: signable } = await exchanges.getExchangeSignableTransfer({
      id: request.transactionID,
      getSignableTransferRequest: {
        sender: user.imx.ethAddress,
        token: signableToken(request),
        amount: request.amount,
        receiver: request.receiver,
      },
    })
    const [starkSignature, wallet] = await Promise.all([
      starkSigner.signMessage(signable.payload_hash),
      walletHeaders(context, user, signable.signable_message),
    ])
    const { data } = await exchanges.createExchangeTransfer(
      {
        ...wallet,
        id: request.transactionID,
        createTransferRequest: {
          sender_stark_key:
            signable.sender_stark_key || (await starkSigner.getAddress()),
          sender_vault_id: signable.sender_vault_id,
          receiver_stark_key: signable.receiver_stark_key,
          receiver_vault_id: signable.receiver_vault_id,
          asset_id: signable.asset_id,
          amount: signable.amount,
          nonce: signable.nonce,
          expiration_timestamp: signable.expiration_timestamp,
          stark_signature: starkSignature,
        },
      },
      { headers: bearer(user) },
    )
    return {
      sent_signature: data.sent_signature,
      status: data.status?.toString(),
      time: data.time,
      transfer_id: data.transfer_id,
    } as CreateTransferResponseV1
  }, PassportErrorType.EXCHANGE_TRANSFER_ERROR)
}
