/**
 * The constants several emulated services share: the names by which they
 * know each other. A leaf: it imports nothing, so a service that needs one
 * of them never imports another service for it (`test/unit/layers.test.ts`
 * checks both).
 *
 * @packageDocumentation
 */

/**
 * The publishable API key the iframe wallet's provider accepts by default,
 * which the game wallet's overrides name (`magicPublishableApiKey`) and its
 * key-custody API expects in `X-Magic-API-Key`.
 */
export const defaultApiKey = 'pk_live_EMULATOR0000000000'

/**
 * The game wallet's one client at the emulated identity provider (public,
 * PKCE): the audience of its id tokens, which the key-custody API and the
 * iframe wallet's OIDC login check.
 */
export const defaultClientId = 'emulator-passport-client'

/**
 * The provider id under which the iframe wallet's provider knows the game
 * wallet's identity provider, and which the key-custody API expects in
 * `X-OIDC-Provider-ID`: the `magicProviderId` override the emulator
 * prints.
 */
export const passportOidcProviderId = 'emulator-passport-identity'
