/**
 * The OpenID Connect extension (`@magic-ext/oidc`): logs a user in with a
 * JWT from the app's own OIDC provider, registered with Magic by id.
 */
import * as Rpc from '../../core/Rpc.js'
import type { Handle } from '../request.js'
import * as Methods from '../wire/methods.js'
import { InternalExtension } from './Extension.js'

/** `loginWithOIDC` options. */
export type OpenIdConfiguration = {
  /** The OIDC id token. */
  jwt: string
  /** The provider id registered with Magic. */
  providerId: string
  /** DID token lifespan in seconds. */
  lifespan?: number | undefined
}

/**
 * Adds `magic.openid.loginWithOIDC()`.
 *
 * @example
 * ```ts
 * import { Magic, OpenIdExtension } from 'embedded-wallets/magic'
 *
 * const magic = new Magic('pk_live_…', { extensions: [new OpenIdExtension()] })
 * const didToken = await magic.openid.loginWithOIDC({ jwt, providerId })
 * ```
 */
export class OpenIdExtension extends InternalExtension<'openid'> {
  readonly name = 'openid' as const
  readonly config = {}

  /** Logs in with an OIDC id token; resolves to a DID token. */
  loginWithOIDC(configuration: OpenIdConfiguration): Handle<string | null> {
    const { jwt, providerId, lifespan } = configuration
    return this.request<string | null>(
      Rpc.createRequest(Methods.loginWithOidc, [{ jwt, providerId, lifespan }]),
    )
  }
}
