/**
 * The platform API calls of the zkEVM provider: the chain list, the
 * counterfactual address (registration) and the guardian's evaluations,
 * each with the player's access token, as the published SDK sends them.
 */
import * as Http from '../../core/Http.js'
import * as Api from '../wire/api.js'

/** What the API client needs. */
export type ApiOptions = {
  /** The multi-rollup API base (`indexerMrBasePath`). */
  basePath: string
  getAccessToken: () => Promise<string>
}

/** The client returned by {@link createApiClient}. */
export type ApiClient = ReturnType<typeof createApiClient>

/** Creates the API client. */
export function createApiClient(options: ApiOptions) {
  const base = options.basePath.replace(/\/$/, '')
  async function post<result>(path: string, body: unknown) {
    const token = await options.getAccessToken()
    return Http.json<result>(`${base}${path}`, {
      body,
      headers: { Authorization: `Bearer ${token}` },
    })
  }
  return {
    /** `GET /v1/chains`. */
    async chains(): Promise<Api.ChainRecord[]> {
      const token = await options.getAccessToken()
      const answer = await Http.json<Api.ChainsResponse>(
        `${base}${Api.paths.chains}`,
        { headers: { Authorization: `Bearer ${token}` } },
      )
      return answer?.result ?? []
    },
    /** Registers the player's wallet; resolves its address. */
    counterfactualAddress(
      chainName: string,
      body: Api.CounterfactualAddressRequest,
    ) {
      return post<Api.CounterfactualAddressResponse>(
        Api.counterfactualAddressPath(chainName),
        body,
      )
    },
    evaluateTransaction(body: Api.EvaluateTransactionRequest) {
      return post<Api.EvaluateTransactionResponse>(
        Api.paths.evaluateTransaction,
        body,
      )
    },
    evaluateMessage(body: Api.EvaluateMessageRequest) {
      return post<Api.EvaluateMessageResponse>(Api.paths.evaluateMessage, body)
    },
    evaluateErc191Message(body: Api.EvaluateErc191MessageRequest) {
      return post<Api.EvaluateMessageResponse>(
        Api.paths.evaluateErc191Message,
        body,
      )
    },
  }
}
