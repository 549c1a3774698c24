import type { ImmutableAPIConfiguration } from './config.js'
import { AssetsApi } from './imx/assets.generated.js'
import { BalancesApi } from './imx/balances.generated.js'
import { CollectionsApi } from './imx/collections.generated.js'
import { DepositsApi } from './imx/deposits.generated.js'
import { EncodingApi } from './imx/encoding.generated.js'
import { ExchangesApi } from './imx/exchanges.generated.js'
import { MetadataApi } from './imx/metadata.generated.js'
import { MetadataRefreshesApi } from './imx/metadata-refreshes.generated.js'
import { MintsApi } from './imx/mints.generated.js'
import { NftCheckoutPrimaryApi } from './imx/nft-checkout-primary.generated.js'
import { OrdersApi } from './imx/orders.generated.js'
import { ProjectsApi } from './imx/projects.generated.js'
import { TokensApi } from './imx/tokens.generated.js'
import { TradesApi } from './imx/trades.generated.js'
import { TransfersApi } from './imx/transfers.generated.js'
import { UsersApi } from './imx/users.generated.js'
import { WithdrawalsApi } from './imx/withdrawals.generated.js'

/**
 * The legacy exchange API's clients, as the published `ImxApiClients`
 * (@imtbl/generated-clients 2.14.0): every tag on one configuration.
 *
 * @example
 * ```ts
 * import { ImxApiClients, imxApiConfig } from 'embedded-wallets/api'
 *
 * const clients = new ImxApiClients(imxApiConfig.getSandbox())
 * const { data } = await clients.assetApi.listAssets({ pageSize: 10 })
 * ```
 */
export class ImxApiClients {
  config: ImmutableAPIConfiguration
  assetApi: AssetsApi
  balanceApi: BalancesApi
  collectionApi: CollectionsApi
  depositsApi: DepositsApi
  encodingApi: EncodingApi
  exchangeApi: ExchangesApi
  metadataApi: MetadataApi
  metadataRefreshesApi: MetadataRefreshesApi
  mintsApi: MintsApi
  nftCheckoutPrimaryApi: NftCheckoutPrimaryApi
  ordersApi: OrdersApi
  projectsApi: ProjectsApi
  tokensApi: TokensApi
  tradesApi: TradesApi
  transfersApi: TransfersApi
  usersApi: UsersApi
  withdrawalsApi: WithdrawalsApi

  constructor(config: ImmutableAPIConfiguration) {
    this.config = config
    this.assetApi = new AssetsApi(config)
    this.balanceApi = new BalancesApi(config)
    this.collectionApi = new CollectionsApi(config)
    this.depositsApi = new DepositsApi(config)
    this.encodingApi = new EncodingApi(config)
    this.exchangeApi = new ExchangesApi(config)
    this.metadataApi = new MetadataApi(config)
    this.metadataRefreshesApi = new MetadataRefreshesApi(config)
    this.mintsApi = new MintsApi(config)
    this.nftCheckoutPrimaryApi = new NftCheckoutPrimaryApi(config)
    this.ordersApi = new OrdersApi(config)
    this.projectsApi = new ProjectsApi(config)
    this.tokensApi = new TokensApi(config)
    this.tradesApi = new TradesApi(config)
    this.transfersApi = new TransfersApi(config)
    this.usersApi = new UsersApi(config)
    this.withdrawalsApi = new WithdrawalsApi(config)
  }
}
