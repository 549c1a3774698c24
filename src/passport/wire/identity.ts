/**
 * The game wallet's identity provider as both sides see it: the paths on
 * the authentication domain, the request parameters beyond OAuth's own, and
 * the audience and scopes asked for by default. The client (`auth/`) builds
 * its requests from these and the emulated provider serves them, so the two
 * cannot drift apart. A leaf: it imports nothing.
 *
 * The values are those of the published @imtbl/passport 2.x against Auth0:
 * it calls fixed paths rather than the ones discovery would name, sends the
 * API it wants a token for as `audience` (Auth0's parameter; RFC 8707 calls
 * the standard one `resource`), and logs out at Auth0's `/v2/logout` rather
 * than at an OpenID Connect RP-Initiated Logout endpoint.
 */

/** Paths on the authentication domain. */
export const paths = {
  /** The OpenID Connect Discovery 1.0 document. */
  discovery: '/.well-known/openid-configuration',
  /** The authorization endpoint (code flow with PKCE, RFC 6749 and 7636). */
  authorize: '/authorize',
  /** The token endpoint: authorization_code, refresh_token, device_code. */
  token: '/oauth/token',
  /** The device authorization endpoint (RFC 8628). */
  deviceAuthorization: '/oauth/device/code',
  /**
   * Where the person types the device flow's user code. The client takes it
   * from the device authorization response (`verification_uri_complete`),
   * never from here.
   */
  deviceVerification: '/device',
  /** Token revocation (RFC 7009). */
  revocation: '/oauth/revoke',
  /** The signing keys of id and access tokens (a JWK Set). */
  jwks: '/.well-known/jwks.json',
  /** The OpenID Connect UserInfo endpoint. */
  userinfo: '/userinfo',
  /** Ends the provider's session, then returns to `returnTo`. */
  logout: '/v2/logout',
} as const

/** Query parameters of the {@link paths.logout} URL. */
export const logoutParams = {
  /** The client whose session ends. */
  clientId: 'client_id',
  /** Where the provider sends the browser afterwards (the app's logout page). */
  returnTo: 'returnTo',
} as const

/**
 * Parameters the SDK adds to the authorization request (and, for
 * `audience`, to the device authorization request).
 */
export const requestParams = {
  /** The API the access token is for. */
  audience: 'audience',
  /** The `anonymousId` a game passes to `login`. */
  anonymousId: 'third_party_a_id',
  /** The sign-in method to go straight to (`google`, `apple`, `email`…). */
  direct: 'direct',
  /** The address for `direct=email`. */
  email: 'email',
  /** `opted_in`, `unsubscribed` or `subscribed`. */
  marketingConsent: 'marketingConsent',
  /** The game runtime's id, appended to the device flow's URL. */
  runtimeId: 'rid',
} as const

/** The API an access token is for when the app names none. */
export const defaultAudience = 'platform_api'

/** The scopes the SDK uses. */
export const scopes = {
  openid: 'openid',
  profile: 'profile',
  email: 'email',
  /** Asks for a refresh token. */
  offlineAccess: 'offline_access',
  /** The platform API's own scope, carried by its access tokens. */
  transact: 'transact',
} as const

/** The scope asked for when the app names none. */
export const defaultScope = [
  scopes.openid,
  scopes.profile,
  scopes.email,
  scopes.offlineAccess,
  scopes.transact,
].join(' ')
