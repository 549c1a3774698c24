/**
 * The emulated identity provider of the game wallet, on its own origin:
 * oidc-provider (a Koa app) for the OAuth/OIDC routes, plus a Hono app for
 * the sign-in page, `/userinfo` and `/health`, and the `/v2/logout` adapter.
 *
 * Routes (those the published SDK calls, see src/passport/wire):
 * - `GET /.well-known/openid-configuration`, `GET /.well-known/jwks.json`
 * - `GET /authorize` (authorization code + PKCE S256, required)
 * - `POST /oauth/token` (authorization_code, refresh_token, device_code)
 * - `POST /oauth/device/code`, `GET|POST /device` (the verification page)
 * - `GET|POST /userinfo`, `POST /oauth/revoke`
 * - `GET /v2/logout?client_id=&returnTo=` (mapped onto `/session/end`)
 * - `/interaction/:uid…` (the sign-in page, see login.ts)
 */
import { generateKeyPair, randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { promisify } from 'node:util'
import type { HttpBindings } from '@hono/node-server'
import { cors } from 'hono/cors'
import { createLocalJWKSet, decodeJwt, type JWK, jwtVerify } from 'jose'
import type Provider from 'oidc-provider'
import { logoutParams, paths } from '../../../passport/wire/identity.js'
import { tokenCheckTime } from '../../clock.js'
import { createCodes } from '../../codes.js'
import {
  defaultClientId,
  defaultLogoutRedirectUri,
  defaultRedirectUri,
} from '../../constants.js'
import type * as Mailbox from '../../dev/mailbox.js'
import * as Inspect from '../../inspect.js'
import { isLoopbackOrigin, isLoopbackUrl } from '../../loopback.js'
import type { Registry } from '../../registry/index.js'
import { createApp, startServer, toNodeHandler } from '../../server.js'
import { defineService } from '../../service.js'
import { createMemoryAdapter, type MemoryStore } from './adapter.js'
import { userClaims } from './claims.js'
import { errorPage } from './html.js'
import { loginRoutes } from './login.js'
import { createProvider, type Ttl } from './provider.js'

/** The emulator's one client: public (no secret), PKCE. */
/** The playground's login callback and logout pages. */
export { defaultClientId, defaultLogoutRedirectUri, defaultRedirectUri }

/**
 * Default lifetimes in seconds: tokens 24 h (the published SDK refreshes
 * once less than 1 h is left), refresh 14 days, device codes 10 min.
 */
export const defaultTtl: Ttl = {
  accessToken: 24 * 60 * 60,
  idToken: 24 * 60 * 60,
  refreshToken: 14 * 24 * 60 * 60,
  deviceCode: 10 * 60,
}

/** A created identity service. */
export type IdentityService = {
  /** The issuer: the service's origin. */
  readonly issuer: string
  /** The client id the dApp uses. */
  readonly clientId: string
  /**
   * The Node request handler to serve. It returns what the route's app
   * returns (a promise for Koa and Hono), so that the server sees a failure.
   */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => unknown
  /** The oidc-provider instance. */
  readonly provider: Provider
}

/**
 * Creates the emulated identity provider. Redirect URIs and logout
 * `returnTo`s: any loopback `http` URL (any port) is accepted for the client,
 * anything else refused. CORS: loopback origins may call the token, device,
 * revocation and userinfo endpoints; discovery and JWKS are open.
 *
 * @example
 * ```ts
 * const identity = await createIdentityService({
 *   issuer: 'http://127.0.0.1:4402',
 *   registry,
 *   mailbox,
 * })
 * await startServer({ handler: identity.handler, port: 4402 })
 * ```
 */
export async function createIdentityService(
  options: createIdentityService.Options,
): Promise<IdentityService> {
  const {
    issuer,
    registry,
    mailbox,
    clientId = defaultClientId,
    redirectUri = defaultRedirectUri,
    logoutRedirectUri = defaultLogoutRedirectUri,
    deviceInterval = 5,
    now = () => new Date(),
    advancedSince = () => 0,
  } = options
  const ttl = { ...defaultTtl, ...options.ttl }

  const signing = options.signingKey ?? (await newSigningKey())
  const {
    d: _d,
    p: _p,
    q: _q,
    dp: _dp,
    dq: _dq,
    qi: _qi,
    ...verifying
  } = signing

  const { inspect } = options
  const adapter = createMemoryAdapter({
    now: () => now().getTime(),
    hidden: (model) =>
      model === 'RefreshToken' && options.refuseRefresh?.() === true,
    onChange: (model) => {
      if (model === 'Grant' || model === 'RefreshToken')
        inspect?.changed(Inspect.sources.passportSessions)
    },
  })
  if (inspect) inspectSessions(inspect, adapter, registry)
  const provider = createProvider({
    issuer,
    registry,
    clientId,
    redirectUri,
    logoutRedirectUri,
    keys: [signing],
    cookieKeys: [randomBytes(32).toString('base64url')],
    ttl,
    deviceInterval,
    adapter,
  })

  const app = createApp<{ Bindings: HttpBindings }>()
  app.get('/health', (c) => c.json({ ok: true }))
  app.use(
    paths.userinfo,
    cors({
      origin: (origin) => (isLoopbackOrigin(origin) ? origin : null),
      allowMethods: ['GET', 'POST'],
      allowHeaders: ['Authorization', 'Content-Type'],
      exposeHeaders: ['WWW-Authenticate'],
    }),
  )
  const keySet = createLocalJWKSet({ keys: [verifying] })
  // JWT access tokens are not stored: remember their grants, so that a
  // revoked grant (a revoked refresh token) ends their userinfo access.
  // Expired ones are forgotten; past the cap the oldest go first (their
  // tokens then read as revoked at /userinfo).
  const grants = new Map<string, { grantId: string; until: number }>()
  provider.on('access_token.issued', (token) => {
    const { jti, grantId } = token as { jti: string; grantId: string }
    const at = Date.now()
    for (const [id, entry] of grants) if (entry.until < at) grants.delete(id)
    for (const id of grants.keys()) {
      if (grants.size < maxAccessTokens) break
      grants.delete(id)
    }
    grants.set(jti, { grantId, until: at + ttl.accessToken * 1000 })
  })
  app.on(['GET', 'POST'], paths.userinfo, async (c) => {
    const refuse = (description: string) => {
      c.header(
        'WWW-Authenticate',
        `Bearer realm="${issuer}", error="invalid_token", error_description="${description}"`,
      )
      return c.json(
        { error: 'invalid_token', error_description: description },
        401,
      )
    }
    const token = /^Bearer (\S+)$/i.exec(
      c.req.header('authorization') ?? '',
    )?.[1]
    if (token === undefined) return refuse('no Bearer access token')
    const payload = await jwtVerify(token, keySet, {
      issuer,
      typ: 'at+jwt',
      // The token lives its lifetime on the services' clock.
      currentDate: tokenCheckTime(issuedAtOf(token), advancedSince),
    }).then(
      (verified) => verified.payload,
      () => undefined,
    )
    if (payload === undefined) return refuse('invalid access token')
    const grantId =
      typeof payload.jti === 'string'
        ? grants.get(payload.jti)?.grantId
        : undefined
    const grant =
      grantId === undefined ? undefined : await provider.Grant.find(grantId)
    const user = grant && registry.get(grant.accountId)
    if (!grant || !user) return refuse('access token expired or revoked')
    const scopes = new Set(grant.getOIDCScope().split(' '))
    return c.json(userClaims(user, scopes))
  })
  app.route(
    '/',
    loginRoutes({
      provider,
      registry,
      mailbox,
      codes: createCodes({ now }),
      mailboxPage: options.mailboxPage,
    }),
  )

  const hono = toNodeHandler(app.fetch, { name: 'identity' })
  const koa = provider.callback()
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = URL.parse(req.url ?? '/', issuer)
    if (url === null) {
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: 'The request target is not a URL.' }))
      return undefined
    }
    if (url.pathname === paths.logout) {
      const target = logoutTarget(url)
      if ('error' in target) {
        res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        res.end(errorPage(target))
        return undefined
      }
      if (target.returnTo !== undefined && !hasSessionCookie(req)) {
        // No sign-in session is visible to this request: a dApp on another
        // site logs out in a hidden iframe, where the browser withholds the
        // provider's SameSite=Lax cookies (as it withholds third-party
        // cookies from real providers). There is nothing to end here; the
        // SDK has already revoked the refresh token.
        res.writeHead(302, { location: target.returnTo })
        res.end()
        return undefined
      }
      req.url = target.path
      return koa(req, res)
    }
    if (
      url.pathname === '/health' ||
      url.pathname === paths.userinfo ||
      url.pathname.startsWith('/interaction/')
    )
      return hono(req, res)
    return koa(req, res)
  }
  return { issuer, clientId, handler, provider }
}

/**
 * Shows the players' sessions on the hub: each grant (one sign-in of a
 * client, which its refresh tokens renew) with its player and client; the
 * action `end` `{ id }` ends one, so its refresh token is refused and the
 * SDK's next refresh logs the player out.
 */
function inspectSessions(
  hub: Inspect.Hub,
  store: MemoryStore,
  registry: Registry,
): void {
  hub.register(Inspect.sources.passportSessions, {
    snapshot() {
      const refreshed = new Map<string, number>()
      for (const { payload } of store.list('RefreshToken'))
        if (typeof payload.grantId === 'string')
          refreshed.set(
            payload.grantId,
            (refreshed.get(payload.grantId) ?? 0) + 1,
          )
      return store
        .list('Grant')
        .reverse()
        .slice(0, Inspect.maxRows)
        .map(({ id, payload }) => {
          const accountId = String(payload.accountId ?? '')
          const user = registry.get(accountId)
          const iat = typeof payload.iat === 'number' ? payload.iat : undefined
          return {
            id,
            userId: accountId,
            who: user?.email ?? user?.phoneNumber,
            address: user?.passport.zkevmEthAddress,
            clientId: payload.clientId,
            createdAt:
              iat === undefined
                ? undefined
                : new Date(iat * 1000).toISOString(),
            refreshTokens: refreshed.get(id) ?? 0,
          }
        })
    },
    actions: {
      end(input) {
        const id = Inspect.stringField(input, 'id')
        if (!store.list('Grant').some((grant) => grant.id === id))
          throw new Inspect.ActionError('No such session.', 404)
        store.endGrant(id)
        return { id, ended: true }
      },
    },
  })
}

/**
 * A fresh RS256 signing key (2048-bit RSA) as a private JWK, with a random
 * `kid`, `alg` and `use`: what the service signs its tokens with.
 */
export async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
  })
  return {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(8).toString('hex'),
    alg: 'RS256',
    use: 'sig',
  } as JWK
}

/**
 * The most access tokens whose grant is remembered for `/userinfo`:
 * 10,000, the cap of the provider's store (see adapter.ts), of which every
 * sign-in or refresh that issues one also takes an entry.
 */
export const maxAccessTokens = 10_000

/** A JWT's `iat`, if it reads as one. */
function issuedAtOf(token: string): number | undefined {
  try {
    const { iat } = decodeJwt(token)
    return typeof iat === 'number' ? iat : undefined
  } catch {
    return undefined
  }
}

/** Whether the request carries oidc-provider's session cookie. */
function hasSessionCookie(req: IncomingMessage): boolean {
  return (req.headers.cookie ?? '')
    .split(';')
    .some((pair) => pair.trim().startsWith('_session='))
}

/**
 * Maps the SDK's `/v2/logout?client_id=&returnTo=` onto oidc-provider's end
 * session route (`client_id`, `post_logout_redirect_uri`).
 *
 * A `returnTo` must be a loopback `http` URL, and is used as its WHATWG
 * serialisation: that percent-encodes what a `Location` header cannot carry
 * (a `returnTo` of `http://127.0.0.1:5173/\u202e` comes back as
 * `http://127.0.0.1:5173/%E2%80%AE`, as a browser would request it), where
 * the text as given made Node's `writeHead` throw.
 *
 * @returns The path to serve and the `returnTo` to redirect to, or the
 *   error when `returnTo` is not loopback.
 */
function logoutTarget(
  url: URL,
):
  | { path: string; returnTo?: string | undefined }
  | { error: string; error_description: string } {
  const query = new URLSearchParams()
  const clientId = url.searchParams.get(logoutParams.clientId)
  const given = url.searchParams.get(logoutParams.returnTo)
  if (clientId !== null) query.set('client_id', clientId)
  let returnTo: string | undefined
  if (given !== null) {
    if (!isLoopbackUrl(given))
      return {
        error: 'invalid_request',
        error_description:
          'returnTo must be an http URL on 127.0.0.1 or localhost',
      }
    returnTo = new URL(given).href
    query.set('post_logout_redirect_uri', returnTo)
  }
  const search = query.toString()
  return {
    path: search === '' ? '/session/end' : `/session/end?${search}`,
    returnTo,
  }
}

export declare namespace createIdentityService {
  type Options = {
    /** The service's origin, e.g. `http://127.0.0.1:4402`: the issuer. */
    issuer: string
    /** The emulator's users. */
    registry: Registry
    /** Where the sign-in codes are delivered. */
    mailbox: Mailbox.Store
    /** The client id. @default 'emulator-passport-client' */
    clientId?: string | undefined
    /** The registered redirect URI. @default 'http://localhost:5173/passport/redirect' */
    redirectUri?: string | undefined
    /** The registered logout URI. @default 'http://localhost:5173/passport/logout' */
    logoutRedirectUri?: string | undefined
    /** The dev mailbox page, linked from the sign-in page. */
    mailboxPage?: string | undefined
    /** Lifetimes in seconds. @default {@link defaultTtl} */
    ttl?: Partial<Ttl> | undefined
    /** The device flow's poll interval in seconds. @default 5 */
    deviceInterval?: number | undefined
    /**
     * The services' clock: the sign-in codes, and the stored grants,
     * sessions and refresh tokens expire by it. Tokens are stamped by
     * oidc-provider on the wall clock, which the browser reads too.
     * @default () => new Date()
     */
    now?: (() => Date) | undefined
    /** The observation hub its sessions (grants) are shown on. */
    inspect?: Inspect.Hub | undefined
    /**
     * How far the services' clock has moved since a wall-clock time (see
     * clock.ts): `/userinfo` checks an access token that much later.
     * @default never moved
     */
    advancedSince?: ((at: number) => number) | undefined
    /**
     * Whether the token endpoint refuses refresh tokens (read on each
     * grant, `invalid_grant`). @default never
     */
    refuseRefresh?: (() => boolean) | undefined
    /**
     * The RS256 private JWK (with `kid`) the tokens are signed with; tests
     * pass one to sign tokens of their own with the issuer's key.
     * @default a fresh one ({@link newSigningKey})
     */
    signingKey?: JWK | undefined
  }
}

/**
 * The game wallet's identity provider as a service of the emulator. Adds
 * `passport: { authenticationDomain, clientId, redirectUri,
 * logoutRedirectUri }` to the JSON line.
 */
export const service = defineService({
  name: 'identity',
  async start(context) {
    const { redirectUri, logoutRedirectUri } = context.passport
    const identity = await createIdentityService({
      issuer: context.origin,
      registry: context.registry,
      mailbox: context.mailbox,
      inspect: context.inspect,
      clientId: defaultClientId,
      redirectUri,
      logoutRedirectUri,
      mailboxPage:
        context.origins.dev === undefined
          ? undefined
          : `${context.origins.dev}/mailbox/view`,
      now: context.clock.now,
      advancedSince: context.clock.advancedSince,
      refuseRefresh: () => context.scenarios.isOn('refresh-token-rejected'),
    })
    const server = await startServer({
      handler: identity.handler,
      ...context.listen,
      // The game wallet logs out silently in a hidden iframe on the dApp's
      // page; the sign-in and device pages stay unframable.
      framable: [paths.logout, '/session/end'],
    })
    return {
      ...server,
      info: {
        passport: {
          authenticationDomain: server.url,
          clientId: identity.clientId,
          redirectUri,
          logoutRedirectUri,
        },
      },
    }
  },
})
