/**
 * The platform API calls of the zkEVM provider: the chain list, the
 * counterfactual address (registration) and the guardian's evaluations,
 * each with the player's access token, as the published SDK sends them.
 * An error answer becomes an {@link ApiResponseError} with the API's own
 * `{ code, message }`, so that what reaches the player is the API's text,
 * never its raw body.
 */
import { BaseError } from '../../core/Errors.js'
import * as Http from '../../core/Http.js'
import * as Api from '../wire/api.js'

/**
 * An error answer of the platform API: its HTTP status and, when its body
 * is the API's error object, its `code` (e.g. `AUTHENTICATION_ERROR` for a
 * 403) and `message`. The raw answer stays on the cause.
 */
export class ApiResponseError extends BaseError<Http.HttpError> {
  override readonly name = 'Api.ApiResponseError'
  /** The HTTP status. */
  readonly status: number
  /** The API's error code, when the body carried one. */
  readonly apiCode: string | undefined
  constructor(cause: Http.HttpError) {
    const body = errorBody(cause.text)
    // The message is the API's own text; the raw body is only on the cause.
    super(body?.message ?? cause.shortMessage, { cause, details: '' })
    this.status = cause.status
    this.apiCode = body?.code
  }
}

/** The API's error object in a body, if that is what it is. */
function errorBody(text: string): Partial<Api.ApiError> | undefined {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown }
    if (typeof body?.message !== 'string') return undefined
    return {
      message: body.message,
      ...(typeof body.code === 'string' ? { code: body.code } : {}),
    }
  } catch {
    return undefined
  }
}

/** `Http.json`, with the API's error answers as {@link ApiResponseError}. */
async function request<result>(
  url: string,
  options: Http.json.Options,
): Promise<result> {
  try {
    return await Http.json<result>(url, options)
  } catch (error) {
    if (error instanceof Http.HttpError) throw new ApiResponseError(error)
    throw error
  }
}

/** What the API client needs. */
export type ApiOptions = {
  /** The multi-rollup API base (`indexerMrBasePath`). */
  basePath: string
  /** The signed-in player's access token (registration's calls). */
  getAccessToken: () => Promise<string>
  /** The registered player's access token (the guardian's evaluations). */
  getZkEvmAccessToken: () => Promise<string>
}

/** The client returned by {@link createApiClient}. */
export type ApiClient = ReturnType<typeof createApiClient>

/** Creates the API client. */
export function createApiClient(options: ApiOptions) {
  const base = options.basePath.replace(/\/$/, '')
  async function post<result>(
    path: string,
    body: unknown,
    getToken = options.getAccessToken,
  ) {
    const token = await getToken()
    return request<result>(`${base}${path}`, {
      body,
      headers: { Authorization: `Bearer ${token}` },
    })
  }
  return {
    /** `GET /v1/chains`. */
    async chains(): Promise<Api.ChainRecord[]> {
      const token = await options.getAccessToken()
      const answer = await request<Api.ChainsResponse>(
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
        options.getZkEvmAccessToken,
      )
    },
    evaluateMessage(body: Api.EvaluateMessageRequest) {
      return post<Api.EvaluateMessageResponse>(
        Api.paths.evaluateMessage,
        body,
        options.getZkEvmAccessToken,
      )
    },
    evaluateErc191Message(body: Api.EvaluateErc191MessageRequest) {
      return post<Api.EvaluateMessageResponse>(
        Api.paths.evaluateErc191Message,
        body,
        options.getZkEvmAccessToken,
      )
    },
  }
}
