/**
 * The base of every generated class: turns one operation of the wire's
 * tables and one request-parameters object into one request, sends it with
 * the core fetch helper ({@link Http.request}: 429 throttling, a time-out)
 * and answers `{ data, status, statusText, headers }`, or throws the
 * {@link ApiErrors} class of an error answer.
 *
 * A request, as the published clients build it:
 * - every required parameter present, else {@link ApiErrors.RequiredError}
 *   for the first one missing (nothing is sent);
 * - the path's `{name}`s replaced by their URI-encoded values; query
 *   parameters in order, an array as repeated keys, an object as dotted
 *   keys, a `Date` as its ISO timestamp, `null` and `undefined` left out;
 *   then `options.params` (else `baseOptions.params`), the same way;
 * - headers, each later group overriding the one before: `x-sdk-version`;
 *   the operation's credentials from the configuration (its API key,
 *   its access token as `Bearer`); header parameters; `Content-Type:
 *   application/json` with a body; the configuration's `baseOptions.headers`;
 *   the call's `options.headers`;
 * - the body as JSON (a string is sent as it is; an absent optional body as
 *   `{}`).
 */
import * as Http from '../core/Http.js'
import type { ApiResponse } from './ApiErrors.js'
import * as ApiErrors from './ApiErrors.js'
import type { Configuration, RequestOptions } from './Configuration.js'
import {
  apiKeyHeader,
  authorizationHeader,
  sdkVersion,
  sdkVersionHeader,
} from './wire/headers.js'
import type { Operation } from './wire/operation.js'

export type { ApiResponse } from './ApiErrors.js'
export type { RequestOptions } from './Configuration.js'

/** The fetch a class sends with (`globalThis.fetch` by default). */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>

/** The base class of the generated classes. */
export class BaseAPI {
  /** Where requests go: the configuration's `basePath`, else the constructor's. */
  protected basePath: string
  protected configuration: Configuration | undefined
  /** The fetch to send with (tests inject one). */
  protected fetch: Fetch | undefined

  constructor(
    configuration?: Configuration | undefined,
    basePath = '',
    fetch?: Fetch | undefined,
  ) {
    this.basePath = basePath
    this.configuration = configuration
    if (configuration) this.basePath = configuration.basePath || this.basePath
    this.fetch = fetch
  }

  /** Sends `operation` with `parameters` (see the module's documentation). */
  protected async send<data>(
    operation: Operation,
    parameters: object | undefined,
    options: RequestOptions = {},
  ): Promise<ApiResponse<data>> {
    const { url, init } = await buildRequest(
      operation,
      parameters,
      this.configuration,
      this.basePath,
      options,
    )
    const base = this.configuration?.baseOptions
    const timeout = options.timeout || base?.timeout || undefined
    const response = await Http.request(url, init, {
      ...(this.fetch
        ? { fetch: this.fetch as Http.request.Options['fetch'] }
        : {}),
      ...(timeout ? { timeout } : {}),
    })
    const result = await read<data>(response)
    if (!response.ok) throw ApiErrors.fromResponse(result)
    return result
  }
}

/**
 * The URL and fetch options of one call: see the module's documentation.
 * Throws {@link ApiErrors.RequiredError} when a required parameter is
 * missing.
 */
export async function buildRequest(
  operation: Operation,
  parameters: object | undefined,
  configuration: Configuration | undefined,
  basePath: string,
  options: RequestOptions = {},
): Promise<{ url: string; init: RequestInit }> {
  const values = (parameters ?? {}) as Readonly<Record<string, unknown>>
  for (const parameter of operation.parameters)
    if (parameter.required && values[parameter.name] == null)
      throw new ApiErrors.RequiredError(parameter.name, operation.id)

  let path = operation.path
  const query = new URLSearchParams()
  const headers = new Headers({ [sdkVersionHeader]: sdkVersion })
  const { apiKey, accessToken } = configuration ?? {}
  if (apiKey && operation.credentials.includes('apiKey'))
    headers.set(
      apiKeyHeader,
      typeof apiKey === 'function' ? await apiKey(apiKeyHeader) : await apiKey,
    )
  if (accessToken && operation.credentials.includes('bearer'))
    headers.set(
      authorizationHeader,
      `Bearer ${typeof accessToken === 'function' ? await accessToken() : await accessToken}`,
    )
  let body: string | undefined
  for (const parameter of operation.parameters) {
    const value = values[parameter.name]
    const key = parameter.key ?? parameter.name
    if (parameter.in === 'body') {
      headers.set('Content-Type', 'application/json')
      body =
        typeof value === 'string'
          ? value
          : JSON.stringify(value === undefined ? {} : value)
    } else if (value == null) continue
    else if (parameter.in === 'path')
      path = path.replaceAll(`{${key}}`, encodeURIComponent(scalar(value)))
    else if (parameter.in === 'query') appendQuery(query, key, value)
    else headers.set(key, scalar(value))
  }
  // Query parameters the spec does not declare (the guardian's
  // `includeSimulation`): the published clients' axios appends
  // `options.params`, whose object replaces `baseOptions.params`.
  const params = options.params ?? configuration?.baseOptions?.params
  if (params && typeof params === 'object') appendQuery(query, '', params)
  for (const extra of [configuration?.baseOptions?.headers, options.headers])
    for (const [name, value] of Object.entries(extra ?? {}))
      headers.set(name, value)

  const search = query.toString()
  const signal = options.signal ?? configuration?.baseOptions?.signal
  return {
    url: `${basePath}${path}${search ? `?${search}` : ''}`,
    init: {
      method: operation.method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(signal ? { signal } : {}),
    },
  }
}

/** A path or header value as text: a `Date` as its ISO timestamp. */
function scalar(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value)
}

/**
 * Adds `value` under `key`: an array as one entry per item, an object as
 * one per field (`key.field`), `null` and `undefined` not at all.
 */
function appendQuery(query: URLSearchParams, key: string, value: unknown) {
  if (value == null) return
  if (Array.isArray(value))
    for (const item of value) appendQuery(query, key, item)
  else if (typeof value === 'object' && !(value instanceof Date))
    for (const [field, item] of Object.entries(value))
      appendQuery(query, key ? `${key}.${field}` : field, item)
  else query.append(key, scalar(value))
}

/** The answer with its body parsed: JSON when it is, else its text. */
async function read<data>(response: Response): Promise<ApiResponse<data>> {
  const text = await response.text()
  let data: unknown = text
  if (text)
    try {
      data = JSON.parse(text)
    } catch {
      // Not JSON: the text, as the published clients' axios leaves it.
    }
  return {
    data: data as data,
    status: response.status,
    statusText: response.statusText,
    headers: Object.fromEntries(response.headers),
  }
}
