/**
 * The key-custody REST API the published @imtbl/passport 2.24.8 calls (the
 * Magic TEE): the paths and headers. The emulator serves it over the same
 * custody key per player as the iframe wallet's OIDC login. A leaf: it
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
