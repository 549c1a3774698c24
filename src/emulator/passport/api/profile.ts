/**
 * The player's profile and linked external wallets (bearer):
 *
 * - `GET /passport-profile/v1/user/info` → `{ sub, email?,
 *   passport_address?, linked_addresses }`;
 * - `POST /passport-profile/v2/linked-wallets` `{ type, wallet_address,
 *   signature, nonce }`: the external wallet's key proves it agrees with an
 *   EIP-712 `LinkWallet` signature naming the player's zkEVM wallet and the
 *   nonce. As the real API documents, only an EOA can link (the signature
 *   is checked by ECDSA recovery, so a contract wallet's ERC-1271 signature
 *   does not pass). Refusals carry the codes the SDK maps:
 *   `VALIDATION_ERROR` (400), `ALREADY_LINKED`, `DUPLICATE_NONCE`,
 *   `MAX_WALLETS_LINKED` (409).
 *
 * @packageDocumentation
 */

import type { Hono } from 'hono'
import { type Address, verifyTypedData } from 'viem'
import type { components } from '../../../api/wire/mr/schema.generated.js'
import {
  type LinkWalletResponse,
  linkWalletErrorCodes,
  linkWalletTypedData,
  paths,
  type UserInfoResponse,
} from '../../../passport/wire/api.js'
import {
  type ApiEnv,
  addressOf,
  type Deps,
  fail,
  isRecord,
  playerOf,
  readJson,
  requireBearer,
  signatureOf,
} from './http.js'

/** The most external wallets one player may link. */
export const maxLinkedWallets = 5

/** The longest wallet `type` (the published SDK's limit). */
export const maxWalletTypeLength = 32

/** The longest link `nonce`. */
export const maxNonceLength = 256

/** A linked external wallet. */
export type LinkedWallet = {
  readonly address: Address
  readonly type: string
  readonly nonce: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly clientName: string
}

/**
 * The linked wallets of every player. Bounded: at most
 * {@link maxLinkedWallets} per player, and players are the registry's.
 */
export type LinkStore = {
  /** A player's linked wallets, oldest first. */
  list(playerId: string): readonly LinkedWallet[]
  /** The player an address is linked to. */
  ownerOf(address: Address): string | undefined
  /** Links `wallet` to the player. */
  add(playerId: string, wallet: LinkedWallet): void
  /** Every player with linked wallets, and theirs. */
  all(): ReadonlyMap<string, readonly LinkedWallet[]>
}

/**
 * Creates an empty link store.
 *
 * @param options.onChange - Called after a wallet is linked.
 */
export function createLinkStore(
  options: { onChange?: (() => void) | undefined } = {},
): LinkStore {
  const byPlayer = new Map<string, LinkedWallet[]>()
  const owners = new Map<Address, string>()
  return {
    list: (playerId) => byPlayer.get(playerId) ?? [],
    all: () => byPlayer,
    ownerOf: (address) => owners.get(address),
    add(playerId, wallet) {
      const wallets = byPlayer.get(playerId) ?? []
      wallets.push(wallet)
      byPlayer.set(playerId, wallets)
      owners.set(wallet.address, playerId)
      options.onChange?.()
    },
  }
}

/** Adds the profile routes to `app`. */
export function profileRoutes(app: Hono<ApiEnv>, deps: Deps): void {
  const bearer = requireBearer(deps.verifier)

  app.get(paths.userInfo, bearer, (c) => {
    const player = playerOf(deps, c.var.bearer)
    if (!player) return fail(c, 'unauthorised', 'The player is unknown.')
    const info: UserInfoResponse & components['schemas']['UserInfo'] = {
      sub: player.id,
      ...(player.email === undefined ? {} : { email: player.email }),
      ...(player.passport.zkevmEthAddress === undefined
        ? {}
        : { passport_address: player.passport.zkevmEthAddress }),
      linked_addresses: deps.links
        .list(player.id)
        .map((wallet) => wallet.address),
    }
    return c.json(info)
  })

  app.post(paths.linkedWallets, bearer, async (c) => {
    const player = playerOf(deps, c.var.bearer)
    if (!player) return fail(c, 'unauthorised', 'The player is unknown.')
    const passportAddress = player.passport.zkevmEthAddress
    if (!passportAddress)
      return fail(
        c,
        'authentication',
        'The player has no zkEVM wallet yet: register it first.',
      )
    const body = await readJson(c)
    const request = linkRequestOf(body)
    if (typeof request === 'string') return fail(c, 'validation', request)
    const { type, address, signature, nonce } = request
    const valid = await verifyTypedData({
      address,
      domain: linkWalletTypedData.domain,
      types: { LinkWallet: linkWalletTypedData.types.LinkWallet },
      primaryType: linkWalletTypedData.primaryType,
      message: {
        walletAddress: address.toLowerCase() as Address,
        immutablePassportAddress: passportAddress.toLowerCase() as Address,
        condition: linkWalletTypedData.condition,
        nonce,
      },
      signature,
    }).catch(() => false)
    if (!valid)
      return fail(
        c,
        'validation',
        "signature is not wallet_address's EIP-712 LinkWallet signature for this player and nonce.",
      )
    if (deps.links.ownerOf(address) !== undefined)
      return fail(
        c,
        'conflict',
        'This wallet is linked to a Passport account already.',
        linkWalletErrorCodes.alreadyLinked,
      )
    const linked = deps.links.list(player.id)
    if (linked.some((wallet) => wallet.nonce === nonce))
      return fail(
        c,
        'conflict',
        'This nonce was used already.',
        linkWalletErrorCodes.duplicateNonce,
      )
    if (linked.length >= maxLinkedWallets)
      return fail(
        c,
        'conflict',
        `A player may link at most ${maxLinkedWallets} wallets.`,
        linkWalletErrorCodes.maxWalletsLinked,
      )
    const at = deps.now().toISOString()
    const clientId = c.var.bearer.claims.client_id
    const wallet: LinkedWallet = {
      address,
      type,
      nonce,
      createdAt: at,
      updatedAt: at,
      clientName: typeof clientId === 'string' ? clientId : 'Passport',
    }
    deps.links.add(player.id, wallet)
    return c.json({
      address: wallet.address,
      type: wallet.type,
      created_at: wallet.createdAt,
      updated_at: wallet.updatedAt,
      clientName: wallet.clientName,
    } satisfies LinkWalletResponse & components['schemas']['Wallet'])
  })
}

/** A checked link request, or why it is refused. */
function linkRequestOf(body: unknown):
  | {
      type: string
      address: Address
      signature: `0x${string}`
      nonce: string
    }
  | string {
  if (!isRecord(body))
    return 'Expected { type, wallet_address, signature, nonce }.'
  const { type, nonce } = body
  if (
    typeof type !== 'string' ||
    type.length === 0 ||
    type.length > maxWalletTypeLength
  )
    return `type must be a string of 1 to ${maxWalletTypeLength} characters.`
  const address = addressOf(body.wallet_address)
  if (!address) return 'wallet_address must be an address.'
  const signature = signatureOf(body.signature)
  if (!signature) return 'signature must be a 65-byte hex signature.'
  if (
    typeof nonce !== 'string' ||
    nonce.length === 0 ||
    nonce.length > maxNonceLength
  )
    return `nonce must be a string of 1 to ${maxNonceLength} characters.`
  return { type, address, signature, nonce }
}
