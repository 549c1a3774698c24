/**
 * The game wallet's emulated platform API, on its own origin: the routes
 * the published @imtbl/passport calls on its API domain (see
 * src/passport/wire/api.ts), each group in its own module:
 *
 * - chains.ts: `GET /v1/chains`,
 *   `POST /v2/chains/{chain_name}/passport/counterfactual-address`;
 * - guardian.ts: the three evaluations, the approvals (by id or payload
 *   hash), the records (`GET`, with simulations: simulation.ts),
 *   `GET|PUT /dev/guardian/rules`;
 * - profile.ts: `GET /passport-profile/v1/user/info`,
 *   `POST /passport-profile/v2/linked-wallets`;
 * - users.ts: the linked addresses (both routes), the user metadata;
 * - metadata.ts: the transaction and typed-data metadata, read from the
 *   chain (onchain.ts);
 * - crafting.ts: `POST /v1/chains/{chain_name}/crafting/sign`;
 * - session.ts: `GET /v1/sdk/session-activity/check`,
 *   `GET|PUT /dev/session-activity`;
 * - the indexer (../indexer/): the multi-rollup reads of the chain under
 *   `/v1/chains/{chain_name}` and `/dev/indexer/…`;
 * - the minting backend (../minting/): the mint requests of the platform's
 *   collections.
 *
 * Any page may call the public routes (CORS open, as the real API is to
 * the games embedding the SDK); the `/dev/` control routes answer loopback
 * pages only. Every refusal is `{ code, message, details }` with the API's
 * status. Routes take the credential the API's spec names: the player's
 * access token, or the platform's API key (`x-immutable-api-key`) for the
 * user metadata and crafting signatures.
 *
 * @packageDocumentation
 */
import type { Hono } from 'hono'
import { cors } from 'hono/cors'
import type { Address } from 'viem'
import { apiKeyHeader } from '../../../api/wire/headers.js'
import { sdkVersionHeader } from '../../../passport/wire/api.js'
import {
  type PlayerWalletContracts,
  playerWalletAddress,
} from '../../../passport/wire/sequence.js'
import { custodyApiKey, passportOidcProviderId } from '../../constants.js'
import type { Guardian } from '../../guardian.js'
import * as Inspect from '../../inspect.js'
import type { Registry } from '../../registry/index.js'
import { createApp, startServer } from '../../server.js'
import { type Chain, defineService } from '../../service.js'
import { createVerifier } from '../bearer.js'
import { createIndexer, type Indexer } from '../indexer/indexer.js'
import { indexerRoutes } from '../indexer/routes.js'
import { nftKey } from '../indexer/state.js'
import { nftMetadataOf } from '../indexer/views.js'
import { mintingIndexerOf } from '../minting/link.js'
import { createMinting, type Minting } from '../minting/minting.js'
import { mintingRoutes } from '../minting/routes.js'
import { createOrderbook, type Orderbook } from '../orderbook/orderbook.js'
import { orderbookRoutes } from '../orderbook/routes.js'
import { answerAsPlatform } from '../platform.js'
import { chainNameOf, chainRoutes } from './chains.js'
import { craftingRoutes, craftingSigner } from './crafting.js'
import { guardianRoutes } from './guardian.js'
import type {
  ApiChain,
  ApiEnv,
  Deps,
  VerificationOf,
  WalletAddressOf,
} from './http.js'
import { metadataRoutes } from './metadata.js'
import { type ChainReader, createChainReader } from './onchain.js'
import { createLinkStore, profileRoutes } from './profile.js'
import { createSessionActivityStore, sessionRoutes } from './session.js'
import { userRoutes } from './users.js'

export { chainNameOf } from './chains.js'
export type { ApiChain, WalletAddressOf } from './http.js'

/**
 * Creates the platform API's app.
 *
 * @example
 * ```ts
 * const app = createApiService({
 *   issuer: 'http://127.0.0.1:4402',
 *   registry,
 *   guardian: createGuardian(),
 *   chains: [{ chainId: 31337, rpcUrl: 'http://127.0.0.1:8545' }],
 *   walletAddress: (custody) => playerWalletAddress(contracts, custody),
 * })
 * await startServer({ fetch: app.fetch, port: 4405, localOnly: ['/dev/'] })
 * ```
 */
export function createApiService(
  options: createApiService.Options,
): Hono<ApiEnv> {
  const {
    issuer,
    now = () => new Date(),
    verificationOf = () => 'unverified',
    walletRegistered = async () => {},
  } = options
  const readers = new Map<number, ChainReader>()
  const deps: Deps = {
    registry: options.registry,
    guardian: options.guardian,
    chains: options.chains,
    issuer,
    verifier: createVerifier({
      issuer,
      advancedSince: options.advancedSince,
    }),
    walletAddress: options.walletAddress,
    links: createLinkStore({
      onChange: () => options.inspect?.changed(Inspect.sources.links),
    }),
    sessionActivity: createSessionActivityStore({
      onChange: () => options.inspect?.changed(Inspect.sources.activity),
    }),
    passportOrigin: options.passportOrigin,
    now,
    readerOf(chain) {
      let reader = readers.get(chain.chainId)
      if (!reader) {
        reader = createChainReader(chain)
        readers.set(chain.chainId, reader)
      }
      return reader
    },
    verificationOf,
    walletRegistered,
    minterOf: (chainId) =>
      options.minting?.chains.some((chain) => chain.chainId === chainId)
        ? options.minting.minter
        : undefined,
  }
  if (options.inspect) inspectStores(options.inspect, deps)
  const app = createApp<ApiEnv>()
  answerAsPlatform(app)
  // The server answers the control routes' CORS itself (loopback pages
  // only); every other route is open to any page.
  const open = cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: [
      'Authorization',
      'Content-Type',
      sdkVersionHeader,
      apiKeyHeader,
    ],
    exposeHeaders: ['WWW-Authenticate'],
    maxAge: 600,
  })
  app.use('*', async (c, next) =>
    new URL(c.req.url).pathname.toLowerCase().startsWith('/dev/')
      ? next()
      : open(c, next),
  )
  app.get('/health', (c) => c.json({ ok: true }))
  chainRoutes(app, deps)
  guardianRoutes(app, deps)
  profileRoutes(app, deps)
  sessionRoutes(app, deps)
  userRoutes(app, deps)
  metadataRoutes(app, deps)
  craftingRoutes(app, deps)
  // Before the indexer's: its `…/nfts/{token_id}` routes would match.
  if (options.minting) mintingRoutes(app, { minting: options.minting })
  if (options.indexer) indexerRoutes(app, { indexer: options.indexer })
  if (options.orderbook)
    orderbookRoutes(app, {
      orderbook: options.orderbook,
      metadataIdOf: options.indexer && metadataIdsOf(options.indexer),
    })
  return app
}

/**
 * Shows the session-activity rules and checks, and the linked wallets, on
 * the observation hub.
 */
function inspectStores(hub: Inspect.Hub, deps: Deps): void {
  hub.register(Inspect.sources.activity, {
    snapshot: () => ({
      rules: Object.fromEntries(deps.sessionActivity.rules),
      checks: deps.sessionActivity.checks
        .toReversed()
        .slice(0, Inspect.maxRows),
    }),
  })
  hub.register(Inspect.sources.links, {
    snapshot: () => Object.fromEntries(deps.links.all()),
  })
}

export declare namespace createApiService {
  type Options = {
    /** The identity provider's origin: the tokens' issuer. */
    issuer: string
    /** The emulator's users (players and custody keys). */
    registry: Registry
    /** The guardian's shared rules and verdicts. */
    guardian: Guardian
    /** The observation hub its stores are shown on. */
    inspect?: Inspect.Hub | undefined
    /** The chains, the main one first. */
    chains: readonly ApiChain[]
    /** A player's smart-contract wallet address from their custody key. */
    walletAddress: WalletAddressOf
    /**
     * The passport domain's origin, whose confirmation pages may approve
     * what the player must confirm (with the verdict's secret). Without
     * it, only programs on this machine may.
     */
    passportOrigin?: string | undefined
    /** The clock. @default () => new Date() */
    now?: (() => Date) | undefined
    /**
     * How far the clock has moved since a wall-clock time (see clock.ts),
     * for the tokens' lifetimes. @default never moved
     */
    advancedSince?: ((at: number) => number) | undefined
    /**
     * The platform's verification status of a contract, as the metadata
     * routes report it. @default every contract is `unverified`
     */
    verificationOf?: VerificationOf | undefined
    /**
     * Told of each wallet the registration route registers (the order
     * book allowlists it). @default nothing
     */
    walletRegistered?:
      | ((chainId: number, wallet: Address) => Promise<void>)
      | undefined
    /** The indexer whose routes the API serves; none without it. */
    indexer?: Indexer | undefined
    /** The minting backend whose routes the API serves; none without it. */
    minting?: Minting | undefined
    /** The order book whose routes the API serves; none without it. */
    orderbook?: Orderbook | undefined
  }
}

/**
 * The `overrides` a dApp gives the game wallet (ours, and the published
 * @imtbl/passport 2.24.8 unchanged) to run against the emulator, plus what
 * only our client reads (the published SDK ignores them): `magicEndpoint`,
 * the iframe wallet provider our client signs with, and the wallet
 * contracts it wraps an undeployed wallet's signatures with (ERC-6492).
 * Every domain is an exact origin: the SDK compares some with
 * `event.origin`.
 */
export type PassportOverrides = {
  authenticationDomain: string
  magicPublishableApiKey: string
  magicProviderId: string
  passportDomain: string
  imxPublicApiDomain: string
  indexerMrBasePath: string
  orderBookMrBasePath: string
  passportMrBasePath: string
  zkEvmRpcUrl: string
  relayerUrl: string
  zkEvmChainId: number
  zkEvmChainName: string
  magicTeeBasePath: string
  magicEndpoint: string
  /**
   * The wallet contracts (ours only, like `magicEndpoint`): without them
   * our client cannot wrap the signatures of a wallet not deployed yet
   * (ERC-6492), and verifiers reject those signatures.
   */
  zkEvmWalletFactory: Address
  zkEvmWalletMainModule: Address
  zkEvmCoSigner: Address
}

/**
 * Builds the {@link PassportOverrides} of an emulator. The published SDK
 * honours `magicTeeBasePath` only with `zkEvmChainId` set, and sends
 * session-activity checks to the API base path only for a chain id other
 * than its two public ones: the emulator's chains are neither.
 */
export function overridesOf(input: {
  api: string
  origins: {
    identity: string
    passport: string
    relayer: string
    tee: string
    magic: string
    /** The emulated StarkEx exchange (the legacy exchange API). */
    starkex: string
  }
  chain: ApiChain
  /** The contracts of the players' wallets on that chain. */
  contracts: PlayerWalletContracts
}): PassportOverrides {
  const { api, origins, chain, contracts } = input
  return {
    authenticationDomain: origins.identity,
    magicPublishableApiKey: custodyApiKey,
    magicProviderId: passportOidcProviderId,
    passportDomain: origins.passport,
    imxPublicApiDomain: origins.starkex,
    indexerMrBasePath: api,
    orderBookMrBasePath: api,
    passportMrBasePath: api,
    zkEvmRpcUrl: chain.rpcUrl,
    relayerUrl: origins.relayer,
    zkEvmChainId: chain.chainId,
    zkEvmChainName: chainNameOf(chain.chainId),
    magicTeeBasePath: origins.tee,
    magicEndpoint: origins.magic,
    zkEvmWalletFactory: contracts.factory,
    zkEvmWalletMainModule: contracts.mainModule,
    zkEvmCoSigner: contracts.coSigner,
  }
}

/**
 * The platform API as a service of the emulator; its control routes
 * (`/dev/…`) answer loopback pages only. Adds `passport: { apiUrl,
 * passportDomain, relayerUrl, craftingSigner, overrides }` to the JSON
 * line.
 */
export const service = defineService({
  name: 'api',
  async start(context) {
    const { origins } = context
    const [main] = context.chains
    const issuer = required(origins.identity, 'identity')
    const passportOrigin = required(origins.passport, 'passport')
    const orderbook = createOrderbook({
      chains: context.chains.flatMap((chain) => {
        const { seaport, signedZone, operatorAllowlist } = chain.contracts as {
          seaport?: Address | undefined
          signedZone?: Address | undefined
          operatorAllowlist?: Address | undefined
        }
        return seaport && signedZone
          ? [
              {
                chainId: chain.chainId,
                nodeUrl: chain.nodeUrl,
                seaport,
                signedZone,
                operatorAllowlist,
              },
            ]
          : []
      }),
      now: context.clock.now,
    })
    const indexer = createIndexer({
      chains: context.chains.map((chain) => ({
        chainId: chain.chainId,
        nodeUrl: chain.nodeUrl,
        seaport: seaportOf(chain),
      })),
      listings: orderbook.source,
      now: context.clock.now,
    })
    const minting = createMinting({
      chains: context.chains.map((chain) => ({
        chainId: chain.chainId,
        nodeUrl: chain.nodeUrl,
        collections: [
          { address: chain.contracts.erc721, standard: 'ERC721' as const },
          { address: chain.contracts.erc1155, standard: 'ERC1155' as const },
        ],
      })),
      indexer: mintingIndexerOf(indexer),
      now: context.clock.now,
    })
    const app = createApiService({
      issuer,
      registry: context.registry,
      guardian: context.passport.guardian,
      inspect: context.inspect,
      chains: context.chains,
      walletAddress: walletAddressOf(context.chains),
      passportOrigin,
      indexer,
      minting,
      orderbook,
      walletRegistered: (chainId, wallet) =>
        orderbook.allowlistRegisteredWallet(chainId, wallet),
      verificationOf: (chainId, address) =>
        indexer.verificationStatus(chainId, address),
      now: context.clock.now,
      advancedSince: context.clock.advancedSince,
    })
    const server = await startServer({
      fetch: app.fetch,
      ...context.listen,
      localOnly: ['/dev/'],
    }).catch(async (error: unknown) => {
      await minting.stop()
      await indexer.stop()
      await orderbook.stop()
      throw error
    })
    const overrides = overridesOf({
      api: server.url,
      origins: {
        identity: issuer,
        passport: required(origins.passport, 'passport'),
        relayer: required(origins.relayer, 'relayer'),
        tee: required(origins.tee, 'tee'),
        magic: required(origins.magic, 'magic'),
        starkex: required(origins.starkex, 'starkex'),
      },
      chain: main,
      contracts: main.contracts,
    })
    return {
      ...server,
      async stop() {
        await server.stop()
        await minting.stop()
        await indexer.stop()
        await orderbook.stop()
      },
      info: {
        passport: {
          apiUrl: server.url,
          passportDomain: overrides.passportDomain,
          relayerUrl: overrides.relayerUrl,
          craftingSigner: craftingSigner.address,
          overrides,
        },
      },
    }
  },
})

/**
 * The indexer's metadata id of an NFT (its stack's id), for the order
 * book's `…_item_metadata_id` filters.
 */
function metadataIdsOf(indexer: Indexer) {
  return (chainId: number, contract: string, tokenId: string) => {
    const chain = indexer.chains.find((c) => c.chainId === chainId)
    if (!chain || !/^(0|[1-9][0-9]{0,77})$/.test(tokenId)) return undefined
    return nftMetadataOf(
      chain.state,
      nftKey(contract as Address, BigInt(tokenId)),
    )?.stack.id
  }
}

/**
 * The chain's Seaport, once the emulator deploys one: its `OrderFulfilled`
 * events make the indexer's sales.
 */
function seaportOf(chain: Chain): Address | undefined {
  return (chain.contracts as { seaport?: Address | undefined }).seaport
}

function required(origin: string | undefined, slot: string): string {
  if (origin === undefined)
    throw new Error(`The platform API needs the ${slot} service's origin.`)
  return origin
}

/**
 * The game wallet address of a custody key on the emulator's chains: the
 * 2-of-2 Sequence wallet of the key and the co-signer contract, the same
 * address on every chain (the contracts are).
 */
function walletAddressOf(chains: readonly Chain[]): WalletAddressOf {
  return (custody, chain) => {
    const { contracts } =
      chains.find((candidate) => candidate.chainId === chain.chainId) ??
      chains[0]!
    return playerWalletAddress({ custody, contracts })
  }
}
