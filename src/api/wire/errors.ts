/**
 * The error answers of the platform's HTTP APIs: every refusal is a JSON
 * body `{ code, message, link?, trace_id?, details }` (the OpenAPI spec's
 * `APIError400` … `APIError501`), its `code` one of {@link ApiErrorCode}
 * and its HTTP status the code's {@link apiErrorStatus}.
 */

/** The error codes of the catalogue, by name. */
export const ApiErrorCode = {
  ValidationError: 'VALIDATION_ERROR',
  UnauthorisedRequest: 'UNAUTHORISED_REQUEST',
  AuthenticationError: 'AUTHENTICATION_ERROR',
  ResourceNotFound: 'RESOURCE_NOT_FOUND',
  ConflictError: 'CONFLICT_ERROR',
  TooManyRequestsError: 'TOO_MANY_REQUESTS_ERROR',
  InternalServerError: 'INTERNAL_SERVER_ERROR',
  NotImplementedError: 'NOT_IMPLEMENTED_ERROR',
} as const
export type ApiErrorCode = (typeof ApiErrorCode)[keyof typeof ApiErrorCode]

/** The HTTP status each code is answered with. */
export const apiErrorStatus = {
  VALIDATION_ERROR: 400,
  UNAUTHORISED_REQUEST: 401,
  AUTHENTICATION_ERROR: 403,
  RESOURCE_NOT_FOUND: 404,
  CONFLICT_ERROR: 409,
  TOO_MANY_REQUESTS_ERROR: 429,
  INTERNAL_SERVER_ERROR: 500,
  NOT_IMPLEMENTED_ERROR: 501,
} as const satisfies Record<ApiErrorCode, number>

/** An error answer's body. */
export type ApiErrorBody = {
  /** One of {@link ApiErrorCode} (other codes exist: `SERVICE_UNAVAILABLE` 503 …). */
  code: string
  /** What went wrong, for a developer. */
  message: string
  /** Documentation that may help. */
  link?: string | undefined
  /** The request's trace id. */
  trace_id?: string | undefined
  /** More about the error (e.g. which field), or `null`. */
  details?: unknown
}

/**
 * The catalogue by the kind of refusal, for the services that answer it
 * (the emulated platform): each kind's code and status.
 */
export const apiErrors = {
  validation: { code: ApiErrorCode.ValidationError, status: 400 },
  unauthorised: { code: ApiErrorCode.UnauthorisedRequest, status: 401 },
  authentication: { code: ApiErrorCode.AuthenticationError, status: 403 },
  notFound: { code: ApiErrorCode.ResourceNotFound, status: 404 },
  conflict: { code: ApiErrorCode.ConflictError, status: 409 },
  tooManyRequests: { code: ApiErrorCode.TooManyRequestsError, status: 429 },
  internal: { code: ApiErrorCode.InternalServerError, status: 500 },
  notImplemented: { code: ApiErrorCode.NotImplementedError, status: 501 },
} as const satisfies {
  [kind: string]: {
    [code in ApiErrorCode]: {
      code: code
      status: (typeof apiErrorStatus)[code]
    }
  }[ApiErrorCode]
}
