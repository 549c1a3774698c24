/**
 * The custody key's EIP-191 signatures the exchange takes: the
 * registration's `eth_signature`, and the signed wallet headers
 * (`x-imx-eth-address`, `x-imx-eth-signature`) of the creates that move
 * assets (transfers, batch transfers, trades, exchange transfers), which
 * the published x-client's workflows send with each of them.
 */
import type { UserImx } from '../auth/user.js'
import type { CustodySigner } from '../zkevm/custodySigner.js'
import type { Context } from './context.js'

/**
 * The custody key's EIP-191 signature of `message` as the exchange takes it
 * (the published toolkit's `signRaw`): r ‖ s ‖ v with v as 00 or 01.
 */
export async function signRaw(
  signer: CustodySigner,
  message: string,
): Promise<string> {
  const signature = await signer.signMessage(message)
  const v = Number.parseInt(signature.slice(130, 132), 16)
  const recovery = v >= 27 ? v - 27 : v
  return `${signature.slice(0, 130)}${recovery.toString(16).padStart(2, '0')}`
}

/** The signed wallet headers, as the generated client's header parameters name them. */
export type WalletHeaders = {
  /** `x-imx-eth-address`: the player's StarkEx Ethereum address. */
  readonly xImxEthAddress: string
  /** `x-imx-eth-signature`: its signature of the signable message. */
  readonly xImxEthSignature: string
}

/**
 * The signed wallet headers of a create: the player's `imx_eth_address`
 * (the custody key's address) and the custody key's signature of the
 * `signable_message` the exchange answered with the request. Call it only
 * once the guardian allowed the request.
 */
export async function walletHeaders(
  context: Context,
  user: UserImx,
  signableMessage: string,
): Promise<WalletHeaders> {
  return {
    xImxEthAddress: user.imx.ethAddress,
    xImxEthSignature: await signRaw(context.custody(), signableMessage),
  }
}
