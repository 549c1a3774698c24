/**
 * The exchange's loopback-only dev route (the server refuses other
 * origins): `POST /dev/starkex/mint` with a {@link DevMintRequest} credits
 * a registered account's vault, so tests and the playground have assets to
 * move. ETH and ERC20 amounts are base units, whole multiples of the
 * token's quantum; an ERC721 is minted once (quantity `'1'`): a token id
 * someone holds already is 409.
 *
 * @packageDocumentation
 */
import type { Hono } from 'hono'
import { devMintPath } from '../../../passport/wire/starkex.js'
import {
  assetOfToken,
  baseUnits,
  type Deps,
  fail,
  isRecord,
  quantize,
  readJson,
  type StarkExEnv,
  tokenOf,
} from './http.js'
import { LedgerError, LedgerFullError } from './ledger.js'
import { assetIdText } from './stark.js'

/** The dev mint's answer: the vault credited and its balance after. */
export type DevMintResponse = {
  /** The account's Ethereum address (lowercase). */
  user: string
  stark_key: string
  vault_id: number
  asset_id: string
  /** The vault's balance after the mint, in base units. */
  balance: string
}

/** Decimals of an ERC20 minted without `decimals` for the first time. */
export const defaultErc20Decimals = 18

/** Mounts the dev routes. */
export function devRoutes(app: Hono<StarkExEnv>, deps: Deps) {
  app.post(devMintPath, async (c) => {
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(
        c,
        'validation',
        'Expected a JSON body { user, token, quantity }.',
      )
    const account =
      typeof body.user === 'string'
        ? deps.ledger.accountOf(body.user)
        : undefined
    if (!account)
      return fail(
        c,
        'notFound',
        `${String(body.user)} is not registered with StarkEx.`,
      )
    const token = tokenOf(body.token)
    if (!token.ok) return fail(c, 'validation', token.message)
    const erc20 =
      token.value.type === 'ERC20' ? token.value.tokenAddress : undefined
    const known = erc20 === undefined ? undefined : deps.ledger.erc20(erc20)
    const decimals =
      token.value.type === 'ERC721'
        ? 0
        : (token.value.decimals ?? known?.decimals ?? defaultErc20Decimals)
    if (known && known.decimals !== decimals)
      return fail(
        c,
        'conflict',
        `The ERC20 ${erc20} has ${known.decimals} decimals on this exchange.`,
      )
    let asset: ReturnType<Deps['ledger']['learnAsset']>
    try {
      asset = deps.ledger.learnAsset(
        assetOfToken(token.value, decimals),
        decimals,
      )
    } catch (error) {
      if (error instanceof LedgerError)
        return fail(c, 'conflict', error.shortMessage)
      throw error
    }
    const quantity = quantize('quantity', body.quantity, asset)
    if (!quantity.ok) return fail(c, 'validation', quantity.message)
    if (asset.type === 'ERC721' && deps.ledger.holders(asset.id).length > 0)
      return fail(
        c,
        'conflict',
        `ERC721 ${asset.tokenAddress} #${asset.tokenId} exists already.`,
      )
    let vault: ReturnType<Deps['ledger']['openVault']>
    try {
      vault = deps.ledger.openVault(account.starkKey, asset.id)
    } catch (error) {
      if (error instanceof LedgerFullError)
        return fail(c, 'conflict', error.shortMessage)
      throw error
    }
    if (vault.balance + quantity.value >= 1n << 63n)
      return fail(
        c,
        'validation',
        'The vault would hold more than StarkEx can count (2^63 quantized units).',
      )
    deps.ledger.credit(vault.id, quantity.value)
    return c.json({
      user: account.ethAddress.toLowerCase(),
      stark_key: account.starkKey,
      vault_id: vault.id,
      asset_id: assetIdText(asset.id),
      balance: baseUnits(vault.balance, asset),
    } satisfies DevMintResponse)
  })
}
