/**
 * The StarkEx layer's clients: the legacy exchange API (the generated
 * classes of the five tags the layer calls, named as `ImxApiClients` names
 * them, on one configuration at `imxPublicApiDomain` with the SDK version
 * header, as the published layer's `ImxApiClients`; each class is imported
 * from its own module so that the layer carries no other tag), the
 * guardian of the platform API, and the exchange's record of an address
 * that the Stark key derivation consults.
 */
import { ApiError } from '../../api/ApiErrors.js'
import { createConfig } from '../../api/config.js'
import type { ImxApiClients } from '../../api/ImxApiClients.js'
import { ExchangesApi } from '../../api/imx/exchanges.generated.js'
import { OrdersApi } from '../../api/imx/orders.generated.js'
import { TradesApi } from '../../api/imx/trades.generated.js'
import { TransfersApi } from '../../api/imx/transfers.generated.js'
import { UsersApi } from '../../api/imx/users.generated.js'
import { GuardianApi } from '../../api/mr/guardian.generated.js'
import type { StarkKeyLookup } from './starkSigner.js'

/** The legacy exchange API's classes the StarkEx layer calls. */
export type ExchangeClients = Pick<
  ImxApiClients,
  'usersApi' | 'transfersApi' | 'ordersApi' | 'tradesApi' | 'exchangeApi'
>

/** The legacy exchange API at `basePath` (`imxPublicApiDomain`). */
export function createExchangeClients(basePath: string): ExchangeClients {
  // Routes are appended to the base: a trailing slash would double one.
  const config = createConfig({ basePath: basePath.replace(/\/+$/, '') })
  return {
    usersApi: new UsersApi(config),
    transfersApi: new TransfersApi(config),
    ordersApi: new OrdersApi(config),
    tradesApi: new TradesApi(config),
    exchangeApi: new ExchangesApi(config),
  }
}

/** The guardian at `basePath` (`passportMrBasePath`), with the player's token. */
export function createGuardianClient(
  basePath: string,
  getAccessToken: () => Promise<string>,
): GuardianApi {
  const config = createConfig({ basePath: basePath.replace(/\/+$/, '') })
  config.accessToken = getAccessToken
  return new GuardianApi(config)
}

/**
 * `GET /v1/users/{address}` as the Stark key derivation asks it: the first
 * registered Stark key, `undefined` when the exchange answers
 * `account_not_found` (x-client reads that body code). An empty list or
 * any other failure rejects.
 */
export function starkKeyLookup(users: UsersApi): StarkKeyLookup {
  return async (address) => {
    try {
      const { data } = await users.getUsers({ user: address })
      const [key] = data.accounts ?? []
      if (!key)
        throw new Error(`The exchange lists no Stark key for ${address}.`)
      return key
    } catch (error) {
      if (error instanceof ApiError && error.code === 'account_not_found')
        return undefined
      throw error
    }
  }
}
