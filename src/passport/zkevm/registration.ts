/**
 * Registering a player's zkEVM wallet: the custody key proves itself by
 * signing a fixed text, the API derives the wallet's counterfactual address
 * from it, and a forced token refresh brings the new `passport` claims into
 * the id token.
 */
import type { Address } from 'viem'
import type { User, UserZkEvm } from '../auth/user.js'
import { registrationMessage } from '../wire/api.js'
import * as Relayer from '../wire/relayer.js'
import type { Context } from './context.js'
import { describe, internalError, messages } from './errors.js'
import { zeroBasedV } from './walletSignature.js'

/** Whether the user has the zkEVM wallet pair. */
export function isZkEvmUser(user: User | null | undefined): user is UserZkEvm {
  return Boolean(user?.zkEvm?.ethAddress && user.zkEvm.userAdminAddress)
}

/**
 * Registers the user's wallet and returns the refreshed user.
 *
 * @throws -32603 'Failed to create counterfactual address: …', or
 *   'Failed to obtain a User with the required ZkEvm attributes' when the
 *   refreshed tokens still lack the wallet.
 */
export async function registerZkEvmUser(context: Context): Promise<UserZkEvm> {
  try {
    const signer = context.signer()
    const [address, signature, chainId, chains] = await Promise.all([
      signer.getAddress(),
      signer.signMessage(registrationMessage),
      context.chainId(),
      context.api.chains.listChains(),
    ])
    const id = Relayer.caip2(chainId)
    const chain = chains.data?.result?.find((candidate) => candidate.id === id)
    if (!chain)
      throw internalError(`Chain name does not exist for chain id ${chainId}`)
    await context.api.passport.createCounterfactualAddressV2({
      chainName: chain.name,
      createCounterfactualAddressRequest: {
        ethereum_address: address,
        ethereum_signature: zeroBasedV(signature),
      },
    })
  } catch (error) {
    throw internalError(
      `Failed to create counterfactual address: ${describe(error)}`,
      { cause: error },
    )
  }
  const user = await context.session.forceRefresh()
  if (!isZkEvmUser(user)) throw internalError(messages.zkEvmUserMissing)
  return user
}

/** The user's registered wallet; `undefined` for no user or one without. */
export function registeredWallet(
  user: User | null | undefined,
): Address | undefined {
  return isZkEvmUser(user) ? (user.zkEvm.ethAddress as Address) : undefined
}
