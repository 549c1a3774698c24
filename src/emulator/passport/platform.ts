/**
 * What every backend behind the platform API's one origin (the passport
 * routes, the indexer, mint requests, the order book) answers the same
 * way: a refusal's body and the secret API key's check. A route of the
 * hosted API does not tell by its wording which team wrote it, and a
 * dApp's error handling should not have to either.
 *
 * @packageDocumentation
 */
import { timingSafeEqual } from 'node:crypto'
import type { Env, Hono, Context as HonoContext } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { apiErrors } from '../../api/wire/errors.js'
import { apiKeyHeader } from '../../api/wire/headers.js'
import { platformApiKey } from '../constants.js'

/** One of the API's error kinds (`validation`, `notFound`, …). */
export type ErrorKind = keyof typeof apiErrors

/**
 * A refusal's body, as the OpenAPI error schemas (`APIError400` and the
 * others) give it: the code, a one-line message, and `details`, which the
 * schemas require and allow to be null. The emulator has no documentation
 * `link` or request `trace_id` to give (both optional).
 */
export type ErrorBody = {
  code: string
  message: string
  details: Record<string, unknown> | null
}

/** The error body of `code` (an {@link ErrorKind}'s, or a route's own) and `message`. */
export function errorBody(
  code: string,
  message: string,
  details: Record<string, unknown> | null = null,
): ErrorBody {
  return { code, message, details }
}

/** The body and status of a refusal of `kind`. */
export function refusal(
  kind: ErrorKind,
  message: string,
  details: Record<string, unknown> | null = null,
): { body: ErrorBody; status: (typeof apiErrors)[ErrorKind]['status'] } {
  const { code, status } = apiErrors[kind]
  return { body: errorBody(code, message, details), status }
}

/**
 * Answers a refusal of `kind` with its status: its code (or a route's own
 * `code`) and `message`.
 */
export function fail(
  c: HonoContext,
  kind: ErrorKind,
  message: string,
  code: string = apiErrors[kind].code,
) {
  return c.json(errorBody(code, message), apiErrors[kind].status)
}

/**
 * Makes `app` answer like the platform's APIs where no route does: a
 * request nothing handles is a 404 naming the method and path, and an
 * error a route did not catch is a 4xx in the one error body (400 unless
 * it is a client error of its own), never a 500.
 */
export function answerAsPlatform<env extends Env>(app: Hono<env>): Hono<env> {
  app.onError((error, c) => {
    const status =
      error instanceof HTTPException && error.status < 500 ? error.status : 400
    return c.json(
      errorBody(
        status === 404 ? 'RESOURCE_NOT_FOUND' : 'VALIDATION_ERROR',
        'The request could not be handled.',
      ),
      status,
    )
  })
  app.notFound((c) =>
    c.json(
      errorBody(
        'RESOURCE_NOT_FOUND',
        `No route ${c.req.method} ${new URL(c.req.url).pathname}.`,
      ),
      404,
    ),
  )
  return app
}

const expectedKey = Buffer.from(platformApiKey)

/**
 * Why a request's `x-immutable-api-key` (`sent`, the header's value) does
 * not let it through, or `undefined` when it is the platform's key. The
 * comparison takes the same time wherever the keys differ.
 */
export function apiKeyRefusal(sent: string | undefined): string | undefined {
  if (sent === undefined)
    return `The ${apiKeyHeader} header is required: the platform's secret API key.`
  const given = Buffer.from(sent)
  if (
    given.length === expectedKey.length &&
    timingSafeEqual(given, expectedKey)
  )
    return undefined
  return `The ${apiKeyHeader} header is not this platform's API key.`
}
