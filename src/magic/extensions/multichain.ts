/**
 * The base of the provider's chain extensions (Solana, Bitcoin, Aptos…):
 * the published SDK's `MultichainExtension`, which adds the chain's
 * public address and key reveal to `Extension.Internal`.
 */
import * as Rpc from '../../core/Rpc.js'
import type { Handle } from '../request.js'
import * as Methods from '../wire/methods.js'
import { InternalExtension } from './Extension.js'

/** The config of a chain extension: at least its chain type. */
export type MultichainConfig = {
  /** The chain's name on the wire, e.g. `SOLANA`; sent as `chain`. */
  chainType: string
  [key: string]: unknown
}

/**
 * Subclass it with the extension's name and pass the config, with its
 * `chainType`, to `super`; the config goes to the iframe params as for any
 * extension, and `chain` is its `chainType`.
 *
 * @example
 * ```ts
 * import { MultichainExtension } from 'embedded-wallets/magic'
 *
 * class SolanaExtension extends MultichainExtension<'solana'> {
 *   name = 'solana' as const
 *   constructor(rpcUrl: string) {
 *     super({ rpcUrl, chainType: 'SOLANA' })
 *   }
 * }
 * const magic = new Magic('pk_live_…', { extensions: [new SolanaExtension(url)] })
 * const address = await magic.solana.getPublicAddress()
 * ```
 */
export abstract class MultichainExtension<
  name extends string,
  config extends MultichainConfig = MultichainConfig,
> extends InternalExtension<name, config> {
  /** The chain type sent as `chain`: the config's `chainType`. */
  readonly chain: string

  constructor(readonly config: config) {
    super()
    this.chain = config.chainType
  }

  /**
   * The user's address on this chain:
   * `magic_get_multichain_public_address` with `[{ chain }]`.
   */
  getPublicAddress(): Handle<string> {
    return this.request<string>(
      Rpc.createRequest(Methods.getMultichainPublicAddress, [
        { chain: this.chain },
      ]),
    )
  }

  /**
   * Shows this chain's private key in the iframe: `magic_reveal_key` with
   * `[{ chain }]`; resolves `true` when the user closes it.
   */
  revealPrivateKey(): Handle<boolean> {
    return this.request<boolean>(
      Rpc.createRequest(Methods.revealKey, [{ chain: this.chain }]),
    )
  }
}
