/**
 * What every route of the emulated platform API shares: its state, the
 * error answers and the API-key check (the platform's, ../platform.ts),
 * the bearer-token check and the input checks.
 *
 * @packageDocumentation
 */
import type { Context as HonoContext, MiddlewareHandler } from 'hono'
import { type Address, getAddress, isAddress, isHex } from 'viem'
import { apiKeyHeader } from '../../../api/wire/headers.js'
import type { Guardian } from '../../guardian.js'
import type { Registry, User } from '../../registry/index.js'
import type { Bearer, Verifier } from '../bearer.js'
import {
  apiKeyRefusal,
  type ErrorBody,
  type ErrorKind,
  errorBody,
  fail,
} from '../platform.js'
import type { ChainReader } from './onchain.js'
import type { LinkStore } from './profile.js'
import type { VerificationStatus } from './schemas.js'
import type { SessionActivityStore } from './session.js'

/** One chain as the API lists it. */
export type ApiChain = {
  readonly chainId: number
  /** Its public JSON-RPC URL. */
  readonly rpcUrl: string
  /**
   * Its node's own URL, where the API reads contracts and simulates
   * transactions. @default rpcUrl
   */
  readonly nodeUrl?: string | undefined
  /**
   * The game wallet's contracts on it: simulating a wallet not deployed
   * yet puts the wallet's proxy in front of this main module.
   */
  readonly contracts?:
    | {
        readonly mainModule: Address
        /** The platform's operator allowlist, where the emulator deployed one. */
        readonly operatorAllowlist?: Address | undefined
      }
    | undefined
}

/**
 * The smart-contract wallet address of a player whose custody key is
 * `custody`, on `chain`: the 2-of-2 wallet of that key and the co-signer.
 */
export type WalletAddressOf = (custody: Address, chain: ApiChain) => Address

/** The API's state and collaborators. */
export type Deps = {
  readonly registry: Registry
  readonly guardian: Guardian
  /** The chains, the main one first. */
  readonly chains: readonly ApiChain[]
  /** The identity provider's origin: its tokens' issuer. */
  readonly issuer: string
  /** Checks bearer tokens of {@link Deps.issuer}. */
  readonly verifier: Verifier
  readonly walletAddress: WalletAddressOf
  readonly links: LinkStore
  readonly sessionActivity: SessionActivityStore
  /**
   * The passport domain's origin: its confirmation pages are the only
   * pages that may approve what the player must confirm.
   */
  readonly passportOrigin: string | undefined
  /** The clock. */
  readonly now: () => Date
  /** What the API reads from each chain (one reader per chain). */
  readonly readerOf: (chain: ApiChain) => ChainReader
  /** The platform's verification status of a contract. */
  readonly verificationOf: VerificationOf
  /** Told of each wallet the registration route registers. */
  readonly walletRegistered: (chainId: number, wallet: Address) => Promise<void>
  /** The account the minting API mints from on a chain, if it mints there. */
  readonly minterOf: (chainId: number) => Address | undefined
}

/**
 * The platform's verification status of a contract on a chain (the
 * indexer's collections know it; without one, every contract is
 * `unverified`).
 */
export type VerificationOf = (
  chainId: number,
  address: Address,
) => VerificationStatus | Promise<VerificationStatus>

/** The Hono environment of the API's routes: the verified bearer. */
export type ApiEnv = { Variables: { bearer: Bearer } }

export { type ErrorBody, type ErrorKind, errorBody, fail }

/**
 * Lets only requests with a valid access token (audience `platform_api`)
 * through, and keeps the token's subject in `c.var.bearer`; others get 401
 * `UNAUTHORISED_REQUEST` with an RFC 6750 challenge.
 */
export function requireBearer(verifier: Verifier): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const checked = await verifier(c.req.header('authorization'))
    if (!checked.ok) {
      c.header(
        'WWW-Authenticate',
        `Bearer error="invalid_token", error_description="${checked.description}"`,
      )
      return fail(c, 'unauthorised', checked.description)
    }
    const { ok: _, ...bearer } = checked
    c.set('bearer', bearer)
    await next()
  }
}

/**
 * Lets only requests carrying the platform's API key in
 * `x-immutable-api-key` through; others get 401 `UNAUTHORISED_REQUEST`.
 */
export function requireApiKey(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const refused = apiKeyRefusal(c.req.header(apiKeyHeader))
    if (refused !== undefined) return fail(c, 'unauthorised', refused)
    await next()
  }
}

/**
 * The player a verified token names, or `undefined` when the registry no
 * longer knows them (the caller answers 401).
 */
export function playerOf(deps: Deps, bearer: Bearer): User | undefined {
  const user = deps.registry.get(bearer.sub)
  // A player is an identity provider's user: one keyed by email. A custody
  // key's user id must not pass for a player.
  return user?.oidc === undefined ? user : undefined
}

/**
 * The request's JSON body, or `undefined` when it is not JSON. The server
 * has bounded its size already.
 */
export async function readJson(c: HonoContext): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text())
  } catch {
    return undefined
  }
}

/** Whether `value` is a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `value` as a checksummed address, or `undefined` when it is not one. */
export function addressOf(value: unknown): Address | undefined {
  return typeof value === 'string' && isAddress(value, { strict: false })
    ? getAddress(value)
    : undefined
}

const uint256Max = 2n ** 256n - 1n

/**
 * A decimal string of an unsigned 256-bit integer (no sign, no leading
 * zeros but for `0`), as a bigint; `undefined` otherwise.
 */
export function uint256Of(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !/^(0|[1-9][0-9]{0,77})$/.test(value))
    return undefined
  const parsed = BigInt(value)
  return parsed <= uint256Max ? parsed : undefined
}

/** `value` when it is `0x`-prefixed hex of whole bytes. */
export function bytesOf(value: unknown): `0x${string}` | undefined {
  return typeof value === 'string' &&
    isHex(value, { strict: true }) &&
    value.length % 2 === 0
    ? value
    : undefined
}

/** `value` when it is a 65-byte signature in hex. */
export function signatureOf(value: unknown): `0x${string}` | undefined {
  const bytes = bytesOf(value)
  return bytes?.length === 132 ? bytes : undefined
}

/**
 * The CAIP-2 chain id `eip155:N` of an emulator chain, or `undefined` when
 * `value` is not one.
 */
export function caip2ChainOf(deps: Deps, value: unknown): ApiChain | undefined {
  if (typeof value !== 'string') return undefined
  const match = /^eip155:([1-9][0-9]{0,15})$/.exec(value)
  return match ? chainById(deps, Number(match[1])) : undefined
}

/** The emulator chain with this id. */
export function chainById(deps: Deps, chainId: number): ApiChain | undefined {
  return deps.chains.find((chain) => chain.chainId === chainId)
}

/** The CAIP-2 id of a chain. */
export function caip2(chainId: number): string {
  return `eip155:${chainId}`
}
