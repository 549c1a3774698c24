/**
 * The oidc-provider configuration of the emulated identity provider: the
 * routes the game wallet's SDK calls, one public client, PKCE, refresh
 * tokens, the device flow, JWT access tokens for the requested `audience`,
 * and claims read from the emulator's registry when a token is issued.
 */

import type { JWK } from 'jose'
import Provider, {
  type Account,
  errors,
  type Grant,
  interactionPolicy,
  type KoaContextWithOIDC,
} from 'oidc-provider'
import {
  defaultAudience,
  paths,
  requestParams,
  scopes,
} from '../../../passport/wire/identity.js'
import { isLoopbackOrigin, isLoopbackUrl } from '../../loopback.js'
import type { Registry } from '../../registry/index.js'
import { createMemoryAdapter, type MemoryStore } from './adapter.js'
import { claimsByScope, userClaims } from './claims.js'
import {
  deviceCodeGrantType,
  deviceMiddleware,
  requireDeviceSession,
  successSource,
  userCodeConfirmSource,
  userCodeInputSource,
} from './device.js'
import { errorPage, escapeHtml, hidden, page } from './html.js'

/**
 * oidc-provider's resource indicators must be absolute URIs, the SDK sends
 * a bare `audience`: `audience=platform_api` becomes the resource
 * `urn:emulator:audience:platform_api`, whose tokens say `aud: platform_api`.
 */
const audiencePrefix = 'urn:emulator:audience:'

/** Lifetimes in seconds. */
export type Ttl = {
  accessToken: number
  idToken: number
  refreshToken: number
  deviceCode: number
}

/** What the provider is built from. */
export type ProviderOptions = {
  issuer: string
  registry: Registry
  clientId: string
  redirectUri: string
  logoutRedirectUri: string
  /** The private signing keys (RS256). */
  keys: JWK[]
  /** Secrets signing the provider's cookies. */
  cookieKeys: string[]
  ttl: Ttl
  /** The device flow's poll interval in seconds. */
  deviceInterval: number
  /** Its storage. @default a fresh in-memory store */
  adapter?: MemoryStore | undefined
}

/**
 * Builds the provider. Redirect URIs and logout `returnTo`s are accepted when
 * they are loopback `http` URLs on any port (see loopback.ts), not only the
 * registered ones.
 */
export function createProvider(options: ProviderOptions): Provider {
  const { issuer, registry, clientId, ttl } = options

  const provider = new Provider(issuer, {
    adapter: options.adapter ?? createMemoryAdapter(),
    clients: [
      {
        client_id: clientId,
        client_name: 'Emulator game wallet',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: [
          'authorization_code',
          'refresh_token',
          deviceCodeGrantType,
        ],
        response_types: ['code'],
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [options.logoutRedirectUri],
      },
    ],
    jwks: { keys: options.keys },
    cookies: { keys: options.cookieKeys },
    routes: {
      authorization: paths.authorize,
      token: paths.token,
      device_authorization: paths.deviceAuthorization,
      code_verification: paths.deviceVerification,
      revocation: paths.revocation,
      jwks: paths.jwks,
      end_session: '/session/end',
    },
    // /userinfo is served by the service (service.ts): oidc-provider's
    // refuses access tokens that have an audience.
    discovery: { userinfo_endpoint: `${issuer}${paths.userinfo}` },
    responseTypes: ['code'],
    scopes: [scopes.openid, scopes.offlineAccess, scopes.email, scopes.profile],
    claims: claimsByScope,
    conformIdTokenClaims: false,
    extraParams: [requestParams.audience],
    pkce: { required: () => true },
    rotateRefreshToken: true,
    clientBasedCORS: (_ctx: unknown, origin: string) =>
      isLoopbackOrigin(origin),
    ttl: {
      AccessToken: ttl.accessToken,
      AuthorizationCode: 60,
      DeviceCode: ttl.deviceCode,
      Grant: ttl.refreshToken,
      IdToken: ttl.idToken,
      Interaction: 60 * 60,
      RefreshToken: ttl.refreshToken,
      Session: ttl.refreshToken,
    },
    async findAccount(
      _ctx: unknown,
      sub: string,
    ): Promise<Account | undefined> {
      if (registry.get(sub) === undefined) return undefined
      return {
        accountId: sub,
        claims(_use, scope) {
          // Read at issue time: a registration made since shows up.
          const user = registry.get(sub)
          if (!user) return { sub }
          return userClaims(user, new Set(scope.split(' ')))
        },
      }
    },
    loadExistingGrant: implicitConsent,
    interactions: { policy: consentWithoutPrompt() },
    renderError(ctx: KoaContextWithOIDC, out: Record<string, unknown>) {
      ctx.type = 'html'
      ctx.body = errorPage(out)
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      revocation: { enabled: true },
      deviceFlow: {
        enabled: true,
        charset: 'base-20',
        mask: '****-****',
        userCodeInputSource,
        userCodeConfirmSource,
        successSource,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource(
          ctx: KoaContextWithOIDC,
          _client: unknown,
          oneOf?: string[],
        ) {
          if (oneOf) return oneOf
          const audience = ctx.oidc.params?.[requestParams.audience]
          return `${audiencePrefix}${typeof audience === 'string' && audience !== '' ? audience : defaultAudience}`
        },
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx: unknown, indicator: string) {
          const audience = indicator.startsWith(audiencePrefix)
            ? indicator.slice(audiencePrefix.length)
            : ''
          if (!/^[\w.-]+$/.test(audience))
            throw new errors.InvalidTarget(
              'name the API with the audience parameter',
            )
          return {
            // The platform API's own scope, besides OpenID Connect's.
            scope: scopes.transact,
            audience,
            accessTokenTTL: ttl.accessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource,
        postLogoutSuccessSource,
      },
    },
  })

  const client = provider.Client.prototype
  client.redirectUriAllowed = isLoopbackUrl
  client.postLogoutRedirectUriAllowed = isLoopbackUrl
  // The first middleware added runs outermost: it sees every failure of
  // the ones after it and of the provider's routes.
  provider.use(answerFailures)
  provider.on('server_error', (_ctx, error) => log(error))
  provider.use(requireDeviceSession(provider))
  provider.use(deviceMiddleware({ interval: options.deviceInterval }))
  provider.use(keepOfflineAccess)
  provider.use(revocationAnswersJson)
  provider.use(tokenScopeListsTheGrant)
  return provider
}

/**
 * A token response's `scope` lists every scope granted, the OpenID Connect
 * ones included (`openid profile email offline_access transact`), as the
 * real identity provider answers; oidc-provider lists only the access
 * token's (`transact`, the API's scope). oidc-client-ts keeps that list and
 * sends it as the `scope` of its refresh requests, so with `transact` alone
 * the published @imtbl/passport's refreshes get no id token, and the
 * `passport` claim a registration adds never reaches it.
 */
async function tokenScopeListsTheGrant(
  ctx: KoaContextWithOIDC,
  next: () => Promise<void>,
): Promise<void> {
  await next()
  if (ctx.method !== 'POST' || ctx.path !== paths.token || ctx.status !== 200)
    return
  const body = ctx.body as { scope?: unknown } | undefined
  if (typeof body?.scope !== 'string') return
  const { entities } = ctx.oidc
  const source =
    entities.AuthorizationCode ?? entities.RefreshToken ?? entities.DeviceCode
  if (typeof source?.scope !== 'string') return
  body.scope = [
    ...new Set([...source.scope.split(' '), ...body.scope.split(' ')]),
  ]
    .filter(Boolean)
    .join(' ')
}

/**
 * A successful revocation answers an empty body typed as JSON. oidc-provider
 * answers it as Koa types an empty string, `text/plain`, and oidc-client-ts
 * (which the published @imtbl/passport logs out with) rejects any answer
 * whose Content-Type is not JSON before it reads the status. RFC 7009 asks
 * only for a 200.
 */
async function revocationAnswersJson(
  ctx: KoaContextWithOIDC,
  next: () => Promise<void>,
): Promise<void> {
  await next()
  if (
    ctx.method === 'POST' &&
    ctx.path === paths.revocation &&
    ctx.status === 200
  )
    ctx.type = 'application/json'
}

/**
 * Every failure answers 4xx, never 500, in the form the request asked for
 * (oidc-provider's own rule: an HTML page when `Accept` prefers it, as a
 * browser's navigation does, JSON otherwise):
 *
 * - what oidc-provider answers 500 (`server_error`: an exception in its
 *   code or in the emulator's) and what escapes it (an exception outside
 *   its routes' error handlers) becomes `400 invalid_request`, and the
 *   reason goes to stderr for the developer;
 * - a path no route serves answers `404 { error }` like the emulator's
 *   other services, where Koa would answer a text `Not Found`.
 */
async function answerFailures(
  ctx: KoaContextWithOIDC,
  next: () => Promise<void>,
): Promise<void> {
  try {
    await next()
  } catch (error) {
    if (ctx.headerSent) throw error
    log(error)
    // What the failed route had set (cookies of a session it could not
    // store, a length) does not belong to the error; CORS headers stay so
    // that a loopback page can read it.
    for (const header of ctx.res.getHeaderNames())
      if (!header.startsWith('access-control-') && header !== 'vary')
        ctx.res.removeHeader(header)
    answerError(ctx)
    return
  }
  if (ctx.status >= 500) answerError(ctx)
  else if (ctx.status === 404 && ctx.body == null) {
    // Koa sets 200 when a body is set: the status goes after it.
    ctx.body = { error: `No route ${ctx.method} ${ctx.path}.` }
    ctx.status = 404
  }
}

/** Answers `400 invalid_request`, as a page or as JSON. */
function answerError(ctx: KoaContextWithOIDC) {
  const out = {
    error: 'invalid_request',
    error_description: 'the request could not be handled',
  }
  ctx.status = 400
  if (ctx.accepts('json', 'html') === 'html') {
    ctx.type = 'html'
    ctx.body = errorPage(out)
  } else ctx.body = out
}

/** Tells the developer, on stderr, why a request failed. */
function log(error: unknown) {
  const reason =
    error instanceof Error
      ? (error.stack ?? error.message)
      : `${typeof error} thrown`
  process.stderr.write(
    `[emulator] identity: a request failed: ${reason.split('\n').slice(0, 3).join(' ')}\n`,
  )
}

/**
 * OpenID Connect drops `offline_access` from an authorization request
 * without `prompt=consent`, oidc-provider with it; the real provider issues
 * the refresh token anyway, and the SDK sends no prompt. So a request for
 * `offline_access` gets `consent` added to its prompt (not to `none`), and
 * the policy's consent prompt no longer forces an interaction for that
 * alone (consent is implicit: see {@link implicitConsent}).
 */
async function keepOfflineAccess(
  ctx: KoaContextWithOIDC,
  next: () => Promise<void>,
): Promise<void> {
  if (ctx.method === 'GET' && ctx.path === paths.authorize) {
    const query = new URLSearchParams(ctx.querystring)
    const requested = query.get('scope')?.split(' ') ?? []
    const prompts = query.get('prompt')?.split(' ').filter(Boolean) ?? []
    if (
      requested.includes(scopes.offlineAccess) &&
      !prompts.includes('none') &&
      !prompts.includes('consent')
    ) {
      query.set('prompt', [...prompts, 'consent'].join(' '))
      ctx.querystring = query.toString()
    }
  }
  await next()
}

/** The default policy, minus the interaction a `prompt=consent` forces. */
function consentWithoutPrompt() {
  const policy = interactionPolicy.base()
  policy.get('consent')?.checks.remove('consent_prompt')
  return policy
}

/**
 * Consent is implicit for the emulator's one first-party client: the
 * session's grant is extended to every scope and audience requested.
 */
async function implicitConsent(
  ctx: KoaContextWithOIDC,
): Promise<Grant | undefined> {
  const { oidc } = ctx
  const { client, account } = oidc
  if (!client || !account) return undefined
  const grantId =
    (oidc.result?.consent as { grantId?: string } | undefined)?.grantId ??
    oidc.session.grantIdFor(client.clientId)
  const grant =
    (grantId === undefined
      ? undefined
      : await oidc.provider.Grant.find(grantId)) ??
    new oidc.provider.Grant({
      accountId: account.accountId,
      clientId: client.clientId,
    })
  grant.addOIDCScope([...oidc.requestParamOIDCScopes].join(' '))
  for (const [indicator, server] of Object.entries(oidc.resourceServers))
    grant.addResourceScope(indicator, server.scope)
  await grant.save()
  return grant
}

/**
 * The end-session page: it signs out at once (the SDK's silent logout loads
 * it in a hidden iframe, where nobody could press a button); without
 * JavaScript a button does it.
 */
async function logoutSource(ctx: KoaContextWithOIDC): Promise<void> {
  const action = ctx.oidc.urlFor('end_session_confirm')
  ctx.type = 'html'
  ctx.body = page(
    'Signing out…',
    `<form id="logout" method="post" action="${escapeHtml(action)}">
${hidden('xsrf', ctx.oidc.session.state?.secret ?? '')}
${hidden('logout', 'yes')}
<button type="submit" data-testid="logout-confirm">Sign out</button>
</form>
<script>document.getElementById('logout').submit()</script>`,
  )
}

/** Shown after a sign-out without a `returnTo`. */
async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  ctx.type = 'html'
  ctx.body = page(
    'Signed out',
    '<p data-testid="logout-success">You are signed out. You can close this page.</p>',
  )
}
