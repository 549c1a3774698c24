/**
 * The StarkEx layer as the game wallet and the emulated exchange both see
 * it: how a player's Stark key is derived from the custody key, the token
 * descriptors the legacy exchange API takes, and the emulator's dev route
 * that credits a player's vault. The exchange's routes and bodies are the
 * legacy exchange API's (`src/api/wire/imx`). A leaf: it imports nothing.
 *
 * As the published @imtbl/passport 2.14.0 (with @imtbl/x-client 2.14.0)
 * speaks it.
 */

/**
 * The text the custody key signs (EIP-191 `personal_sign`) to seed the
 * player's Stark key; the apostrophe is U+2019. The signature's `s` is the
 * BIP32 seed, so the custody signature must be deterministic (RFC 6979).
 */
export const starkKeyMessage =
  'Only sign this request if you\u2019ve initiated an action with Immutable X.'

/**
 * The BIP32 path's parts: `m/2645'/{layer}'/{application}'/{addr low 31
 * bits}'/{addr next 31 bits}'/{index}`, where layer and application are the
 * low 31 bits of the SHA-256 of these texts (EIP-2645).
 */
export const starkKeyPath = {
  purpose: 2645,
  layer: 'starkex',
  application: 'immutablex',
  index: 1,
} as const

/** The token types of the exchange's token descriptors. */
export const tokenTypes = {
  eth: 'ETH',
  erc20: 'ERC20',
  erc721: 'ERC721',
} as const

/** A token descriptor of the legacy exchange API (`SignableToken`). */
export type Token =
  | { type: 'ETH'; data: { decimals: number } }
  | { type: 'ERC20'; data: { token_address: string; decimals?: number } }
  | { type: 'ERC721'; data: { token_address: string; token_id: string } }

/**
 * The emulator's loopback-only route that credits a registered player's
 * vault, `POST {imxPublicApiDomain}/dev/starkex/mint` with a
 * {@link DevMintRequest}.
 */
export const devMintPath = '/dev/starkex/mint'

/** The body of {@link devMintPath}. */
export type DevMintRequest = {
  /** The player's StarkEx Ethereum address (`imx_eth_address`). */
  user: string
  token: Token
  /** The amount in the token's base unit (wei); `'1'` for an ERC721. */
  quantity: string
}

/** The `chainType` of StarkEx requests at the guardian. */
export const chainType = 'starkex'
