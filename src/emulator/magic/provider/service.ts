/**
 * The emulated backend of the passwordless-login iframe wallet: a Hono app
 * on the provider's origin. Its iframe app (`/send`, see send.ts) forwards
 * each JSON-RPC request to `POST /v1/flow` and relays the streamed lines.
 */
import { createHash } from 'node:crypto'
import type { Hono, MiddlewareHandler } from 'hono'
import type * as Rpc from '../../../core/Rpc.js'
import { rpcCodes } from '../../../magic/wire/codes.js'
import { decodeParams, type Params } from '../../../magic/wire/messages.js'
import { fromTestMode } from '../../../magic/wire/methods.js'
import { paths as identityPaths } from '../../../passport/wire/identity.js'
import { createCodes } from '../../codes.js'
import {
  custodyApiKey,
  defaultClientId,
  passportOidcProviderId,
} from '../../constants.js'
import type * as Mailbox from '../../dev/mailbox.js'
import * as Inspect from '../../inspect.js'
import type { Registry } from '../../registry/index.js'
import { createApp, startServer } from '../../server.js'
import { defineService } from '../../service.js'
import type { Context, Deps, OidcProvider } from './context.js'
import { clientIdOf } from './didToken.js'
import { createVerifier } from './dpop.js'
import { failures, RpcFailure } from './errors.js'
import { linkRoutes, readJson } from './links.js'
import { handlerOf } from './methods/index.js'
import {
  defaultApiKey,
  type FlowRequest,
  invalidApiKeyError,
} from './protocol.js'
import {
  type Controls,
  createRunner,
  type Final,
  toErrorObject,
} from './runner.js'
import { sendRoutes } from './send.js'
import { createSessions } from './session.js'

/**
 * Creates the iframe wallet's emulated backend.
 *
 * - `POST /v1/flow` (body {@link FlowRequest}) → NDJSON lines
 *   ({@link FlowLine}), header `x-flow-id`. A body that is not JSON is a
 *   -32700 `response` line, one that is not a JSON-RPC 2.0 request with
 *   string session material a -32600 line ({@link checkFlowRequest}).
 * - `POST /v1/flow/:flowId/intermediary` (body `{ eventType, args }`, at
 *   most {@link intermediaryBodyLimit} bytes, else 413) → `{ ok: true }`,
 *   400 for another body, 404 for an unknown or finished flow.
 * - `GET /v1/magic-link/:token`, `GET /v1/device-approval/:token`: the
 *   links delivered to the mailbox.
 * - `POST /dev/users/device-approval` `{ email, required }`,
 *   `POST /dev/oidc-providers` `{ providerId, issuer, jwksUri, audience? }`
 *   (see oidc.ts: 409 for an id registered with other settings).
 * - the iframe app's routes (`/send`, …) from send.ts.
 *
 * A request whose iframe params name an unknown API key is answered with
 * {@link invalidApiKeyError}. Every failure is a JSON 4xx or a JSON-RPC
 * error line, never a 5xx, and what the service keeps per request is
 * bounded (bounds.ts, runner.ts).
 *
 * @example
 * ```ts
 * const app = createMagicService({
 *   mailbox: Mailbox.create(),
 *   registry: createRegistry({ rpcUrl }),
 *   chain: { rpcUrl, chainId: 31337 },
 * })
 * ```
 */
export function createMagicService(options: createMagicService.Options): Hono {
  const {
    apiKeys = [defaultApiKey],
    now = () => new Date(),
    wallNow = now,
    rateLimited = () => false,
    sessionEnded = () => false,
  } = options
  const deps: Deps = {
    registry: options.registry,
    mailbox: options.mailbox,
    sessions: createSessions({
      now,
      onChange: () => options.inspect?.changed(Inspect.sources.magicSessions),
    }),
    codes: createCodes({ now }),
    links: new Map(),
    credentials: new Map(),
    oidcProviders: new Map(Object.entries(options.oidcProviders ?? {})),
    jwks: new Map(),
    authorizationTokens: new Map(),
    chain: options.chain,
    chains: options.chains ?? [
      { ...options.chain, nodeUrl: options.chain.rpcUrl },
    ],
    tokens: options.tokens ?? {},
    now,
    wallNow,
  }
  if (options.inspect) inspectSessions(options.inspect, deps)
  const verifier = createVerifier({ now, deviceNow: wallNow })
  const runner = createRunner({ timeout: options.flowTimeout })
  const app = createApp()

  // Flows are the iframe app's calls to its own backend. A page elsewhere
  // could post a CORS-simple request here (a text/plain body reaches the
  // handler without a preflight) and run methods blind; browsers always
  // send Origin on a POST, so any other origin is refused. Programs outside
  // a browser (the tests' device) send none.
  app.use('/v1/flow', ownOrigin)
  app.use('/v1/flow/*', ownOrigin)
  // A rate-limit storm (the provider-rate-limited scenario): the API
  // answers every call 429, as the hosted API does past an app's limit.
  app.use('/v1/*', async (c, next) => {
    if (!rateLimited()) return next()
    c.header('retry-after', String(rateLimitRetryAfter))
    return c.json(rateLimitedBody, 429)
  })

  app.post('/v1/flow', async (c) => {
    const checked = checkFlowRequest(await readJson(c.req.raw))
    const { id, body: stream } = runner.start(
      (controls) =>
        run(controls, checked, options.origin ?? new URL(c.req.url).origin),
      {
        showUI: checked.ok
          ? firstObject(checked.body.request.params).showUI !== false
          : false,
      },
    )
    return new Response(stream, {
      headers: {
        'content-type': 'application/x-ndjson',
        'cache-control': 'no-store',
        'x-flow-id': id,
      },
    })
  })

  app.post('/v1/flow/:flowId/intermediary', async (c) => {
    const declared = Number(c.req.header('content-length') ?? 0)
    if (declared > intermediaryBodyLimit)
      return c.json({ error: tooLarge }, 413)
    const text = await c.req.text()
    if (Buffer.byteLength(text) > intermediaryBodyLimit)
      return c.json({ error: tooLarge }, 413)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return c.json({ error: 'The body is not JSON.' }, 400)
    }
    const eventType = isPlainObject(body) ? body.eventType : undefined
    if (typeof eventType !== 'string' || eventType.startsWith('@'))
      return c.json({ error: 'The body needs a string eventType.' }, 400)
    const delivered = runner.answer(c.req.param('flowId'), {
      eventType,
      args: (body as { args?: unknown }).args,
    })
    if (!delivered)
      return c.json({ error: 'No running flow has this id.' }, 404)
    return c.json({ ok: true })
  })

  linkRoutes(app, { deps, runner })
  sendRoutes(app, { apiKeys })

  async function run(
    controls: Controls,
    checked: Checked,
    origin: string,
  ): Promise<Final> {
    if (!checked.ok)
      return {
        response: {
          jsonrpc: '2.0',
          id: checked.id,
          error: checked.failure.toObject(),
        },
      }
    const { body } = checked
    const { request } = body
    let ctx: Context | undefined
    try {
      let params: Params
      try {
        params = decodeParams(body.params)
      } catch {
        throw new RpcFailure(
          invalidApiKeyError.code,
          invalidApiKeyError.message,
        )
      }
      if (!apiKeys.includes(params.API_KEY))
        throw new RpcFailure(
          invalidApiKeyError.code,
          invalidApiKeyError.message,
        )
      ctx = await createContext(controls, { body, params, origin })
      const result = await handlerOf(ctx.method)(ctx)
      for (const rt of ctx.replaced) deps.sessions.retire(rt)
      return {
        response: { jsonrpc: '2.0', id: request.id, result },
        ...ctx.out,
      }
    } catch (error) {
      // A flow that fails after a login answers without a session it
      // opened, which nobody could use: it goes, and the device keeps the
      // session it had.
      if (ctx?.out.rt !== undefined && ctx.out.rt !== body.rt)
        deps.sessions.revoke(ctx.out.rt)
      return {
        response: {
          jsonrpc: '2.0',
          id: request.id,
          error: toErrorObject(error),
        },
      }
    }
  }

  async function createContext(
    controls: Controls,
    input: { body: FlowRequest; params: Params; origin: string },
  ): Promise<Context> {
    const { body, params, origin } = input
    const { request } = body
    const jkt = body.jwt ? await verifier.verify(body.jwt) : undefined
    let session = undefined as Context['session']
    if (jkt !== undefined && body.rt) {
      session = deps.sessions.get(body.rt, params.API_KEY)
      // The app's sessions have ended (the custody-session-expired
      // scenario): the session reads as none, as an expired one does.
      if (session && sessionEnded(params.API_KEY)) session = undefined
      if (session && session.jkt !== jkt)
        throw failures.dpop('the proof key is not the key of this session.')
    }
    const renamed = fromTestMode(request.method)
    return {
      ...controls,
      method: renamed ?? request.method,
      testMode: renamed !== undefined,
      request,
      params: Array.isArray(request.params) ? request.params : [],
      options: firstObject(request.params),
      apiKey: params.API_KEY,
      clientId: await clientIdOf(params.API_KEY),
      network: params.ETH_NETWORK,
      domainOrigin: originOf(params.DOMAIN_ORIGIN),
      origin,
      session,
      user: session ? deps.registry.get(session.userId) : undefined,
      jkt,
      deviceShare: body.deviceShare,
      deps,
      out: {},
      replaced: [],
    }
  }

  return app
}

export declare namespace createMagicService {
  type Options = {
    /**
     * The service's origin, for the links it delivers to the mailbox.
     * @default the origin each request was addressed to (a loopback name:
     *   the server refuses any other Host)
     */
    origin?: string | undefined
    /** Where codes and links are delivered. */
    mailbox: Mailbox.Store
    /** Users and their keys. */
    registry: Registry
    /** The chain the wallet uses (the emulator's Anvil). */
    chain: { rpcUrl: string; chainId: number }
    /**
     * The chains a custom network (`rpcUrl`) may name, by public URL and
     * node URL. @default the main chain only
     */
    chains?: Deps['chains'] | undefined
    /** Accepted publishable API keys. @default [defaultApiKey] */
    apiKeys?: readonly string[] | undefined
    /** OIDC providers by provider id. */
    oidcProviders?: Record<string, OidcProvider> | undefined
    /** The emulator's test tokens (wallet screens, NFT methods). */
    tokens?: Deps['tokens'] | undefined
    /** How long a flow waits for an answer (ms). @default 600_000 */
    flowTimeout?: number | undefined
    /**
     * The services' clock: when codes, links, sessions and DPoP proofs
     * expire. @default () => new Date()
     */
    now?: (() => Date) | undefined
    /**
     * The clock of what leaves the service (DID tokens' claims, read by a
     * dApp's backend) or comes from outside it (TOTP codes, DPoP proofs'
     * `iat`), which time travel does not move. @default options.now
     */
    wallNow?: (() => Date) | undefined
    /** Whether the API answers every call 429 (read on each). @default never */
    rateLimited?: (() => boolean) | undefined
    /**
     * Whether the sessions of the app with this publishable key have
     * ended (read on each request). @default never
     */
    sessionEnded?: ((apiKey: string) => boolean) | undefined
    /** The observation hub its sessions are shown on. */
    inspect?: Inspect.Hub | undefined
  }
}

/**
 * The `Retry-After` of a rate-limited answer, in seconds: 60, the window of
 * the hosted API's per-minute limit.
 */
export const rateLimitRetryAfter = 60

/**
 * The body of a rate-limited answer: the hosted API's envelope (`data`,
 * `error_code`, `message`, `status`, as @magic-sdk/admin reads it).
 */
export const rateLimitedBody = {
  data: {},
  error_code: 'RATE_LIMITED',
  message: 'Too many requests: the rate limit of this application is exceeded.',
  status: 'failed',
} as const

/**
 * Shows the sessions on the hub: user, app, expiry, and an id that is a
 * hash of the refresh token (the token itself stays here); the action
 * `end` `{ id }` revokes one, as a logout does.
 */
function inspectSessions(hub: Inspect.Hub, deps: Deps): void {
  const idOf = (rt: string) =>
    createHash('sha256').update(rt).digest('hex').slice(0, 16)
  hub.register(Inspect.sources.magicSessions, {
    snapshot: () =>
      deps.sessions
        .list()
        .slice(0, Inspect.maxRows)
        .map((session) => {
          const user = deps.registry.get(session.userId)
          // A custody key's session (the game wallet's): named by its player.
          const owner = user?.oidc && deps.registry.get(user.oidc.subject)
          return {
            id: idOf(session.rt),
            userId: session.userId,
            who:
              user?.email ??
              user?.phoneNumber ??
              (owner ? `custody key of ${owner.email}` : user?.oidc?.subject),
            address: user?.address,
            apiKey: session.apiKey,
            expiresAt: new Date(session.expiresAt).toISOString(),
          }
        }),
    actions: {
      end(input) {
        const id = Inspect.stringField(input, 'id')
        const session = deps.sessions.list().find((s) => idOf(s.rt) === id)
        if (!session) throw new Inspect.ActionError('No such session.', 404)
        deps.sessions.revoke(session.rt)
        return { id, ended: true }
      },
    },
  })
}

/**
 * The largest intermediary answer: 64 KiB. Answers carry a code, an email,
 * a phone number, `{ to, amount }` or a transaction hash; the limit keeps
 * what a running flow buffers small (see `maxBufferedAnswers`).
 */
export const intermediaryBodyLimit = 64 * 1024

const tooLarge = `An answer is at most ${intermediaryBodyLimit} bytes.`

/** A `POST /v1/flow` body, checked: the request, or why it is refused. */
export type Checked =
  | { ok: true; body: FlowRequest }
  | { ok: false; id: Rpc.Response['id']; failure: RpcFailure }

/**
 * Checks a `POST /v1/flow` body against JSON-RPC 2.0 and the session
 * material the iframe app sends: an `id` that is a string, a number or
 * null, a string `method`, `params` an array or absent (-32600 otherwise,
 * answered with `id: null` when the id itself is unusable), and `jwt`,
 * `rt`, `deviceShare` strings when present. The iframe params must be a
 * string; what they say is checked when the flow runs.
 */
export function checkFlowRequest(body: unknown): Checked {
  const refuse = (message: string, id: Rpc.Response['id'] = null): Checked => ({
    ok: false,
    id,
    failure: new RpcFailure(rpcCodes.InvalidRequest, message),
  })
  if (body === undefined)
    return {
      ok: false,
      id: null,
      failure: new RpcFailure(rpcCodes.ParseError, 'The body is not JSON.'),
    }
  if (!isPlainObject(body) || !isPlainObject(body.request))
    return refuse('The body needs a JSON-RPC request.')
  const { request } = body
  const { id, method, params } = request
  if (!(typeof id === 'string' || typeof id === 'number' || id === null))
    return refuse('The request id must be a string, a number or null.')
  if (typeof method !== 'string')
    return refuse('The request method must be a string.', id)
  if (params !== undefined && !Array.isArray(params))
    return refuse('The request params must be an array.', id)
  const material = ['jwt', 'rt', 'deviceShare'] as const
  for (const field of material) {
    const value = body[field]
    if (value !== undefined && value !== null && typeof value !== 'string')
      return refuse(`${field} must be a string.`, id)
  }
  if (typeof body.params !== 'string')
    return {
      ok: false,
      id,
      failure: new RpcFailure(
        invalidApiKeyError.code,
        invalidApiKeyError.message,
      ),
    }
  const optional = (value: unknown) =>
    typeof value === 'string' ? value : undefined
  return {
    ok: true,
    body: {
      params: body.params,
      request: request as Rpc.Request,
      jwt: optional(body.jwt),
      rt: optional(body.rt),
      deviceShare: optional(body.deviceShare),
    },
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Refuses a request whose `Origin` is not this service's own. */
const ownOrigin: MiddlewareHandler = async (c, next) => {
  const origin = c.req.header('origin')
  if (origin !== undefined && origin !== new URL(c.req.url).origin)
    return c.json(
      { error: "Only the provider's own iframe app may run flows." },
      403,
    )
  await next()
}

/** `value` when it is an origin (scheme, host, port and nothing else). */
function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const url = URL.parse(value)
  return url !== null && url.origin === value ? value : undefined
}

function firstObject(params: unknown): Record<string, unknown> {
  const first = Array.isArray(params) ? params[0] : undefined
  return typeof first === 'object' && first !== null && !Array.isArray(first)
    ? (first as Record<string, unknown>)
    : {}
}

/**
 * The iframe wallet's emulated provider as a service of the emulator: its
 * control routes (`/dev/…`) answer loopback pages only. It serves two apps:
 * the dApps' (`defaultApiKey`, printed as `magic.apiKey`) and the game
 * wallet's key custody (`custodyApiKey`), whose OIDC provider is the game
 * wallet's identity provider, registered from the start as
 * `passportOidcProviderId` (its JWKS, its client id as audience), so a
 * player's id token logs the custody app in to their custody key. Adds
 * `magic: { endpoint, apiKey }` to the JSON line.
 */
export const service = defineService({
  name: 'magic',
  async start(context) {
    const [main] = context.chains
    const { contracts } = main
    const identity = context.origins.identity
    const app = createMagicService({
      origin: context.origin,
      apiKeys: [defaultApiKey, custodyApiKey],
      // The game wallet's id tokens log its players in to their custody
      // key, as the published SDK's key-custody provider accepts them.
      oidcProviders:
        identity === undefined
          ? {}
          : {
              [passportOidcProviderId]: {
                issuer: identity,
                jwksUri: new URL(identityPaths.jwks, identity).href,
                audience: defaultClientId,
                apiKeys: [custodyApiKey],
              },
            },
      mailbox: context.mailbox,
      registry: context.registry,
      inspect: context.inspect,
      chain: { rpcUrl: main.nodeUrl, chainId: main.chainId },
      chains: context.chains,
      now: context.clock.now,
      wallNow: () => new Date(),
      rateLimited: () => context.scenarios.isOn('provider-rate-limited'),
      sessionEnded: (apiKey) =>
        apiKey === custodyApiKey &&
        context.scenarios.isOn('custody-session-expired'),
      tokens: {
        erc20: contracts.erc20,
        erc721: contracts.testErc721,
        erc1155: contracts.testErc1155,
        sponsoredCallDelegate: contracts.sponsoredCallDelegate,
      },
    })
    const server = await startServer({
      fetch: app.fetch,
      ...context.listen,
      localOnly: ['/dev/'],
    })
    return {
      ...server,
      info: { magic: { endpoint: server.url, apiKey: defaultApiKey } },
    }
  },
})
