/**
 * What every method handler gets: the flow controls, the request, the
 * caller's session and the service's shared state.
 */
import type { JWTVerifyGetKey } from 'jose'
import type * as Rpc from '../../../core/Rpc.js'
import type { Network } from '../../../magic/wire/messages.js'
import type { Codes } from '../../codes.js'
import type * as Mailbox from '../../dev/mailbox.js'
import type { Registry, User } from '../../registry/index.js'
import type { Controls } from './runner.js'
import type { Session, Sessions } from './session.js'

/** An OIDC provider the service accepts tokens of. */
export type OidcProvider = {
  issuer: string
  jwksUri: string
  audience?: string | undefined
  /**
   * The apps (API keys) whose clients may log in with it; any app when
   * absent. A provider an app registered logs in that app's users only.
   */
  apiKeys?: readonly string[] | undefined
}

/**
 * A link waiting in the mailbox (magic link, device approval); forgotten
 * once opened.
 */
export type Link = {
  kind: 'magic-link' | 'device-approval'
  flowId: string
  expiresAt: number
  email: string
  redirectURI?: string | undefined
}

/** A one-time credential from a magic-link redirect; forgotten once used. */
export type Credential = {
  email: string
  expiresAt: number
}

/** The service's shared state. */
export type Deps = {
  registry: Registry
  mailbox: Mailbox.Store
  sessions: Sessions
  codes: Codes
  /** Links by token; swept and capped (see bounds.ts). */
  links: Map<string, Link>
  /** Credentials by value; swept and capped (see bounds.ts). */
  credentials: Map<string, Credential>
  /** OIDC providers by id; capped (see oidc.ts). */
  oidcProviders: Map<string, OidcProvider>
  /**
   * The providers' key sets by `jwksUri`: one per registered provider at
   * most (see oidc.ts).
   */
  jwks: Map<string, JWTVerifyGetKey>
  /**
   * `magic_auth_set_authorization_token` tokens, by session `rt` (else
   * device key, else API key); capped (see bounds.ts).
   */
  authorizationTokens: Map<string, string>
  /** The main chain, as the service reaches it (the node's own URL). */
  chain: { rpcUrl: string; chainId: number }
  /**
   * The chains a custom network may name: its public `rpcUrl` (what the
   * dApp passes) and the node's own URL the service uses.
   */
  chains: readonly { rpcUrl: string; nodeUrl: string; chainId: number }[]
  /**
   * Test tokens the wallet screens and NFT methods use, and the EIP-7702
   * delegate of gasless transactions.
   */
  tokens: {
    erc20?: string
    erc721?: string
    erc1155?: string
    sponsoredCallDelegate?: string
  }
  /** The services' clock: when what the service keeps expires. */
  now: () => Date
  /**
   * The wall clock, which time travel does not move: DID tokens' claims
   * (a dApp's backend checks them) and TOTP codes (an authenticator app
   * computes them).
   */
  wallNow: () => Date
}

/** A method handler's context. */
export type Context = Controls & {
  /** The method, test-mode renaming undone. */
  readonly method: string
  readonly testMode: boolean
  readonly request: Rpc.Request
  /** `request.params` as an array. */
  readonly params: readonly unknown[]
  /** The first param if it is an object, else `{}`. */
  readonly options: Record<string, unknown>
  readonly apiKey: string
  /** The `aud` of DID tokens. */
  readonly clientId: string
  readonly network: Network | undefined
  /**
   * The dApp's origin (`DOMAIN_ORIGIN` of the iframe params), when the
   * params name one.
   */
  readonly domainOrigin: string | undefined
  /** The origin of this service, for links in the mailbox. */
  readonly origin: string
  /** The caller's session (valid DPoP proof + live `rt`). */
  session: Session | undefined
  /** The session's user. */
  user: User | undefined
  /** Thumbprint of the request's DPoP key. */
  readonly jkt: string | undefined
  readonly deviceShare: string | undefined
  readonly deps: Deps
  /** `rt` / `deviceShare` for the final response line. */
  readonly out: { rt?: string; deviceShare?: string }
  /**
   * Refresh tokens of the sessions a login of this flow replaces: retired
   * once the flow answers with the new one (see `login` in session.ts).
   */
  readonly replaced: string[]
}

/** Handles one method; returns the JSON-RPC result or throws RpcFailure. */
export type Handler = (ctx: Context) => Promise<unknown>
