/**
 * The key-custody REST API the published @imtbl/passport 2.24.8 calls (the
 * Magic TEE): the paths, headers and bodies. The emulator serves it over the
 * same custody key per player as the iframe wallet's OIDC login. A leaf: it
 * imports nothing.
 */

/** The paths. */
export const paths = {
  /** `POST`: creates (or returns) the player's wallet: `{ public_address }`. */
  wallet: '/v1/wallet',
  /** `POST { message_base64 }`: signs (EIP-191): `{ signature, r, s, v }`. */
  signMessage: '/v1/wallet/sign/message',
} as const

/** The request headers, besides `Authorization: Bearer <id token>`. */
export const headers = {
  apiKey: 'X-Magic-API-Key',
  providerId: 'X-OIDC-Provider-ID',
  chain: 'X-Magic-Chain',
} as const

/** The `X-Magic-Chain` value of an Ethereum-compatible wallet. */
export const ethChain = 'ETH'

/** The answer to `POST` {@link paths.wallet}. */
export type WalletResponse = { public_address: string }

/**
 * `POST` {@link paths.signMessage}: the message, base64. The published SDK
 * sends text as its UTF-8 bytes and bytes as the text `0x<hex>`, which the
 * custody API signs as the bytes it spells.
 */
export type SignMessageRequest = { message_base64: string }

/**
 * The answer to a signature: `signature` is the 65 bytes `r ‖ s ‖ v` (hex,
 * v 27 or 28), `r` and `s` 32-byte hex, `v` the number 27 or 28.
 */
export type SignMessageResponse = {
  signature: string
  r: string
  s: string
  v: number
}
