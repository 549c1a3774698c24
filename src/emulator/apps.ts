/**
 * Where the emulator's two products meet. The game wallet keeps its players'
 * keys with the iframe wallet's provider: its key custody is an app of that
 * provider, with a publishable key of its own, and the game wallet's
 * identity provider is that app's OIDC provider. Both products' services
 * read these names from here, so that neither imports the other's services.
 * A leaf: it imports nothing.
 *
 * @packageDocumentation
 */

/**
 * The publishable key of the game wallet's key custody
 * (`passport.overrides.magicPublishableApiKey` on the JSON line). It is not
 * the dApps' key (`magic.apiKey`): the provider keeps sessions per app, so
 * a dApp's own iframe-wallet client never sees the custody key's session,
 * as with the hosted services, where the game platform's custody key is its
 * own app.
 */
export const custodyApiKey = 'pk_live_EMULATORCUSTODY000'

/**
 * The provider id under which the custody app knows the game wallet's
 * identity provider (`magic_auth_login_with_oidc` with a player's id
 * token), and which the key-custody API expects in `X-OIDC-Provider-ID`:
 * `passport.overrides.magicProviderId` on the JSON line.
 */
export const passportOidcProviderId = 'emulator-passport-identity'

/**
 * The game wallet identity provider's one client (public, PKCE): the
 * audience of its players' id tokens, which the custody app and the
 * key-custody API check.
 */
export const passportClientId = 'emulator-passport-client'
