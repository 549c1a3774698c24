/**
 * The errors of the platform API clients:
 *
 * - {@link ApiError}: the server refused the request. One class per code of
 *   the error catalogue (`VALIDATION_ERROR` 400 … `NOT_IMPLEMENTED_ERROR`
 *   501), each with `static code` and `static status`; its `message` is the
 *   server's, its `body` the whole error answer (`code`, `message`, `link`,
 *   `trace_id`, `details`) and its `response` the answer as the published
 *   axios clients reject with it (`error.response.status`,
 *   `error.response.data.code` keep working). {@link fromResponse} is the
 *   one way from an answer to its class.
 * - {@link RequiredError}: a required parameter is missing; nothing is
 *   sent. The published text and `field`, on the JSON-RPC invalid-params
 *   code.
 * - {@link BasePathError}: `createConfig` with an empty base path.
 *
 * @example
 * ```ts
 * import { ApiErrors, mr } from 'embedded-wallets/api'
 *
 * try {
 *   await nfts.getNFT({ chainName, contractAddress, tokenId })
 * } catch (error) {
 *   if (error instanceof ApiErrors.ResourceNotFoundError) return undefined
 *   throw error
 * }
 * ```
 */
import { BaseError } from '../core/Errors.js'
import { InvalidParamsError } from '../core/RpcErrors.js'
import {
  type ApiErrorBody,
  ApiErrorCode,
  apiErrorStatus,
} from './wire/errors.js'

export {
  type ApiErrorBody,
  ApiErrorCode,
  apiErrorStatus,
} from './wire/errors.js'

/** An answer as the clients resolve it (the fields of an axios response dApps read). */
export type ApiResponse<data> = {
  /** The parsed JSON body (the text when it is not JSON, `''` when empty). */
  data: data
  status: number
  statusText: string
  /** The answer's headers, by lower-case name. */
  headers: Record<string, string>
}

/** An error answer of the platform (a non-2xx status). */
export class ApiError extends BaseError {
  override name = 'ApiErrors.ApiError'
  /**
   * The body's `code` as sent (`RESOURCE_NOT_FOUND`, or a route's own code
   * such as `ALREADY_LINKED` on a 409); without one, the catalogue's code
   * of the class, else `HTTP_ERROR`.
   */
  readonly code: string
  /** The HTTP status. */
  readonly status: number
  /** The error answer's body (`{ code, message, link?, trace_id?, details }`), as sent. */
  readonly body: Partial<ApiErrorBody> | undefined
  /** The whole answer, as the published clients' axios error carries it. */
  readonly response: ApiResponse<unknown>

  constructor(response: ApiResponse<unknown>, code?: string | undefined) {
    const body = bodyOf(response.data)
    const message =
      typeof body?.message === 'string' && body.message
        ? body.message
        : `Request failed with status code ${response.status}`
    super(message, {
      details:
        body?.details === undefined || body.details === null
          ? ''
          : JSON.stringify(body.details),
    })
    // The server's text alone: its details stay on `body` and `details`.
    this.message = message
    this.code =
      typeof body?.code === 'string' && body.code
        ? body.code
        : (code ?? 'HTTP_ERROR')
    this.status = response.status
    this.body = body
    this.response = response
  }
}

/** 400 `VALIDATION_ERROR`: the request is malformed or a field is invalid. */
export class ValidationError extends ApiError {
  static readonly code = ApiErrorCode.ValidationError
  static readonly status = apiErrorStatus.VALIDATION_ERROR
  override name = 'ApiErrors.ValidationError'
  constructor(response: ApiResponse<unknown>) {
    super(response, ValidationError.code)
  }
}

/** 401 `UNAUTHORISED_REQUEST`: a credential is missing or not accepted. */
export class UnauthorisedRequestError extends ApiError {
  static readonly code = ApiErrorCode.UnauthorisedRequest
  static readonly status = apiErrorStatus.UNAUTHORISED_REQUEST
  override name = 'ApiErrors.UnauthorisedRequestError'
  constructor(response: ApiResponse<unknown>) {
    super(response, UnauthorisedRequestError.code)
  }
}

/** 403 `AUTHENTICATION_ERROR`: the credential may not do this. */
export class AuthenticationError extends ApiError {
  static readonly code = ApiErrorCode.AuthenticationError
  static readonly status = apiErrorStatus.AUTHENTICATION_ERROR
  override name = 'ApiErrors.AuthenticationError'
  constructor(response: ApiResponse<unknown>) {
    super(response, AuthenticationError.code)
  }
}

/** 404 `RESOURCE_NOT_FOUND`: no such record (or chain). */
export class ResourceNotFoundError extends ApiError {
  static readonly code = ApiErrorCode.ResourceNotFound
  static readonly status = apiErrorStatus.RESOURCE_NOT_FOUND
  override name = 'ApiErrors.ResourceNotFoundError'
  constructor(response: ApiResponse<unknown>) {
    super(response, ResourceNotFoundError.code)
  }
}

/** 409 `CONFLICT_ERROR`: the record exists already, or its state forbids this. */
export class ConflictError extends ApiError {
  static readonly code = ApiErrorCode.ConflictError
  static readonly status = apiErrorStatus.CONFLICT_ERROR
  override name = 'ApiErrors.ConflictError'
  constructor(response: ApiResponse<unknown>) {
    super(response, ConflictError.code)
  }
}

/** 429 `TOO_MANY_REQUESTS_ERROR`: still throttled after the fetch helper's retries. */
export class TooManyRequestsError extends ApiError {
  static readonly code = ApiErrorCode.TooManyRequestsError
  static readonly status = apiErrorStatus.TOO_MANY_REQUESTS_ERROR
  override name = 'ApiErrors.TooManyRequestsError'
  constructor(response: ApiResponse<unknown>) {
    super(response, TooManyRequestsError.code)
  }
}

/** 500 `INTERNAL_SERVER_ERROR`: the server failed. */
export class InternalServerError extends ApiError {
  static readonly code = ApiErrorCode.InternalServerError
  static readonly status = apiErrorStatus.INTERNAL_SERVER_ERROR
  override name = 'ApiErrors.InternalServerError'
  constructor(response: ApiResponse<unknown>) {
    super(response, InternalServerError.code)
  }
}

/** 501 `NOT_IMPLEMENTED_ERROR`: the route exists but does not do this. */
export class NotImplementedError extends ApiError {
  static readonly code = ApiErrorCode.NotImplementedError
  static readonly status = apiErrorStatus.NOT_IMPLEMENTED_ERROR
  override name = 'ApiErrors.NotImplementedError'
  constructor(response: ApiResponse<unknown>) {
    super(response, NotImplementedError.code)
  }
}

type CodedClass = (new (
  response: ApiResponse<unknown>,
) => ApiError) & {
  readonly code: string
  readonly status: number
}

/** The catalogue's classes: made on the first {@link fromResponse}. */
let classes: readonly CodedClass[] | undefined
const codedClasses = (): readonly CodedClass[] => [
  ValidationError,
  UnauthorisedRequestError,
  AuthenticationError,
  ResourceNotFoundError,
  ConflictError,
  TooManyRequestsError,
  InternalServerError,
  NotImplementedError,
]

/**
 * The error of an error answer: the class of its body's `code` when that is
 * a code of the catalogue, else the class of its status's code, else a plain
 * {@link ApiError}. The error's `code` is the body's in every case (e.g.
 * `SERVICE_UNAVAILABLE` on a plain one).
 *
 * @example
 * ```ts
 * import { ApiErrors } from 'embedded-wallets/api'
 *
 * const error = ApiErrors.fromResponse({
 *   data: { code: 'RESOURCE_NOT_FOUND', message: 'NFT not found', details: null },
 *   status: 404,
 *   statusText: 'Not Found',
 *   headers: {},
 * })
 * error instanceof ApiErrors.ResourceNotFoundError // true
 * error.message // 'NFT not found'
 * ```
 */
export function fromResponse(response: ApiResponse<unknown>): ApiError {
  classes ??= codedClasses()
  const code = bodyOf(response.data)?.code
  const type =
    classes.find((type) => type.code === code) ??
    classes.find((type) => type.status === response.status)
  return type ? new type(response) : new ApiError(response)
}

/** The body as an error body, when it is an object. */
function bodyOf(data: unknown): Partial<ApiErrorBody> | undefined {
  return typeof data === 'object' && data !== null && !Array.isArray(data)
    ? (data as Partial<ApiErrorBody>)
    : undefined
}

/**
 * A required parameter of an operation is missing (`null` or `undefined`);
 * nothing was sent. The published clients' class name, text and `field`.
 */
export class RequiredError extends InvalidParamsError {
  override name = 'RequiredError'
  /** The missing field of the request-parameters object. */
  readonly field: string
  constructor(field: string, operation: string) {
    super({
      message: `Required parameter ${field} was null or undefined when calling ${operation}.`,
    })
    this.field = field
  }
}

/** `createConfig` was given an empty base path. The published text. */
export class BasePathError extends InvalidParamsError {
  override name = 'ApiErrors.BasePathError'
  constructor() {
    super({ message: 'basePath can not be empty' })
  }
}
