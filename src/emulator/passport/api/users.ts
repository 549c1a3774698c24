/**
 * What the platform knows of a player, beyond the profile:
 *
 * - `GET /v1/chains/{chain_name}/passport/users/{user_id}/linked-addresses`
 *   and the deprecated `GET /passport-mr/v1/users/{userId}/linked-addresses`
 *   (bearer): the external wallets the player linked (`POST
 *   /passport-profile/v2/linked-wallets`), oldest first, as
 *   `{ linked_addresses }` and `{ linkedAddresses }`. A player reads their
 *   own only: another user id is 403.
 * - `GET /passport-mr/v1/users/{user_id}/metadata` (`x-immutable-api-key`,
 *   the game's backend): the player's game-wallet registration on each
 *   chain of the emulator, `{ passport_metadata: [{ chain_id, chain_key,
 *   user_admin_key, counterfactual_address }] }`; none before the player
 *   registers. The wallet contracts are the same on every chain, so a
 *   registered wallet has the same address on each. An unknown user is
 *   404.
 *
 * @packageDocumentation
 */
import type { Hono, Context as HonoContext } from 'hono'
import { chainByName, chainNameOf } from './chains.js'
import {
  type ApiEnv,
  caip2,
  type Deps,
  fail,
  playerOf,
  requireApiKey,
  requireBearer,
} from './http.js'
import type {
  GetLinkedAddressesRes,
  GetLinkedAddressesResDeprecated,
  GetPassportMetadataRes,
} from './schemas.js'

/** The routes' paths, as Hono patterns. */
export const userPaths = {
  linkedAddresses:
    '/v1/chains/:chainName/passport/users/:userId/linked-addresses',
  linkedAddressesDeprecated: '/passport-mr/v1/users/:userId/linked-addresses',
  metadata: '/passport-mr/v1/users/:userId/metadata',
} as const

/** Adds the user routes to `app`. */
export function userRoutes(app: Hono<ApiEnv>, deps: Deps): void {
  const bearer = requireBearer(deps.verifier)

  app.get(userPaths.linkedAddresses, bearer, (c) => {
    const name = c.req.param('chainName')
    if (!chainByName(deps, name))
      return fail(c, 'notFound', `There is no chain named ${name}.`)
    const addresses = ownLinkedAddresses(c, deps)
    if (addresses instanceof Response) return addresses
    return c.json({
      linked_addresses: addresses,
    } satisfies GetLinkedAddressesRes)
  })

  app.get(userPaths.linkedAddressesDeprecated, bearer, (c) => {
    const addresses = ownLinkedAddresses(c, deps)
    if (addresses instanceof Response) return addresses
    return c.json({
      linkedAddresses: addresses,
    } satisfies GetLinkedAddressesResDeprecated)
  })

  app.get(userPaths.metadata, requireApiKey(), (c) => {
    const id = c.req.param('userId')
    const user = deps.registry.get(id)
    // Players only: a custody key's user id is no platform user.
    if (!user || user.oidc !== undefined)
      return fail(c, 'notFound', `There is no user ${id}.`)
    const wallet = user.passport.zkevmEthAddress
    const admin = user.passport.zkevmUserAdminAddress
    return c.json({
      passport_metadata:
        wallet && admin
          ? deps.chains.map((chain) => ({
              chain_id: caip2(chain.chainId),
              chain_key: chainNameOf(chain.chainId),
              user_admin_key: admin,
              counterfactual_address: wallet,
            }))
          : [],
    } satisfies GetPassportMetadataRes)
  })
}

/**
 * The linked addresses of the player the path names, when it is the
 * token's player; else the refusal (401 unknown player, 403 another one).
 */
function ownLinkedAddresses(
  c: HonoContext<ApiEnv>,
  deps: Deps,
): string[] | Response {
  const player = playerOf(deps, c.var.bearer)
  if (!player) return fail(c, 'unauthorised', 'The player is unknown.')
  if (c.req.param('userId') !== player.id)
    return fail(
      c,
      'authentication',
      "A player may read their own linked addresses only, not another user's.",
    )
  return deps.links.list(player.id).map((wallet) => wallet.address)
}
