/**
 * The emulated StarkEx exchange: the legacy exchange API the StarkEx layer
 * of the game wallet calls (`imxPublicApiDomain`), over an off-chain
 * ledger of vaults (ledger.ts) where balances move only on requests signed
 * with the owner's Stark key, as StarkEx computes their hashes (stark.ts).
 *
 * The routes come in modules, each `xxxRoutes(app, deps)` over the shared
 * {@link Deps} (http.ts): registration and users (registration.ts),
 * transfers (transfers.ts), on/off-ramp exchanges (exchanges.ts), balances
 * and assets (balances.ts), orders and trades over the shared market state
 * (orders.ts, trades.ts, market.ts: fees, escrow), mints, collections and
 * projects (mints.ts) and the loopback-only dev mint (dev.ts).
 *
 * Every answer is `{ code, message, details }` on refusal (the platform's
 * codes; never 500); bodies are bounded by the server's limit, as every
 * service's. The API routes answer any origin (the hosted API was
 * public) with the headers the published SDK sends; `/dev/` answers
 * loopback pages only.
 *
 * @packageDocumentation
 */
import type { Hono } from 'hono'
import { cors } from 'hono/cors'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { sdkVersionHeader } from '../../../passport/wire/api.js'
import type { Guardian } from '../../guardian.js'
import type { Registry } from '../../registry/index.js'
import { createApp, startServer } from '../../server.js'
import { defineService } from '../../service.js'
import { createVerifier } from '../bearer.js'
import { answerAsPlatform } from '../platform.js'
import { balanceRoutes } from './balances.js'
import { devRoutes } from './dev.js'
import { createExchangeStore, exchangeRoutes } from './exchanges.js'
import type { Deps, StarkExEnv } from './http.js'
import { createLedger, type Ledger } from './ledger.js'
import { mintRoutes } from './mints.js'
import { orderRoutes } from './orders.js'
import { registrationRoutes } from './registration.js'
import { tradeRoutes } from './trades.js'
import { createTransferStore, transferRoutes } from './transfers.js'

/** The request headers the exchange's CORS allows (those the published SDK sends). */
export const allowedHeaders = [
  'Authorization',
  'Content-Type',
  sdkVersionHeader,
  'x-imx-eth-address',
  'x-imx-eth-signature',
] as const

/**
 * Creates the exchange's app and state.
 *
 * @example
 * ```ts
 * const { app } = createStarkExService({ issuer, registry, guardian })
 * await startServer({ fetch: app.fetch, port, localOnly: ['/dev/'] })
 * ```
 */
export function createStarkExService(options: createStarkExService.Options): {
  app: Hono<StarkExEnv>
  deps: Deps
} {
  const { issuer, now = Date.now } = options
  const operator = privateKeyToAccount(generatePrivateKey())
  let transactionId = 0
  const deps: Deps = {
    ledger: options.ledger ?? createLedger({ now }),
    registry: options.registry,
    guardian: options.guardian,
    issuer,
    verifier: createVerifier({ issuer }),
    now,
    nextTransactionId: () => ++transactionId,
    verificationSignature: (readable, payloadHash) =>
      operator.signMessage({ message: `${readable}\n${payloadHash}` }),
    transfers: createTransferStore(),
    exchanges: createExchangeStore(),
  }
  const app = createApp<StarkExEnv>()
  answerAsPlatform(app)
  // The server answers the dev routes' CORS itself (loopback pages only).
  const open = cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowHeaders: [...allowedHeaders],
    exposeHeaders: ['WWW-Authenticate'],
    maxAge: 600,
  })
  app.use('*', async (c, next) =>
    new URL(c.req.url).pathname.toLowerCase().startsWith('/dev/')
      ? next()
      : open(c, next),
  )
  app.get('/health', (c) => c.json({ ok: true }))
  registrationRoutes(app, deps)
  transferRoutes(app, deps)
  exchangeRoutes(app, deps)
  balanceRoutes(app, deps)
  devRoutes(app, deps)
  orderRoutes(app, deps)
  tradeRoutes(app, deps)
  mintRoutes(app, deps)
  return { app, deps }
}

export declare namespace createStarkExService {
  type Options = {
    /** The identity provider's origin: the bearer tokens' issuer. */
    issuer: string
    /** The emulator's users (players, custody keys). */
    registry: Registry
    /** The guardian's shared state. */
    guardian: Guardian
    /** The clock (ms since the epoch). @default Date.now */
    now?: (() => number) | undefined
    /** The ledger. @default a new one */
    ledger?: Ledger | undefined
  }
}

/**
 * The exchange as a service of the emulator, at `imxPublicApiDomain`. It
 * adds nothing to the JSON line: the platform API prints its origin in the
 * game wallet's `overrides`.
 */
export const service = defineService({
  name: 'starkex',
  async start(context) {
    const issuer = context.origins.identity
    if (issuer === undefined)
      throw new Error(
        "The StarkEx exchange needs the identity service's origin.",
      )
    const { app } = createStarkExService({
      issuer,
      registry: context.registry,
      guardian: context.passport.guardian,
    })
    const server = await startServer({
      fetch: app.fetch,
      ...context.listen,
      localOnly: ['/dev/'],
    })
    return { ...server, info: {} }
  },
})
