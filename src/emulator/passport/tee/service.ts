/**
 * The game wallet's emulated key-custody API (the Magic TEE the published
 * @imtbl/passport signs with), on its own origin:
 *
 * - `POST /v1/wallet` → `{ public_address }`: the player's custody key,
 *   created on first use;
 * - `POST /v1/wallet/sign/message` `{ message_base64 }` →
 *   `{ signature, r, s, v }`: an EIP-191 signature by that key.
 *
 * Every call carries the publishable key (`X-Magic-API-Key`), the OIDC
 * provider id (`X-OIDC-Provider-ID`), `X-Magic-Chain: ETH` and the player's
 * id token as a bearer token, verified against the identity provider (its
 * keys, issuer, expiry, and the client id as audience). The key is the
 * registry user of the token's issuer and subject: the same one the iframe
 * wallet's OIDC login gives that id token (see ../custody.ts).
 *
 * Refusals are `{ code, message }`: 401 for a missing or wrong key or
 * token, 400 for a wrong provider id, chain or body, 404 for a signature
 * before the wallet exists.
 *
 * @packageDocumentation
 */
import type { Hono, Context as HonoContext } from 'hono'
import { cors } from 'hono/cors'
import type { Hex } from 'viem'
import { sdkVersionHeader } from '../../../passport/wire/api.js'
import {
  ethChain,
  headers,
  paths,
  type SignMessageResponse,
  type WalletResponse,
} from '../../../passport/wire/tee.js'
import {
  custodyApiKey,
  defaultClientId,
  passportOidcProviderId,
} from '../../constants.js'
import { type Registry, RegistryFullError } from '../../registry/index.js'
import { createApp, startServer } from '../../server.js'
import { defineService } from '../../service.js'
import { type Bearer, createVerifier } from '../bearer.js'
import { custodyIdentity, findCustody } from '../custody.js'

/** The error codes of the key-custody API. */
export const teeErrors = {
  invalidApiKey: { code: 'INVALID_API_KEY', status: 401 },
  invalidToken: { code: 'UNAUTHORIZED', status: 401 },
  invalidProvider: { code: 'INVALID_OIDC_PROVIDER', status: 400 },
  unsupportedChain: { code: 'UNSUPPORTED_CHAIN', status: 400 },
  invalidBody: { code: 'VALIDATION_ERROR', status: 400 },
  noWallet: { code: 'WALLET_NOT_FOUND', status: 404 },
  full: { code: 'TOO_MANY_WALLETS', status: 409 },
} as const

type TeeEnv = { Variables: { bearer: Bearer } }

/**
 * Creates the key-custody API's app.
 *
 * @example
 * ```ts
 * const app = createTeeService({ issuer: 'http://127.0.0.1:4402', registry })
 * await startServer({ fetch: app.fetch, port: 4407 })
 * ```
 */
export function createTeeService(
  options: createTeeService.Options,
): Hono<TeeEnv> {
  const {
    issuer,
    registry,
    audience = defaultClientId,
    apiKeys = [custodyApiKey],
    providerId = passportOidcProviderId,
    sessionEnded = () => false,
  } = options
  const verifier = createVerifier({
    issuer,
    audience,
    advancedSince: options.advancedSince,
  })
  const app = createApp<TeeEnv>()
  const fail = (
    c: HonoContext,
    kind: keyof typeof teeErrors,
    message: string,
  ) => c.json({ code: teeErrors[kind].code, message }, teeErrors[kind].status)
  app.onError((_, c) =>
    fail(c, 'invalidBody', 'The request could not be handled.'),
  )
  app.notFound((c) =>
    c.json(
      {
        code: 'NOT_FOUND',
        message: `No route ${c.req.method} ${new URL(c.req.url).pathname}.`,
      },
      404,
    ),
  )
  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'OPTIONS'],
      allowHeaders: [
        'Authorization',
        'Content-Type',
        headers.apiKey,
        headers.providerId,
        headers.chain,
        sdkVersionHeader,
      ],
      maxAge: 600,
    }),
  )
  app.get('/health', (c) => c.json({ ok: true }))

  // The checks of every wallet call, in the order the hosted API would
  // meet them: the app's key, the provider, the chain, then the token.
  app.use('/v1/*', async (c, next) => {
    if (c.req.method === 'OPTIONS') return next()
    if (!apiKeys.includes(c.req.header(headers.apiKey) ?? ''))
      return fail(c, 'invalidApiKey', `${headers.apiKey} is not a known key.`)
    if (c.req.header(headers.providerId) !== providerId)
      return fail(
        c,
        'invalidProvider',
        `${headers.providerId} is not a registered OIDC provider.`,
      )
    if (c.req.header(headers.chain) !== ethChain)
      return fail(
        c,
        'unsupportedChain',
        `${headers.chain} must be ${ethChain}.`,
      )
    // The player's custody session has ended (the custody-session-expired
    // scenario): refused as an expired token is.
    if (sessionEnded())
      return fail(c, 'invalidToken', 'The token is invalid or expired.')
    const checked = await verifier(c.req.header('authorization'))
    if (!checked.ok || registry.get(checked.sub) === undefined)
      return fail(
        c,
        'invalidToken',
        checked.ok ? 'The player is unknown.' : checked.description,
      )
    const { ok: _, ...bearer } = checked
    c.set('bearer', bearer)
    await next()
  })

  app.post(paths.wallet, async (c) => {
    try {
      const user = await registry.findOrCreate(
        custodyIdentity(issuer, c.var.bearer.sub),
      )
      return c.json({ public_address: user.address } satisfies WalletResponse)
    } catch (error) {
      if (error instanceof RegistryFullError)
        return fail(c, 'full', error.shortMessage)
      throw error
    }
  })

  app.post(paths.signMessage, async (c) => {
    let body: unknown
    try {
      body = JSON.parse(await c.req.text())
    } catch {
      body = undefined
    }
    const encoded =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>).message_base64
        : undefined
    const bytes = typeof encoded === 'string' ? base64Of(encoded) : undefined
    if (!bytes)
      return fail(
        c,
        'invalidBody',
        'Expected { message_base64 } (a base64 string).',
      )
    const user = findCustody(registry, issuer, c.var.bearer.sub)
    if (!user)
      return fail(
        c,
        'noWallet',
        `The player has no wallet yet: POST ${paths.wallet} first.`,
      )
    const signature = await registry.signMessage(user.id, {
      raw: messageBytes(bytes),
    })
    return c.json({
      signature,
      r: signature.slice(0, 66),
      s: `0x${signature.slice(66, 130)}`,
      v: Number.parseInt(signature.slice(130, 132), 16),
    } satisfies SignMessageResponse)
  })

  return app
}

export declare namespace createTeeService {
  type Options = {
    /** The identity provider's origin: the id tokens' issuer. */
    issuer: string
    /** The emulator's users (custody keys are registry users). */
    registry: Registry
    /** The id tokens' audience. @default the identity provider's client id */
    audience?: string | undefined
    /** Accepted publishable keys. @default the custody app's key ({@link custodyApiKey}) */
    apiKeys?: readonly string[] | undefined
    /** The accepted OIDC provider id. @default {@link passportOidcProviderId} */
    providerId?: string | undefined
    /**
     * Whether the players' custody sessions have ended (read on each call:
     * every call is then refused as with an expired token). @default never
     */
    sessionEnded?: (() => boolean) | undefined
    /**
     * How far the services' clock has moved since a wall-clock time (see
     * clock.ts), for the id tokens' lifetimes. @default never moved
     */
    advancedSince?: ((at: number) => number) | undefined
  }
}

/**
 * What the custody key signs for a decoded message. The published SDK sends
 * a text as its UTF-8 bytes, and bytes (a digest the smart-contract wallet
 * checks on chain) as the text `0x<hex>`; signing that text would make the
 * on-chain check fail, so `0x`-hex text is signed as the bytes it spells,
 * anything else as it came.
 */
export function messageBytes(bytes: Uint8Array): Hex | Uint8Array {
  const text = new TextDecoder().decode(bytes)
  return /^0x(?:[0-9a-fA-F]{2})*$/.test(text) ? (text as Hex) : bytes
}

/** Decodes standard base64 (padding optional), or `undefined`. */
function base64Of(value: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 === 1)
    return undefined
  return new Uint8Array(Buffer.from(value, 'base64'))
}

/**
 * The key-custody API as a service of the emulator. It adds nothing to the
 * JSON line: the platform API prints its origin as `magicTeeBasePath`.
 */
export const service = defineService({
  name: 'tee',
  async start(context) {
    const issuer = context.origins.identity
    if (issuer === undefined)
      throw new Error(
        "The key-custody API needs the identity service's origin.",
      )
    const app = createTeeService({
      issuer,
      registry: context.registry,
      sessionEnded: () => context.scenarios.isOn('custody-session-expired'),
      advancedSince: context.clock.advancedSince,
    })
    const server = await startServer({ fetch: app.fetch, ...context.listen })
    return { ...server, info: {} }
  },
})
