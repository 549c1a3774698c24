/**
 * The constants several emulated services share: the names by which they
 * know each other. A leaf: it imports nothing, so a service that needs one
 * of them never imports another service for it (`test/unit/layers.test.ts`
 * checks both).
 *
 * @packageDocumentation
 */

/**
 * The publishable API key the iframe wallet's provider accepts by default:
 * the dApps' app (`magic.apiKey` on the JSON line).
 */
export const defaultApiKey = 'pk_live_EMULATOR0000000000'

/**
 * The game wallet's one client at the emulated identity provider (public,
 * PKCE): the audience of its id tokens, which the key-custody API and the
 * iframe wallet's OIDC login check.
 */
export const defaultClientId = 'emulator-passport-client'

/**
 * The game wallet's login callback page when none is given: the
 * playground's (`passport.redirectUri` on the JSON line).
 */
export const defaultRedirectUri = 'http://localhost:5173/passport/redirect'

/**
 * The game wallet's logout page when none is given: the playground's
 * (`passport.logoutRedirectUri` on the JSON line).
 */
export const defaultLogoutRedirectUri = 'http://localhost:5173/passport/logout'

/**
 * The provider id under which the iframe wallet's provider knows the game
 * wallet's identity provider, and which the key-custody API expects in
 * `X-OIDC-Provider-ID`: the `magicProviderId` override the emulator
 * prints.
 */
export const passportOidcProviderId = 'emulator-passport-identity'

/**
 * The publishable key of the game wallet's key custody, its own app of the
 * iframe wallet's provider (`passport.overrides.magicPublishableApiKey` on
 * the JSON line, and what the key-custody API expects in
 * `X-Magic-API-Key`). It is not the dApps' key ({@link defaultApiKey},
 * `magic.apiKey`): the provider keeps sessions per app, so a dApp's own
 * iframe-wallet client never sees the custody key's session, as with the
 * hosted services, where the game platform's custody key is its own app.
 */
export const custodyApiKey = 'pk_live_EMULATORCUSTODY000'

/**
 * The platform API's secret key (`x-immutable-api-key`, `passport.apiKey` on
 * the JSON line): the credential the hosted API asks of a game's backend for
 * mint requests, metadata and collection refreshes, crafting signatures and
 * user metadata. A public test key: any program on this machine may use it.
 */
export const platformApiKey = 'sk_imapik-test-EMULATOR000000'
