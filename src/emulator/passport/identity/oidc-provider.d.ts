/**
 * The part of `oidc-provider` 9.x (which ships no types) that the emulated
 * identity provider uses. Facts from the package's `lib/` (provider.js,
 * helpers/defaults.js, models/).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  /** A JSON object as oidc-provider passes claims and bodies around. */
  type Json = Record<string, unknown>

  /** A registered client (the `Client` model). */
  interface Client {
    readonly clientId: string
    redirectUriAllowed(value: string): boolean
    postLogoutRedirectUriAllowed(value: string): boolean
  }

  /** The consent record of an account for a client (the `Grant` model). */
  interface Grant {
    readonly accountId: string
    readonly clientId: string
    jti: string
    addOIDCScope(scope: string): void
    addResourceScope(resource: string, scope: string): void
    getOIDCScope(): string
    save(): Promise<string>
  }

  /** A resolved resource server of a request. */
  interface ResourceServer {
    readonly scope: string
    readonly audience: string | undefined
  }

  /** The session of the person at the provider. */
  interface Session {
    readonly accountId: string | undefined
    /** The pending form state; `secret` is the forms' xsrf value. */
    readonly state: { secret?: string } | undefined
    /** When the stored session expires (seconds); absent until it is stored. */
    readonly exp: number | undefined
    grantIdFor(clientId: string): string | undefined
  }

  /** `ctx.oidc`: the request's OIDC context. */
  interface OIDCContext {
    readonly route: string | undefined
    readonly provider: Provider
    readonly client: Client | undefined
    readonly session: Session
    readonly params: Json | undefined
    readonly result: Json | undefined
    readonly requestParamOIDCScopes: Set<string>
    readonly requestParamScopes: Set<string>
    readonly resourceServers: Record<string, ResourceServer>
    readonly account: { accountId: string } | undefined
    /** The tokens the request used or issued, by model name. */
    readonly entities: Partial<
      Record<
        'AuthorizationCode' | 'RefreshToken' | 'DeviceCode',
        { readonly scope?: string | undefined }
      >
    >
    urlFor(route: string, options?: Json): string
  }

  /** The Koa context of a request, with `oidc`. */
  interface KoaContextWithOIDC {
    oidc: OIDCContext
    body: unknown
    status: number
    type: string
    readonly path: string
    readonly method: string
    readonly query: Record<string, string | string[] | undefined>
    querystring: string
    readonly state: Json
    /** Whether the answer's headers are already on their way. */
    readonly headerSent: boolean
    readonly req: IncomingMessage
    readonly res: ServerResponse
    get(header: string): string
    set(header: string, value: string): void
    /** The first of `types` the request's `Accept` prefers, or `false`. */
    accepts(...types: string[]): string | false
  }

  /** An interaction (login, consent) in progress. */
  interface Interaction {
    readonly uid: string
    readonly prompt: {
      name: string
      reasons: string[]
      details: Json
    }
    readonly params: Json
    readonly session: { accountId: string } | undefined
    readonly returnTo: string
    readonly deviceCode: string | undefined
  }

  /** What `findAccount` resolves to. */
  interface Account {
    accountId: string
    claims(
      use: 'id_token' | 'userinfo',
      scope: string,
      claims: Json,
      rejected: string[],
    ): Json | Promise<Json>
  }

  /** The provider's configuration (only the keys the emulator sets). */
  type Configuration = Json

  /** The OpenID Provider: a Koa application. */
  class Provider {
    constructor(issuer: string, configuration?: Configuration)
    readonly issuer: string
    /** Koa: the Node request listener. */
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>
    /** Koa: adds a middleware that runs before the provider's routes. */
    use(
      middleware: (
        ctx: KoaContextWithOIDC,
        next: () => Promise<void>,
      ) => Promise<void>,
    ): this
    on(event: string, listener: (...args: unknown[]) => void): this
    interactionDetails(
      req: IncomingMessage,
      res: ServerResponse,
    ): Promise<Interaction>
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Json,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>
    readonly Client: { prototype: Client }
    /** The request's session (a new, unstored one when it has none). */
    readonly Session: { get(ctx: KoaContextWithOIDC): Promise<Session> }
    readonly Grant: {
      new (properties: { accountId: string; clientId: string }): Grant
      find(id: string): Promise<Grant | undefined>
    }
  }

  /** An OAuth error class, e.g. `new errors.InvalidTarget()`. */
  type OAuthErrorClass = new (description?: string, detail?: string) => Error

  /** The provider's OAuth error classes. */
  const errors: {
    InvalidTarget: OAuthErrorClass
    InvalidRequest: OAuthErrorClass
  }

  /** An interaction policy: the prompts and their checks. */
  interface Policy {
    get(name: string): { checks: { remove(reason: string): void } } | undefined
  }

  /** The interaction policy helpers. */
  const interactionPolicy: {
    /** The default policy (login, consent). */
    base(): Policy
  }

  export default Provider
  export type {
    Account,
    Client,
    Configuration,
    Grant,
    Interaction,
    KoaContextWithOIDC,
    Session,
  }
  export { errors, interactionPolicy, Provider }
}
