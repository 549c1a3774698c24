/**
 * The configuration every generated class takes, with the published
 * clients' fields: where to send requests, default request options (their
 * headers above all) and the credentials of the operations that take them.
 */

/** A value, a promise of it, or a function answering either. */
type Provider<value, args extends unknown[]> =
  | value
  | Promise<value>
  | ((...args: args) => value)
  | ((...args: args) => Promise<value>)

/**
 * Request options: headers, an abort signal, a time-out in ms (absent or
 * 0: the fetch helper's 300000 ms, waits for a throttled server included)
 * and extra query parameters. Other keys (options of the published clients' axios) are accepted and
 * ignored.
 */
export type RequestOptions = {
  headers?: Readonly<Record<string, string>> | undefined
  signal?: AbortSignal | undefined
  timeout?: number | undefined
  /**
   * Query parameters beyond the operation's (e.g. the guardian's
   * `includeSimulation`), as axios takes them.
   */
  params?: Readonly<Record<string, unknown>> | undefined
  [option: string]: unknown
}

/** What {@link Configuration} takes. */
export type ConfigurationParameters = {
  /**
   * The API key of the operations that take one (`x-immutable-api-key`): a
   * value, or a function of the header's name answering it.
   */
  apiKey?: Provider<string, [name: string]> | undefined
  /** Unused: no operation takes basic authentication. */
  username?: string | undefined
  /** Unused: no operation takes basic authentication. */
  password?: string | undefined
  /**
   * The access token of the operations that take one (sent as
   * `Authorization: Bearer <token>`): a value, or a function answering it.
   */
  accessToken?: Provider<string, [name?: string, scopes?: string[]]> | undefined
  /** Where requests go; @default the spec's first server */
  basePath?: string | undefined
  /** Options of every request (`headers` above all). */
  baseOptions?: RequestOptions | undefined
  /** Unused: no operation sends form data. */
  formDataCtor?: (new () => unknown) | undefined
}

/**
 * A generated class's configuration.
 *
 * @example
 * ```ts
 * import { mr } from 'embedded-wallets/api'
 *
 * const nfts = new mr.NftsApi(
 *   new mr.Configuration({
 *     basePath: 'http://127.0.0.1:8080',
 *     apiKey: 'sk_…',
 *   }),
 * )
 * ```
 */
export class Configuration {
  /** See {@link ConfigurationParameters.apiKey}. */
  apiKey: ConfigurationParameters['apiKey']
  username: string | undefined
  password: string | undefined
  /** See {@link ConfigurationParameters.accessToken}. */
  accessToken: ConfigurationParameters['accessToken']
  basePath: string | undefined
  baseOptions: RequestOptions | undefined
  formDataCtor: ConfigurationParameters['formDataCtor']

  constructor(param: ConfigurationParameters = {}) {
    this.apiKey = param.apiKey
    this.username = param.username
    this.password = param.password
    this.accessToken = param.accessToken
    this.basePath = param.basePath
    this.baseOptions = param.baseOptions
    this.formDataCtor = param.formDataCtor
  }

  /**
   * Whether `mime` is a JSON media type (`application/json`, with a charset
   * or not, `application/vnd.x+json`, `application/json-patch+json`).
   */
  isJsonMime(mime: string): boolean {
    return (
      mime !== null &&
      (/^(application\/json|[^;/ \t]+\/[^;/ \t]+[+]json)[ \t]*(;.*)?$/i.test(
        mime,
      ) ||
        mime.toLowerCase() === 'application/json-patch+json')
    )
  }
}
