/**
 * Transfers: one token (`/v1/signable-transfer-details`, `/v1/transfers`)
 * or a batch of NFTs (`/v2/…`), each signed with the Stark key after the
 * guardian checked its payload hash, with the player's token on every
 * call and the signed wallet headers on the creates.
 */
import type {
  CreateTransferResponse,
  CreateTransferResponseV1,
} from '../../api/imx/models.generated.js'
import { PassportErrorType, withPassportError } from '../errors.js'
import { sizes } from '../wire/confirmation.js'
import type { Context } from './context.js'
import { withConfirmation } from './guarded.js'
import { registeredPlayer } from './player.js'
import { amountOf, signableToken } from './tokens.js'
import type { NftTransferDetails, UnsignedTransferRequest } from './types.js'
import { bearer } from './user.js'
import { walletHeaders } from './walletHeaders.js'

/**
 * Transfers a token (an ERC721's amount is always '1').
 *
 * @throws {PassportError} `TRANSFER_ERROR` (the exchange's or the
 *   guardian's message, e.g. 'Transaction rejected by user'),
 *   `SERVICE_UNAVAILABLE_ERROR`, or the player's errors.
 */
export function transfer(
  context: Context,
  request: UnsignedTransferRequest,
): Promise<CreateTransferResponseV1> {
  return withConfirmation(context, undefined, async (guard) => {
    const { user, starkSigner } = await registeredPlayer(context)
    return withPassportError(async () => {
      const transfers = context.exchange.transfersApi
      const headers = bearer(user)
      const { data: signable } = await transfers.getSignableTransferV1(
        {
          getSignableTransferRequest: {
            sender: user.imx.ethAddress,
            token: signableToken(request),
            amount: amountOf(request),
            receiver: request.receiver,
          },
        },
        { headers },
      )
      await guard(signable.payload_hash, user.imx.ethAddress)
      const [starkSignature, wallet] = await Promise.all([
        starkSigner.signMessage(signable.payload_hash),
        walletHeaders(context, user, signable.signable_message),
      ])
      const { data } = await transfers.createTransferV1(
        {
          ...wallet,
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
        { headers },
      )
      return {
        sent_signature: data.sent_signature,
        status: data.status?.toString(),
        time: data.time,
        transfer_id: data.transfer_id,
      } as CreateTransferResponseV1
    }, PassportErrorType.TRANSFER_ERROR)
  })
}

/**
 * Transfers NFTs in one batch (each amount '1'): the guardian checks the
 * first payload hash, in the 480x784 popup; each transfer is signed.
 *
 * @throws {PassportError} as {@link transfer}.
 */
export function batchNftTransfer(
  context: Context,
  request: readonly NftTransferDetails[],
): Promise<CreateTransferResponse> {
  return withConfirmation(context, sizes.batchTransfer, async (guard) => {
    const { user, starkSigner } = await registeredPlayer(context)
    return withPassportError(async () => {
      const transfers = context.exchange.transfersApi
      const headers = bearer(user)
      const { data: signable } = await transfers.getSignableTransfer(
        {
          getSignableTransferRequestV2: {
            sender_ether_key: user.imx.ethAddress,
            signable_requests: request.map((nft) => ({
              amount: '1',
              token: signableToken({
                type: 'ERC721',
                tokenId: nft.tokenId,
                tokenAddress: nft.tokenAddress,
              }),
              receiver: nft.receiver,
            })),
          },
        },
        { headers },
      )
      const [first] = signable.signable_responses
      // The exchange answers one signable per request: an empty batch
      // has nothing for the guardian to check.
      if (!first) throw new Error('The exchange answered no transfer to sign.')
      await guard(first.payload_hash, user.imx.ethAddress)
      const wallet = await walletHeaders(
        context,
        user,
        signable.signable_message,
      )
      const requests = await Promise.all(
        signable.signable_responses.map(async (response) => ({
          sender_vault_id: response.sender_vault_id,
          receiver_stark_key: response.receiver_stark_key,
          receiver_vault_id: response.receiver_vault_id,
          asset_id: response.asset_id,
          amount: response.amount,
          nonce: response.nonce,
          expiration_timestamp: response.expiration_timestamp,
          stark_signature: await starkSigner.signMessage(response.payload_hash),
        })),
      )
      const { data } = await transfers.createTransfer(
        {
          ...wallet,
          createTransferRequestV2: {
            sender_stark_key: signable.sender_stark_key,
            requests,
          },
        },
        { headers },
      )
      return { transfer_ids: data.transfer_ids }
    }, PassportErrorType.TRANSFER_ERROR)
  })
}
