/**
 * The chains and the zkEVM registration:
 *
 * - `GET /v1/chains`: every emulator chain, `{ id: 'eip155:N', name,
 *   rpc_url }`, the main chain first;
 * - `POST /v2/chains/{chain_name}/passport/counterfactual-address`
 *   (bearer): the custody key proves itself with a personal_sign of the
 *   registration text; the answer is the player's smart-contract wallet
 *   address, recorded on the player for the identity provider's
 *   `passport` claim.
 *
 * @packageDocumentation
 */
import type { Hono } from 'hono'
import { type Address, type Hex, recoverMessageAddress } from 'viem'
import type { components } from '../../../api/wire/mr/schema.generated.js'
import {
  type ChainsResponse,
  type CounterfactualAddressResponse,
  paths,
  registrationMessage,
} from '../../../passport/wire/api.js'
import { findCustody } from '../custody.js'
import {
  type ApiChain,
  type ApiEnv,
  addressOf,
  caip2,
  type Deps,
  fail,
  isRecord,
  playerOf,
  readJson,
  requireBearer,
  signatureOf,
} from './http.js'

/** The prefix of the emulator chains' API names. */
export const chainNamePrefix = 'imtbl-zkevm-local-'

/**
 * The API's name of an emulator chain, as the real API names its chains
 * (`imtbl-zkevm-testnet`), e.g. `imtbl-zkevm-local-31337`.
 */
export function chainNameOf(chainId: number): string {
  return `${chainNamePrefix}${chainId}`
}

/** The emulator chain of an API chain name, e.g. `imtbl-zkevm-local-31337`. */
export function chainByName(
  deps: Pick<Deps, 'chains'>,
  name: string | undefined,
): ApiChain | undefined {
  return deps.chains.find((chain) => chainNameOf(chain.chainId) === name)
}

/** Adds the chain and registration routes to `app`. */
export function chainRoutes(app: Hono<ApiEnv>, deps: Deps): void {
  app.get(paths.chains, (c) =>
    c.json({
      result: deps.chains.map((chain) => ({
        id: caip2(chain.chainId),
        name: chainNameOf(chain.chainId),
        rpc_url: chain.rpcUrl,
        operator_allowlist_address:
          chain.contracts?.operatorAllowlist?.toLowerCase() ?? null,
        minter_address: deps.minterOf(chain.chainId)?.toLowerCase() ?? null,
      })),
      page: { previous_cursor: null, next_cursor: null },
    } satisfies ChainsResponse & components['schemas']['ListChainsResult']),
  )

  app.post(
    paths.counterfactualAddress.replace('{chain_name}', ':chainName'),
    requireBearer(deps.verifier),
    async (c) => {
      const player = playerOf(deps, c.var.bearer)
      if (!player) return fail(c, 'unauthorised', 'The player is unknown.')
      const chainName = c.req.param('chainName')
      const chain = chainByName(deps, chainName)
      if (!chain)
        return fail(c, 'notFound', `There is no chain named ${chainName}.`)
      const body = await readJson(c)
      const address = isRecord(body)
        ? addressOf(body.ethereum_address)
        : undefined
      const signature = isRecord(body)
        ? signatureOf(body.ethereum_signature)
        : undefined
      if (!address || !signature)
        return fail(
          c,
          'validation',
          'Expected { ethereum_address, ethereum_signature } (an address and a 65-byte hex signature).',
        )
      const normalized = withLegacyV(signature)
      if (!normalized)
        return fail(
          c,
          'validation',
          'The signature must end with v 0, 1, 27 or 28.',
        )
      const signer = await recoverMessageAddress({
        message: registrationMessage,
        signature: normalized,
      }).catch(() => undefined)
      if (signer !== address)
        return fail(
          c,
          'authentication',
          'ethereum_signature is not a signature of the registration message by ethereum_address.',
        )
      const custody = findCustody(deps.registry, deps.issuer, player.id)
      if (custody?.address !== address)
        return fail(
          c,
          'authentication',
          "ethereum_address is not the player's key-custody wallet.",
        )
      const wallet = registerWallet(deps, player.id, custody.address, chain)
      // The wallet may trade the platform's collections from its first
      // transaction, as on the hosted chain; a node that fails here leaves
      // the order book to allowlist it when it buys.
      await deps.walletRegistered(chain.chainId, wallet).catch(() => undefined)
      return c.json({
        counterfactual_address: wallet,
      } satisfies CounterfactualAddressResponse)
    },
  )
}

/**
 * Records the player's zkEVM wallet and signer. Idempotent: the address
 * follows from the custody key alone.
 */
function registerWallet(
  deps: Deps,
  playerId: string,
  custody: Address,
  chain: ApiChain,
): Address {
  const wallet = deps.walletAddress(custody, chain)
  deps.registry.setPassport(playerId, {
    zkevmEthAddress: wallet,
    zkevmUserAdminAddress: custody,
  })
  return wallet
}

/**
 * The signature with its `v` as 27 or 28. The published SDK re-serialises
 * the custody key's signature with `v` 0 or 1 (its y-parity); a signer
 * that keeps Ethereum's legacy 27/28 is accepted too.
 *
 * @returns `undefined` for any other `v`.
 */
function withLegacyV(signature: Hex): Hex | undefined {
  const v = Number.parseInt(signature.slice(130), 16)
  if (v === 27 || v === 28) return signature
  if (v === 0 || v === 1)
    return `${signature.slice(0, 130)}${(v + 27).toString(16)}` as Hex
  return undefined
}
