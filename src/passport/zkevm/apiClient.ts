/**
 * The zkEVM provider's platform API clients: the generated classes of the
 * three tags it calls (chains, passport, guardian), each imported from its
 * own module so that the wallet carries no other tag, as the published SDK
 * calls them through its generated multi-rollup client. Registration takes
 * the signed-in player's access token and the guardian the registered
 * player's, each sent as `Authorization: Bearer …` on the operations that
 * take one. Every call goes through the core fetch helper (a 429 retried
 * in throttle slots, a time-out) and an error answer rejects with its
 * `ApiErrors` class, which keeps the API's own `code` and `message`.
 */
import { Configuration } from '../../api/Configuration.js'
import { ChainsApi } from '../../api/mr/chains.generated.js'
import { GuardianApi } from '../../api/mr/guardian.generated.js'
import { PassportApi } from '../../api/mr/passport.generated.js'

/** What the API clients need. */
export type ApiOptions = {
  /** The multi-rollup API base (`indexerMrBasePath`). */
  basePath: string
  /** The signed-in player's access token (registration's calls). */
  getAccessToken: () => Promise<string>
  /** The registered player's access token (the guardian's evaluations). */
  getZkEvmAccessToken: () => Promise<string>
}

/** The clients returned by {@link createApiClient}. */
export type ApiClient = {
  /** `listChains`: the chain names registration needs. */
  readonly chains: ChainsApi
  /** `createCounterfactualAddressV2`: registration. */
  readonly passport: PassportApi
  /** The evaluations of transactions and messages. */
  readonly guardian: GuardianApi
}

/** Creates the API clients. */
export function createApiClient(options: ApiOptions): ApiClient {
  // The route is appended to the base, as the published client does: a
  // trailing slash would double the path's first one.
  const basePath = options.basePath.replace(/\/+$/, '')
  return {
    chains: new ChainsApi(new Configuration({ basePath })),
    passport: new PassportApi(
      new Configuration({ basePath, accessToken: options.getAccessToken }),
    ),
    guardian: new GuardianApi(
      new Configuration({ basePath, accessToken: options.getZkEvmAccessToken }),
    ),
  }
}
