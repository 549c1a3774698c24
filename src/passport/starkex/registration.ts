/**
 * Off-chain registration with the exchange: the custody key and the Stark
 * key sign what the exchange issues (`POST /v1/signable-registration-offchain`,
 * then `POST /v2/passport/users` with the player's token), and the session
 * is refreshed until the id token carries the three `passport.imx_*`
 * claims the exchange now grants.
 */
import { ApiError } from '../../api/ApiErrors.js'
import type { User } from '../auth/user.js'
import { PassportErrorType, withPassportError } from '../errors.js'
import type { Context } from './context.js'
import { signedIn } from './player.js'
import type { StarkSigner } from './starkSigner.js'
import type { RegisterOffchainResponse } from './types.js'
import { starkExMessages } from './user.js'
import { signRaw } from './walletHeaders.js'

/**
 * Registers the signed-in player. A 409 means the player is registered
 * already: the claims are then awaited all the same and the answer is
 * `{ tx_hash: '' }`; a new registration answers what the exchange
 * answered (the player's keys), as published (2.14.0 meant to do this, but its error wrapper ran
 * before its 409 check, so a second registration rejected).
 *
 * @throws {PassportError} `NOT_LOGGED_IN_ERROR`; the signer's
 *   `WALLET_CONNECTION_ERROR`; `USER_REGISTRATION_ERROR` with the
 *   exchange's message, or 'Failed to obtain a User with the required IMX
 *   attributes' when no refresh brings the claims.
 */
export async function registerOffchain(
  context: Context,
): Promise<RegisterOffchainResponse> {
  const [user, starkSigner] = await Promise.all([
    signedIn(context),
    context.starkSigner(),
  ])
  return withPassportError(async () => {
    let response: RegisterOffchainResponse
    try {
      response = await register(context, user, starkSigner)
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error
      response = { tx_hash: '' }
    }
    await awaitImxClaims(context)
    return response
  }, PassportErrorType.USER_REGISTRATION_ERROR)
}

async function register(
  context: Context,
  user: User,
  starkSigner: StarkSigner,
): Promise<RegisterOffchainResponse> {
  const custody = context.custody()
  const users = context.exchange.usersApi
  const [etherKey, starkKey] = await Promise.all([
    custody.getAddress(),
    starkSigner.getAddress(),
  ])
  const { data: signable } = await users.getSignableRegistrationOffchain({
    getSignableRegistrationRequest: {
      ether_key: etherKey,
      stark_key: starkKey,
    },
  })
  const [ethSignature, starkSignature] = await Promise.all([
    signRaw(custody, signable.signable_message),
    starkSigner.signMessage(signable.payload_hash),
  ])
  const { data } = await users.registerPassportUserV2({
    authorization: `Bearer ${user.accessToken}`,
    registerPassportUserRequest: {
      eth_signature: ethSignature,
      ether_key: etherKey,
      stark_signature: starkSignature,
      stark_key: starkKey,
    },
  })
  return data
}

/**
 * Refreshes the session until the id token carries the StarkEx claims: a
 * first try, then the published retry defaults (3 more, 1 s apart).
 */
async function awaitImxClaims(context: Context): Promise<void> {
  const {
    registrationRetries: retries = 3,
    registrationRetryInterval: interval = 1000,
  } = context
  for (let attempt = 0; ; attempt++) {
    const user = await context.session.forceUserRefresh().catch(() => null)
    if (user?.imx) return
    if (attempt >= retries) throw new Error(starkExMessages.imxUserMissing)
    await new Promise((resolve) => setTimeout(resolve, interval))
  }
}
