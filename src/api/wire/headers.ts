/**
 * The request headers of the platform's HTTP APIs: the SDK version every
 * request carries, and the credentials' headers (the OpenAPI specs' security
 * schemes and header parameters).
 */

/** The header naming the SDK version, on every request. */
export const sdkVersionHeader = 'x-sdk-version'

/** The version every request names (`x-sdk-version: ts-immutable-sdk-2.2.0`). */
export const sdkVersion = 'ts-immutable-sdk-2.2.0'

/** A project's secret API key (mint requests, metadata refresh, crafting, user metadata). */
export const apiKeyHeader = 'x-immutable-api-key'

/** A user's access token, as `Bearer <token>` (guardian, passport, passport profile). */
export const authorizationHeader = 'Authorization'

/** The signing wallet's address (legacy exchange API: transfers, withdrawals, trades, orders). */
export const imxEthAddressHeader = 'x-imx-eth-address'

/** The wallet's signature over the request (with {@link imxEthAddressHeader}). */
export const imxEthSignatureHeader = 'x-imx-eth-signature'

/** The signed timestamp of a metadata refresh call (legacy exchange API). */
export const imxEthTimestampHeader = 'x-imx-eth-timestamp'

/** The project owner's signature (legacy exchange API: collection and project writes). */
export const imxSignatureHeader = 'IMX-Signature'

/** The timestamp the project owner signed (with {@link imxSignatureHeader}). */
export const imxTimestampHeader = 'IMX-Timestamp'
