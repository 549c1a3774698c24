import type { MultiRollupAPIConfiguration } from './config.js'
import { ActivitiesApi } from './mr/activities.generated.js'
import { ChainsApi } from './mr/chains.generated.js'
import { CollectionsApi } from './mr/collections.generated.js'
import { GuardianApi } from './mr/guardian.generated.js'
import { NftOwnersApi } from './mr/nft-owners.generated.js'
import { NftsApi } from './mr/nfts.generated.js'
import { OrdersApi } from './mr/orders.generated.js'
import { PassportApi } from './mr/passport.generated.js'
import { PassportProfileApi } from './mr/passport-profile.generated.js'

/**
 * The multi-rollup platform's clients, as the published
 * `MultiRollupApiClients`: the indexer's tags on `config.indexer`, the order
 * book on `config.orderBook`, passport, its profile and the guardian on
 * `config.passport`. (A dApp that needs one or two tags pays less by
 * constructing their classes from `mr` itself.)
 *
 * @example
 * ```ts
 * import { createConfig, MultiRollupApiClients } from 'embedded-wallets/api'
 *
 * const config = createConfig({ basePath: 'http://127.0.0.1:8080' })
 * const clients = new MultiRollupApiClients({
 *   indexer: config,
 *   orderBook: config,
 *   passport: config,
 * })
 * const { data } = await clients.chainsApi.listChains()
 * ```
 */
export class MultiRollupApiClients {
  config: MultiRollupAPIConfiguration
  activitiesApi: ActivitiesApi
  chainsApi: ChainsApi
  collectionApi: CollectionsApi
  nftOwnersApi: NftOwnersApi
  nftsApi: NftsApi
  ordersApi: OrdersApi
  passportApi: PassportApi
  passportProfileApi: PassportProfileApi
  guardianApi: GuardianApi

  constructor(config: MultiRollupAPIConfiguration) {
    this.config = config
    this.activitiesApi = new ActivitiesApi(config.indexer)
    this.chainsApi = new ChainsApi(config.indexer)
    this.collectionApi = new CollectionsApi(config.indexer)
    this.nftOwnersApi = new NftOwnersApi(config.indexer)
    this.nftsApi = new NftsApi(config.indexer)
    this.ordersApi = new OrdersApi(config.orderBook)
    this.passportApi = new PassportApi(config.passport)
    this.passportProfileApi = new PassportProfileApi(config.passport)
    this.guardianApi = new GuardianApi(config.passport)
  }
}
